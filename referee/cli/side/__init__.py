"""The side tables: Tarot Scum, the Weir's Wager and the Card of Fate (its characters, runs
and duels), with what their commands share."""

"""The table of contents of `referee --help`, stored: each panel of commands in its order,
with the first paragraph of each command's help (``referee.cli.main.panels`` of the whole
tree). Kept as data so that `referee --help` imports no module of commands.

Generated: regenerate it after changing a command's first line or panel with

    python -m referee.cli.help.reference --contents > referee/cli/help/contents.py

(``tests/cli/test_tree.py`` fails while it and the registered commands disagree).
"""

from __future__ import annotations

#: (panel, ((command, the first paragraph of its help), ...)), as `referee --help` lists them.
Panels = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]

PANELS: Panels = (
    ("Setup", (
        ("new", "Open an evening: the Fool, the seats, ten chips each, the bottled souls."),
        ("demo",
         "Play a scripted evening through the same commands a GM types, then print the report."),
        ("shell",
         "A prompt for the whole night: every command without `referee`, with history and Tab."),
        ("scenario ...", "Scenarios: validate a custom scenario, show the souls and powers."),
    )),
    ("At the table", (
        ("hand ...",
         "The hand: start, show up cards, showdown; rulings: rank, compare, first, categories, "
         "odds."),
    )),
    ("Betting", (
        ("bet", "NAME (or the player to act) opens the round's betting with N chips (R12, R13)."),
        ("raise",
         "NAME (or the player to act) raises by N over the bet (three raises a round when "
         "limit)."),
        ("call",
         "NAME (or the player to act) calls the bet; for more than they hold, all-in (R14)."),
        ("check", "NAME (or the player to act) checks: nothing to call."),
        ("fold", "NAME (or the player to act) folds and is out of this hand."),
        ("open-phase", "The Fool declares the open phase: antes, bets and raises at will (R13)."),
    )),
    ("Chips and seats", (
        ("rise", "NAME rises from the table: keeps their chips, dealt out until they sit (R17)."),
        ("sit", "NAME sits at the table again and is dealt into the next hand (R17)."),
        ("resign", "NAME, whose side holds no chips, resigns for good (R17)."),
        ("count",
         "Count the chips in front of people and in the pot against the books, colour by "
         "colour: each difference is named with the moves that last touched it, and the count "
         "is recorded (E130). Nothing is corrected: `chips settle ... --why` is the ruling "
         "(E132)."),
        ("chips ...", "Chips away from the table (R16)."),
    )),
    ("Souls, Charges, powers", (
        ("soul ...", "Bottled souls and own souls: study, guess, sell, trade (R19-R24)."),
        ("charge ...", "Charges between sides, away from the table (R25)."),
        ("power ...", "Powers of the Major Arcana: access, use, list, show (R26)."),
    )),
    ("Status", (
        ("status", "Chips by colour per person, dollars, the pot, whose turn, the clock."),
        ("points",
         "Arcana status points per person per Arcanum, and where each came from (R27). A held "
         "soul's points stand under \"?\" while nobody has found its Arcanum (E43)."),
        ("promotions",
         "Every promotion claim that would succeed now, vacant or contested (R28); one that a "
         "soul's secret Arcanum takes part in only with --reveal (E43)."),
        ("report", "The evening's status: money, souls, Arcana status and the highlights."),
        ("handout",
         "ASSISTANT's clue sheet: the clues they studied and their guesses, nothing else."),
        ("watch",
         "The table for the players' screen: stacks, pots, whose turn, the clock. No secrets."),
        ("serve", "The table page for the projector and the assistants' phones, until Ctrl-C."),
        ("links",
         "Each assistant's link to their sheet on `referee serve`, and the station token (E67)."),
        ("room ...",
         "The room's wall (the projector's page) and clock: blank it, show the table, announce, "
         "a break, pause and resume the clock, sound (E82, R47)."),
        ("requests ...",
         "What the assistants asked from their phones (R46): list, accept, decline. `ok N` / "
         "`no N REASON` at the shell's prompt."),
    )),
    ("Between evenings", (
        ("end",
         "The Fool declares the evening's end, between hands; the ceremony follows (R40, E100)."),
        ("next",
         "Start the next evening in NEW.json from this one, its ceremony closed (R41, R42)."),
        ("season",
         "Standings across evenings, and across the tables of one event (R43): per person the "
         "evenings played, money won, the Arcanum after each ceremony, souls held and lost, "
         "promotions and status points earned; --html with charts of the money and the roster."),
        ("ceremony ...",
         "The promotion ceremony once the evening has ended (R40); alone, the claims that would "
         "succeed now, in the Fool's order."),
    )),
    ("The log", (
        ("undo", "Take back the last command (whole), keeping it in the log of undone commands."),
        ("redo", "Bring back the last undone command, if nothing was done since."),
        ("log",
         "The whole evening, command by command, oldest first; filter by person, soul or hand."),
        ("verify",
         "Check the evening file: every sealed segment's bytes, the hash chain, the snapshots."),
        ("amend",
         "Replace past command SEQ (a wrong card, a forgotten up card, a misheard bet) and "
         "replay everything after it: lists every outcome that changes (openers, pots and who "
         "won them, points, promotions). A later command that no longer applies is named, with "
         "the ways on: replace it too (`-- 5 -- bet Ada`), drop it (`--drop 5`), or undo back "
         "and retype. Only --yes records it; the log keeps both versions (E138, E140)."),
    )),
    ("Side tables", (
        ("scum ...",
         "Tarot Scum side table: roles and deals, the hand move by move, scores over a match "
         "(R29-R31)."),
        ("wager ...",
         "Weir's Wager side table: hand rulings under an Elixir and the race to 999 (R32-R34)."),
    )),
    ("Away from the table", (
        ("fate ...",
         "Card of Fate: characters, tests, fights, duels, drinking and healing (R35-R37)."),
    )),
    ("The rulebook", (
        ("rules",
         "Read rulings aloud: by id (R16 E3), found by words (ante), or all ids and titles."),
        ("card",
         "The players' reference card: the hands high to low, Duets, betting, the Fool, powers."),
    )),
)

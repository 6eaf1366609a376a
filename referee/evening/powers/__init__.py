"""The powers of the Major Arcana (R26, S11-S30), in one package:

- ``use``: the GM's requests, ``power access`` and ``power use``, as events (the bets a use
  makes as data);
- ``timing``: the moment each power may be used (S11-S16);
- ``building``: one use being built (what the GM gave, what the betting says now);
- ``kinds``: every kind of effect declared once, its builder and its fold side by side;
- ``effects``: how a recorded use changes the evening (the fold);
- ``constraints``: what the powers in force impose on the betting, the showdown and the souls.

The betting (``referee.evening.betting``) reads the powers only through ``constraints``, and
the powers read the betting only through what ``betting.now`` hands a use (``TableNow``): the
package sits below the betting machine. A use meets the betting in one module above both,
``referee.evening.power_moves``.
"""

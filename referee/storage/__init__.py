"""The evening on disk: the middle floor between the pure core and everything that shows it.

- ``store``: the event log (``open_evening``, ``Evening``): TinyDB with an atomic storage, the
  snapshot, sealed segments, undo and redo.
- ``files``: the file mechanics under it: atomic writes, backups, the lock, leftovers.
- ``chain``: the hash chain of the events and the check of a stored state.
- ``audit``: ``verify``, and what a sound verify remembers.
- ``answers``: whether a recorded command's answer was shown (E41).

Nothing here knows the rules; ``referee.evening`` and ``referee.rules`` never import it.
"""

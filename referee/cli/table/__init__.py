"""The evening at the table: its setup and status, the betting moves, chips and seats, the hand
(start, show, fix, showdown, its rulings, equity and history), the count of what lies on the
table, and the log's commands (undo, redo, verify, amend)."""

"""How the evening is drawn: its status, announcements and log with rich, the console's tables
(the same lines with rich or without it), and what a dry run would record and change."""

"""Help on the commands: the table of contents `referee --help` prints (stored, so that it
imports no module of commands) and the generated reference of every command (docs/cli.md)."""

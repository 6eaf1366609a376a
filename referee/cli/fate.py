"""`referee fate`: placeholder group, filled in by its own issue."""

from __future__ import annotations

import typer

app = typer.Typer(help="(in progress)", no_args_is_help=True)

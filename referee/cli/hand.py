"""`referee hand`: rulings that need no evening (rank, compare, first, categories)."""

from __future__ import annotations

import typer

app = typer.Typer(help="Hand rulings: rank, compare, who bets first, categories.", no_args_is_help=True)

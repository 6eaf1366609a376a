"""Option types that the commands of several groups share.

Here, not in one group's module, so that a group imports no other group's module for them:
a command line loads its own group's module alone (``referee.cli.main.TREE``), and what that
module imports at its top is what its commands need.
"""

from typing import Annotated

import typer

#: ``--json`` of the commands that print a table.
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]

"""`referee serve` and `referee links`: the table page for the projector, the assistants'
phones, a second station, and the links to them.

The module imports what both commands use (the players' view, the links' keys); the HTTP
server (``referee.serve.server``, on uvicorn) and the QR codes (segno) only where `serve` and
--qr use them.
"""

from __future__ import annotations

import io
import os
import signal
import sys
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NotRequired, TypedDict
from urllib.parse import urlsplit

import typer

from referee.cli import runner
from referee.cli.context import current, db_path
from referee.cli.printing import emit_json, lit, say
from referee.cli.suggest import told
from referee.errors import BadInput
from referee.serve import players
from referee.serve.access import DEFAULT_PORT, ensure_access, is_loopback, lan_address, local_url

if TYPE_CHECKING:
    from referee.serve.access import Access

#: Explicit colours for a QR code in a terminal (E70): black modules on a white ground on a
#: light terminal and a dark one alike, never "the text colour on the terminal's ground".
_FG = {True: "30", False: "97"}  # dark module: black; light: bright white
_BG = {True: "40", False: "107"}


def qr_text(link: str, *, colour: bool = True) -> str:
    """``link`` as a QR code drawn with half blocks for the terminal (E70).

    Each character is two modules, the upper half in the foreground colour and the lower in
    the background colour, both set explicitly (black and white), with the standard quiet
    zone of four modules, so the code scans on light and dark terminals alike. Without
    ``colour`` (NO_COLOR) the blocks are drawn in the terminal's own colours.
    """
    import segno  # a QR code only (--qr)

    code = segno.make(link, error="m")
    if not colour:
        out = io.StringIO()
        code.terminal(out=out, compact=True, border=4)
        return out.getvalue()
    rows = [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=4)]
    lines = []
    for top, bottom in zip_longest(rows[0::2], rows[1::2], fillvalue=[False] * len(rows[0])):
        cells, last = [], None
        for up, down in zip(top, bottom, strict=True):
            pair = (up, down)
            if pair != last:
                cells.append(f"\x1b[{_FG[up]};{_BG[down]}m")
                last = pair
            cells.append("\u2580")  # upper half block
        lines.append("".join(cells) + "\x1b[0m")
    return "\n".join(lines) + "\n"


def _colour() -> bool:
    """Colours only on a terminal that takes them (E70): into a pipe, a file or a station's
    answer the colours are stripped, and a code drawn in colours alone would be left a solid
    block; there it is drawn in the characters themselves (a dark terminal's way round)."""
    return not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def loopback_note(base: str, what: str = "These links point") -> str | None:
    """What to say when links would point at this machine only (E70), else None: how to get
    the room's address into them instead."""
    if not base or not is_loopback(base):
        return None
    address = lan_address()
    port = urlsplit(base).port or DEFAULT_PORT
    room = f"http://{address}:{port}" if address else "http://ADDRESS:PORT"
    return (f"{what} at {base}, which only this machine opens, never a phone: run `referee "
            f"serve --lan` (it keeps the room's address for the links), or give --url {room} "
            "(E70).")


def server_bug(text: str) -> None:
    """A bug of the server's own, on the terminal it was started from (never into the answer
    of a station command being captured at that moment)."""
    print(text.rstrip("\n"), file=sys.__stderr__)


def serve(
    port: Annotated[int, typer.Option("--port", metavar="PORT", min=0, max=65535,
                                      help="The port (0: any free one).")] = 8765,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on every interface, for phones on the room's network "
                      "(default: this machine only).")] = False,
    station: Annotated[bool, typer.Option(
        "--station", help="Also take commands from a second laptop with the station token.")
    ] = False,
    new_tokens: Annotated[bool, typer.Option(
        "--new-tokens", help="Replace every assistant's link and the station token.")] = False,
    links: Annotated[bool, typer.Option(
        "--links", help="Print each assistant's link and the station token (not by default: "
                        "the serving screen is often the projector's).")] = False,
    qr: Annotated[bool, typer.Option(
        "--qr", help="Print each assistant's link, also as a QR code.")] = False,
    tls: Annotated[tuple[Path, Path] | None, typer.Option(
        "--tls", metavar="CERT KEY",
        help="Serve HTTPS with this certificate and private key (PEM files).")] = None,
    season: Annotated[bool, typer.Option(
        "--season", help="Between evenings, also show the season's standings: the chain of "
                         "evenings back from this one (R43, E111).")] = False,
) -> None:
    """The table page for the projector and the assistants' phones, until Ctrl-C.

    Links and the station token are printed only when asked (--links, --qr), or by
    `referee links` in another terminal (E67).
    """
    from referee.serve.server import make_server  # serve only: uvicorn and asyncio

    path = db_path()
    state = players.load_state(path)  # no evening: one line, exit 2
    from referee.cli.room.station import run_remote

    server = make_server(path, "0.0.0.0" if lan else "127.0.0.1", port,
                         station=run_remote if station else None, bug=server_bug, tls=tls,
                         season=season, told=told)
    bound = server.server_address[1]
    scheme = "https" if tls else "http"
    address = lan_address() if lan else None
    base = local_url(bound, address or "127.0.0.1", scheme=scheme)
    access = ensure_access(path, state.assistants, renew=new_tokens, url=base,
                           dry=current().dry_run)
    signal.signal(signal.SIGTERM, _stop)
    try:
        _say_serving(path, base, local_url(bound, scheme=scheme) if address else None,
                     lan=lan, station=station, tls=tls is not None)
        _say_links(access, base, state.assistants, shown=links or qr, qr=qr, station=station)
        if station:
            # A server runs all night: every command built now, not on its first line.
            list(runner.root_command().commands.values())
        server.serve_forever()  # until Ctrl-C or `kill`
        say("Stopped.")
    except KeyboardInterrupt:
        say("Stopped.")
    finally:
        server.server_close()


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # `kill` stops the server as Ctrl-C does


def _say_links(access: Access, base: str, names: list[str], *, shown: bool, qr: bool,
               station: bool) -> None:
    """The links and the station token when asked, else where to find them (E67)."""
    if shown:
        _print_links(access, base, names, qr=qr, station=station)
    else:
        say(f"  links        `referee links` in another terminal prints the "
            f"{len(names)} links" + (" and the station token" if station else ""))


def _say_serving(path: Path, base: str, also: str | None, *, lan: bool, station: bool,
                 tls: bool) -> None:
    """Where the table page is served (``also``: this machine's own address of it, when the
    room's was found), and what the room's network can read (E67)."""
    say(f"Serving {lit(path)} (Ctrl-C stops):")
    say(f"  table page   {base}/")
    if lan and also:
        say(f"  on this machine also {also}/")
    elif lan:
        say("  (no LAN address found: only this machine can reach it)")
    if lan and station and not tls:
        say("  unencrypted  anyone on the room's network can read the tokens; `--tls CERT "
            "KEY` hides them (E67)")


def _print_links(access: Access, base: str, names: list[str], *, qr: bool,
                 station: bool) -> None:
    for name in names:
        say(f"  {lit(name):<12} {lit(access.link(name, base))}")
        if qr:
            typer.echo(qr_text(access.link(name, base), colour=_colour()))
    if station:
        say(f"  station      referee --station {lit(base)} --token {access.station} "
            "COMMAND ...")
        remote = f"{base}/gm#{access.station}"  # E220: the remote, for the GM's phone
        say(f"  remote       {lit(remote)}  (with `serve --station`)")
        if qr:
            typer.echo(qr_text(remote, colour=_colour()))
    note = loopback_note(base)
    if note:
        say(lit(note))


def links(
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME]", help="One assistant (default: every assistant, and the station "
        "token).", show_default=False)] = None,
    url: Annotated[str | None, typer.Option(
        "--url", help="Where `referee serve` runs (default: where it last said).")] = None,
    qr: Annotated[bool, typer.Option("--qr", help="Also draw each link as a QR code.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead.")] = False,
) -> None:
    """Each assistant's link to their sheet on `referee serve`, and the station token (E67).

    Made at once for an assistant who has none; the same links every time until a new evening
    or `serve --new-tokens` replaces them (E66).
    """
    path = db_path()
    state = players.load_state(path)
    if url is not None and not url.startswith(("http://", "https://")):

        raise BadInput(f"--url takes the address `referee serve` printed, like "
                       f"http://192.168.1.20:8765, not {url!r}")
    names = state.assistants
    if name is not None:
        from referee.evening.souls import assistant as find_assistant  # links NAME only

        names = [find_assistant(state, name)]
    access = ensure_access(path, state.assistants, dry=current().dry_run)
    base = (url or access.url or local_url(8765)).rstrip("/")
    if as_json:
        data: Links = {"url": base, "links": {n: access.link(n, base) for n in names}}
        if name is None:
            data["station"] = access.station
        emit_json(data)
        return
    _print_links(access, base, names, qr=qr, station=name is None)


class Links(TypedDict):
    """``links --json``: each assistant's link, and the station's key when all are asked."""

    url: str
    links: dict[str, str]
    station: NotRequired[str]


def register(app: typer.Typer) -> None:
    app.command("serve", rich_help_panel="Status")(serve)
    app.command("links", rich_help_panel="Status")(links)

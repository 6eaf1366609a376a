"""`referee serve`: the table page for the projector, the assistants' phones, a second station.

Module-level imports stay light: the HTTP server (``referee.cli.server``) and the QR codes
(segno) are imported only when the command runs.
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import db_path, say


def qr_text(link: str) -> str:
    """``link`` as a QR code drawn with text blocks for the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def serve(
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="The port (0: any free one).")] = 8765,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on every interface, for phones on the room's network "
                      "(default: this machine only).")] = False,
    station: Annotated[bool, typer.Option(
        "--station", help="Also take commands from a second laptop with the station token.")
    ] = False,
    new_tokens: Annotated[bool, typer.Option(
        "--new-tokens", help="Replace every assistant's link and the station token.")] = False,
    qr: Annotated[bool, typer.Option(
        "--qr", help="Print each assistant's link as a QR code too.")] = False,
) -> None:
    """The table page for the projector and the assistants' phones, until Ctrl-C."""
    from referee import live
    from referee.cli.server import make_server
    from referee.serve import ensure_access, lan_address, local_url

    path = db_path()
    state = live.load_state(path)  # no evening: one line, exit 2
    server = make_server(path, "0.0.0.0" if lan else "127.0.0.1", port, station=station)
    bound = server.server_address[1]
    address = lan_address() if lan else None
    base = local_url(bound, address) if address else local_url(bound)
    access = ensure_access(path, state.assistants, renew=new_tokens, url=base)
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # `kill` stops it as Ctrl-C does

    signal.signal(signal.SIGTERM, stop)
    try:
        say(f"Serving {path} (Ctrl-C stops):")
        say(f"  table page   {base}/")
        if lan and address:
            say(f"  on this machine also {local_url(bound)}/")
        elif lan:
            say("  (no LAN address found: only this machine can reach it)")
        for name in state.assistants:
            say(f"  {name:<12} {access.link(name, base)}")
            if qr:
                typer.echo(qr_text(access.link(name, base)))
        if station:
            from referee.cli import runner

            runner.root_command()  # built once now, not on the station's first command
            say(f"  station      referee --station {base} --token {access.station} COMMAND ...")
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        say("Stopped.")
    finally:
        server.server_close()


def register(app: typer.Typer) -> None:
    app.command("serve", rich_help_panel="Status")(serve)

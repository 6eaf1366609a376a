"""`referee report|handout|demo`: the evening on paper, and a demo evening in one command."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Annotated

import typer

from referee import report as rep
from referee.cli import context, requests, runner
from referee.cli.between.pages import check_page_target, write_page
from referee.cli.between.render_report import render_terminal
from referee.cli.context import current, db_path
from referee.cli.options import Json
from referee.cli.powers import render_souls
from referee.cli.printing import emit_json, lit, say
from referee.cli.typed_most import read_state
from referee.errors import BadInput, IllegalAction, RefereeError
from referee.storage import files
from referee.storage.backups import set_aside
from referee.storage.store import open_evening

HtmlOut = Annotated[
    Path | None, typer.Option("--html", help="Also write a standalone printable HTML file.")
]
Force = Annotated[
    bool, typer.Option("--force", help="Let --html replace an existing file (never the evening).")
]


def report(
    html: HtmlOut = None,
    reveal: Annotated[
        bool, typer.Option("--reveal", help="Show every soul's identity (the GM's copy).")
    ] = False,
    force: Force = False,
    as_json: Json = False,
) -> None:
    """The evening's status: money, souls, Arcana status and the highlights."""
    if html is not None:
        check_page_target(html, force)
    data = rep.build(read_state(), reveal=reveal)
    if html is not None:
        write_page(html, rep.render_html(data), secret=reveal, force=force)
    if as_json:
        emit_json(data)
        return

    render_terminal(data)
    if html is not None:
        say(f"Printable report written to {lit(html)}.")


def handout(
    assistant: str,
    html: HtmlOut = None,
    force: Force = False,
    url: Annotated[str | None, typer.Option(
        "--url", help="Where `referee serve` runs, for the link on the printed page "
                      "(default: where it last said).")] = None,
    as_json: Json = False,
) -> None:
    """ASSISTANT's clue sheet: the clues they studied and their guesses, nothing else.

    With --html the page carries the assistant's own link to `referee serve` as a QR code,
    so their phone follows the sheet during the evening.
    """
    from referee.evening.souls import assistant as find_assistant  # handout only, as access

    if html is not None:
        check_page_target(html, force)
    state = read_state()
    name = find_assistant(state, assistant)
    data = rep.handout(state, name)
    base = None
    if html is not None:
        from referee.cli.room.serving import loopback_note  # --html only: the links' keys and note
        from referee.serve.access import access_path

        tokens = access_path(db_path())
        both = (tokens, tokens.with_name(tokens.name + ".bak"))  # and its copy (E186)
        kept = [t.read_bytes() if t.is_file() else None for t in both]
        page, base = _with_link(rep.render_handout_html(data), state.assistants, name, url)
        try:
            write_page(html, page, secret=True, force=force)
        except BaseException:
            for where, was in zip(both, kept, strict=True):
                _restore(where, was)  # a refused handout hands out no token (E97)
            raise
    if as_json:
        emit_json(data)
        return

    render_souls.handout(data)
    if html is not None:
        say(f"Handout written to {lit(html)}.")

        note = loopback_note(base or "", f"{name}'s link points")
        if note:
            say(lit(note))


def _with_link(page: str, assistants: list[str], name: str, url: str | None
               ) -> tuple[str, str]:
    """The handout page with the assistant's link to the served evening and its QR code, and
    the address the link points at. A link to this machine only says so on the page (E70)."""
    import html  # here: the commands above name their --html path `html`

    import segno  # the links' page only: the QR code and the links' keys

    from referee.serve.access import DEFAULT_PORT, ensure_access, is_loopback, local_url

    if url is not None and not url.startswith(("http://", "https://")):

        raise BadInput(f"--url takes the address `referee serve` printed, like "
                       f"http://192.168.1.20:8765, not {url!r}")
    access = ensure_access(db_path(), assistants, dry=current().dry_run)
    base = (url or access.url or local_url(DEFAULT_PORT)).rstrip("/")
    link = access.link(name, base)
    code = segno.make(link, error="m").svg_inline(scale=4, title=f"Link for {name}")
    warning = ("<p><b>This link opens only on the machine that serves the evening, never on a "
               "phone: ask the GM for a sheet printed with the room's address.</b></p>"
               if is_loopback(base) else "")
    block = (f'<div class="link"><p>On your phone during the evening: scan this, or open '
             f'<code>{html.escape(link)}</code> (it is yours alone: keep it to yourself).</p>'
             f"{warning}{code}</div>")
    return page.replace("</body>", block + "</body>", 1), base


def _restore(path: Path, kept: bytes | None) -> None:
    """Put ``path`` back as it was before the command: gone, or the bytes ``kept``."""
    with contextlib.suppress(OSError):
        if kept is None:
            path.unlink()
        else:
            files.atomic_write(path, kept)


def demo(
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Where to write the demo evening (default: a new temp file)."),
    ] = None,
    html: HtmlOut = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace an earlier demo (without --season kept as .replaced-TIME)."
    )] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print only the report.")] = False,
    season: Annotated[bool, typer.Option(
        "--season", help="Two short evenings with a ceremony between, then the season (R43)."
    )] = False,
) -> None:
    """Play a scripted evening through the same commands a GM types, then print the report.

    With --season: two evenings, the ceremony and `next` between them, then the standings.
    """
    import tempfile  # the demo only, as its script

    from referee.content.scenario import data_file  # the demo's only (~4 ms)

    target = db or context.current().db
    if target is None:
        target = Path(tempfile.mkdtemp(prefix="referee-demo-")) / (
            "season-1.json" if season else "demo-evening.json")
    if season:
        demo_season(target, html=html, force=force, quiet=quiet)
        return
    if target.exists() and not force:
        raise IllegalAction(f"{target} already exists; the demo writes a fresh evening: give "
                            "another --db or add --force")
    _refuse_unless_demo(target)
    _keep_earlier_demo(target, quiet=quiet)
    script = data_file("demo.txt").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in script.splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    say(f"[bold]Demo evening[/] into {lit(target)}: {len(lines)} commands, as a GM would "
        "type them.")
    run_lines(lines, target, echo=not quiet)
    context.current().db = target
    report(html=html, reveal=True, as_json=False)
    me = lit(console_name())
    say(f"The demo evening stays in {lit(target)}: try `{me} --db {lit(target)} log` or "
        f"`{me} --db {lit(target)} shell`.")


def console_name() -> str:
    """How to type this console again (E175): `referee` when that name on the PATH is the
    console running now, else the path it was started by, as typed (`.venv/bin/referee`
    before the venv is activated), so that a hint can be typed as it is printed."""
    started = sys.argv[0] if sys.argv else ""
    if os.path.basename(started) != "referee":
        return "referee"  # `python -m referee`, or a caller of the app itself
    found = shutil.which("referee")
    if found is not None and os.path.realpath(found) == os.path.realpath(started):
        return "referee"
    return started


def _refuse_unless_demo(target: Path) -> None:
    """``demo --force`` replaces only an earlier demo's evening, never a real one (E97): the
    file's first command must be the demo script's first line (or its season's ``next``)."""
    from referee.content.scenario import data_file  # the demo's only (~4 ms)

    if not target.exists() and not target.is_symlink():
        return
    firsts = []
    for script in ("demo.txt", "demo_season.txt"):
        text = data_file(script).read_text(encoding="utf-8")
        firsts.append(next(ln.strip() for ln in text.splitlines()
                           if ln.strip() and not ln.lstrip().startswith("#")))
    try:
        with open_evening(target, write=False) as ev:
            first = next(iter(ev.records()), None)
    except RefereeError:
        first = None
    said = first.get("text") if isinstance(first, dict) else None
    if isinstance(said, str) and (any(said.startswith(f) for f in firsts)
                                  or said.startswith(f"next {target}")):
        return
    raise IllegalAction(f"{target} is not a demo's evening; the demo never replaces a real "
                        "evening, even with --force: give another --db", ruling="E97")


def _keep_earlier_demo(target: Path, *, quiet: bool) -> None:
    """An earlier demo's evening at ``target`` is kept beside it, its sealed segments with it,
    as ``new --force`` keeps a replaced evening (E97, S51), then gives way to the new demo:
    commands a GM typed into a demo are never lost to ``--force``."""
    from referee.cli.table.evening import keep_replaced  # an earlier demo replaced only

    if not target.exists():
        return
    kept = keep_replaced(target)
    target.unlink()
    # Its backups and segments go with the kept copy, or the new demo would find a deleted
    # evening's there (E182).
    set_aside(target, Path(kept))
    if not quiet:
        say(f"The earlier demo evening was kept as {lit(kept)}.")


def run_lines(lines: list[str], db: Path, *, echo: bool) -> None:
    """Run console command lines in this process, each exactly as if typed at the prompt."""
    for n, line in enumerate(lines, 1):
        if echo:
            say(f"[dim]$ referee {lit(line)}[/]")
        sink = contextlib.nullcontext() if echo else contextlib.redirect_stdout(io.StringIO())
        with sink:
            rc = requests.run(runner.split(line), db=db)
        if rc == 1:  # the line hit a bug: so does the demo
            raise RuntimeError(f"line {n} of the demo script hit a bug: {line}")
        if rc != 0:
            raise RefereeError(f"line {n} of the script failed: {line}")
        context.current().db = db


# -- the demo season ----------------------------------------------------------------------------


def demo_season(first: Path, *, html: Path | None, force: bool, quiet: bool) -> None:
    """Two short evenings with a ceremony between them, then the season (R40-R43)."""
    from referee.content.scenario import data_file  # the demo's only (~4 ms)

    stem = first.stem[:-1] + "2" if first.stem.endswith("1") else f"{first.stem}-2"
    second = first.with_name(stem + first.suffix)
    for target in (first, second):
        if target.exists() and not force:
            raise IllegalAction(f"{target} already exists; the demo writes fresh evenings: give "
                                "another --db or add --force")
    for target in (first, second):
        _refuse_unless_demo(target)
    from referee.cli.table.evening import set_aside_leftovers  # an earlier demo season's only

    for target in (first, second):  # no kept pair: its link names the first file (S51)
        if target.exists():
            target.unlink()
        set_aside_leftovers(target)  # its backups and segments kept aside (E182)
    script = data_file("demo_season.txt").read_text(encoding="utf-8")
    lines = [ln.strip().replace("{next}", shlex.quote(str(second)))
             for ln in script.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    cut = next(i for i, ln in enumerate(lines) if ln.startswith("next ")) + 1
    say(f"[bold]Demo season[/]: two evenings, {lit(first)} and {lit(second)}, and the ceremony "
        f"between them: {len(lines)} commands, as a GM would type them.")
    run_lines(lines[:cut], first, echo=not quiet)
    run_lines(lines[cut:], second, echo=not quiet)
    context.current().db = second
    # The season as `referee season` prints it: the chain back from the second evening.
    words = ["season", *(["--html", str(html)] if html else []), *(["--force"] if force else [])]
    if requests.run(words, db=second) != 0:
        raise RefereeError(f"the demo season could not be printed: {' '.join(words)}")
    me = lit(console_name())
    say(f"Try `{me} --db {lit(second)} verify` (it checks the link to the first evening) or "
        f"`{me} season {lit(first.parent)}`.")


def register(app: typer.Typer) -> None:
    app.command("report", rich_help_panel="Status")(report)
    app.command("handout", rich_help_panel="Status")(handout)
    app.command("demo", rich_help_panel="Setup")(demo)

"""The HTML the server answers with: the projector's table page, an assistant's handout, and the
Content-Security-Policy that seals them (E69); an assistant's page is ``report.handout`` for that
assistant only."""

from __future__ import annotations

import hashlib
import html
import json
import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

from referee import report
from referee.content.scenario import data_file
from referee.serve import asks, phone, players

if TYPE_CHECKING:
    from referee.serve.frame import Shown


# -- pages --------------------------------------------------------------------------------------

#: What every answer may load (E69): nothing from anywhere, but polls of this server.
_POLICY = ("default-src 'none'; connect-src 'self'; img-src 'self' data:; "
           "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
_OPENING = re.compile(r"<(script|style)((?:\s[^>]*)?)>", re.I)


def new_nonce() -> str:
    """A nonce for one answer's Content-Security-Policy: 128 random bits (E69)."""
    return secrets.token_urlsafe(16)


def seal(markup: str, nonce: str) -> str:
    """``markup`` with ``nonce`` on each of its ``<script>`` and ``<style>`` elements (E69).

    Called on a page's own markup (its template) before any name or text goes in, so what
    the data brings, were it ever to hold an element, has no nonce and does not run.

    >>> seal('<style>b{}</style><SCRIPT id="first">1</SCRIPT>', 'N')
    '<style nonce="N">b{}</style><SCRIPT id="first" nonce="N">1</SCRIPT>'
    """
    if not nonce:
        return markup
    return _OPENING.sub(lambda m: f'<{m.group(1)}{m.group(2)} nonce="{nonce}">', markup)


def content_policy(nonce: str | None = None) -> str:
    """The Content-Security-Policy of an answer (E69): for a page built with ``nonce``, its
    own scripts and styles (those that carry the nonce) and nothing inline else: no
    ``unsafe-inline``, so no ``on*=`` handler, ``style=""`` attribute or ``javascript:``
    address runs; for any other answer, nothing at all.
    """
    if nonce is None:
        return _POLICY
    return f"{_POLICY}; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'"


def _inline_json(data: object) -> str:
    """JSON safe inside a <script> element: no ``</script>``, no ``<!--``."""
    return (json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


_TEMPLATE: str | None = None
#: Every placeholder of ``data/table.html``: the page's title, and its data as JSON (E84).
PLACEHOLDER = re.compile(r"\{\{(TITLE|DATA)\}\}")


def table_page(frame: Shown, etag: str, now: float | None = None,
               nonce: str = "") -> str:
    """The projector's page: inline CSS and JS, the first frame inline, then each change
    as the server pushes it (E192), polling only while the push is down.

    Filled in one pass over the template (E84): what goes in (names, the frame) is never
    read again for placeholders, so a seat named ``{{DATA}}`` is only a name. The script
    itself takes nothing from the request: the ETag and the server's time travel in the
    JSON block, so the script is the same on every answer. The template's scripts and
    styles carry ``nonce`` (E69), given before anything goes in.
    """
    global _TEMPLATE
    if _TEMPLATE is None:
        _TEMPLATE = data_file("table.html").read_text(encoding="utf-8")
    values = {
        "TITLE": html.escape(str(frame.get("title") or "Fool's Errand")),
        "DATA": _inline_json({"frame": frame, "etag": etag,
                              "now": round(time.time() if now is None else now, 3)}),
    }
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], seal(_TEMPLATE, nonce))


#: A phone's sheet follows the evening: told of each change by the server (E192), it asks
#: for itself 0.1-0.5 s later (once for a burst of changes, and not every phone of the room
#: at the same moment), and reloads when the sheet changed; when its link no longer opens a
#: sheet (the tokens were replaced, E66) it says so instead of showing the old one. It polls
#: every 2 s only while the stream is down.
_POLL = """<script>
(function(){var tag=%s,timer=null,done=false;function gone(){done=true;stop();var b=document.body;
while(b.firstChild){b.removeChild(b.firstChild);}var h=document.createElement("h1");
h.textContent="This link opens no sheet any more";var p=document.createElement("p");
p.textContent=%s;b.appendChild(h);b.appendChild(p);document.title="Link replaced";
if(events){events.close();}}
function look(){if(done){return;}fetch(location.pathname,{method:"HEAD",cache:"no-store"})
.then(function(r){var t=r.headers.get("ETag");if(r.status==404){gone();}
else if(r.status==200&&t&&t!==tag){location.reload();}}).catch(function(){});}
function poll(){if(!timer&&!done){timer=setInterval(look,2000);}}
function stop(){if(timer){clearInterval(timer);timer=null;}}
var soon=null;function later(){if(!soon){soon=setTimeout(function(){soon=null;look();},
100+Math.random()*400);}}
var events=typeof EventSource==="function"?new EventSource("/events"):null;
if(!events){poll();}else{events.addEventListener("change",later);
events.onopen=function(){stop();look();};events.onerror=poll;}})();
</script>"""
#: What a phone reads when its link was replaced, and what an unknown link answers (E66).
REPLACED = ("A new evening or new links replaced it (or it was mistyped): ask the GM for your "
            "link, and scan it again.")


def handout_page(path: Path, assistant: str, nonce: str = "") -> tuple[str, str]:
    """An assistant's clue sheet for their phone, and its ETag: ``report.handout`` for them,
    nothing else; the page reloads itself when the sheet changes. The page's own style (in
    its head, where no data stands but the escaped title) and its script carry ``nonce``.

    Raises:
        RefereeError: no evening, or a corrupt one.
    """
    page, etag = handout_sheet(path, assistant)
    return sealed_sheet(page, etag, nonce), etag


def handout_sheet(path: Path, assistant: str) -> tuple[str, str]:
    """An assistant's sheet as ``report`` renders it, and its ETag, before any nonce: what
    the server keeps until the evening changes (E192: every phone asks on each change).

    Raises:
        RefereeError: no evening, or a corrupt one.
    """
    state = players.load_state(path)
    page = report.render_handout_html(report.handout(state, assistant))
    panel = phone.ask_panel(state, assistant, asks.load_queue(path).of(assistant))  # E216
    page = page.replace("</body>", panel + "</body>", 1)
    return page, '"' + hashlib.blake2b(page.encode(), digest_size=12).hexdigest() + '"'


def sealed_sheet(page: str, etag: str, nonce: str) -> str:
    """A sheet with its follower script, its own style and script carrying ``nonce`` (E69)."""
    head, body, rest = page.partition("<body")
    poll = seal(_POLL, nonce) % (_inline_json(etag), _inline_json(REPLACED))
    head = head.replace("</head>", phone.PANEL_STYLE + "</head>", 1)
    page = seal(head, nonce) + body + rest
    return page.replace("</body>", poll + seal(phone.PANEL_SCRIPT, nonce) + "</body>", 1)

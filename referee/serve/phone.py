"""What an assistant's phone offers besides their sheet (R46): study a soul their side holds,
guess a soul, bid at an open auction, ask the GM a question; and what became of their own
requests. Only that assistant's: no other side's request, clue or answer is in it (E216).

The panel is markup made from the evening and the queue, every name and text escaped; it has
no script or style of its own: those are the page's (``PANEL_SCRIPT``, ``PANEL_STYLE``), sealed
with the answer's nonce like the rest of the sheet (E69). A form posts as JSON to
``/a/TOKEN/ask`` (its own link), never as a form: the page may not submit one (E69's
``form-action 'none'``).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from referee.evening.souls import GUESSES_PER_SOUL as GUESSES
from referee.serve.asks import MAX_TEXT, STUDY_SECONDS

if TYPE_CHECKING:
    from referee.evening.state import Soul, State
    from referee.serve.asks import Ask

#: Requests shown on the phone, the newest first.
SHOWN = 6


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _said(ask: Ask) -> str:
    """What became of a request, as the phone says it (the GM's reason word for word)."""
    status, reason = ask["status"], ask["reason"]
    if status == "open":
        return "waiting for the GM"
    if status == "running":
        return "the GM is recording it"
    if status == "declined":
        return f"declined by the GM: {reason}"
    if status == "failed":
        return f"not recorded: {reason}"
    if ask["kind"] == "question":
        return f"the GM answers: {reason}" if reason else "the GM will answer you in person"
    return "accepted by the GM" + (": your clue is above" if ask["kind"] == "study" else "")


def ask_panel(state: State, assistant: str, mine: list[Ask]) -> str:
    """The ask panel of ``assistant``'s phone: the forms the evening allows now, and their
    own last requests (R46, E216)."""
    side = state.side_of(assistant)
    parts = ['<section id="asks"><h2>Ask the GM</h2>',
             '<p id="ask-said" class="said" role="status" aria-live="polite"></p>']
    live = [s for s in state.souls if s.kind == "bottled" and not s.destroyed]
    held = [s for s in live if s.holder is not None and state.side_of(s.holder) == side]
    if held:
        options = "".join(f'<option value="{_e(s.key)}">{_e(s.key)}</option>' for s in held)
        parts.append('<form class="ask" data-kind="study"><label>Study a soul your side holds '
                     f'<select name="soul">{options}</select></label>'
                     f'<button type="submit">Study ({STUDY_SECONDS} s)</button></form>')
    else:
        parts.append('<p class="muted">Your side holds no bottled soul to study.</p>')
    if live:
        parts.append(_guess_form(state, assistant, live))
    auction = state.auction
    if auction is not None and state.side_of(auction["seller"]) != side and \
            auction["seller"] != side:
        parts.append(f'<form class="ask" data-kind="bid"><p>Auction: {_e(auction["seller"])} '
                     f'sells {_e(auction["soul"])}.</p><label>Chips <input name="chips" '
                     'placeholder="red:2,blue:1" maxlength="60" autocomplete="off"></label>'
                     f'<label>Promise <input name="promise" maxlength="{MAX_TEXT}" '
                     'autocomplete="off"></label><button type="submit">Bid</button></form>')
    parts.append('<form class="ask" data-kind="question"><label>A question for the GM '
                 f'<textarea name="text" maxlength="{MAX_TEXT}" rows="2"></textarea></label>'
                 '<button type="submit">Ask</button></form>')
    if mine:
        parts.append(_requests(mine))
    parts.append("</section>")
    return "".join(parts)


def _guess_form(state: State, assistant: str, live: list[Soul]) -> str:
    """The form to guess a bottled soul still there, with the guesses each has left (R23)."""
    made = {s.key: sum(1 for g in state.guesses if g["assistant"] == assistant
                       and g["soul"] == s.key) for s in live}
    options = "".join(f'<option value="{_e(s.key)}">{_e(s.key)} '
                      f'({GUESSES - made[s.key]} guesses left)</option>' for s in live)
    return ('<form class="ask" data-kind="guess"><label>Guess a soul '
            f'<select name="soul">{options}</select></label>'
            f'<label>Name <input name="name" maxlength="{MAX_TEXT}" '
            'autocomplete="off"></label>'
            '<label>Arcanum <input name="arcanum" maxlength="8" placeholder="e.g. IX" '
            'autocomplete="off"></label><button type="submit">Guess</button></form>')


def _requests(mine: list[Ask]) -> str:
    """The assistant's last requests, newest first, each with the GM's answer; an open study
    carries its time, for the phone to count its minute."""
    parts = ['<h3>Your requests</h3><ul class="mine">']
    for ask in sorted(mine, key=lambda a: -a["no"])[:SHOWN]:
        minute = (f' data-study="{ask["at"]:.3f}"' if ask["kind"] == "study"
                  and ask["status"] == "open" else "")
        parts.append(f'<li class="ask-{_e(ask["status"])}" data-no="{ask["no"]}"{minute}>'
                     f'{ask["no"]}. {_e(ask["what"])} &#8212; <b>{_e(_said(ask))}</b>'
                     '<span class="minute"></span></li>')
    parts.append("</ul>")
    return "".join(parts)


#: The panel's look: large targets for a thumb, text at 4.5:1 or more.
PANEL_STYLE = """<style>
#asks form{margin:.8em 0;padding:.6em;border:1px solid #bbb;border-radius:6px}
#asks label{display:block;margin:.3em 0}
#asks select,#asks input,#asks textarea{display:block;width:100%;font-size:1.05em;
padding:.35em;box-sizing:border-box}
#asks button{font-size:1.1em;padding:.45em 1.2em;margin-top:.3em}
#asks .said{font-weight:bold;min-height:1.2em}
#asks .ask-declined b,#asks .ask-failed b{color:#8a1c1c}
#asks .ask-accepted b{color:#1d5e20}
#asks .minute{display:block;color:#444}
</style>"""

#: The panel's script: each form posts its fields as JSON to this page's own link + "/ask"
#: and says the one-line answer (kept over the reload the queue's change brings); an open
#: study counts its minute on the phone, from the server's time (the answer's
#: X-Server-Time, asked only while a study waits), so a phone's wrong clock does not matter.
PANEL_SCRIPT = """<script>
(function(){var said=document.getElementById("ask-said");if(!said){return;}var skew=0;
function tell(t){said.textContent=t;try{sessionStorage.setItem("said",t);}catch(e){}}
try{said.textContent=sessionStorage.getItem("said")||"";sessionStorage.removeItem("said");}
catch(e){}
Array.prototype.forEach.call(document.querySelectorAll("form.ask"),function(f){
f.addEventListener("submit",function(ev){ev.preventDefault();var body={kind:f.dataset.kind};
Array.prototype.forEach.call(f.elements,function(el){if(el.name){body[el.name]=el.value;}});
var b=f.querySelector("button");if(b){b.disabled=true;}tell("Sending...");
fetch(location.pathname+"/ask",{method:"POST",cache:"no-store",credentials:"same-origin",
headers:{"Content-Type":"application/json"},body:JSON.stringify(body)})
.then(function(r){return r.text().then(function(t){var line=t.trim();
try{line=JSON.parse(t).line;}catch(e){}tell(line);if(r.ok){f.reset();}});})
.catch(function(){tell("Not sent: the GM's machine cannot be reached; try again.");})
.then(function(){if(b){b.disabled=false;}});});});
function tick(){var now=Date.now()/1000+skew;
Array.prototype.forEach.call(document.querySelectorAll("li[data-study]"),function(li){
var left=Math.ceil(Number(li.dataset.study)+STUDY_SECONDS-now),m=li.querySelector(".minute");
if(!m){return;}m.textContent=left>0?("Study the soul: "+left+" s left"):
"Your minute is done: the GM reads your clue.";});}
if(!document.querySelector("li[data-study]")){return;}
fetch(location.pathname,{method:"HEAD",cache:"no-store"}).then(function(r){
var t=Number(r.headers.get("X-Server-Time"));if(t){skew=t-Date.now()/1000;}tick();})
.catch(function(){});tick();setInterval(tick,1000);})();
</script>""".replace("STUDY_SECONDS", str(STUDY_SECONDS))

"""A player's page as HTML: one self-contained document for a phone (360×640 up), no
script needed. Each act the player may do is a `<form method="post">` whose inputs are
named as `referee act SAVE ACT --NAME` names its options, with the form's choices,
defaults and bounds; a small script (run only with the page's nonce) follows the fight
live and keeps the clock. Every text from the save or the player goes through `html_text`.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.engine.specs import Field
from referee.engine.text import html_text as h
from referee.session.desk import PlayerForm, PlayerPage, input_name, option_value

STYLE = """
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;background:#111;
color:#eee}main{max-width:40rem;margin:0 auto;padding:.6rem}h1{font-size:1.3rem;margin:.2rem 0}
h2{font-size:1.05rem;margin:1rem 0 .3rem;color:#9cf}p{margin:.3rem 0}.sub{color:#aaa}
.asked{background:#233;border-left:4px solid #6cf;padding:.5rem}.said{background:#232;
border-left:4px solid #6c6;padding:.5rem}.refused{background:#322;border-left:4px solid #f66;
padding:.5rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.1rem .8rem;margin:0}
dt{color:#aaa}dd{margin:0}table{border-collapse:collapse;width:100%}td,th{text-align:left;
padding:.2rem .3rem;border-bottom:1px solid #333;vertical-align:top}th{color:#aaa;
font-weight:normal}details{border:1px solid #444;border-radius:.4rem;margin:.4rem 0;
padding:.3rem .5rem}summary{font-weight:bold;cursor:pointer;padding:.3rem 0}label{display:
block;margin:.5rem 0 .1rem}input,select,button{font:inherit;width:100%;padding:.45rem;
border-radius:.3rem;border:1px solid #666;background:#222;color:#eee}input[type=checkbox]
{width:auto;transform:scale(1.4);margin:.3rem .6rem .3rem .2rem}button{background:#2a5d8a;
border-color:#6cf;margin-top:.7rem;font-weight:bold}.now{color:#fc6}.done{color:#888}
.clock{color:#fc6}.hint{color:#aaa;font-size:.9rem}ol{padding-left:1.3rem;margin:.2rem 0}
"""

LIVE = """
(function(){
  var main=document.getElementById('live'), clock=document.getElementById('clock');
  var start=Date.now(), base=clock?parseFloat(clock.dataset.seconds):0;
  function tick(){ if(!clock){return;} var s=Math.floor(base+(Date.now()-start)/1000);
    clock.textContent=Math.floor(s/60)+':'+String(s%60).padStart(2,'0'); }
  setInterval(tick,1000);
  function typing(){ var a=document.activeElement; return a && a.form; }
  var busy=false, again=false;
  function refresh(){
    if(busy){ again=true; return; }
    busy=true;
    fetch(location.pathname,{credentials:'same-origin'}).then(function(r){
      if(!r.ok){return null;} return r.text();})
    .catch(function(){return null;}).then(function(text){
      busy=false; if(again){ again=false; setTimeout(refresh,0); }
      if(text===null){return;}
      var doc=new DOMParser().parseFromString(text,'text/html');
      var fresh=doc.getElementById('live'); if(!fresh){return;}
      var forms=main.querySelector('#forms'), newForms=fresh.querySelector('#forms');
      var keep=typing() && forms && newForms &&
               forms.dataset.offer===newForms.dataset.offer;
      if(keep){ newForms.replaceWith(forms); }
      var said=main.querySelector('[role=status]');
      if(said && !fresh.querySelector('[role=status]')){
        fresh.querySelector('#asked').before(said); }
      main.replaceWith(fresh); main=fresh; clock=document.getElementById('clock');
      if(clock){ base=parseFloat(clock.dataset.seconds); start=Date.now(); }
    });
  }
  if(window.EventSource){
    var live=new EventSource(location.pathname+'/live'), opened=false;
    live.onmessage=refresh;
    live.onopen=function(){ if(opened){ refresh(); } opened=true; };  // back from a sleep
  }
})();
"""


def render(page: PlayerPage, token: str, csrf: str, nonce: str, said: str = "",
           refused: bool = False) -> str:
    """The whole document of `page`, its forms posting to the player's own address."""
    body = "".join(_main(page, token, csrf, said, refused))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<meta name="referrer" content="no-referrer">'
            f"<title>{h(page.name)} — {h(page.title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}<script nonce=\"{h(nonce)}\">{LIVE}</script></body></html>")


def _main(page: PlayerPage, token: str, csrf: str, said: str,
          refused: bool) -> Iterator[str]:
    yield '<main id="live">'
    yield f"<h1>{h(page.name)}</h1>"
    yield (f'<p class="sub">{h(page.title)} · round {page.round} · {h(page.phase)}'
           + (" · the fight is over" if page.ended else "") + "</p>")
    if page.notice:
        yield f'<p class="refused">{h(page.notice)}</p>'
    if said:
        yield f'<p class="{"refused" if refused else "said"}" role="status">{h(said)}</p>'
    yield f'<p class="asked" id="asked">{h(page.asked)}</p>'
    if page.clock_seconds is not None:
        seconds = int(page.clock_seconds)
        yield (f'<p class="hint">Your declaration clock: <span class="clock" id="clock" '
               f'data-seconds="{page.clock_seconds:.1f}">{seconds // 60}:{seconds % 60:02d}'
               "</span> — the longer you take, the later you act (DI-16).</p>")
    yield '<h2>Yours</h2><dl id="own">'
    for column, cell in zip(page.columns, page.cells, strict=True):
        if cell.text:
            yield f"<dt>{h(column.label)}</dt><dd>{h(cell.text)}</dd>"
    for label, text in page.kept:
        yield f"<dt>{h(label)}</dt><dd>{h(text)}</dd>"
    yield "</dl>"
    yield from _forms(page.forms, token, csrf)
    if page.plan:
        yield '<h2>Order of play</h2><ol id="order">'
        for beat in page.plan:
            tone = "now" if beat.mark == "▶" else "done" if beat.mark == "✓" else ""
            yield (f'<li class="{tone}">{h(beat.mark)} {h(beat.actions)}</li>')
        yield "</ol>"
    yield '<h2>The others</h2><table id="others"><tr><th>who</th><th>side</th>' \
          "<th>declared</th><th>state</th></tr>"
    for row in page.others:
        state = ", ".join(t for t in (row.state, row.conditions) if t)
        yield (f"<tr><td>{'▶ ' if row.acting else ''}{h(row.name)}</td><td>{h(row.side)}</td>"
               f"<td>{h(row.declared)}</td><td>{h(state)}</td></tr>")
    yield "</table>"
    if page.log:
        yield '<h2>Lately</h2><ol id="log">' + "".join(
            f"<li>{h(line)}</li>" for line in page.log[-8:]) + "</ol>"
    yield "</main>"


def _forms(forms: list[PlayerForm], token: str, csrf: str) -> Iterator[str]:
    offer = " ".join(f.act for f in forms)
    yield f'<section id="forms" data-offer="{h(offer)}">'
    for number, player_form in enumerate(forms):
        opened = " open" if len(forms) == 1 or number == 0 and player_form.act == "initiative-die" \
            else ""
        yield f"<details{opened}><summary>{h(player_form.label)}</summary>"
        yield (f'<form method="post" action="/p/{h(token)}/act/{h(player_form.act)}">'
               f'<input type="hidden" name="csrf" value="{h(csrf)}">')
        if player_form.form.hint:
            yield f'<p class="hint">{h(player_form.form.hint)}</p>'
        for spec in player_form.form.fields:
            yield _field(player_form.act, spec)
        yield f"<button type=\"submit\">{h(_verb(player_form))}</button></form></details>"
    yield "</section>"


def _verb(player_form: PlayerForm) -> str:
    return "Send my die" if player_form.act == "initiative-die" else "Declare"


def _field(act: str, spec: Field) -> str:
    name = input_name(spec.name)
    ident = h(f"{act}-{name}")
    label = f'<label for="{ident}">{h(spec.title)}</label>'
    hint = f'<p class="hint">{h(spec.help)}</p>' if spec.help else ""
    required = " required" if spec.required else ""
    value = spec.initial
    if spec.kind == "bool":
        checked = " checked" if value else ""
        return (f'<label><input type="checkbox" id="{ident}" name="{h(name)}" value="on"'
                f"{checked}>{h(spec.title)}</label>{hint}")
    if spec.kind in ("choice", "id", "ids"):
        multiple = " multiple" if spec.kind == "ids" else ""
        chosen = set(value) if spec.kind == "ids" and value else {value}
        options = "".join(
            f'<option value="{h(option_value(v))}"{" selected" if v in chosen else ""}>'
            f"{h(text)}</option>" for text, v in spec.options)
        return (f'{label}<select id="{ident}" name="{h(name)}"{multiple}{required}>'
                f"{options}</select>{hint}")
    shown = "" if value is None else h(value)
    if spec.kind in ("int", "number"):
        bounds = "".join(f' {key}="{bound}"' for key, bound in
                         (("min", spec.minimum), ("max", spec.maximum)) if bound is not None)
        step = ' step="1" inputmode="numeric"' if spec.kind == "int" else ' step="any"'
        return (f'{label}<input type="number" id="{ident}" name="{h(name)}" value="{shown}"'
                f"{bounds}{step}{required}>{hint}")
    placeholder = f' placeholder="{h(spec.help)}"' if spec.help else ""
    return (f'{label}<input type="text" id="{ident}" name="{h(name)}" value="{shown}" '
            f'maxlength="200"{placeholder}{required}>')


def gone_page(message: str) -> str:
    """A page that is no player's (an unknown or revoked link, an ended fight, too many)."""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<meta name="referrer" content="no-referrer"><title>referee</title>'
            f"<style>{STYLE}</style></head><body><main><p class=\"refused\">{h(message)}"
            "</p></main></body></html>")

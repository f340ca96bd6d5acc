"""What the tests of the host's tablet share: the players and tables they play with, and what
the turn screen shows. Pages are read and posted with the one page helper (``tests/pages.py``):
CSRF protection stays on, every post carries a token read from a page the same client rendered.
"""

import html
import json
import re

from facilitator import services
from facilitator.rules.lyceum import Move, SKILLS
from facilitator.services.db import session_scope
from tests import pages
from tests.pages import Form, Page, draw_page, get, organizer_browser, submit  # noqa: F401 (the tests' one page helper)

# Three players in clockwise seating order. Extra SP make the turn order plain: Аня has the
# most energy (6), so she goes first, then Борис and Вика clockwise.
# Аня: health 3, intellect 8, creativity 2, communication 2, energy 6; a future image of 35 (7 each)
ANYA = {"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2},
        "declaration": {s: 7 for s in SKILLS}}
# Борис: health 6, intellect 5, creativity 3, communication 4, energy 2
BORIS = {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}}
# Вика: health 3, intellect 4, creativity 7, communication 3, energy 4
VIKA = {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}}
# Гоша: energy 6 like Аня, and younger: with four players he goes first
GOSHA = {"name": "Гоша", "born": "2009-09-09", "character": "C10", "extra": {"health": 4, "energy": 1}}

THREE = [ANYA, BORIS, VIKA]
FOUR = [ANYA, BORIS, VIKA, GOSHA]


def tablet(app, lang="en"):
    """Another browser running the tables (signed in as the organizer, like ``client``)."""
    return organizer_browser(app, lang=lang)


def csrf_token(client, url="/"):
    """The CSRF token of ``client``'s session (read once per browser: it stays valid)."""
    return pages.csrf_token(client, url, keep=True)


def post(client, url, data, follow=False, token=True):
    """Post a form; ``token`` True reads a CSRF token first, a string uses that one, False none."""
    if token is True and "csrf_token" not in data:
        token = csrf_token(client)
    return Page(pages.send(client, url, data, token=token, follow_redirects=follow))


# ----- tables -------------------------------------------------------------------------------
def create_table(client, name="Стол 1"):
    """A new table through the index page's form; returns its id."""
    page = get(client, "/?game=lyceum-16-25")  # the game is the first choice
    form = page.form("/tables")
    response = client.post(form.action, data=form.data(name=name))
    assert response.status_code == 303, response.status_code
    match = re.search(r"/table/(\d+)/setup", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def setup_data(players):
    """The setup form's fields for these players (missing seats left empty)."""
    data = {}
    for i, p in enumerate(players):
        prefix = f"players-{i}-"
        data[prefix + "name"] = p.get("name", "")
        data[prefix + "born"] = p.get("born", "")
        data[prefix + "character"] = p.get("character", "")
        for skill, value in (p.get("extra") or {}).items():
            data[f"{prefix}extra-{skill}"] = value
        for skill, value in (p.get("declaration") or {}).items():
            data[f"{prefix}declaration-{skill}"] = value
    for i in range(len(players), 4):
        data[f"players-{i}-name"] = ""
    return data


def post_setup(client, table_id, players, follow=False):
    return post(client, f"/table/{table_id}/setup", setup_data(players), follow=follow)


def seated_table(client, players=THREE, name="Стол 1"):
    """A table created and set up through the screens; returns its id."""
    table_id = create_table(client, name)
    page = post_setup(client, table_id, players)
    assert page.status == 303, (page.status, page.error, page.html[:2000])
    return table_id


# ----- the database, seen by the services layer ----------------------------------------------
def load(app, table_id):
    """The table as the services layer replays it (its game, log, undone moves)."""
    with session_scope(app.extensions["facilitator.engine"]) as s:
        return pages.loaded_table(s, table_id)


def seq(app, table_id):
    return load(app, table_id).seq


def record(app, table_id, *moves):
    """Record moves directly through the services layer (to reach a position quickly)."""
    for move in moves:
        with session_scope(app.extensions["facilitator.engine"]) as s:
            after = services.load(s, table_id).seq
            services.record_move(s, table_id, move, after)


def pass_until(app, table_id, stop):
    """Pass turn after turn until ``stop(game)`` is true (allocations filled in on the way)."""
    while True:
        game = load(app, table_id).game
        if stop(game):
            return game
        nxt = game.next()
        if nxt["expects"] == "allocate":
            who = game.players[nxt["player"]]
            move = Move("allocate", player=who.name, sp={"health": who.pending})
        elif nxt["expects"] == "finish":
            raise AssertionError("the game waits for finish before the condition was met")
        else:
            move = Move("pass", player=nxt["player"])
        record(app, table_id, move)


def move_form(client, table_id, kind, **fields):
    """Post to the move address of ``kind`` with these fields (the caller names ``after``), as a
    hand-made or resent form would."""
    return post(client, f"/table/{table_id}/move/{kind}", fields)


def redistribution(prefix, changes):
    """Form fields of a skill map: ``{"intellect": -1}`` -> ``{"redistribute-intellect": -1}``."""
    return {f"{prefix}-{skill}": value for skill, value in changes.items()}


def api_post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


# ----- what the turn screen shows ---------------------------------------------------------------
def player_panels(page):
    """Each player's panel on the turn screen: ``{name: {"xp", "level", "skills", "turn", "text"}}``."""
    out = {}
    for chunk in page.html.split('<article class="player')[1:]:
        chunk = chunk.split("</article>")[0]
        name = html.unescape(re.search(r'data-name="([^"]*)"', chunk).group(1))
        out[name] = {
            "xp": int(re.search(r"data-xp>(\d+)<", chunk).group(1)),
            "level": int(re.search(r"data-level>(\d+)<", chunk).group(1)),
            "skills": {s: int(v) for s, v in re.findall(r'data-skill="(\w+)">(\d+)<', chunk)},
            "turn": chunk.split('"', 1)[0].strip() == "turn",
            "text": " ".join(html.unescape(re.sub(r"<[^>]+>", " ", chunk)).split()),
        }
    return out


def offered_moves(page, table_id):
    """The move kinds the turn screen offers: a form posting to ``/move/<kind>``, or the draw
    buttons (links to the draw screen), or the finish button (a link to its confirmation)."""
    kinds = {f.action.rsplit("/", 1)[1] for f in page.forms if f"/table/{table_id}/move/" in f.action}
    if f'href="/table/{table_id}/draw?' in page.html:
        kinds.add("draw")
    if f'href="/table/{table_id}/finish?' in page.html:
        kinds.add("finish")
    return kinds


def legal_kinds(app, table_id):
    return {m["type"] for m in load(app, table_id).game.legal_moves()}


def each_case(cases, check):
    """Run ``check(*case)`` for every row of a table of cases (on one app, so the table stays
    quick to run) and report every row that fails, not only the first; a row's first item names it."""
    failures = []
    for case in cases:
        try:
            check(*case)
        except AssertionError as err:
            failures.append(f"{case[0]}: {err}")
    assert not failures, "\n".join(failures)

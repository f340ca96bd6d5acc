"""What the New Angeles screen tests share: a table of the sample pack created through the
services (as an organizer's event or a lone host would), the setup screen's fields for the
table of RECORD.md §3, and readers of the screens' forms (``tests/web/helpers.py``'s page parser).

The default table is RECORD.md's: Anna (jinteki), Boris (nbn), Vera (globalsec) and Dmitri
(haas-bioroid), clockwise, capital 10 each, threat 12, 3 asset cards for S1, demand card DM2,
Anna holding the first-player token.
"""

import json
import re
from pathlib import Path

from facilitator import services
from facilitator.rules.newangeles import read_move
from facilitator.storage import session_scope
from tests.web.helpers import Page, csrf_token, get, post, submit  # noqa: F401

DATA = Path(__file__).resolve().parents[1] / "newangeles" / "data"
NAMES = ("Anna", "Boris", "Vera", "Dmitri")
CORPS = {"Anna": "jinteki", "Boris": "nbn", "Vera": "globalsec", "Dmitri": "haas-bioroid",
         "Elena": "weyland", "Fyodor": "melange"}
SEAT = {n: i for i, n in enumerate(NAMES)}


def example(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def engine(app):
    return app.extensions["facilitator.engine"]


def new_table(app, name="NA 1", event=True):
    """A New Angeles table of the sample pack: in an event of New Angeles (as the organizer adds
    it) or on its own (as a lone host makes it). Returns its id."""
    with session_scope(engine(app)) as s:
        pack_row = services.packs.ensure_sample(s, "new-angeles")
        if event:
            ev = services.events.create_event(s, f"Event {name}", "2025-05-17", pack_row)
            table = services.events.add_table(s, ev, name)
        else:
            table = services.create_table(s, name, pack_row, access=True)
        return table.id


def event_of(app, table_id):
    with session_scope(engine(app)) as s:
        return services.get_table(s, table_id).event_id


def setup_form(players=NAMES, capital=10, first="Anna", threat=12, assets=3, demand="DM2", rivals=None, **more):
    data = {}
    caps = capital if isinstance(capital, dict) else {n: capital for n in players}
    for i, name in enumerate(players):
        data[f"players-{i}-name"] = name
        data[f"players-{i}-corp"] = CORPS[name]
        data[f"players-{i}-capital"] = caps[name]
        if rivals and name in rivals:
            data[f"players-{i}-rival"] = rivals[name]
    data["first_player"] = str(list(players).index(first))
    data["threat"] = threat
    data["assets"] = assets
    data["demand"] = demand
    data.update(more)
    return data


def seated(app, client, players=NAMES, **setup):
    """A New Angeles table set up through the setup screen; returns its id."""
    table_id = new_table(app)
    page = post(client, f"/na/table/{table_id}/setup", setup_form(players, **setup))
    assert page.status == 303, (page.status, page.html[:3000])
    return table_id


def load(app, table_id):
    with session_scope(engine(app)) as s:
        return services.load(s, table_id)


def seq(app, table_id):
    return load(app, table_id).seq


def record(app, table_id, *moves):
    """Record moves (their record JSON) straight through the services, to reach a position."""
    for move in moves:
        with session_scope(engine(app)) as s:
            after = services.load(s, table_id).seq
            services.record_move(s, table_id, read_move(move), after)


def screen(client, table_id):
    page = get(client, f"/na/table/{table_id}")
    assert page.status == 200, (page.status, page.html[:2000])
    return page


def deal_fields(page):
    """The deal form's fields as the screen drew them."""
    return page.form("/move/deal")


def move_post(client, table_id, kind, fields):
    return post(client, f"/na/table/{table_id}/move/{kind}", fields)


def deal_json(active, asset="A01", main="Security: Sweep", counters=(), support=(), **more):
    """The deal form as the tablet's queue would send it: every nested key as its JSON field."""
    counteroffers = [{"player": c, "card": f"Counter card of {c}"} if isinstance(c, str) else
                     {"player": c[0], **({"card": c[1]} if isinstance(c[1], str) else c[1])} for c in counters]
    fields = {"active": active, "asset": asset,
              "main": json.dumps(main if isinstance(main, dict) else {"card": main}),
              "counteroffers": json.dumps(counteroffers),
              "support": json.dumps([{"player": p, "offer": o, "cards": n} for p, o, n in support]),
              "extra": json.dumps(more.pop("extra", {})), "transfers": json.dumps(more.pop("transfers", []))}
    fields.update(more)
    return fields


def ui_deal(active, asset="A01", main="Security: Sweep", counters=None, support=None, emergency=False, **more):
    """The deal screen's helper fields as a host fills them without JavaScript."""
    fields = {"active": active, "asset": asset, "ui": "1", "ui_main_card": "" if emergency else main,
              "main": "null", "counteroffers": "[]", "support": "[]", "extra": "{}", "transfers": "[]"}
    if emergency:
        fields["ui_main_kind"] = "emergency"
    for name, card in (counters or {}).items():
        fields[f"ui_counter_{SEAT[name]}"] = card
    for name, (which, cards) in (support or {}).items():
        fields[f"ui_sup_{which}_{SEAT[name]}"] = cards
    fields.update(more)
    return fields


def flashes(page):
    return page.messages()


def text_of(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())

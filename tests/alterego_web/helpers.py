"""What the tests of Alter Ego's screens share: tables made through the services (as an event
or a lone host makes them), the setup posted through the setup screen, moves posted as the
move forms post them (the fields named as the move JSON), and the table's state read back."""

import re

from facilitator import services
from facilitator.rules import registry
from facilitator.storage import session_scope

from web.helpers import Page, csrf_token, get, post, submit  # noqa: F401

RULESET = "alter-ego-3"
# Aino (pare, ville, meira), Bertta (niksu, tommi, imaami), Cecilia (jaakko, kalle, tane): the
# rules tests' tables; Bertta is the oldest, so the app proposes her
AINO = {"name": "Aino", "born": "1991-04-02", "actives": ["pare", "ville", "meira"]}
BERTTA = {"name": "Bertta", "born": "1985-11-20", "actives": ["niksu", "tommi", "imaami"]}
CECILIA = {"name": "Cecilia", "actives": ["jaakko", "kalle", "tane"]}
TWO = [AINO, BERTTA]
THREE = [AINO, BERTTA, CECILIA]


def engine(app):
    return app.extensions["facilitator.engine"]


def new_table(app, name="Pöytä 1", event_id=None):
    """An Alter Ego table without players, as the start page or an event makes one; its id."""
    with session_scope(engine(app)) as s:
        row = services.packs.ensure_sample(s, RULESET)
        table = services.create_table(s, name, row, event_id=event_id, access=True)
        return table.id


def setup_fields(players, first=None):
    data = {}
    for i, p in enumerate(players):
        data[f"players-{i}-name"] = p["name"]
        data[f"players-{i}-born"] = p.get("born", "")
        for j, key in enumerate(p["actives"]):
            data[f"players-{i}-actives-{j}"] = key
    if first is not None:
        data["first"] = str([p["name"] for p in players].index(first))
    return data


def seat(client, table_id, players=THREE, first="Aino"):
    """Players seated through the setup screen (the first player chosen); returns the table id."""
    page = post(client, f"/ae/table/{table_id}/setup", setup_fields(players, first))
    assert page.status == 303, (page.status, page.error, page.text[:1500])
    return table_id


def seated(app, client, players=THREE, first="Aino", name="Pöytä 1"):
    return seat(client, new_table(app, name), players, first)


def loaded(app, table_id):
    with session_scope(engine(app)) as s:
        return services.load(s, table_id, fresh=True)


def game_of(app, table_id):
    return loaded(app, table_id).game


def seq_of(app, table_id):
    return loaded(app, table_id).seq


def turn(client, table_id):
    return get(client, f"/ae/table/{table_id}")


def move(client, table_id, kind, after, follow=False, **fields):
    """Post a move as its form does: list fields as ``name[]`` repeated, the rest as they are."""
    data = {"after": after}
    for key, value in fields.items():
        if isinstance(value, (list, tuple)):
            data[f"{key}[]"] = list(value)
        else:
            data[key] = value
    data["csrf_token"] = csrf_token(client)
    return Page(client.post(f"/ae/table/{table_id}/move/{kind}", data=data, follow_redirects=follow))


def play(client, app, table_id, kind, **fields):
    """A move after the table's current sequence number; asserts it was recorded."""
    page = move(client, table_id, kind, seq_of(app, table_id), **fields)
    assert page.status == 303, (kind, fields, page.status, page.error)
    return page


def forms_with(page, data_move):
    return [f for f in page.forms if f.action.split("?")[0].endswith(f"/move/{data_move}")]


def table_id_of(location):
    return int(re.search(r"/table/(\d+)", location).group(1))


def ruleset():
    return registry.get(RULESET)


def record(app, table_id, data):
    """A move recorded through the services (to put a table where a test starts from)."""
    with session_scope(engine(app)) as s:
        loaded = services.load(s, table_id)
        move = ruleset().read_move(data)
        _loaded, result = services.record_move(s, table_id, move, loaded.seq)
        return result


def adjust(app, table_id, *changes, reason="test position"):
    return record(app, table_id, {"type": "adjust", "changes": list(changes), "reason": reason})


def give(app, table_id, active, card, partner=None):
    """An activity onto an active by a correction (no side effects); returns its id."""
    change = {"active": active, "add": card}
    if partner:
        change["partner"] = partner
    result = adjust(app, table_id, change)
    return result.placed[0]["id"]


def bound(page, path_part):
    """The hrefs of a page's links whose path contains ``path_part`` (HTML entities decoded)."""
    from html import unescape
    return [unescape(h) for h in re.findall(r'href="([^"]*' + re.escape(path_part) + r'[^"]*)"', page.html)]

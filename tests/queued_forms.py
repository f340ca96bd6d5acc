"""The same move forms through both paths a tablet has (issue 18, "one reading of a form"):
posted as a tablet without JavaScript posts them (the screen's move POST) and queued by the
tablet's outbox (``POST /api/v1/tables/<id>/queued``, the form's fields as the browser would
post them). Each path plays on its own one of two tables kept at the same position, so a case
shows what each path does to the same table: both record the same move, or both refuse it with
the same status and the same words, recording nothing.
"""

import itertools
import json

from facilitator import services
from facilitator.services.db import session_scope
from tests import pages

_client_ids = itertools.count(1)

#: the status of a refusal by its code (the rules' own codes are 422)
STATUS = {"malformed": 400, "stale": 409, "needs_checking": 409, "finished": 409, "nothing_to_undo": 409}
#: the screen's words before the reason of a move it did not record (a stale screen says why alone)
NOT_RECORDED = "The move was not recorded: "


def pairs(fields):
    """A form's fields as the browser's FormData lists them: ``[[name, value], ...]``, a list
    value as the field repeated."""
    out = []
    for name, value in fields.items():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            out.append([name, str(v)])
    return out


def queue(client, table_id, action, fields, after, client_id=None):
    """The outbox's request for one queued form (``fields``: a dict, or ``[name, value]`` pairs)."""
    entry = {"action": action, "fields": fields if isinstance(fields, list) else pairs(fields), "after": after,
             "client_id": client_id or f"queued-{next(_client_ids)}"}
    return client.post(f"/api/v1/tables/{table_id}/queued", json={"flash": True, "moves": [entry]})


def seq(app, table_id):
    with session_scope(app.extensions["facilitator.engine"]) as s:
        return services.load(s, table_id).seq


def log(app, table_id):
    """The table's log: ``[(seq, kind, move without its time)]``."""
    with session_scope(app.extensions["facilitator.engine"]) as s:
        rows = services.load(s, table_id).log
        return [(r.seq, r.kind, {k: v for k, v in json.loads(r.data).items() if k != "at"} if r.data else None)
                for r in rows]


def by_screen(app, client, table_id, action, fields):
    """What the screen's POST does with the form: ``("recorded", move)`` or ``("refused", status,
    reason)`` (the reason as the queued answer words it)."""
    before = log(app, table_id)
    page = pages.Page(pages.send(client, action, fields))
    if page.status == 303:
        after = log(app, table_id)
        assert after[:-1] == before and len(after) == len(before) + 1, "a screen's move added one row"
        return "recorded", after[-1][2]
    assert log(app, table_id) == before, f"a refused form changed the table: {page.status} {page.error}"
    reason = page.error
    return "refused", page.status, reason[len(NOT_RECORDED):] if reason.startswith(NOT_RECORDED) else reason


def by_queue(app, client, table_id, action, fields, after):
    """What the queued-forms endpoint does with the same form, read the same way."""
    before = log(app, table_id)
    answer = queue(client, table_id, action, {k: v for k, v in fields.items() if k != "after"}, after)
    assert answer.status_code in (200, 207), (answer.status_code, answer.get_data(as_text=True)[:500])
    data = answer.get_json()
    if data["refused"] is None:
        after_log = log(app, table_id)
        assert [r["already"] for r in data["recorded"]] == [False] and len(after_log) == len(before) + 1
        return "recorded", after_log[-1][2]
    assert log(app, table_id) == before, f"a refused queued form changed the table: {data['refused']}"
    refused = data["refused"]
    return "refused", STATUS.get(refused["code"], 422), refused["message"]


def both_ways(app, client, tables, action, fields):
    """The form ``fields`` posted to ``action`` (``{}`` for the table's id) through the screen on
    ``tables[0]`` and queued on ``tables[1]``, both at the same position; asserts both did the
    same and returns what they did."""
    screen_table, queued_table = tables
    after = fields.get("after", seq(app, screen_table))
    assert log(app, queued_table) == log(app, screen_table), "the two tables are not at one position"
    fields = dict(fields, after=after)
    screen = by_screen(app, client, screen_table, action.format(screen_table), fields)
    queued = by_queue(app, client, queued_table, action.format(queued_table), fields, after)
    assert screen == queued, f"the screen: {screen}\nqueued: {queued}"
    return screen

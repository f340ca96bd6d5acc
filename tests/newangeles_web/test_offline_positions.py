"""New Angeles' screen carries what the game waits for after the deals entered offline (issue
18, item 2): the live deal form's ``data-then`` and the positions on the page are
``rules/newangeles/answers``'s, and deals, recorded, leave the table where the page said."""

import json
from html.parser import HTMLParser

from facilitator.rules.newangeles import table_standing
from facilitator.rules.newangeles.answers import turn_answers

from tests.web.test_offline_positions import Positions

from tests.queued_forms import log, pairs

from .helpers import SEAT, deal_json, load, move_post, record, seated, submit

RESOURCES = ("energy", "entertainment", "tech", "consumables", "materials")


class NAPositions(Positions):
    """The positions as New Angeles draws them: a deal form drawn once per active player
    (``<template data-part>``) and put into each of that player's positions (``data-fill``,
    leading where the position says: its ``data-then``); an end of round's ``data-then-by``
    (``then_by``) and title. A position's forms read as the outbox shows them."""

    def __init__(self, html, client=None):
        self.parts, self.part, self.fills, self.titles, self.title = {}, None, {}, {}, None
        super().__init__(html, client)
        for key, (name, then) in self.fills.items():
            self.positions[key]["forms"] = [dict(f, then=then, fields=dict(f["fields"])) for f in self.parts[name]]
        for form in self.live:
            if not isinstance(form["then"], (str, type(None))):
                form["then_by"], form["then"] = form["then"], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "template" and "data-part" in a:
            self.part = self.parts.setdefault(a["data-part"], [])
        elif self.part is not None and tag == "form" and "data-move" in a:
            self.form = {"move": a["data-move"], "then": None, "then_by": None, "action": a["action"], "fields": {},
                         "cards": {}, "total": None, "choose": False, "offline": "data-offline" in a}
            self.part.append(self.form)
        elif self.part is None and "data-fill" in a:
            self.fills[self.key] = (a["data-fill"], a.get("data-then"))
        else:
            super().handle_starttag(tag, attrs)
            if tag == "form" and "data-move" in a:
                self.form["then_by"] = json.loads(a["data-then-by"]) if "data-then-by" in a else None
        if tag == "h2" and self.key:
            self.title = self.key

    def handle_data(self, data):
        if self.title:
            self.titles[self.title] = self.titles.get(self.title, "") + data

    def handle_endtag(self, tag):
        if tag == "h2":
            self.title = None
        if tag == "template":
            self.part = None
        super().handle_endtag(tag)


def look_up(tree, fields):
    """The key an end of round's ``data-then-by`` gives for the fields typed, as static/outbox.js
    looks it up (None: no answer; an "at least" node: "1" for a whole number at least so large,
    "" for a smaller one, an empty field holding its "empty" number)."""
    node = tree[0]
    for _ in tree:
        value = fields.get(node["on"], "")
        if "at_least" in node:
            typed = value.strip() or (str(node["empty"]) if "empty" in node else "")
            value = ("1" if int(typed) >= node["at_least"] else "") if typed.isdigit() else None
        found = node["is"].get(value) if value is not None else None
        if isinstance(found, str) or found is None:
            return found
        node = tree[found]
    return None


def positions(client, table_id):
    response = client.get(f"/na/table/{table_id}")
    assert response.status_code == 200
    return NAPositions(response.get_data(as_text=True), client)


def test_the_screen_names_who_is_active_after_each_deal_and_the_end_of_the_round(app, client):
    table_id = seated(app, client)
    answers = turn_answers(load(app, table_id).game)
    page = positions(client, table_id)
    assert page.start == answers["start"] and set(page.positions) == set(answers["positions"]) - {answers["start"]}
    key = next(f["then"] for f in page.live if f["move"] == "deal")
    assets = iter(("A01", "A02", "A03", "A04", "A05"))
    for _ in range(5):
        said = answers["positions"][key]
        game = load(app, table_id).game
        active, left = game.next()["active"], game.clockwise_from_left(game.next()["active"])
        # a deal the page could not know (countered, the counteroffer supported and winning): as said
        deal = deal_json(active, asset=next(assets), counters=[left[0]], support=[(left[-1], "counter", 2)])
        page_after = move_post(client, table_id, "deal", dict(deal, after=load(app, table_id).seq))
        assert page_after.status == 303, page_after.error
        nxt = load(app, table_id).game.next()
        if said["expects"] != "deal":
            break
        assert page.positions[key]["turn"] == said["active"]
        assert (nxt["expects"], nxt["active"], nxt["deal"]) == ("deal", said["active"], said["deal"])
        key = said["deal_then"]
    assert nxt["expects"] == said["expects"] == "end_round"


def test_deal_after_deal_and_the_end_of_the_round_are_entered_on_the_positions_forms(app, client):
    """Offline, the host enters the next active player's deal and the end of the round on the
    forms the page carries for them; sent in one run when the network returns (as the outbox
    sends them), each is recorded once, in order, where the page said: a position's deal posts
    its helper inputs as a tablet without JavaScript does, and the server folds and checks them."""
    table_id = seated(app, client, assets=3)
    client.get(f"/na/table/{table_id}?lang=en")
    answers = turn_answers(load(app, table_id).game)
    page = positions(client, table_id)
    start_seq = load(app, table_id).seq
    key = next(f["then"] for f in page.live if f["move"] == "deal")
    batch = [{"action": f"/na/table/{table_id}/move/deal", "after": start_seq,
              "fields": pairs(deal_json("Anna", asset="A01"))}]
    expected = [("deal", "Anna", "main", [])]  # (kind, active, the offer that won, counteroffers)
    assets = iter(("A02", "A03"))
    while answers["positions"][key]["expects"] == "deal":
        said = answers["positions"][key]
        forms = page.positions[key]["forms"]
        assert [f["move"] for f in forms] == ["deal"], forms
        form = forms[0]
        assert form["fields"]["active"] == said["active"] == page.positions[key]["turn"]
        assert form["then"] == said["deal_then"] and form["fields"]["ui"] == "1"
        assert form["action"] == f"/na/table/{table_id}/move/deal"
        active = said["active"]
        left = said["legal"]["order"]
        filled = {k: v for k, v in form["fields"].items() if k not in ("csrf_token", "after")}
        filled.update(asset=next(assets), ui_main_card="Security: Sweep",
                      **{f"ui_counter_{SEAT[left[0]]}": "Media: Ads", f"ui_sup_counter_{SEAT[left[-1]]}": "2"})
        batch.append({"action": form["action"], "after": start_seq + len(batch), "fields": pairs(filled)})
        expected.append(("deal", active, "counter", [left[0]]))
        key = said["deal_then"]
    assert answers["positions"][key]["expects"] == "end_round"
    (end,) = page.positions[key]["forms"]
    # what follows depends on its numbers: looked up in what the form says
    assert end["move"] == "end_round" and end["then"] is None and end["then_by"]
    assert 'name="next_assets"' in page.fragment and 'data-count-offline' in page.fragment
    filled = dict({f"production-{r}": "0" for r in ("energy", "entertainment", "tech", "consumables", "materials")},
                  event="", event_threat="", next_assets="2")
    batch.append({"action": end["action"], "after": start_seq + len(batch), "fields": pairs(filled)})
    for i, entry in enumerate(batch):
        entry["client_id"] = f"offline-{i}"
    answer = client.post(f"/api/v1/tables/{table_id}/queued", json={"flash": True, "moves": batch})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:1000]
    assert answer.get_json()["refused"] is None
    rows = log(app, table_id)[-len(batch):]
    assert [r[0] for r in rows] == list(range(start_seq + 1, start_seq + 1 + len(batch)))
    game = load(app, table_id).game
    # the deals by the players the page named, their counteroffers folded from the helpers, the
    # supported counteroffer winning as the engine counts it
    assert [(r[2]["type"], r[2]["active"], d.won_by, [c["player"] for c in r[2]["counteroffers"]])
            for r, d in zip(rows[:-1], game.deals)] == expected
    assert rows[-1][2] == {"type": "end_round", "production": {}, "next_assets": 2}
    assert load(app, table_id).game.label == "S2"


class Controls(HTMLParser):
    """Every control of each move form in an HTML text, by the form's ``data-move``: ``(tag,
    name, type, min, maxlength, required)`` in order: what the form posts and its bounds."""

    def __init__(self, html):
        super().__init__()
        self.forms, self.move = {}, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "data-move" in a:
            self.move = a["data-move"]
            self.forms.setdefault(self.move, [])
        elif self.move and tag in ("input", "select", "textarea") and a.get("name") not in ("csrf_token", "after"):
            self.forms[self.move].append((tag, a.get("name"), a.get("type"), a.get("min"), a.get("maxlength"),
                                          "required" in a))

    def handle_endtag(self, tag):
        if tag == "form":
            self.move = None


def by_hand(client, table_id, action, fields, after):
    """The form posted on the table's own screen as a tablet without JavaScript does: a deal
    whose helper fields were never counted is counted first, then recorded as counted."""
    kind = action.rsplit("/", 1)[-1]
    page = move_post(client, table_id, kind, dict(dict(fields), after=after))
    if page.status == 200 and kind == "deal":
        page = submit(client, page.form("/move/deal"))
    assert page.status == 303, (page.status, page.error)


def template_html(fragment, key):
    start = fragment.index(f'<template data-position="{key}"')
    return fragment[start:fragment.index("</template>", start)]


def test_the_next_rounds_deals_and_its_end_are_entered_on_the_positions_forms(app, client):
    """The network off from S1's second deal: the rest of S1 on the positions' forms, its end
    (zero production typed everywhere, no event threat, 4 asset cards), which leads where the
    page looks up for those numbers, S2's four deals (who is active, deal k of 4) and S2's end,
    past which the page must ask the server. Sent in one run when the network returns, each move
    is recorded once, in order, leaving the table where the page said; the standings are those of
    the same moves posted one by one on a second table's screens."""
    tables = seated(app, client, assets=3), seated(app, client, assets=3)
    table_id = tables[0]
    client.get(f"/na/table/{table_id}?lang=en")
    record(app, table_id, {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "Media: Ads"},
                           "counteroffers": [], "support": []})
    answers = turn_answers(load(app, table_id).game)
    page = positions(client, table_id)
    start_seq = load(app, table_id).seq
    key = next(f["then"] for f in page.live if f["move"] == "deal")
    entered = [("/na/table/{}/move/deal", pairs(deal_json("Boris", asset="A02")), key)]
    assets = iter(f"A{i:02d}" for i in range(3, 20))
    while answers["positions"][key]["expects"] == "deal":
        said = answers["positions"][key]
        (form,) = page.positions[key]["forms"]
        assert form["move"] == "deal" and form["offline"] and form["fields"]["active"] == said["active"]
        assert page.positions[key]["turn"] == said["active"]
        # the position's own title over the form it shares with that player's other positions
        assert " ".join(page.titles[key].split()) == f"Deal {said['deal']} of {said['of']} · {said['active']} is active"
        left = said["legal"]["order"]
        filled = {k: v for k, v in form["fields"].items() if k not in ("csrf_token", "after")}
        filled.update(asset=next(assets), ui_main_card="Security: Sweep",
                      **{f"ui_counter_{SEAT[left[0]]}": "Media: Ads", f"ui_sup_counter_{SEAT[left[-1]]}": "2"})
        entered.append(("/na/table/{}/move/deal", pairs(filled), form["then"]))
        key = form["then"]
    # the end of S1 on its position's form
    said = answers["positions"][key]
    assert (said["expects"], said["label"]) == ("end_round", "S1")
    (end,) = page.positions[key]["forms"]
    zero = dict({f"production-{r}": "0" for r in RESOURCES}, event="", event_threat="", next_assets="4")
    key = look_up(end["then_by"], zero)
    assert key is not None and answers["positions"][key]["label"] == "S2"
    # other numbers lead elsewhere, or nowhere the page knows: a takeover, 9 asset cards (past
    # the horizon), none while the game goes on
    takeover = look_up(end["then_by"], dict(zero, event_threat="13", next_assets=""))
    assert answers["positions"][takeover]["expects"] == "finish"
    assert look_up(end["then_by"], dict(zero, next_assets="9")) is None
    assert look_up(end["then_by"], dict(zero, next_assets="")) is None
    entered.append(("/na/table/{}/move/end_round", pairs(zero), key))
    while answers["positions"][key]["expects"] == "deal":
        said = answers["positions"][key]
        (form,) = page.positions[key]["forms"]
        assert (said["label"], said["of"], form["fields"]["active"]) == ("S2", 4, said["active"])
        filled = {k: v for k, v in form["fields"].items() if k not in ("csrf_token", "after")}
        filled.update(asset=next(assets), ui_main_card="Biotech: Clinic")
        entered.append(("/na/table/{}/move/deal", pairs(filled), form["then"]))
        key = form["then"]
    said = answers["positions"][key]
    assert (said["expects"], said["label"]) == ("end_round", "S2")
    (end2,) = page.positions[key]["forms"]
    assert end2["then"] is None and end2["then_by"] is None  # the horizon: the server says what follows
    entered.append(("/na/table/{}/move/end_round", pairs(dict(zero, **{"production-tech": "2"}, next_assets="2")),
                    None))
    assert len(entered) == 2 + 1 + 4 + 1  # the rest of S1, its end, S2's deals, S2's end

    # both end-of-round forms post what the server's own end-of-round screen posts, bounds and all
    record(app, tables[1], *[m for _, _, m in log(app, table_id)])
    live_end = Controls(template_html(page.fragment, next(k for k, p in answers["positions"].items()
                                                          if p.get("label") == "S1" and p["expects"] == "end_round")))
    for i, (action, fields, _) in enumerate(entered[:2]):
        by_hand(client, tables[1], action, fields, start_seq + i)
    screen = client.get(f"/na/table/{tables[1]}").get_data(as_text=True)
    assert Controls(screen).forms["end_round"] == live_end.forms["end_round"] != []

    batch = [{"action": action.format(table_id), "after": start_seq + i, "fields": fields, "client_id": f"off-{i}"}
             for i, (action, fields, _) in enumerate(entered)]
    answer = client.post(f"/api/v1/tables/{table_id}/queued", json={"flash": True, "moves": batch})
    assert answer.status_code == 200 and answer.get_json()["refused"] is None, answer.get_data(as_text=True)[:1000]
    rows = log(app, table_id)
    assert [r[0] for r in rows] == list(range(1, start_seq + 1 + len(entered)))
    # each move left the table where the page said
    from facilitator.rules.newangeles import Game, read_move
    game = load(app, table_id).game
    replayed = Game(game.pack, game.setup)
    for row in rows[:start_seq]:
        replayed.apply(read_move(row[2]))
    for row, (_, _, then) in zip(rows[start_seq:], entered):
        replayed.apply(read_move(row[2]))
        if then is None:
            continue
        said, nxt = answers["positions"][then], replayed.next()
        assert (nxt["expects"], replayed.label) == (said["expects"], said["label"])
        if nxt["expects"] == "deal":
            assert (nxt["active"], nxt["deal"], nxt["of"]) == (said["active"], said["deal"], said["of"])
    assert rows[start_seq + 2][2] == {"type": "end_round", "production": {}, "next_assets": 4}
    assert load(app, table_id).game.next()["expects"] == "demand_round"

    # the same moves posted one by one on the second table's screens: the same standings
    for i, (action, fields, _) in enumerate(entered[2:], start=2):
        by_hand(client, tables[1], action, fields, start_seq + i)
    assert table_standing(load(app, tables[1]).game) == table_standing(load(app, table_id).game)

"""New Angeles' screen carries what the game waits for after the deals entered offline (issue
18, item 2): the live deal form's ``data-then`` and the positions on the page are
``rules/newangeles/answers``'s, and deals, recorded, leave the table where the page said."""

from facilitator.rules.newangeles.answers import turn_answers

from tests.web.test_offline_positions import Positions

from tests.queued_forms import log, pairs

from .helpers import SEAT, deal_json, load, move_post, seated


def positions(client, table_id):
    response = client.get(f"/na/table/{table_id}")
    assert response.status_code == 200
    return Positions(response.get_data(as_text=True), client)


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
    assert end["move"] == "end_round" and end["then"] is None  # what follows depends on its numbers
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

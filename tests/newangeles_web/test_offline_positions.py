"""New Angeles' screen carries what the game waits for after the deals entered offline (issue
18, item 2): the live deal form's ``data-then`` and the positions on the page are
``rules/newangeles/answers``'s, and deals, recorded, leave the table where the page said."""

from facilitator.rules.newangeles.answers import turn_answers

from tests.web.test_offline_positions import Positions

from .helpers import deal_json, load, move_post, seated


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

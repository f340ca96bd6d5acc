"""New Angeles' move forms queued by the tablet's outbox are read as the screen's POST reads them
(the form's readers and their bounds, then the engine): the same moves recorded, the same
refused with the same words, nothing stored for a refused one (issue 18). A round that produced
nothing is a round; a capital change past the form's bound is a typing slip on every tablet."""

from tests.queued_forms import both_ways, log

from .helpers import deal_json, load, record, seated

MOVE = "/na/table/{}/move/"
RESOURCES = ("energy", "entertainment", "tech", "consumables", "materials")


def deal(active, asset):
    return {"type": "deal", "active": active, "asset": asset, "main": {"card": "Security: Sweep"},
            "counteroffers": [], "support": []}


def test_every_kind_of_form_is_read_the_same_with_and_without_javascript(app, client):
    tables = seated(app, client, assets=2), seated(app, client, assets=2)
    client.get(f"/na/table/{tables[0]}?lang=en")
    cases = [
        # a capital change of 10^12 is past the form's bound: refused both ways, nothing stored
        ("capital", {"player": "Anna", "amount": 10 ** 12, "reason": "other"}, ("refused", 400)),
        ("capital", {"player": "Anna", "amount": "ten", "reason": "other"}, ("refused", 400)),
        ("threat", {"amount": 1}, ("refused", 400)),  # its reason is required
        ("supply", {"changes-energy": 10 ** 7, "reason": "other"}, ("refused", 400)),
        ("capital", {"player": "Anna", "amount": -3, "reason": "other"}, ("recorded",)),
        ("deal", deal_json("Anna", asset="A10"), ("recorded",)),
        ("end_round", {"next_assets": 2}, ("refused", 422)),  # one more deal first
    ]
    for kind, fields, expected in cases:
        outcome = both_ways(app, client, tables, MOVE + kind, fields)
        assert outcome[:len(expected)] == expected, (kind, fields, outcome)
    assert "asset card(s) still need a deal" in outcome[2], outcome
    for table in tables:
        record(app, table, deal(load(app, table).game.first_player, "A11"))
    # the end of a round with zero production everywhere: typed as 0 in every field
    zero = dict({f"production-{r}": 0 for r in RESOURCES}, event="", event_threat="", next_assets=2)
    assert both_ways(app, client, tables, MOVE + "end_round", zero) == \
        ("recorded", {"type": "end_round", "production": {}, "next_assets": 2})
    assert load(app, tables[1]).game.label == "S2"
    assert log(app, tables[0]) == log(app, tables[1])

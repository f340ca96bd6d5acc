"""New Angeles' demand round after an end of round entered offline (issue 18, "offline to the
last tap"): the end of S2's lookup asks whether the production typed covers what the engine says
is short (``at_least`` nodes), the demand round it leads to is drawn as a form that posts what
the server's own demand form posts, says met or not (and a takeover) without the shortfall the
production typed changes, and leads to S3's deals; sent with the end of round in one run, both
are recorded once, in order, as the same forms posted one by one on a second table."""

import re

import pytest

from facilitator.rules.newangeles import table_standing
from facilitator.rules.newangeles.answers import turn_answers

from tests.queued_forms import log, pairs

from .helpers import load, record, seated
from .test_offline_positions import RESOURCES, Controls, by_hand, look_up, positions, template_html


def to_the_end_of_s2(app, table_id):
    """S1 and S2 played with unopposed deals, S1's end producing nothing: S2's end on the screen."""
    n = iter(range(1, 40))
    for _ in range(3):
        record(app, table_id, {"type": "deal", "active": load(app, table_id).game.next()["active"],
                               "asset": f"A{next(n):02d}", "main": {"card": "Media: Ads"}, "counteroffers": [],
                               "support": []})
    record(app, table_id, {"type": "end_round", "production": {}, "next_assets": 3})
    while load(app, table_id).game.next()["expects"] == "deal":
        record(app, table_id, {"type": "deal", "active": load(app, table_id).game.next()["active"],
                               "asset": f"A{next(n):02d}", "main": {"card": "Media: Ads"}, "counteroffers": [],
                               "support": []})
    assert load(app, table_id).game.next()["expects"] == "end_round"


@pytest.mark.parametrize("case", ["met", "short", "takeover"])
def test_the_demand_round_after_an_offline_end_of_round_is_the_servers_own_form(app, client, case):
    threat = 19 if case == "takeover" else 12  # 19 + DM2's 6 reaches 25: an unmet demand takes the city over
    tables = seated(app, client, threat=threat), seated(app, client, threat=threat)
    for t in tables:
        to_the_end_of_s2(app, t)
    table_id = tables[0]
    client.get(f"/na/table/{table_id}?lang=sv")
    game = load(app, table_id).game
    answers = turn_answers(game)
    short = game.demand_outcome()[1]
    page = positions(client, table_id)
    (live_end,) = [f for f in page.live if f["move"] == "end_round"]
    # what the host types: enough of every resource short, or one unit too little of one
    production = {f"production-{r}": str(short.get(r, 0)) for r in RESOURCES}
    if case != "met":
        production["production-tech"] = str(short["tech"] - 1)
    production["production-materials"] = ""  # an empty field produces nothing: not enough
    if case == "met":
        production["production-materials"] = str(short["materials"] + 2)
    filled = dict(production, event="", event_threat="", next_assets="3")
    key = look_up(live_end["then_by"], filled)
    said = answers["positions"][key]
    assert said["expects"] == "demand_round" and said["label"] == "D1"
    assert (said["met"], said["takeover"]) == (case == "met", case == "takeover")
    # anything but a whole number in a production field: no answer (the screen says it cannot tell)
    assert look_up(live_end["then_by"], dict(filled, **{"production-tech": "2.5"})) is None

    # the position names the form of its outcome (drawn once, shared with the positions of the
    # same outcome leading elsewhere) and where it leads
    fill = re.search(r'data-fill="([^"]+)" data-then="([^"]+)"', template_html(page.fragment, key))
    assert fill[2] == said["then"]
    # a form per outcome: met, short, a takeover (at threat 19 any shortfall takes the city over)
    assert len(re.findall(r'<template data-part="na-demand-', page.fragment)) == (2 if case == "takeover" else 3)
    start = page.fragment.index(f'<template data-part="{fill[1]}"')
    html = page.fragment[start:page.fragment.index("</template>", start)]
    (form,) = page.positions[key]["forms"]
    assert form["move"] == "demand_round" and form["action"] == f"/na/table/{table_id}/move/demand_round"
    assert form["then"] == said["then"]
    # met or not, for that production, never the shortfall the production typed changes
    assert ("Efterfrågan är mött" in html) == (case == "met")
    assert ("Med den inmatade produktionen möts inte efterfrågan: hotet stiger med 6." in html) == (case != "met")
    assert ("tar över" in html) == (case == "takeover")
    assert "Saknas" not in html  # the live screen's «Saknas: …» names what is short

    # the investments and the next card typed on the position's form
    inputs = {k: v for k, v in form["fields"].items() if k not in ("csrf_token", "after")}
    inputs.update({f"ui_inv_card_{i}": f"I0{i + 1}" for i in range(4)}, ui_inv_capital_1="3")
    if said["legal"]["next_demand"] == "required":
        inputs["ui_nd_code"] = "DM2"
    entered = [("/na/table/{}/move/end_round", pairs(filled)), ("/na/table/{}/move/demand_round", pairs(inputs))]

    # the second table: the end of round by hand, then the server's own demand form
    start = load(app, table_id).seq
    by_hand(client, tables[1], entered[0][0].format(tables[1]), entered[0][1], start)
    screen = client.get(f"/na/table/{tables[1]}?lang=sv").get_data(as_text=True)
    assert Controls(html).forms["demand_round"] == Controls(screen).forms["demand_round"] != []
    assert ("Saknas: " in screen) == (case != "met")  # the live screen says what is short: it knows
    by_hand(client, tables[1], entered[1][0].format(tables[1]), entered[1][1], start + 1)

    batch = [{"action": action.format(table_id), "after": start + i, "fields": fields, "client_id": f"d{i}"}
             for i, (action, fields) in enumerate(entered)]
    answer = client.post(f"/api/v1/tables/{table_id}/queued", json={"flash": True, "moves": batch})
    assert answer.status_code == 200 and answer.get_json()["refused"] is None, answer.get_data(as_text=True)[:800]
    assert [r["client_id"] for r in answer.get_json()["recorded"]] == ["d0", "d1"]
    rows = log(app, table_id)
    assert [r[0] for r in rows] == list(range(1, start + 3))
    assert [r[2] for r in rows] == [r[2] for r in log(app, tables[1])]
    assert table_standing(load(app, table_id).game) == table_standing(load(app, tables[1]).game)
    # where the page said: S3's first deal of 3, or the reveal
    game = load(app, table_id).game
    nxt, then = game.next(), answers["positions"][said["then"]]
    assert nxt["expects"] == then["expects"]
    if case == "takeover":
        assert game.ended_by == "threat"
    else:
        assert (game.label, nxt["active"], nxt["deal"], nxt["of"]) == (then["label"], then["active"], 1, 3)
    assert [r[2]["type"] for r in rows[-2:]] == ["end_round", "demand_round"]


def test_the_end_of_rounds_lookup_gives_the_demand_round_the_engine_then_plays_for_every_form():
    """The lookup the page walks (``screens.then_lookup``: at-least nodes for the production),
    for end-of-round forms filled every which way (fields left empty, produced more or less than
    is short, event threats, asset cards), read by the form's own reading and played by the
    engine: the position looked up is the demand round the engine then waits for (met or not, a
    takeover or not) or the game's end; a refused form, or one past the answers, has no answer."""
    import random

    from facilitator.games.newangeles.forms import end_round_move
    from facilitator.games.newangeles.screens import then_lookup
    from facilitator.rules.errors import RulesError
    from facilitator.rules.newangeles import read_move

    from tests.newangeles.helpers import make_game, reach, unopposed

    rng = random.Random(1818)
    game = make_game(threat=14)
    reach(game, "S2")
    while game.assets_left:
        unopposed(game)
    answers = turn_answers(game)
    end = answers["positions"][answers["start"]]
    tree = then_lookup(end["cases"], end.get("short"))
    seen, answered = set(), 0
    for _ in range(600):
        form = {f"production-{r}": rng.choice(["", "0", "1", "2", "3", "4", "6"]) for r in RESOURCES}
        if rng.random() < 0.2:  # exactly what is short, one resource perhaps one less
            form = {f"production-{r}": str(n) for r, n in end["short"].items()}
            if rng.random() < 0.5:
                r = rng.choice(list(end["short"]))
                form[f"production-{r}"] = str(end["short"][r] - 1)
        form["event_threat"] = rng.choice(["", "0", "3", "5", "11", "30"])
        form["next_assets"] = rng.choice(["", "1", "3", "6", "7"])
        key = look_up(tree, form)
        after = game.copy()
        try:
            after.apply(read_move(end_round_move(form, RESOURCES)))
        except RulesError:
            assert key is None, form
            continue
        if form["event_threat"] == "30" or form["next_assets"] == "7":
            assert key is None, form  # past the answers: the server says
            continue
        said = answers["positions"][key]
        if after.ended:
            assert said["expects"] == "finish"
            continue
        legal = {m["type"]: m for m in after.legal_moves()}["demand_round"]
        assert (said["expects"], said["met"], said["takeover"]) == ("demand_round", legal["met"], legal["takeover"])
        if not legal["takeover"]:
            then = answers["positions"][said["then"]]
            assert (then["label"], then["of"]) == ("S3", after.assets_left)
        seen.add((legal["met"], legal["takeover"]))
        answered += 1
    assert seen == {(True, False), (False, False), (False, True)} and answered > 150

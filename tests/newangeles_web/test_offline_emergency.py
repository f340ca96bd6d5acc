"""The deal forms of New Angeles' offline positions follow the emergency cards (issue 18): whose
card a deal form spends is looked up in what the form holds (``screens.spend_lookup``, built
from the engine's answers), and it is what the engine does with the deal the same form posts
(read through the form's own reading, ``forms.fold_deal``)."""

import itertools

import pytest

from facilitator.games.newangeles.forms import EMPTY_DEAL, deal_move, fold_deal
from facilitator.games.newangeles.screens import spend_lookup
from facilitator.rules.errors import RulesError
from facilitator.rules.newangeles import read_move
from facilitator.rules.newangeles.answers import emergency_answers

from tests.newangeles.helpers import make_game


def looked_up(tree, form):
    """The lookup as static/outbox.js walks it (a box not ticked posts nothing)."""
    node = tree[0]
    for _ in range(len(tree)):
        value = form.get(node["on"], "")
        if node.get("filled"):
            value = "1" if value.strip() else ""
        nxt = node["is"].get(value)
        if nxt is None or isinstance(nxt, str):
            return nxt
        node = tree[nxt]
    return None


@pytest.mark.parametrize("active", ["Anna", "Vera"])
def test_the_form_lookup_names_the_card_the_engine_spends_for_every_way_the_form_is_filled(active):
    game = make_game(assets=3, first=active)
    cards = emergency_answers(game)
    order = game.clockwise_from_left(active)
    seat_of = {p.name: p.seat for p in game.players}
    corp_of = {p.name: p.corp for p in game.players}
    tree = spend_lookup(cards["spend"][active], order, seat_of)
    checked = 0
    # each counteroffer row: passes, a card, the emergency box; the main offer's box; the winner
    for rows in itertools.product(("", "card", "emergency"), repeat=len(order)):
        for main_em, winner in itertools.product(("", "emergency"), ("", "main", "counter")):
            form = {"ui_main_card": "Security: Sweep", "winner": winner}
            if main_em:
                form["ui_main_kind"] = main_em
            for name, row in zip(order, rows):
                if row == "card":
                    form[f"ui_counter_{seat_of[name]}"] = f"card of {name}"
                elif row == "emergency":
                    form[f"ui_counter_em_{seat_of[name]}"] = "1"
            said = looked_up(tree, form)
            state = fold_deal(form, dict(EMPTY_DEAL, asset="A01", winner=winner), active, order, seat_of, corp_of)
            move = read_move(dict(deal_move(state, active), override_reason="as counted" if winner else None))
            if not winner:  # the count decides: a counteroffer wins with support, else the main offer
                move = read_move(deal_move(state, active))
            try:
                result = game.copy().apply(move)
            except RulesError:
                continue
            spent = [n for n, c in corp_of.items() if result.emergency.get(c) == "facedown"]
            if said is None:  # no answer only where the winner, not chosen, decides it
                assert not winner
                continue
            assert said == (spent[0] if spent else ""), (form, said, spent)
            checked += 1
    assert checked > 100


def test_the_reveal_reached_offline_is_a_form_that_keeps_the_sealed_rivals_sealed(app, client):
    """An end of round whose event takes the city over leads to the reveal's form: the rivals
    not sealed at setup are entered on it, a sealed one is only said to be sealed (its card is
    nowhere in the positions), and the form, sent, records the finish with the sealed card."""
    import re

    from tests.newangeles_web.helpers import load, record, seated
    def drawn(sealed):
        table_id = seated(app, client, assets=1, threat=12, rivals={"Vera": sealed})
        record(app, table_id, {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "Security: Sweep"},
                               "counteroffers": [], "support": []})
        client.get(f"/na/table/{table_id}?lang=sv")
        seq = load(app, table_id).seq
        html = client.get(f"/na/table/{table_id}/positions?after={seq}").get_data(as_text=True)
        return table_id, seq, html

    other_id, _, other = drawn("nbn")
    table_id, seq, html = drawn("globalsec")
    # nothing of the sealed card: the positions of two tables differing only in it are the same
    assert html.replace(f"/table/{table_id}/", "/table/N/") == other.replace(f"/table/{other_id}/", "/table/N/")
    live = re.search(r'data-live="([^"]*)"', html)[1]
    reveal = re.search(r'<template data-position="(\w+)"[^>]*>\s*<section class="panel na-reveal">(.*?)</template>',
                       html, re.S)
    assert reveal, html[:3000]
    form = reveal[2]
    assert 'data-then="over"' in form
    assert re.findall(r'name="rivals-(\w+)"', form) == ["Anna", "Boris", "Dmitri"]  # Vera's is sealed
    assert "data-sealed" in form and 'name="rivals-Vera"' not in form
    assert 'data-position="over"' in html
    assert live  # the live end of round's lookup is there
    takeover = load(app, table_id).game.pack.threat_max - 12
    # the end of round taking the city over, then the reveal, sent as the outbox sends them
    batch = [{"action": f"/na/table/{table_id}/move/end_round", "after": seq, "client_id": "e1",
              "fields": [["event_threat", str(takeover)], ["after", str(seq)]]},
             {"action": f"/na/table/{table_id}/move/finish", "after": seq + 1, "client_id": "f1",
              "fields": [["rivals-Anna", "nbn"], ["rivals-Boris", "jinteki"], ["rivals-Dmitri", "federalist"],
                         ["after", str(seq + 1)]]}]
    answer = client.post(f"/api/v1/tables/{table_id}/queued", json={"flash": True, "moves": batch})
    assert answer.get_json()["refused"] is None, answer.get_json()["refused"]
    assert [r["client_id"] for r in answer.get_json()["recorded"]] == ["e1", "f1"]
    game = load(app, table_id).game
    assert game.finished and game.rivals["Vera"] == "globalsec"

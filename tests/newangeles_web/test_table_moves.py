"""The table screen's other moves: capital, threat, supply, transfers and adjustments with
their reasons, the end of a standard round and a demand round (met and not met), undo; the
round track and the threat track on every screen; safe writes (stale, repeated)."""

import json
import re

from tests.newangeles_web.helpers import (get, load, move_post, post, record, screen, seated, seq, submit)


def deal(active, asset):
    return {"type": "deal", "active": active, "asset": asset, "main": {"card": "Security: Sweep"},
            "counteroffers": [], "support": []}


def play_round(app, table_id, assets=3):
    game = load(app, table_id).game
    for i in range(game.assets_left):
        record(app, table_id, deal(load(app, table_id).game.first_player, f"A{game.slot}{i}"))


def test_the_tracks_are_on_every_screen(app, client):
    table_id = seated(app, client, threat=12)
    for url in (f"/na/table/{table_id}", f"/na/table/{table_id}/final"):
        page = get(client, url)
        slots = re.findall(r'<li class="(standard|demand) (done|current|future)" data-slot="(\w+)"', page.html)
        assert [s[2] for s in slots] == ["S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"]
        assert [s[1] for s in slots][:2] == ["current", "future"]
        assert 'data-threat="12" data-threat-max="25"' in page.html
        assert len(re.findall(r'<i class="on">', page.html)) == 12
        assert 'data-seq="0"' in page.html and f'data-table="{table_id}"' in page.html


def test_capital_threat_supply_and_transfer_with_their_reasons(app, client):
    table_id = seated(app, client)
    page = screen(client, table_id)
    for kind in ("capital", "threat", "supply", "transfer", "adjust"):
        assert f'data-move="{kind}"' in page.html
    form = page.form("/move/capital")
    assert set(form.selects["reason"]) == {"contract", "action", "asset", "event", "other"}
    sent = submit(client, form, player="Boris", amount=2, reason="contract")
    assert sent.status == 303
    page = get(client, sent.response.location)  # where the host is sent: the table, saying what changed
    assert "Boris +2 capital → 12 (contract)" in " ".join(page.messages("ok"))
    below = submit(client, page.form("/move/capital"), player="Anna", amount=-11, reason="event")
    assert below.status == 422 and "capital Anna would be \u22121" in below.error.replace("-", "\u2212")
    assert 'value="-11"' in below.html  # the refused form keeps what was typed
    assert submit(client, screen(client, table_id).form("/move/threat"), amount=2, reason="illness").status == 303
    supply = screen(client, table_id).form("/move/supply")
    assert submit(client, supply, **{"changes-energy": 3, "reason": "action"}).status == 303
    page = screen(client, table_id)
    assert submit(client, page.form("/move/transfer"), **{"from": "Boris", "to": "Vera", "capital": 3}).status == 303
    game = load(app, table_id).game
    assert (game.by_name["Boris"].capital, game.by_name["Vera"].capital) == (9, 13)
    assert game.threat == 14 and game.supply["energy"] == 3
    refused = submit(client, screen(client, table_id).form("/move/threat"), amount=-20, reason="other")
    assert refused.status == 422 and "threat below 0" in refused.error
    refused = submit(client, screen(client, table_id).form("/move/capital"), amount="", reason="contract")
    assert refused.status == 400 and "Amount: a number is needed" in refused.error


def test_an_asset_changes_hands_and_an_adjust_needs_a_reason(app, client):
    table_id = seated(app, client)
    record(app, table_id, deal("Anna", "A05"))
    page = screen(client, table_id)
    form = page.form("/move/transfer")
    assert "assets[]" in page.html
    done = post(client, form.action, dict(form.fields, **{"from": "Anna", "to": "Boris", "assets[]": "A05"}))
    assert done.status == 303
    assert load(app, table_id).game.by_name["Boris"].assets == ["A05"]
    page = screen(client, table_id)
    form = page.form("/move/adjust")
    no_reason = submit(client, form, assets_left=1, reason="")
    assert no_reason.status == 400 and "Reason: this field is required" in no_reason.error
    removal = json.dumps({"Boris": ["A05"]})
    done = submit(client, form, assets_left=1, first_player="Dmitri", reason="asset card effect",
                  remove_assets=removal, **{"emergency-nbn": "facedown"})
    assert done.status == 303
    game = load(app, table_id).game
    assert game.assets_left == 3 and game.first_player == "Dmitri" and game.by_name["Boris"].assets == []
    assert game.by_name["Boris"].emergency == "facedown"


def test_threat_25_ends_the_game_at_once(app, client):
    table_id = seated(app, client, threat=20)
    page = screen(client, table_id)
    done = submit(client, page.form("/move/threat"), amount=7, reason="event", follow=True)
    assert "Threat reached 25: the U.S. government takes over. The game is over." in " ".join(done.messages("ok"))
    game = load(app, table_id).game
    assert game.threat == 25 and game.ended_by == "threat"
    assert not done.has_form("/move/deal") and not done.has_form("/move/capital")
    assert f'/na/table/{table_id}/finish?after=1' in done.html
    refused = move_post(client, table_id, "capital", {"after": 1, "player": "Anna", "amount": 1, "reason": "other"})
    assert refused.status == 422 and "the game ended by the takeover of the city" in refused.error


def test_the_end_of_a_round_and_its_refusals(app, client):
    table_id = seated(app, client, assets=2)
    page = screen(client, table_id)
    assert not page.has_form("/move/end_round")
    play_round(app, table_id)
    page = screen(client, table_id)
    assert page.has_form("/move/deal") is False and page.has_form("/move/end_round")
    form = page.form("/move/end_round")
    missing = submit(client, form, **{"production-energy": 2})
    assert missing.status == 422 and "Asset cards for the next round missing: the asset cards for S2 are needed" in missing.error
    assert 'value="2"' in missing.html
    negative = submit(client, form, **{"production-energy": "x"})
    assert negative.status == 400
    done = submit(client, form, follow=True, event="E07", event_threat=3, next_assets=3,
                  **{"production-energy": 2, "production-tech": 1})
    lines = " ".join(done.messages("ok"))
    assert "Production: Energy +2, Tech +1" in lines and "Event E07: threat +3" in lines
    assert "Round S1 is over; now S2" in lines
    game = load(app, table_id).game
    assert game.label == "S2" and game.threat == 15 and game.assets_left == 3 and game.supply["energy"] == 2
    assert re.search(r'class="standard done" data-slot="S1"', done.html)
    assert re.search(r'class="standard current" data-slot="S2"', done.html)


def demand_fields(page, investments, next_demand=None):
    form = page.form("/move/demand_round")
    fields = dict(form.fields)
    for i, (card, capital) in enumerate(investments):
        fields[f"ui_inv_card_{i}"] = card
        fields[f"ui_inv_capital_{i}"] = capital
    if next_demand:
        fields["ui_nd_code"] = next_demand
    return form, fields


def test_a_demand_round_not_met_adds_the_card_s_threat_and_reveals_the_next(app, client):
    table_id = seated(app, client, assets=1, threat=10)
    for production in ({"energy": 4, "entertainment": 3, "tech": 2, "consumables": 3, "materials": 2}, {}):
        play_round(app, table_id)
        record(app, table_id, {"type": "end_round", "production": production, "next_assets": 1})
    page = screen(client, table_id)
    assert load(app, table_id).game.label == "D1"
    assert 'data-met="0" data-threat-added="6"' in page.html
    assert "Short: Tech. Threat rises by 6." in page.text
    form, fields = demand_fields(page, [("I04", 3), ("I09", 2), ("I01", 5), ("I07", "")], "DM2")
    missing = post(client, form.action, dict(fields, ui_inv_card_3=""))
    assert missing.status == 422 and "investments missing a player: Dmitri" in missing.error
    done = post(client, form.action, fields)
    assert done.status == 303, done.error
    game = load(app, table_id).game
    assert game.threat == 16 and game.label == "S3" and game.by_name["Vera"].capital == 15
    assert game.supply["energy"] == 0 and game.demand_history[0]["short"] == {"tech": 1}


def test_a_demand_round_met_and_its_queued_json_form(app, client):
    table_id = seated(app, client, assets=1, threat=10)
    for production in ({"energy": 4, "entertainment": 3, "tech": 3, "consumables": 3, "materials": 2}, {}):
        play_round(app, table_id)
        record(app, table_id, {"type": "end_round", "production": production, "next_assets": 1})
    page = screen(client, table_id)
    assert 'data-met="1" data-threat-added="0"' in page.html and "The demand is met" in page.text
    form = page.form("/move/demand_round")
    investments = [{"player": n, "card": f"I0{i}", "capital": i}
                   for i, n in enumerate(("Anna", "Boris", "Vera", "Dmitri"))]
    queued = {"after": form.fields["after"], "investments": json.dumps(investments), "next_demand": json.dumps("DM2")}
    done = post(client, form.action, queued, follow=True)
    assert "Demand DM2 met" in " ".join(done.messages("ok"))
    game = load(app, table_id).game
    assert game.threat == 10 and game.label == "S3" and game.by_name["Dmitri"].capital == 13


def test_undo_and_stale_or_repeated_forms(app, client):
    table_id = seated(app, client)
    page = screen(client, table_id)
    capital = page.form("/move/capital")
    assert submit(client, capital, player="Anna", amount=1, reason="contract").status == 303
    again = submit(client, capital, player="Anna", amount=1, reason="contract", follow=True)
    assert "This move was already recorded; nothing was added." in again.text
    other = submit(client, capital, player="Anna", amount=3, reason="contract")
    assert other.status == 409 and "The move was NOT recorded" in other.error
    assert seq(app, table_id) == 1
    page = screen(client, table_id)
    undo = page.form("/undo")
    assert "data-undo" in page.html
    done = submit(client, undo, follow=True)
    assert "Move #1 (capital change) was undone" in " ".join(done.messages("ok"))
    assert load(app, table_id).game.by_name["Anna"].capital == 10
    assert submit(client, undo).status == 409  # the undo form drawn before is stale now

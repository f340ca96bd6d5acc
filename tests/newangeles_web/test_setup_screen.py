"""The setup screen (RULES.md §2): 4–6 corporations in clockwise order, capital and threat as
read off the board, the first player, the asset cards for S1, the demand card, optional sealed
rivals. Refusals are said next to their fields; a sealed rival is never shown again."""

import json

from tests.newangeles_web.helpers import (NAMES, get, load, new_table, post, record, screen, seated, setup_form)


def errors_for(page, field):
    import html
    import re
    return [html.unescape(m) for m in re.findall(rf'data-error-for="{re.escape(field)}">([^<]*)<', page.html)]


def test_the_setup_screen_offers_six_seats_the_corporations_and_the_demand_cards(app, client):
    table_id = new_table(app)
    page = get(client, f"/na/table/{table_id}/setup")
    assert page.status == 200
    form = page.forms[-1]
    assert {f"players-{i}-name" for i in range(6)} <= set(form.fields)
    corporations = {"", "jinteki", "nbn", "globalsec", "haas-bioroid", "weyland", "melange"}
    assert set(form.selects["players-0-corp"]) >= corporations
    assert "DM2" in form.selects["demand"] and "__other__" in form.selects["demand"]
    assert "federalist" in form.selects["players-0-rival"]
    assert 'data-table="%d"' % table_id in page.html


def test_a_table_is_seated_and_the_first_player_holds_the_token(app, client):
    table_id = seated(app, client, first="Vera", threat=14, assets=4)
    game = load(app, table_id).game
    assert game.names == list(NAMES)
    assert game.first_player == "Vera" and game.threat == 14 and game.assets_left == 4
    assert game.demand.code == "DM2"
    page = screen(client, table_id)
    assert "Vera is active" in page.text


def test_a_typed_demand_card_and_a_starting_supply(app, client):
    table_id = new_table(app)
    form = setup_form(demand="__other__", demand_code="X9", demand_threat=4, **{"demand-energy": 5, "supply-tech": 2})
    page = post(client, f"/na/table/{table_id}/setup", form)
    assert page.status == 303, page.html[:2000]
    game = load(app, table_id).game
    assert game.demand.code == "X9" and game.demand.threat == 4 and game.demand.target("energy") == 5
    assert game.supply["tech"] == 2


def test_refusals_are_said_next_to_their_fields(app, client):
    table_id = new_table(app)
    cases = [
        (setup_form(**{"players-1-corp": "jinteki"}), "players-1-corp",
         "corporation Jinteki is played by Anna and Boris"),
        (setup_form(threat=25), "threat", "threat 25 must be 0 to 24"),
        (setup_form(assets=0), "assets", "asset cards for S1 must be at least 1, got 0"),
        (setup_form(**{"players-2-capital": "ten"}), "players-2-capital", "“ten” is not a whole number"),
        (setup_form(**{"players-3-name": "", "players-3-corp": "nbn"}), "players-3-name",
         "a seat with a corporation or capital needs the player's name"),
        (setup_form(**{"players-0-name": "Boris"}), "players-1-name", "player name Boris is used twice"),
        (setup_form(rivals={"Anna": "weyland"}), "players-0-rival", "rival not in play: Anna's rival Weyland Consortium"),
        (setup_form(demand=""), "demand", "choose the revealed demand card, or type its targets"),
    ]
    for form, field, message in cases:
        page = post(client, f"/na/table/{table_id}/setup", form)
        assert page.status == 400, (field, page.status)
        assert message in errors_for(page, field), (field, page.html[:3000])
    three = setup_form(players=NAMES[:3])
    page = post(client, f"/na/table/{table_id}/setup", three)
    assert page.status == 400 and "3 players; the pack allows 4 to 6" in page.error
    assert load(app, table_id).game is None


def test_the_first_player_must_be_tapped(app, client):
    table_id = new_table(app)
    form = setup_form()
    del form["first_player"]
    page = post(client, f"/na/table/{table_id}/setup", form)
    assert page.status == 400
    assert "tap the player who holds the first-player token" in errors_for(page, "first_player")


def test_a_sealed_rival_is_never_shown_again_before_the_reveal(app, client):
    table_id = seated(app, client, rivals={"Vera": "federalist", "Boris": "nbn"})
    assert load(app, table_id).setup.sealed_rivals() == {"Vera": "federalist", "Boris": "nbn"}
    page = get(client, f"/na/table/{table_id}/setup")  # editing before the first move
    form = page.forms[-1]
    assert form.fields["players-2-rival"] == ""  # the select shows no choice
    assert " selected" not in page.html.split('name="players-2-rival"')[1].split("</select>")[0]
    assert "A rival card is sealed for this seat." in page.text
    # saved again without touching the rivals: they stay sealed as they were
    page = post(client, f"/na/table/{table_id}/setup", dict(form.fields, threat=13))
    assert page.status == 303
    setup = load(app, table_id).setup
    assert setup.sealed_rivals() == {"Vera": "federalist", "Boris": "nbn"} and setup.threat == 13
    table = screen(client, table_id)
    assert "federalist" not in table.html.lower() and "rival sealed" in table.text


def test_the_setup_is_locked_once_a_move_is_recorded_and_a_stale_setup_is_refused(app, client):
    table_id = seated(app, client)
    stale = get(client, f"/na/table/{table_id}/setup").forms[-1]
    assert post(client, f"/na/table/{table_id}/setup", dict(stale.fields, threat=11)).status == 303
    page = post(client, f"/na/table/{table_id}/setup", dict(stale.fields, threat=10))
    assert page.status == 409 and "changed on another device" in page.text
    record(app, table_id, {"type": "capital", "player": "Anna", "amount": 1, "reason": "contract"})
    page = post(client, f"/na/table/{table_id}/setup", setup_form(), follow=True)
    assert "The setup cannot change once moves are recorded" in page.text
    assert load(app, table_id).setup.threat == 11


def test_the_record_download_and_the_api_leave_the_sealed_rivals_out_until_the_reveal(app, client):
    """The game record a host downloads or a script reads is the record of the game so far,
    without the rival cards sealed at setup (RECORD.md: they are part of the reveal)."""
    table_id = seated(app, client, rivals={"Vera": "federalist", "Boris": "nbn"})
    download = client.get(f"/table/{table_id}/record.json")
    api = client.get(f"/api/v1/tables/{table_id}/record")
    assert (download.status_code, api.status_code) == (200, 200)
    for data in (download.get_json(), api.get_json()):
        assert data["format"] == "newangeles-record/1"
        players = {p["name"]: p for p in data["setup"]["players"]}
        assert set(players) == set(NAMES)
        assert not any(p.get("rival") for p in players.values()), players
        assert "federalist" not in json.dumps(data["setup"]).lower()  # (Boris's rival is a corporation)
    # while the host's own copy of the log keeps them for the reveal
    assert load(app, table_id).setup.sealed_rivals() == {"Vera": "federalist", "Boris": "nbn"}


def _edit(client, table_id, **changes):
    """The setup form as drawn for the table, posted with ``changes``."""
    form = get(client, f"/na/table/{table_id}/setup").forms[-1]
    return post(client, f"/na/table/{table_id}/setup", dict(form.fields, **changes))


def test_a_sealed_rival_is_never_told_by_a_refusal_nor_overwritten_by_a_guess(app, client):
    """Issue 20 item 8: before the first move a refusal may say that the setup conflicts with a
    sealed card, never whose card is what; a choice alone never replaces a seat's sealed card."""
    table_id = seated(app, client, rivals={"Vera": "federalist", "Boris": "nbn"})  # Vera seat 2, Boris seat 1
    sealed = {"Vera": "federalist", "Boris": "nbn"}
    # Anna (seat 0) given the card sealed for Vera: refused at Anna's seat, naming neither Vera nor the holder
    page = _edit(client, table_id, **{"players-0-rival": "federalist"})
    assert page.status == 400
    said = errors_for(page, "players-0-rival")
    assert said == ["This rival card conflicts with a card sealed for another seat (sealed cards are not shown)"]
    assert not errors_for(page, "players-2-rival") and "Vera" not in " ".join(said)
    # the same with Dmitri (seat 3, after Vera): still said at the seat typed, never at Vera's
    page = _edit(client, table_id, **{"players-3-rival": "federalist"})
    assert errors_for(page, "players-3-rival") and not errors_for(page, "players-2-rival")
    assert load(app, table_id).setup.sealed_rivals() == sealed
    # a guess at a sealed seat (right or wrong) is refused without saying which, and replaces nothing
    for guess in ("federalist", "jinteki"):
        page = _edit(client, table_id, **{"players-2-rival": guess})
        assert page.status == 400
        assert errors_for(page, "players-2-rival") == [
            "A rival card is sealed for this seat: tick «Replace the sealed card» to replace it, or leave the "
            "choice empty to keep it"]
        assert load(app, table_id).setup.sealed_rivals() == sealed
    # a corporation changed so that a sealed card no longer fits: said for the setup, not for a seat
    page = _edit(client, table_id, **{"players-1-corp": "weyland"})  # nobody plays nbn now, Boris's sealed card
    assert page.status == 400
    said = ("The setup conflicts with a rival card sealed before. Nothing was saved. Sealed cards are not shown: "
            "change the setup back, or enter every rival card again.")
    assert said in page.text and not [f for f in page.html.split('data-error-for="')[1:] if f.split('"')[0].endswith("-rival")]
    assert load(app, table_id).setup.sealed_rivals() == sealed
    # replacing a sealed card is a choice of its own
    page = _edit(client, table_id, **{"players-2-rival": "jinteki", "players-2-replace_rival": "1"})
    assert page.status == 303
    assert load(app, table_id).setup.sealed_rivals() == {"Vera": "jinteki", "Boris": "nbn"}

"""Same safe writes as «16/25»: every move form carries the sequence number it follows; a
refusal re-renders the turn screen with the engine's message and a status that says its kind
(400 malformed, 409 stale, 422 the rules refuse); a repeated form adds nothing; a page that
leads to a move is bound to the position it was drawn for."""

import re

from .helpers import Page, forms_with, game_of, get, move, play, post, seq_of, submit, turn
from .test_moves import card_page, drawn, option


def test_a_move_the_rules_refuse_is_422_with_the_rule_and_its_numbers(app, host, table):
    drawn(app, host, table)
    play(host, app, table, "play_activity", player="Aino", card="pelikampanja", target="ville")
    page = move(host, table, "play_activity", 2, player="Aino", card="hype_kampanja", target="ville")
    assert page.status == 422
    assert page.error == "The move was not recorded: P6: Ville already received an activity this turn (Pelikampanja)"
    assert forms_with(page, "end_turn"), "the refusal shows the turn screen again"
    assert seq_of(app, table) == 2
    page = move(host, table, "draw", 2, player="Bertta")
    assert page.status == 422 and "§3: not your turn: it is Aino's turn, not Bertta's" in page.error


def test_malformed_input_is_400(app, host, table):
    drawn(app, host, table)
    page = move(host, table, "play_event", 1, player="Aino", card="no_such_card")
    assert page.status == 400 and "move.card: unknown card 'no_such_card': the pack has no such card" in page.error
    page = move(host, table, "react", 1, player="Aino", card="taktinen_teko", to="three")
    assert page.status == 400 and "move.to: must be a move number (1 or more), got 'three'" in page.error
    page = move(host, table, "end_turn", "x", player="Aino")
    assert page.status == 400 and "The move was not recorded" in page.error
    page = move(host, table, "adjust", 1, changes="[{", reason="typo")
    assert page.status == 400 and "The move was not recorded" in page.error
    assert move(host, table, "teleport", 1).status == 404
    assert seq_of(app, table) == 1


def test_a_form_without_its_csrf_token_records_nothing(app, host, table):
    response = host.post(f"/ae/table/{table}/move/draw", data={"after": 0, "player": "Aino"})
    assert response.status_code == 400 and seq_of(app, table) == 0


def test_a_repeated_form_adds_nothing_and_says_so(app, host, table):
    (form,) = forms_with(turn(host, table), "draw")
    assert submit(host, form).status == 303
    again = submit(host, form, follow=True)
    assert again.status == 200 and "This move was already recorded; nothing was added." in again.messages("ok")
    assert seq_of(app, table) == 1


def test_a_form_drawn_before_another_move_is_409_and_records_nothing(app, host, table):
    page = turn(host, table)
    (draw,) = forms_with(page, "draw")
    (season,) = forms_with(page, "season")
    submit(host, draw)
    stale = submit(host, season)
    assert stale.status == 409
    assert "The table has changed on another device since this screen was drawn (move #0, now #1)" in stale.error
    assert seq_of(app, table) == 1 and game_of(app, table).season == 1


def test_a_bound_page_opened_after_the_table_moved_on_offers_no_live_button(app, host, table):
    drawn(app, host, table)
    card = card_page(host, table, "hahmo_kuolee")
    submit(host, option(card, "play_event", target="tommi"))
    old = get(host, f"/ae/table/{table}/card/hahmo_kuolee?after=1")
    assert old.status == 409 and 'data-status="moved-on"' in old.html
    assert "Move #2 was recorded since this screen was drawn: #2 Aino plays Hahmo kuolee → Tommi." in old.text
    assert "Nothing was recorded from this screen." in old.text and "Now: Aino plays." in old.text
    assert not forms_with(old, "play_event") and not any("/move/" in f.action for f in old.forms)
    for url in (f"/ae/table/{table}/react/taktinen_teko?after=1", f"/ae/table/{table}/ability/pare?after=0",
                f"/ae/table/{table}/adjust?after=1", f"/ae/table/{table}/finish?after=0"):
        page = get(host, url)
        assert page.status == 409 and not any("/move/" in f.action for f in page.forms), url
    later = get(host, f"/ae/table/{table}/card/hahmo_kuolee?after=9")
    assert later.status == 409 and "this screen was drawn for move #9" in later.text


def test_every_move_form_carries_its_type_after_and_token(app, host, table):
    drawn(app, host, table)
    for page in (turn(host, table), card_page(host, table, "bile", target="meira"),
                 get(host, f"/ae/table/{table}/ability/pare?after=1")):
        forms = re.findall(r'<form method="post" action="[^"]*/move/(\w+)"[^>]*data-move="(\w+)"', page.html)
        assert forms and all(a == b for a, b in forms), forms
        for f in page.forms:
            if "/move/" in f.action:
                assert f.fields["after"] == "1" and f.fields["csrf_token"]
    assert 'data-table="%d" data-seq="1"' % table in turn(host, table).html


def test_a_finished_game_refuses_every_move(app, host, table):
    play(host, app, table, "finish", reason="time")
    page = move(host, table, "draw", 1, player="Aino")
    assert page.status == 422 and "§4: game finished: a finished game accepts no moves" in page.error
    assert "Winner" in page.text  # the final screen, with the refusal
    undo = post(host, f"/ae/table/{table}/undo", {"after": 1})
    assert undo.status == 409 and "only the organizer can reopen it" in undo.error


def test_only_the_organizer_and_the_tables_host_open_it(app, host, anon_client, table):
    for url in (f"/ae/table/{table}", f"/ae/table/{table}/setup", f"/ae/table/{table}/final",
                f"/ae/table/{table}/card/pelikampanja", f"/ae/table/{table}/protocol.xlsx"):
        assert anon_client.get(url).status_code == 403, url
    assert anon_client.post(f"/ae/table/{table}/move/draw", data={"after": 0}).status_code in (400, 403)
    assert host.get("/ae/table/99999").status_code == 404
    from .helpers import engine
    from facilitator import services
    from facilitator.storage import session_scope
    with session_scope(engine(app)) as s:
        pin = services.get_table(s, table).pin
    tablet = app.test_client()
    token_page = Page(tablet.get("/pin"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', token_page.html).group(1)
    assert tablet.post("/pin", data={"pin": pin, "csrf_token": token}).status_code == 303
    assert tablet.get(f"/ae/table/{table}").status_code == 200
    other = Page(host.post("/ae/packs"))  # not a route: the organizer's pages are GET and upload only
    assert other.status == 405


def test_a_table_of_another_game_is_not_played_here(app, host):
    from web.helpers import THREE as LYCEUM_THREE
    from web.helpers import seated_table
    lyceum = seated_table(host, LYCEUM_THREE)
    response = host.get(f"/ae/table/{lyceum}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/table/{lyceum}")
    assert move(host, lyceum, "draw", 0, player="Аня").status == 404

"""The event day on the server (issue 9): every page that leads to a move is bound to the
position and the player it was drawn for; finishing is confirmed and the organizer can reopen a
finished table; a deferred card is asked for; a red card's redistribution is open; error pages
speak the screen's language and show a way on; a typed card code jumps to the card; a lone
host runs a table of their own; printed links use the public address; dates read 17.05.2025.

The browser side (the outbox in the page, the Back button in Chromium) is in tests/browser."""

import html
import io
import json
import re

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.eras import era_of_round

from .helpers import THREE, Page, csrf_token, each_case, get, pass_until, post, record, seated_table, seq, submit

pytestmark = pytest.mark.db


def load(app, table_id):
    """The table as the services replay it, its log read before the session closes (a log read
    later, from the closed session, would hold a connection nobody gives back)."""
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        table = services.load(s, table_id)
        table.undone  # noqa: B018 - reads the log now
        return table


def log_of(app, table_id):
    """The whole log as stored: what a refused request must leave as it was."""
    return [(r.seq, r.kind, r.data, r.undoes) for r in load(app, table_id).log]


def post_forms(page):
    return [f for f in page.forms if f.method == "post"]


def move_forms(page):
    """The forms of a page that would record something at a table (a move or an undo)."""
    return [f for f in post_forms(page) if "/move/" in f.action or f.action.endswith("/undo")]


def at_finish(app, table_id):
    """Pass every turn of the ten rounds: the game then waits for ``finish``."""
    return pass_until(app, table_id, lambda game: game.next() == {"player": None, "expects": "finish"})


# ----- 1. a page that leads to a move is bound to its position and player ------------------------
BORIS_DRAW = "/table/{t}/draw?color=green&after=1&player=Борис&card=L-G-02"


def test_a_draw_page_opened_again_after_its_card_was_played_says_so_and_offers_no_move(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"))
    url = BORIS_DRAW.format(t=table)
    live = get(host, url)
    assert live.status == 200
    form = live.form("/move/draw")
    assert (form.fields["after"], form.fields["player"], form.fields["card"]) == ("1", "Борис", "L-G-02")
    assert submit(host, form, decision="play").status == 303  # Борис plays it; Вика's turn now

    again = get(host, url)  # the Back button
    assert again.status == 409
    assert "Card L-G-02 was already played by Борис, move #2." in again
    assert "Now: turn of Вика." in again
    assert f'href="/table/{table}"' in again.html  # the current turn
    assert move_forms(again) == [] and "Вика draws" not in again

    before = log_of(app, table)
    refused = submit(host, form, decision="discard")  # the old page's form sent anyway
    assert refused.status == 409
    assert log_of(app, table) == before


def test_the_moved_on_page_speaks_russian_by_default(client):
    app = client.application
    table = seated_table(client, THREE)
    record(app, table, Move("pass", player="Аня"),
           Move("draw", player="Борис", color="green", card="L-G-02", decision="play"))
    page = get(client, BORIS_DRAW.format(t=table))
    assert page.status == 409
    assert "Карта L-G-02 уже сыграна (игрок Борис), ход №2." in page
    assert "Перейти к текущему ходу" in page and move_forms(page) == []


def test_a_draw_page_opened_for_another_player_or_position_is_not_live(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"))

    def check(name, url, status):
        page = get(host, url.format(t=table))
        assert page.status == status, page.status
        assert bool(page.has_form("/move/draw")) == (status == 200)
    each_case([
        ("bound to now", "/table/{t}/draw?color=green&after=1&player=Борис&card=L-G-02", 200),
        ("drawn for Аня", "/table/{t}/draw?color=green&after=1&player=Аня&card=L-G-02", 409),
        ("drawn before move #1", "/table/{t}/draw?color=green&after=0&player=Борис&card=L-G-02", 409),
        ("drawn for a later move", "/table/{t}/draw?color=green&after=7&player=Борис&card=L-G-02", 409),
    ], check)
    assert seq(app, table) == 1


@pytest.mark.parametrize("chosen", ["card=U-G-02", "card=L-G-02", "random=1"])
def test_a_link_that_does_not_say_whose_turn_it_was_never_offers_its_card(host, table, chosen):
    """The issue's own case: ``/table/1/draw?color=green&card=U-G-02`` (a link of the time before
    pages were bound, a bookmark, a typed address) opened at Вика's turn gives no live «Play»: the
    host chooses Вика's card again on her own draw screen."""
    app = host.application
    record(app, table, Move("pass", player="Аня"), Move("pass", player="Борис"))
    response = host.get(f"/table/{table}/draw?color=green&{chosen}")
    assert response.status_code == 303
    page = get(host, response.headers["Location"])
    assert page.status == 200 and not page.has_form("/move/draw")
    assert "after=2" in response.headers["Location"] and "card=" not in response.headers["Location"]
    assert page.messages("info") == ["The link did not say whose turn it was for, so its card was not taken: "
                                     "choose the green card for Вика again."]
    assert "Вика draws a green card" in page
    assert seq(app, table) == 2


def test_the_manual_card_page_is_bound_to_its_position_too(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"))
    url = f"/table/{table}/draw/manual?color=green&after=1&player=Борис"
    assert get(host, url).status == 200
    record(app, table, Move("pass", player="Борис"))
    page = get(host, url)
    assert page.status == 409
    assert "Move #2 was recorded since this screen was drawn: pass · Борис." in page
    assert post_forms(page) == []


def test_a_manual_card_form_sent_after_the_table_moved_on_draws_no_live_card(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"))
    form = get(host, f"/table/{table}/draw/manual?color=green&after=1&player=Борис").form("/draw/manual")
    record(app, table, Move("pass", player="Борис"))  # Вика's turn now
    page = submit(host, form, title="Кружок", conditions_intellect=1, gains_intellect=1)
    assert page.status == 409
    assert not page.has_form("/move/draw"), "a live «Play» for Вika, who never drew this card"


def test_the_finish_page_is_bound_to_its_position(host, table):
    app = host.application
    at_finish(app, table)
    after = seq(app, table)
    url = f"/table/{table}/finish?after={after}"
    assert get(host, url).has_form("/move/finish")
    record(app, table, Move("adjust", player="Вика", xp=100, reason="забытая карта"))
    page = get(host, url)
    assert page.status == 409
    assert f"Move #{after + 1} was recorded since this screen was drawn" in page
    assert move_forms(page) == []


# ----- 2. finishing asks first; the organizer reopens --------------------------------------------
def result_rows(page):
    """``{player: (bonus, final XP)}`` of a results table (a finish confirmation or final screen)."""
    rows = {}
    for name, cells in re.findall(r'<tr[^>]*data-player="([^"]+)">(.*?)</tr>', page.html, re.S):
        nums = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                for c in re.findall(r'<td class="num[^"]*">(.*?)</td>', cells, re.S)]
        bonus, final = nums[-2], nums[-1]
        rows[html.unescape(name)] = (int(bonus.replace("−", "-").replace("+", "").replace("\xa0", "")),
                                     int(final.replace("\xa0", "").replace(" ", "")))
    return rows


def test_finishing_is_a_link_to_a_confirmation_that_shows_the_engines_final_bonuses(host, table):
    app = host.application
    # Аня's future image (7 in every skill) met: she gets the 300 XP bonus
    record(app, table, Move("adjust", player="Аня", sp={"health": 4, "creativity": 5, "communication": 5,
                                                          "energy": 1}, reason="к образу будущего"))
    game = at_finish(app, table)
    after = seq(app, table)
    turn = get(host, f"/table/{table}")
    assert f'href="/table/{table}/finish?after={after}"' in turn.html
    assert not turn.has_form("/move/finish"), "one tap must not finish the game"

    confirm = get(host, f"/table/{table}/finish?after={after}")
    preview = game.finish_preview()
    expected = {p.name: (p.bonus(), p.xp + p.bonus()) for p in preview.players_in_order()}
    assert expected["Аня"][0] == 300
    assert result_rows(confirm) == expected
    assert seq(app, table) == after, "showing the confirmation records nothing"

    final = submit(host, confirm.form("/move/finish"), follow=True)
    assert final.status == 200 and load(app, table).game.finished
    assert result_rows(final) == expected


def finished_table(app, table_id):
    at_finish(app, table_id)
    record(app, table_id, Move("finish"))
    return seq(app, table_id)


def test_a_finished_game_has_no_undo_on_its_final_screen_and_refuses_one(host, table):
    app = host.application
    after = finished_table(app, table)
    final = get(host, f"/table/{table}/final")
    assert not final.has_form("/undo")
    page = post(host, f"/table/{table}/undo", {"after": after})
    assert page.status == 409
    assert "The game is finished: only the organizer can reopen it for a correction." in page.error
    assert seq(app, table) == after
    # a table of no event: the organizer reopens it from its final screen
    reopened = submit(host, final.form("/reopen"))
    assert reopened.status == 303 and reopened.response.headers["Location"].endswith(f"/table/{table}")
    assert not load(app, table).game.finished and load(app, table).log[-1].kind == "reopen"


def test_the_organizer_reopens_a_finished_table_for_a_correction_and_it_finishes_again(host):
    from tests.events.helpers import new_event
    app = host.application
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        table = services.events.add_table(s, services.events.get_event(s, event_id), "Стол 1").id
    from .helpers import post_setup
    assert post_setup(host, table, THREE).status == 303
    finish_seq = finished_table(app, table)

    page = post(host, f"/organizer/events/{event_id}/tables/{table}/reopen", {"after": finish_seq})
    assert page.status == 303 and page.response.headers["Location"].endswith(f"/table/{table}")
    loaded = load(app, table)
    last = loaded.log[-1]
    assert (last.kind, last.undoes, last.author) == ("reopen", finish_seq, "organizer")
    assert not loaded.game.finished

    turn = get(host, f"/table/{table}")
    assert turn.status == 200
    health = load(app, table).game.players["Борис"].skills["health"]
    submit(host, turn.form("/move/adjust"), player="Борис", **{"sp-health": 1}, reason="забытая карта")
    assert load(app, table).game.players["Борис"].skills["health"] == health + 1
    record(app, table, Move("finish"))
    assert load(app, table).game.finished
    protocol = workbook_text(host.get(f"/table/{table}/protocol.xlsx").get_data())
    assert "game reopened by the organizer" in protocol  # the first finish, taken back


def workbook_text(data):
    from openpyxl import load_workbook
    book = load_workbook(io.BytesIO(data), read_only=True)
    return " ".join(str(value) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
                    for value in row if value is not None)


def test_a_host_cannot_reopen_a_finished_table(app):
    from tests.events.helpers import host_browser, new_event
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        table = services.events.add_table(s, services.events.get_event(s, event_id), "Стол 1").id
        services.set_players(s, table, services.load(s, table).ruleset.read_setup(THREE))
    finish_seq = finished_table(app, table)
    tablet = host_browser(app, table)
    assert not get(tablet, f"/table/{table}/final").has_form("/reopen")
    page = post(tablet, f"/organizer/events/{event_id}/tables/{table}/reopen", {"after": finish_seq})
    assert page.status == 403
    assert seq(app, table) == finish_seq and load(app, table).game.finished


def test_a_pass_asks_first(host, table):
    turn = get(host, f"/table/{table}")
    chunk = re.search(r'<details class="pass-confirm">(.*?)</details>', turn.html, re.S)
    assert chunk and f'action="/table/{table}/move/pass"' in chunk.group(1)
    assert turn.html.count(f'action="/table/{table}/move/pass"') == 1  # no other pass button


# ----- 3. a deferred card is asked for -----------------------------------------------------------
def deferred_prompt(page):
    """The HTML of the turn screen's deferred-card prompt, or None."""
    start = page.html.find('class="deferred-prompt')
    return None if start < 0 else page.html[start:page.html.find('class="mover"', start)]


def test_the_holder_of_a_playable_deferred_card_is_asked_after_their_move_and_may_say_not_now(host, table):
    app = host.application
    # round 1: Аня (creativity 2) defers L-G-04 (creativity 3); round 2: she passes, then plays it?
    record(app, table, Move("draw", player="Аня", color="green", card="L-G-04", decision="defer"),
           Move("pass", player="Борис"), Move("pass", player="Вика"), Move("pass", player="Аня"))
    held = get(host, f"/table/{table}")
    assert "deferred-prompt" not in held.html
    assert ("Аня holds the deferred card «Школьная газета» but cannot play it now: creativity 2 < 3. "
            "It can be played until round 4.") in held

    record(app, table, Move("adjust", player="Аня", sp={"creativity": 1}, reason="карта другого игрока"))
    after = seq(app, table)
    asked = get(host, f"/table/{table}")
    prompt = deferred_prompt(asked)
    assert prompt is not None, "no prompt for the playable deferred card"
    assert f'action="/table/{table}/move/play_deferred"' in prompt
    assert f'href="/table/{table}?deferred=later-{after}"' in prompt
    assert "It can be played until round 4." in asked

    later = get(host, f"/table/{table}?deferred=later-{after}")
    assert "deferred-prompt" not in later.html
    assert submit(host, asked.form("/move/play_deferred")).status == 303
    assert load(app, table).game.players["Аня"].deferred is None


def test_a_card_deferred_in_round_9_is_playable_until_round_10_on_every_screen_and_sheet(host, table):
    from openpyxl import load_workbook
    app = host.application
    game = pass_until(app, table, lambda g: g.next() == {"player": "Аня", "expects": "main"}
                      and g.upcoming()[0] == 9)
    era = era_of_round(9).key
    card = next(c for c in game.pack.cards if c.era == era and game.shortfalls("Аня", c))
    record(app, table, Move("draw", player="Аня", color=card.color, card=card.code, decision="defer"))
    badge = get(host, f"/table/{table}")
    assert "until round 10" in badge and "until round 12" not in badge

    game = pass_until(app, table, lambda g: g.next() == {"player": "Аня", "expects": "main"})
    record(app, table, Move("pass", player="Аня"))
    held = get(host, f"/table/{table}")
    assert f"«{card.title}» but cannot play it now" in held and "It can be played until round 10." in held

    short = {s: need - have for s, have, need in load(app, table).game.shortfalls("Аня", card)}
    record(app, table, Move("adjust", player="Аня", sp=short, reason="к отложенной карте"))
    asked = get(host, f"/table/{table}")
    assert deferred_prompt(asked) is not None
    assert "It can be played until round 10." in asked and "round 12" not in asked

    sheet = load_workbook(io.BytesIO(host.get(f"/table/{table}/protocol.xlsx").get_data()))
    untils = []
    for ws in sheet.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.value in ("Playable until round", "Deferred until round"):
                    column = [ws.cell(r, cell.column).value for r in range(cell.row + 1, ws.max_row + 1)]
                    untils += [v for v in column if isinstance(v, int)]
    assert untils and set(untils) == {10}, untils


# ----- 4. a red card's redistribution is open ------------------------------------------------------
def test_a_red_cards_redistribution_is_shown_open_on_its_draw_page(host, table):
    app = host.application
    # L-R-02 «Защита проекта»: intellect 6, creativity 5, redistribute up to 3 SP
    record(app, table, Move("adjust", player="Аня", sp={"creativity": 3}, reason="к красной карте"))
    page = get(host, f"/table/{table}/draw?color=red&after=1&player=Аня&card=L-R-02")
    form = re.search(r'<form[^>]*data-move="draw"[^>]*>(.*?)</form>', page.html, re.S).group(1)
    assert 'name="redistribute-intellect"' in form
    assert "<details" not in form and 'class="redistribute open"' in form


# ----- 5. error pages in the screen's language, with a way on --------------------------------------
def test_error_pages_are_pages_with_a_way_on(app, client, anon_client, monkeypatch):
    table = seated_table(client, THREE)
    anon_client.get("/?lang=en")
    client.get("/?lang=en")

    def check(name, browser, method, url, status, way_on, words):
        response = browser.open(url, method=method)
        page = Page(response)
        assert page.status == status, page.status
        assert response.mimetype == "text/html"
        assert f'href="{way_on}"' in page.html, way_on
        assert words in page, page.text[:300]
        assert "Traceback" not in page.html and "Werkzeug" not in page.html
    each_case([
        ("403 a table without access", anon_client, "GET", f"/table/{table}", 403, "/pin",
         "This device has no access here"),
        ("404 no such page", anon_client, "GET", "/no/such/page", 404, "/", "There is no such page"),
        ("404 no such table", client, "GET", "/table/999999", 404, "/", "There is no such page"),
        ("405 a form's address opened", client, "GET", f"/table/{table}/undo", 405, "/",
         "This page cannot do that"),
        ("400 a form without its token", client, "POST", f"/table/{table}/timer", 400, f"/table/{table}",
         "The CSRF token is missing."),
    ], check)

    def boom(*args, **kwargs):
        raise RuntimeError("boom: a bug in a view")
    monkeypatch.setattr(services, "list_tables", boom)
    page = Page(client.get("/"))
    assert page.status == 500 and "Something went wrong on the server" in page
    assert "boom" not in page.html and "Traceback" not in page.html


def test_error_pages_speak_russian_by_default(app, client, anon_client):
    table = seated_table(client, THREE)

    def check(name, browser, method, url, status, english):
        page = Page(browser.open(url, method=method))
        assert page.status == status and '<html lang="ru">' in page.html
        assert english not in page, f"English on a Russian screen: {english!r}"
    each_case([
        ("403", anon_client, "GET", f"/table/{table}", 403, "This device has no access here"),
        ("404", anon_client, "GET", "/no/such/page", 404, "There is no such page"),
        ("405", client, "GET", f"/table/{table}/undo", 405, "This page cannot do that"),
        ("400", client, "POST", f"/table/{table}/timer", 400, "The request was not understood"),
    ], check)


def test_api_errors_are_json_with_a_stable_code(app, client, anon_client, monkeypatch):
    table = seated_table(client, THREE)

    def check(name, browser, method, url, status, code):
        response = browser.open(url, method=method)
        assert response.status_code == status
        assert response.is_json, response.get_data(as_text=True)[:200]
        assert response.get_json()["error"]["code"] == code
    each_case([
        ("no such endpoint", client, "GET", "/api/v1/no/such/thing", 404, "not_found"),
        ("no such table", client, "GET", "/api/v1/tables/999999", 404, "not_found"),
        ("no credential", anon_client, "GET", f"/api/v1/tables/{table}", 401, "unauthorized"),
        ("a write's address read", client, "GET", f"/api/v1/tables/{table}/undo", 405, "method_not_allowed"),
    ], check)

    def boom(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(services, "list_tables", boom)
    response = client.get("/api/v1/tables")
    assert response.status_code == 500 and response.get_json()["error"]["code"] == "server_error"


def test_the_favicon_is_an_svg_that_is_served(anon_client):
    response = anon_client.get("/favicon.ico")
    assert response.status_code in (301, 302, 308)
    icon = anon_client.get(response.headers["Location"])
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert b"<svg" in icon.get_data()


# ----- 6. a typed card code jumps to the card --------------------------------------------------------
def test_an_exact_card_code_jumps_to_the_card_and_a_title_still_lists(host, table):
    base = f"/table/{table}/draw?color=green&after=0&player=%D0%90%D0%BD%D1%8F"

    def check(name, query, jumps):
        response = host.get(f"{base}&q={query}")
        if jumps:
            assert response.status_code == 303
            target = response.headers["Location"]
            assert "card=L-G-01" in target and "after=0" in target
            assert get(host, target).has_form("/move/draw")
        else:
            page = Page(response)
            assert page.status == 200 and not page.has_form("/move/draw")
            assert "card=L-G-01" in page.html  # listed, to choose from
    each_case([("lg01", "lg01", True), ("dashed", "L-G-01", True), ("spaced", "l g 01", True),
               ("a title", "Школьная", False)], check)
    assert seq(host.application, table) == 0


# ----- 7. the lone host ------------------------------------------------------------------------------
def test_a_lone_host_creates_a_table_gets_it_and_opens_it_on_a_second_device_with_its_pin(app, anon_client):
    lone = anon_client
    lone.get("/?lang=en")
    start = get(lone, "/?game=lyceum-16-25")
    response = submit(lone, start.form("/tables"), name="Кружок 7Б")
    assert response.status == 303
    setup_url = response.response.headers["Location"]
    table = int(re.search(r"/table/(\d+)/setup", setup_url).group(1))
    setup = get(lone, setup_url)
    assert setup.status == 200
    pin = re.search(r"Its PIN is (\d+)", " ".join(setup.messages("ok"))).group(1)

    stranger = app.test_client()
    stranger.get("/?lang=en")
    assert stranger.get(setup_url).status_code == 403
    second = app.test_client()
    opened = post(second, "/pin", {"pin": pin}, token=csrf_token(second, "/pin"))
    assert opened.status == 303 and opened.response.headers["Location"].endswith(f"/table/{table}")
    assert second.get(setup_url).status_code == 200
    assert stranger.get(setup_url).status_code == 403


def test_importing_a_record_stays_the_organizers(app, anon_client):
    from tests.events.helpers import game_record
    body = json.dumps(game_record(0, 3, moves=4)[0]).encode()
    response = anon_client.post("/tables/import", data={"record": (io.BytesIO(body), "record.json"),
                                                        "csrf_token": csrf_token(anon_client)},
                                content_type="multipart/form-data")
    assert response.status_code == 403
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        assert services.list_tables(s) == []


# ----- 8. printed links use the public address --------------------------------------------------------
def sheet_addresses(pdf_bytes):
    """Every address printed on the access sheet (read back from the PDF's text)."""
    from pypdf import PdfReader
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf_bytes)).pages)
    return [m.start() for m in re.finditer("http", text)], text


def test_the_access_sheets_links_use_the_public_address(app, client):
    from tests.events.helpers import new_event
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        services.events.add_tables(s, services.events.get_event(s, event_id), ["Стол 1", "Стол 2"])
    url = f"/organizer/events/{event_id}/access.pdf"
    app.config["PUBLIC_URL"] = "http://192.168.10.5:8000"
    starts, text = sheet_addresses(client.get(url).get_data())
    assert len(starts) == 3, text  # the PIN page and the two host links
    assert all(text.startswith("http://192.168.10.5:8000/", i) for i in starts), text
    assert text.count("http://192.168.10.5:8000/t/") == 2
    app.config["PUBLIC_URL"] = None
    starts, text = sheet_addresses(client.get(url).get_data())
    assert len(starts) == 3 and "192.168.10.5" not in text


def through(client, host):
    """``client`` opening pages through another address of the server (its cookie goes along)."""
    client.set_cookie("session", client.get_cookie("session").value, domain=host)
    return f"http://{host}/"


def test_the_dashboard_warns_when_opened_through_localhost_without_a_public_address(app, client):
    from tests.events.helpers import new_event
    event_id = new_event(app)
    url = f"/organizer/events/{event_id}"
    local, lan = through(client, "127.0.0.1"), through(client, "192.168.10.5")
    app.config["PUBLIC_URL"] = None
    warned = client.get(url, base_url=local)
    assert warned.status_code == 200 and "data-localhost" in warned.get_data(as_text=True)
    assert "data-localhost" not in client.get(url, base_url=lan).get_data(as_text=True)
    app.config["PUBLIC_URL"] = "http://192.168.10.5:8000"
    quiet = client.get(url, base_url=local)
    assert quiet.status_code == 200 and "data-localhost" not in quiet.get_data(as_text=True)
    # the server found no network at start (or was told --host 127.0.0.1): its public address is
    # this machine's own, and the sheets would carry it whatever address the dashboard is open at
    app.config["PUBLIC_URL"] = "http://127.0.0.1:8000"
    page = client.get(url, base_url=lan).get_data(as_text=True)
    # said as it is: the public address set is the machine's own, not the page's address
    assert 'data-localhost="public"' in page and "http://127.0.0.1:8000" in page
    assert "This page is open through" not in page
    # a public address tablets can open: never a warning, whatever address the dashboard is open at
    app.config["PUBLIC_URL"] = "https://play.example.org"
    for base in (local, lan):
        assert "data-localhost" not in client.get(url, base_url=base).get_data(as_text=True)


@pytest.mark.parametrize("options, environment, lan, expected", [
    (["--public-url", "https://igra.example.org/"], None, "192.168.1.20", "https://igra.example.org"),
    ([], "http://10.0.0.5:9000", "192.168.1.20", "http://10.0.0.5:9000"),
    ([], None, "192.168.1.20", "http://192.168.1.20:8000"),  # the LAN address it prints at start
    ([], None, "127.0.0.1", "http://127.0.0.1:8000"),  # no network: the dashboard then warns
    (["--host", "127.0.0.1", "--port", "5000"], None, "192.168.1.20", "http://127.0.0.1:5000"),
])
def test_the_public_address_comes_from_the_option_the_environment_or_the_lan(monkeypatch, options, environment,
                                                                             lan, expected):
    import argparse
    from facilitator.web import commands
    parser = argparse.ArgumentParser()
    commands.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", *options])
    if environment:
        monkeypatch.setenv("FACILITATOR_PUBLIC_URL", environment)
    else:
        monkeypatch.delenv("FACILITATOR_PUBLIC_URL", raising=False)
    monkeypatch.setattr(commands, "lan_address", lambda: lan)
    assert commands.public_url(args) == expected


# ----- 9. dates ----------------------------------------------------------------------------------------
def test_the_event_date_reads_17_05_2025_in_russian(app, client):
    from tests.events.helpers import new_event
    event_id = new_event(app, "Турнир лицея", "2025-05-17")
    for url in ("/organizer/", f"/organizer/events/{event_id}"):
        page = get(client, url)
        assert "17.05.2025" in page and "2025-05-17" not in page.text, url


# ----- 10. an outbox file the organizer imports (the batch endpoint: test_api_v1_more.py) -------
def passes(*names, start=0, prefix="c"):
    """Queued passes as a tablet's outbox sends them: ``after`` and a client id each."""
    return [{"after": start + i, "move": {"type": "pass", "player": n}, "client_id": f"{prefix}{start + i}"}
            for i, n in enumerate(names)]


def test_the_organizer_imports_a_tablets_outbox_file(app, client):
    from tests.events.helpers import english, flashes, new_event, seated_table as event_table
    event_id = new_event(app)
    table = event_table(app, event_id, "Стол 1", moves=0)
    names = load(app, table).game.order
    moves = passes(names[0], names[1], names[0], names[2])  # the third is out of turn
    english(client)
    outbox = json.dumps({"format": "facilitator-outbox/1", "moves": moves}).encode()
    response = client.post(f"/organizer/events/{event_id}/tables/{table}/outbox",
                           data={"outbox": (io.BytesIO(outbox), "outbox.json"), "csrf_token": csrf_token(client)},
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200
    assert "Waiting moves of «Стол 1»: 2 recorded, 0 were already there." in flashes(response, "ok")
    assert any(m.startswith("Move 3 of the file was not recorded, nor any after it: ")
               for m in flashes(response, "error")), flashes(response)
    assert seq(app, table) == 2

    again = client.post(f"/organizer/events/{event_id}/tables/{table}/outbox",
                        data={"outbox": (io.BytesIO(outbox), "outbox.json"), "csrf_token": csrf_token(client)},
                        content_type="multipart/form-data", follow_redirects=True)
    assert "Waiting moves of «Стол 1»: 0 recorded, 2 were already there." in flashes(again, "ok")
    assert seq(app, table) == 2


def test_an_outbox_file_of_another_format_is_refused(app, client):
    from tests.events.helpers import english, flashes, new_event, seated_table as event_table
    event_id = new_event(app)
    table = event_table(app, event_id, "Стол 1", moves=0)
    english(client)

    def check(name, body):
        response = client.post(f"/organizer/events/{event_id}/tables/{table}/outbox",
                               data={"outbox": (io.BytesIO(body), "outbox.json"),
                                     "csrf_token": csrf_token(client)},
                               content_type="multipart/form-data", follow_redirects=True)
        assert response.status_code == 200
        assert any(m.startswith("Not a file of waiting moves") for m in flashes(response, "error"))
    each_case([("not JSON", b"{"), ("another format", json.dumps({"format": "x", "moves": []}).encode()),
               ("deep", b"[" * 100_000 + b"]" * 100_000)], check)
    assert seq(app, table) == 0

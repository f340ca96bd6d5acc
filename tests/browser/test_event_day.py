"""The event day on the host's tablet, in a real browser (issue 9, «How it is checked»).

Headless Chromium taps the real host screens of a ``facilitator serve`` (waitress) run in a
subprocess; what the server recorded is read from the same database through
``facilitator.services`` (or ``GET /api/v1/tables/<id>/record`` with the table's token):

1. the Back button never records a move for someone else: a draw page opened again from the
   history, or its address reloaded, says what happened and offers the current turn only;
2. finishing, passing and undoing ask first, and «no» changes nothing;
3. the deferred card prompt appears after the holder's move, plays the card, «Not now» hides it;
4. the outbox: moves tapped with the tablet offline, or with the server stopped, wait with a
   banner and a warning before leaving, go to the server in order when it is back, and are
   recorded exactly once (also when the server's answer is lost on the way back);
5. a queued move the server refuses stops the sending with its reason, the moves after it wait;
6. two tabs of one tablet share one outbox: every move is recorded once;
7. the downloaded waiting moves are recorded through the organizer's dashboard;
8. every control of the screens is a finger's size (44×44 px), nothing scrolls sideways and the
   «Last move» line is not cut, at 1024×768 and 768×1024 (screenshots under pytest's tmp_path).

One server (and its database) serves the whole module; the outbox test with the server stopped
starts it again on the same port and database. Chromium runs with its back/forward cache on, as
a tablet's Chrome does (Playwright turns it off by default), so the Back button restores a page
as it was left, scripts and forms alive.
"""

import json

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move, read_record, table_standing
from facilitator.rules.lyceum import replay
from tests.web.helpers import THREE

from .conftest import CHROMIUM, ORGANIZER_PASSWORD, at, chromium

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

LYCEUM = "lyceum-16-25"
SIZES = ((1024, 768), (768, 1024))
#: a wait for something the page does by itself (a sync, a reload); a tap's own wait is shorter
SYNC_MS = 8_000


@pytest.fixture(autouse=True)
def stacks_of_a_hung_test():
    """A test still running after 2 minutes prints every thread's stack (a tablet waiting forever
    for something is then seen, not only the job's timeout)."""
    import faulthandler
    faulthandler.dump_traceback_later(120, exit=False)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def engine(server):
    """The server's database, for the services in this process (setting up, reading the log)."""
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


@pytest.fixture(scope="module")
def event_id(engine):
    """Every table of the module belongs to one event (its dashboard imports outbox files)."""
    with services.db.session_scope(engine) as s:
        pack = services.packs.list_packs(s, LYCEUM)[0]
        return services.events.create_event(s, "День игры", "2026-12-01", pack).id


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium with its back/forward cache on, as on a tablet (Playwright turns
    it off by default): the Back button shows a page as it was left, scripts and forms alive."""
    with chromium(ignore_default_args=["--disable-back-forward-cache"]) as launched:
        yield launched


@pytest.fixture(scope="module")
def signed_in(browser, server):
    """The organizer's browser state (signed in, English screens): every tablet starts from it."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/organizer/login")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    assert "/login" not in page.url, page.inner_text("body")[:1000]
    # the language is kept in the session cookie, which every answer sends again: an answer to the
    # page before (its icon, say) may come after the switch and undo it; checked on the next page
    for _ in range(3):
        page.goto(f"{server.base}/?lang=en")
        page.goto(f"{server.base}/")
        if page.locator("html").get_attribute("lang") == "en":
            break
    assert page.locator("html").get_attribute("lang") == "en"
    state = context.storage_state()
    context.close()
    return state


@pytest.fixture
def context(browser, signed_in):
    """One tablet (its own cookies and storage), 1024×768, short waits."""
    ctx = browser.new_context(storage_state=signed_in, viewport={"width": 1024, "height": 768},
                              accept_downloads=True)
    ctx.set_default_timeout(5_000)
    ctx.set_default_navigation_timeout(10_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def tablet(context):
    return context.new_page()


# ----- the tables, through the services -------------------------------------------------------------
def db(engine):
    return services.db.session_scope(engine)


def new_table(engine, event_id, name, moves=()):
    """A table of the event seated with Аня, Борис and Вика (they play in that order), with
    ``moves`` recorded as if tapped earlier."""
    with db(engine) as s:
        event = services.events.get_event(s, event_id)
        table = services.events.add_table(s, event, name)
        services.set_players(s, table.id, services.load(s, table.id).ruleset.read_setup(THREE))
        table_id = table.id
    record(engine, table_id, *moves)
    return table_id


def record(engine, table_id, *moves):
    for move in moves:
        with db(engine) as s:
            services.record_move(s, table_id, move, services.load(s, table_id).seq)


def pass_until(engine, table_id, stop):
    """Pass turn after turn (allocating free SP on the way) until ``stop(game)``."""
    while True:
        game = game_of(engine, table_id)
        if stop(game):
            return game
        nxt = game.next()
        if nxt["expects"] == "allocate":
            move = Move("allocate", player=nxt["player"], sp={"health": game.players[nxt["player"]].pending})
        else:
            assert nxt["expects"] == "main", nxt
            move = Move("pass", player=nxt["player"])
        record(engine, table_id, move)


def game_of(engine, table_id):
    with db(engine) as s:
        return services.load(s, table_id).game


def log_of(engine, table_id):
    """The table's whole log as stored: ``(seq, kind, move without its time, undoes, client id)``."""
    with db(engine) as s:
        rows = services.tables.read_log(s, table_id)
        return [(r.seq, r.kind, plain(json.loads(r.data)) if r.data else None, r.undoes, r.client_id)
                for r in rows]


def plain(move):
    return {k: v for k, v in move.items() if k not in ("at", "note")}


def token_of(engine, table_id):
    with db(engine) as s:
        return services.get_table(s, table_id).token


def api_record(page, server, engine, table_id):
    """The table's game record as a script reads it: the API with the table's host token."""
    response = page.request.get(f"{server.base}/api/v1/tables/{table_id}/record",
                                headers={"Authorization": f"Bearer {token_of(engine, table_id)}"})
    assert response.ok, response.text()
    return response.json()


# ----- what the host sees -----------------------------------------------------------------------------
def turn_url(server, table_id):
    return f"{server.base}/table/{table_id}"


def tap(page, locator):
    """A tap that sends the page to another screen; waits for it."""
    with page.expect_navigation():
        locator.click()


def seq_shown(page):
    return int(page.locator("section.actions").get_attribute("data-seq"))


def wait_for_turn(page, server, table_id, seq):
    """The tablet is back on the turn screen of move ``seq`` (the outbox reloads it once empty)."""
    try:
        page.wait_for_url(lambda url: at(url, turn_url(server, table_id)), timeout=SYNC_MS)
        page.locator(f"section.actions[data-seq='{seq}']").wait_for(timeout=SYNC_MS)
    except Exception as err:  # said with what the tablet shows
        raise AssertionError(f"not back on the turn screen of move #{seq}: {page.url}, waiting: "
                             f"{outbox_lines(page)}, stored: {queued(page)}") from err


def shows_soon(locator, ms=3_000):
    """Whether ``locator`` shows within ``ms`` (a page that the tablet draws again by itself)."""
    from playwright.sync_api import TimeoutError as Timeout
    try:
        locator.wait_for(timeout=ms)
    except Timeout:
        return False
    return True


def flashes(page, category):
    return [" ".join(t.split()) for t in page.locator(f"[data-flash={category}]").all_inner_texts()]


def outbox_lines(page):
    return [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()]


def outbox_count(page):
    return " ".join(page.locator("#outbox .outbox-count").inner_text().split())


def queued(page):
    """The tablet's outbox as stored in the browser (shared by its tabs)."""
    return page.evaluate("""() => {
        const key = Object.keys(localStorage).find(k => /^facilitator\\.outbox\\.\\d+$/.test(k));
        return key ? JSON.parse(localStorage.getItem(key)) : [];
    }""")


def wait_queued(page, n):
    """``n`` moves wait, as the outbox lists them."""
    try:
        page.wait_for_function("n => document.querySelectorAll('#outbox li').length === n", arg=n, timeout=SYNC_MS)
    except Exception as err:  # said with what the tablet shows
        raise AssertionError(f"not {n} moves waiting: {outbox_lines(page)}") from err


def pass_for(page, player, double=False):
    """«Pass» for ``player``: open the confirmation, choose the player when moves wait (the
    hidden field became a choice), «Yes, pass» (``double``: tapped twice, as a nervous finger)."""
    box = page.locator("details.pass-confirm")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    choice = box.locator("select[name=player]")
    if choice.count():
        choice.select_option(player)
    else:
        assert box.locator("input[name=player]").get_attribute("value") == player
    if double:
        box.locator("button[type=submit]").dblclick()
    else:
        box.locator("button[type=submit]").click()


def adjust_for(page, player, xp, reason):
    box = page.locator(".secondary details:has(form[data-move=adjust])")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    form = box.locator("form")
    form.locator("select[name=player]").select_option(player)
    form.locator("input[name=xp]").fill(str(xp))
    form.locator("input[name=reason]").fill(reason)
    form.locator("button[type=submit]").click()


def screen_standing(page):
    """``{player: (xp, skills)}`` as the turn screen's player cards show them."""
    out = {}
    for card in page.locator("article.player").all():
        skills = {b.get_attribute("data-skill"): int(b.inner_text()) for b in card.locator("b[data-skill]").all()}
        out[card.get_attribute("data-name")] = (int(card.locator("[data-xp]").inner_text()), skills)
    return out


def replayed_standing(record_json):
    game = replay(read_record(record_json))
    return {p["name"]: (p["xp"], dict(game.players[p["name"]].skills)) for p in table_standing(game)["players"]}


def pass_move(player):
    return {"type": "pass", "player": player}


def as_posted(entry):
    """A waiting move as the outbox keeps it: the form's address (the move's kind) and the
    fields the form would post, empty ones and its ``after`` left out (no move is built on the
    tablet: the server reads the form)."""
    fields = {name: value for name, value in entry["fields"] if value != "" and name != "after"}
    return entry["action"].rsplit("/", 1)[-1], fields


def pass_form(player):
    return "pass", {"type": "pass", "player": player}


# ===== 1. the Back button never records a move for someone else =======================================
def test_the_back_button_after_a_played_card_says_what_happened_and_offers_only_the_current_turn(
        tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Назад", [Move("pass", player="Аня")])
    page = tablet
    page.add_init_script("window.addEventListener('pageshow', e => { window.__persisted = e.persisted; });")
    page.goto(turn_url(server, table))
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"

    # Борис draws a green card; the host types its code on the draw page
    tap(page, page.locator(".main-moves a.card-green"))
    assert page.locator("p.bound").get_attribute("data-player") == "Борис"
    page.locator("form.search input[name=q]").fill("L-G-02")
    tap(page, page.locator("form.search button[type=submit]"))
    card_url = page.url
    assert "card=L-G-02" in card_url and "after=1" in card_url, card_url
    decision = page.locator("form.decision")
    assert decision.locator("input[name=player]").get_attribute("value") == "Борис"
    decision.locator("button[value=play]").click()
    wait_for_turn(page, server, table, 2)
    assert page.locator("h2.mover").inner_text() == "Turn of Вика"
    log = log_of(engine, table)
    assert [(r[0], r[2]) for r in log] == [
        (1, pass_move("Аня")),
        (2, {"type": "draw", "player": "Борис", "color": "green", "card": "L-G-02", "decision": "play"})]

    def says_what_happened():
        moved_on = page.locator("section.moved-on")
        shows_soon(moved_on)  # a screen shown from the browser's cache is drawn again by the server
        how = page.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0]; "
                            "return [n.type, n.transferSize, window.__persisted]; })()")
        assert moved_on.count() == 1, f"{page.url} is not the moved-on page ({how}): {page.inner_text('main')[:300]}"
        text = " ".join(moved_on.inner_text().split())
        assert "Card L-G-02 was already played by Борис, move #2." in text, text
        assert "Now: turn of Вика." in text and "Nothing was recorded from this screen." in text, text
        assert page.locator("form[data-move], form[data-undo], form.decision, form[method=post]").count() == 0
        current = moved_on.locator("a.button.primary")
        assert current.get_attribute("href") == f"/table/{table}"

    # the Back button: the draw page drawn for Борис, opened again from the history (the
    # browser's back/forward cache restores it as it was left, as a tablet's Chrome does)
    page.go_back(wait_until="commit")
    assert "/draw?" in page.url and "after=1" in page.url, page.url
    says_what_happened()
    # twice: the turn screen of Борис's turn shows the table as it is now, Вика's turn
    page.go_back(wait_until="commit")
    assert at(page.url, turn_url(server, table))
    page.locator("section.actions[data-seq='2']").wait_for(timeout=3_000)
    assert page.locator("h2.mover").inner_text() == "Turn of Вика"
    assert page.locator("form[data-move=pass] input[name=player]").get_attribute("value") == "Вика"
    # and forward again to the draw page: what it offers is the current turn, and records nothing
    page.go_forward(wait_until="commit")
    says_what_happened()
    tap(page, page.locator("section.moved-on a.button.primary"))
    assert at(page.url, turn_url(server, table)) and seq_shown(page) == 2
    assert log_of(engine, table) == log

    # the card page's address opened again (a reload, a bookmark): the same
    response = page.goto(card_url)
    assert response.status == 409
    says_what_happened()
    page.reload()
    says_what_happened()
    assert log_of(engine, table) == log


# ===== 2. finishing, passing and undoing ask first ======================================================
def test_finishing_goes_through_a_confirmation_with_the_final_bonuses_and_not_yet_changes_nothing(
        tablet, server, engine, event_id):
    # Аня's future image (7 in every skill) is met: her bonus is +300 XP
    table = new_table(engine, event_id, "Финиш", [
        Move("adjust", player="Аня", sp={"health": 4, "creativity": 5, "communication": 5, "energy": 1},
             reason="к образу будущего")])
    game = pass_until(engine, table, lambda g: g.next()["expects"] == "finish")
    after = log_of(engine, table)[-1][0]
    preview = game.finish_preview()
    expected = {p.name: (p.bonus(), p.xp + p.bonus()) for p in preview.players_in_order()}
    assert expected["Аня"][0] == 300
    page = tablet
    page.goto(turn_url(server, table))
    assert page.locator("form[data-move=finish]").count() == 0, "one tap must not finish the game"
    tap(page, page.get_by_role("link", name="Finish the game and count the bonuses"))
    assert page.url == f"{server.base}/table/{table}/finish?after={after}"

    def shown_bonuses():
        rows = {}
        for row in page.locator("table.results tbody tr").all():
            bonus = row.locator("td:nth-last-child(2)").inner_text().replace("+", "").replace("−", "-").strip()
            rows[row.get_attribute("data-player")] = (int(bonus), int(row.locator("td.final-xp").inner_text()))
        return rows
    assert shown_bonuses() == expected
    log = log_of(engine, table)

    tap(page, page.get_by_role("link", name="Not yet: back to the table"))
    assert at(page.url, turn_url(server, table)) and seq_shown(page) == after
    assert log_of(engine, table) == log and not game_of(engine, table).finished

    tap(page, page.get_by_role("link", name="Finish the game and count the bonuses"))
    page.get_by_role("button", name="Yes, finish the game and count the bonuses").click()
    page.wait_for_url(f"{server.base}/table/{table}/final", timeout=SYNC_MS)
    assert game_of(engine, table).finished
    assert [r[2] for r in log_of(engine, table)] == [r[2] for r in log] + [{"type": "finish"}]
    assert shown_bonuses() == expected


def test_a_pass_opens_a_confirmation_before_anything_is_recorded(tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Пас")
    page = tablet
    page.goto(turn_url(server, table))
    confirm = page.locator("details.pass-confirm")
    yes = confirm.get_by_role("button", name="Yes, pass")
    assert not yes.is_visible()
    page.locator("#pass-button").click()  # «Pass»
    assert confirm.get_attribute("open") is not None and yes.is_visible()
    assert "Аня passes the turn and changes nothing?" in confirm.inner_text()
    page.wait_for_timeout(300)
    assert log_of(engine, table) == [] and at(page.url, turn_url(server, table))
    page.locator("#pass-button").click()  # «Pass» again folds the question: still nothing
    assert not yes.is_visible() and log_of(engine, table) == []

    # «Yes, pass» tapped twice (a nervous finger): one pass, and no "leave site?" (the first tap's
    # move shows the outbox for a moment, the second tap lands where a draw link now is)
    dialogs = []

    def seen(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()
    page.on("dialog", seen)
    page.locator("#pass-button").click()
    yes.dblclick()
    wait_for_turn(page, server, table, 1)
    page.wait_for_timeout(300)
    page.remove_listener("dialog", seen)
    assert dialogs == [], dialogs
    assert [(r[0], r[2]) for r in log_of(engine, table)] == [(1, pass_move("Аня"))]
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"


def test_undo_asks_first_and_a_no_changes_nothing(tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Отмена", [Move("pass", player="Аня"), Move("pass", player="Борис")])
    page = tablet
    page.goto(turn_url(server, table))
    dialogs = []

    def answer(dialog, accept):
        dialogs.append((dialog.type, dialog.message))
        dialog.accept() if accept else dialog.dismiss()

    log = log_of(engine, table)
    undo = page.get_by_role("button", name="Undo the last move")
    page.once("dialog", lambda d: answer(d, False))
    undo.click()
    page.wait_for_timeout(500)
    assert dialogs == [("confirm", "Undo the last move?")]
    assert log_of(engine, table) == log and at(page.url, turn_url(server, table)) and queued(page) == []
    assert page.locator("#outbox").is_hidden()

    page.once("dialog", lambda d: answer(d, True))
    undo.click()
    wait_for_turn(page, server, table, 3)
    assert dialogs == [("confirm", "Undo the last move?")] * 2, "one question per tap"
    after = log_of(engine, table)
    assert after[:2] == log and after[2][:2] == (3, "undo") and after[2][3] == 2
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"


def test_an_undo_tapped_on_the_tablet_says_which_move_was_undone(tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Что отменено", [Move("pass", player="Аня"), Move("pass", player="Борис")])
    page = tablet
    page.goto(turn_url(server, table))
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo the last move").click()
    wait_for_turn(page, server, table, 3)
    assert log_of(engine, table)[-1][1] == "undo"
    assert any(line.startswith("Move #2 (pass) was undone") for line in flashes(page, "ok")), flashes(page, "ok")


# ===== 3. the deferred card prompt ===============================================================
def test_the_deferred_card_prompt_appears_after_the_holders_move_plays_the_card_and_not_now_hides_it(
        tablet, server, engine, event_id):
    # round 1: Аня (creativity 2) defers L-G-04 «Школьная газета» (creativity 3, communication 2);
    # an adjustment gives her the creativity she lacked
    table = new_table(engine, event_id, "Отложенная", [
        Move("draw", player="Аня", color="green", card="L-G-04", decision="defer"),
        Move("pass", player="Борис"), Move("pass", player="Вика"),
        Move("adjust", player="Аня", sp={"creativity": 1}, reason="карта другого игрока")])
    page = tablet
    page.goto(turn_url(server, table))
    assert page.locator("h2.mover").inner_text() == "Turn of Аня"
    prompt = page.locator(".deferred-prompt")
    assert prompt.count() == 0, "no prompt before the holder's main move"

    pass_for(page, "Аня")  # her main move of round 2
    wait_for_turn(page, server, table, 5)
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"
    assert prompt.is_visible(), "no prompt for Аня's playable deferred card after her move"
    assert " ".join(prompt.locator("h2").inner_text().split()) == \
        "Аня can play the deferred card «Школьная газета» (L-G-04) now"
    assert "It can be played until round 4." in prompt.inner_text()

    # «Not now»: the prompt is gone, nothing recorded, the card still held
    log = log_of(engine, table)
    tap(page, prompt.get_by_role("link", name="Not now"))
    assert page.url == f"{turn_url(server, table)}?deferred=later-5"
    assert prompt.count() == 0 and page.locator("h2.mover").inner_text() == "Turn of Борис"
    assert log_of(engine, table) == log and game_of(engine, table).players["Аня"].deferred is not None

    # asked again on the turn screen (say, a moment later), the card is played from the prompt
    page.goto(turn_url(server, table))
    assert prompt.is_visible()
    xp = game_of(engine, table).players["Аня"].xp
    prompt.get_by_role("button", name="Аня: play the deferred card L-G-04").click()
    wait_for_turn(page, server, table, 6)
    assert log_of(engine, table)[-1][2] == {"type": "play_deferred", "player": "Аня"}
    anya = game_of(engine, table).players["Аня"]
    assert anya.deferred is None and anya.xp > xp
    assert prompt.count() == 0 and page.locator("h2.mover").inner_text() == "Turn of Борис"
    assert int(page.locator("article.player[data-name='Аня'] [data-xp]").inner_text()) == anya.xp


# ===== 4. the outbox: offline, or with the server stopped ===============================================
def connection(page):
    el = page.locator("#connection")
    return el.get_attribute("class").split()[-1], " ".join(el.inner_text().split())


def expect_waiting(page, n, banner):
    wait_queued(page, n)
    assert page.locator("#outbox").is_visible()
    assert outbox_count(page) == banner
    assert connection(page)[0] == "off"


def leaving_is_warned(page):
    """Leaving the page while moves wait asks first (the host answers «stay»)."""
    dialogs = []

    def stay(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()
    page.once("dialog", stay)
    url = page.url
    page.locator("header.topbar a.brand").click(no_wait_after=True)
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"], dialogs
    assert page.url == url


def test_every_host_screen_says_whether_the_tablet_is_online(context, tablet, server, engine, event_id):
    """Not only the turn screen: the results and the setup of a table too (screens that send no
    moves show the indicator alone)."""
    table = new_table(engine, event_id, "Индикатор")
    for url in (f"{server.base}/table/{table}/final", f"{server.base}/table/{table}/setup", f"{server.base}/pin"):
        tablet.goto(url)
        assert connection(tablet) == ("on", "online"), url
        context.set_offline(True)
        tablet.wait_for_function("document.getElementById('connection').textContent === 'offline'")
        assert connection(tablet) == ("off", "offline"), url
        context.set_offline(False)
        tablet.wait_for_function("document.getElementById('connection').textContent === 'online'")


def test_moves_tapped_offline_wait_and_are_recorded_once_in_order_when_the_tablet_is_back_online(
        context, tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Без связи")
    page = tablet
    page.goto(turn_url(server, table))
    assert connection(page)[0] == "on" and page.locator("#outbox").is_hidden()
    assert page.locator("form[data-move=pass] input[type=hidden][name=player]").count() == 1
    # the engine's answers arrive apart, once the screen is idle (the screen follows them offline)
    page.locator("#positions[data-start]").wait_for(state="attached", timeout=SYNC_MS)

    context.set_offline(True)
    page.wait_for_function("document.getElementById('connection').textContent === 'offline'")
    dialogs = []  # no tap taken by the outbox, not even a double one, asks "leave site?"

    def seen(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()
    page.on("dialog", seen)
    pass_for(page, "Аня", double=True)  # the first move's outbox moves the screen under the finger
    expect_waiting(page, 1, "No connection: 1 move is waiting to be sent")
    assert outbox_lines(page) == ["Аня: Pass · not checked"]
    # the screen follows the queue: Борис's turn, as the engine's answers on the page say
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"
    assert page.locator("form[data-move=pass] input[type=hidden][name=player]").get_attribute("value") == "Борис"
    pass_for(page, "Борис")
    expect_waiting(page, 2, "No connection: 2 moves are waiting to be sent")
    adjust_for(page, "Вика", 100, "забытая карта")
    expect_waiting(page, 3, "No connection: 3 moves are waiting to be sent")
    # a correction's outcome is not among the answers: the screen says so, the player is a choice
    assert page.locator("[data-answers-end]").count() == 1
    choice = page.locator("form[data-move=pass] select[name=player]")
    assert choice.locator("option").all_text_contents() == ["Аня", "Борис", "Вика"]
    pass_for(page, "Вика", double=True)  # a double tap is one move
    expect_waiting(page, 4, "No connection: 4 moves are waiting to be sent")
    page.wait_for_timeout(300)
    assert outbox_lines(page) == ["Аня: Pass · not checked", "Борис: Pass · not checked",
                                  "Вика: Host's correction · not checked", "Вика: Pass · not checked"]
    entered = [pass_move("Аня"), pass_move("Борис"),
               {"type": "adjust", "player": "Вика", "xp": 100, "reason": "забытая карта"}, pass_move("Вика")]
    waiting = queued(page)
    assert [as_posted(e) for e in waiting] == [pass_form("Аня"), pass_form("Борис"), (
        "adjust", {"player": "Вика", "xp": "100", "reason": "забытая карта"}), pass_form("Вика")]
    assert all(["after", str(e["after"])] in e["fields"] for e in waiting), "a form names the move it follows"
    assert [e["after"] for e in waiting] == [0, 1, 2, 3]
    assert len({e["client_id"] for e in waiting}) == 4
    page.remove_listener("dialog", seen)
    assert dialogs == [], dialogs
    leaving_is_warned(page)
    assert log_of(engine, table) == [], "nothing may reach the server while the tablet is offline"

    context.set_offline(False)
    wait_for_turn(page, server, table, 4)
    log = log_of(engine, table)
    assert [(r[0], r[1], r[2]) for r in log] == [(i + 1, "move", m) for i, m in enumerate(entered)]
    assert [r[4] for r in log] == [e["client_id"] for e in waiting], "each move once, by its client id"
    # the screen shows the new state: Аня's turn of round 2, Вика's 100 XP, nothing waiting
    assert page.locator("h2.mover").inner_text() == "Turn of Аня"
    assert page.locator("#outbox").is_hidden() and queued(page) == []
    assert connection(page)[0] == "on" and connection(page)[1].startswith("online · saved ")
    assert flashes(page, "ok"), "no word of what the moves changed"
    assert screen_standing(page) == replayed_standing(api_record(page, server, engine, table))
    assert screen_standing(page)["Вика"][0] == 100


def test_moves_tapped_while_the_server_is_stopped_are_recorded_once_in_order_when_it_is_back(
        tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Сервер выключен", [Move("pass", player="Аня")])
    page = tablet
    page.goto(f"{turn_url(server, table)}?lang=ru")
    assert page.locator("h2.mover").inner_text() == "Ходит Борис"
    # once the server is back, its first answer is lost on the way back (the Wi-Fi drops again):
    # the moves are recorded, the tablet does not know it and sends them again
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
            return
        from playwright.sync_api import Error as NoAnswer
        try:
            answer = route.fetch()
        except NoAnswer:  # the server is stopped
            route.abort("connectionrefused")
            return
        lost.append(answer.status)
        route.abort("connectionreset")
    batch = f"**/api/v1/tables/{table}/queued"
    page.route(batch, lose_the_first_answer)

    server.stop()
    try:
        pass_for(page, "Борис")
        wait_queued(page, 1)
        pass_for(page, "Вика")
        expect_waiting(page, 2, "Нет связи: 2 хода ждут отправки")
        lines = outbox_lines(page)  # (the move's name: test_the_waiting_moves_are_named_in_the_screens_language)
        assert len(lines) == 2 and lines[0].startswith("Борис: ") and lines[1].startswith("Вика: ")
        assert all(line.endswith(" · не проверено") for line in lines), lines
        pass_for(page, "Аня")
        expect_waiting(page, 3, "Нет связи: 3 хода ждут отправки")
        entered = [pass_move("Борис"), pass_move("Вика"), pass_move("Аня")]
        waiting = queued(page)
        assert [(e["after"], as_posted(e)) for e in waiting] == list(zip((1, 2, 3), map(pass_form, ("Борис", "Вика",
                                                                                                  "Аня"))))
        leaving_is_warned(page)
    finally:
        # the laptop is on again: the same port, the same database
        server.start()
    assert [r[0] for r in log_of(engine, table)] == [1]

    # the host taps «Send again» (else the tablet tries again by itself within 10 s); the lost
    # answer is retried by itself
    page.locator("#outbox button[data-outbox=retry]").click()
    wait_for_turn(page, server, table, 4)
    page.unroute(batch)
    assert lost == [200], "the first answer was not lost: the test did not test a repeat"
    log = log_of(engine, table)
    assert [(r[0], r[2]) for r in log[1:]] == [(2, entered[0]), (3, entered[1]), (4, entered[2])]
    assert [r[4] for r in log[1:]] == [e["client_id"] for e in waiting]
    assert page.locator("h2.mover").inner_text() == "Ходит Борис" and queued(page) == []
    assert screen_standing(page) == replayed_standing(api_record(page, server, engine, table))


def test_the_waiting_moves_are_named_in_the_screens_language(context, tablet, server, engine, event_id):
    """Named as the protocol names them (``words.move_name``), not by their record type."""
    from facilitator.i18n import use_locale
    from facilitator.rules.lyceum import Move
    from facilitator.games.lyceum.words import move_name
    table = new_table(engine, event_id, "Язык")
    page = tablet
    page.goto(f"{turn_url(server, table)}?lang=ru")
    context.set_offline(True)
    pass_for(page, "Аня")
    expect_waiting(page, 1, "Нет связи: 1 ход ждёт отправки")
    with use_locale("ru"):
        name = move_name(Move("pass", player="Аня"))
    assert name != "pass" and outbox_lines(page) == [f"Аня: {name} · не проверено"]


def test_moves_an_earlier_tablet_script_queued_are_still_sent_before_the_forms_queued_after_them(
        context, tablet, server, engine, event_id):
    """A tablet whose script was updated while moves waited: the record moves the earlier script
    queued go to the batch of record moves, then the forms queued on top of them, in order."""
    table = new_table(engine, event_id, "Обновление")
    page = tablet
    page.goto(turn_url(server, table))
    batch = f"**/api/v1/tables/{table}/moves/batch"
    page.route(batch, lambda route: route.abort("connectionrefused"))  # the Wi-Fi is down meanwhile
    page.evaluate("key => localStorage.setItem(key, JSON.stringify([{move: {type: 'pass', player: 'Аня'}, "
                  "after: 0, client_id: 'earlier-script-1', state: 'queued', at: new Date().toISOString()}]))",
                  f"facilitator.outbox.{table}")
    page.reload()
    wait_queued(page, 1)
    context.set_offline(True)
    page.unroute(batch)
    assert outbox_lines(page) == ["Аня: Pass · not checked"]
    pass_for(page, "Борис")
    expect_waiting(page, 2, "No connection: 2 moves are waiting to be sent")
    assert [e["after"] for e in queued(page)] == [0, 1]
    context.set_offline(False)
    wait_for_turn(page, server, table, 2)
    log = log_of(engine, table)
    assert [(r[2], r[4]) for r in log] == [(pass_move("Аня"), "earlier-script-1"),
                                           (pass_move("Борис"), log[1][4])] and log[1][4]
    assert queued(page) == []


# ===== 5. a refused queued move stops the sending with its reason =======================================
def engine_refusal(engine, table_id, move):
    """What the server says when the rules refuse ``move`` now (in English)."""
    from facilitator.i18n import translate_error, use_locale
    from facilitator.rules import IllegalMoveError
    game = game_of(engine, table_id).copy()
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(move)
    with use_locale("en"):
        return translate_error(refused.value)


def test_a_refused_queued_move_stops_the_sending_with_its_reason_and_the_host_fixes_the_queue(
        context, tablet, server, engine, event_id):
    table = new_table(engine, event_id, "Отказ")
    page = tablet
    page.goto(turn_url(server, table))
    context.set_offline(True)
    pass_for(page, "Аня")
    wait_queued(page, 1)
    adjust_for(page, "Вика", -100, "опечатка")  # wrong: Вика has no XP to take
    wait_queued(page, 2)
    pass_for(page, "Борис")
    expect_waiting(page, 3, "No connection: 3 moves are waiting to be sent")
    waiting = queued(page)

    context.set_offline(False)
    # a refusal is no lost connection: the tablet says it is online, the screen is drawn again at
    # the table's real state (Аня's pass recorded: Борис's turn), the refused move listed with why
    wait_for_turn(page, server, table, 1)
    page.locator("#outbox li.refused").wait_for(timeout=SYNC_MS)
    log = log_of(engine, table)
    assert [(r[0], r[2], r[4]) for r in log] == [(1, pass_move("Аня"), waiting[0]["client_id"])]
    reason = engine_refusal(engine, table, Move("adjust", player="Вика", xp=-100, reason="опечатка"))
    assert outbox_lines(page) == [f"Вика: Host's correction · refused: {reason}", "Борис: Pass · not checked"]
    assert outbox_count(page) == "2 moves are waiting to be sent"
    assert connection(page) == ("on", "online")
    assert page.locator("h2.mover").inner_text() == "Turn of Борис"
    assert [e["state"] for e in queued(page)] == ["refused", "queued"]
    page.wait_for_timeout(2_500)  # a retry would have come by now
    assert log_of(engine, table) == log, "a move after the refused one was sent"
    assert at(page.url, turn_url(server, table))

    # the host deletes from the end: Борис's pass, then Вика's refused one (the screen is drawn
    # again, nothing waiting), and taps Борис's again
    drop = page.get_by_role("button", name="Delete the last waiting move")
    drop.click()
    assert outbox_lines(page) == [f"Вика: Host's correction · refused: {reason}"]
    with page.expect_navigation():
        drop.click()
    wait_for_turn(page, server, table, 1)
    assert queued(page) == [] and page.locator("#outbox").is_hidden()
    assert log_of(engine, table) == log
    pass_for(page, "Борис")
    wait_for_turn(page, server, table, 2)
    assert [r[2] for r in log_of(engine, table)] == [pass_move("Аня"), pass_move("Борис")]
    assert page.locator("h2.mover").inner_text() == "Turn of Вика" and queued(page) == []


# ===== 6. two tabs, one outbox ==========================================================================
def test_two_tabs_of_one_tablet_share_one_outbox_and_every_move_is_recorded_once(context, server, engine,
                                                                                event_id):
    table = new_table(engine, event_id, "Две вкладки")
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.goto(turn_url(server, table))
    context.set_offline(True)
    pass_for(first, "Аня")
    wait_queued(second, 1)  # the other tab shows the same outbox
    pass_for(second, "Борис")
    wait_queued(first, 2)
    pass_for(first, "Вика")
    wait_queued(second, 3)
    adjust_for(second, "Аня", 100, "поправка со второй вкладки")
    for tab in (first, second):
        expect_waiting(tab, 4, "No connection: 4 moves are waiting to be sent")
    waiting = queued(first)
    entered = [pass_move("Аня"), pass_move("Борис"), pass_move("Вика"),
               {"type": "adjust", "player": "Аня", "xp": 100, "reason": "поправка со второй вкладки"}]
    assert [(e["after"], as_posted(e)) for e in waiting] == list(zip(range(4), [
        pass_form("Аня"), pass_form("Борис"), pass_form("Вика"),
        ("adjust", {"player": "Аня", "xp": "100", "reason": "поправка со второй вкладки"})]))
    assert len({e["client_id"] for e in waiting}) == 4

    context.set_offline(False)  # both tabs are online at the same moment
    for tab in (first, second):
        wait_for_turn(tab, server, table, 4)
    log = log_of(engine, table)
    assert [(r[0], r[1], r[2]) for r in log] == [(i + 1, "move", m) for i, m in enumerate(entered)]
    assert [r[4] for r in log] == [e["client_id"] for e in waiting]
    for tab in (first, second):
        pytest.importorskip("playwright.sync_api").expect(tab.locator("#outbox")).to_be_hidden(timeout=SYNC_MS)  # the other tab redraws a moment later
        assert queued(tab) == [] and screen_standing(tab)["Аня"][0] == 100
    # the next move, tapped in either tab, follows the last one recorded
    pass_for(second, "Аня")
    wait_for_turn(second, server, table, 5)
    assert log_of(engine, table)[-1][:3] == (5, "move", pass_move("Аня"))


# ===== 7. the downloaded waiting moves, recorded through the organizer's dashboard ======================
def test_the_downloaded_waiting_moves_are_recorded_through_the_organizers_dashboard(
        context, tablet, browser, signed_in, server, engine, event_id, tmp_path):
    table = new_table(engine, event_id, "Файл ходов")
    page = tablet
    page.goto(turn_url(server, table))
    context.set_offline(True)
    pass_for(page, "Аня")
    wait_queued(page, 1)
    pass_for(page, "Борис")
    expect_waiting(page, 2, "No connection: 2 moves are waiting to be sent")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the waiting moves").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == f"unsent-moves-table-{table}.json"
    data = json.loads(path.read_text("utf-8"))
    waiting = queued(page)
    assert data["format"] == "facilitator-outbox/2" and data["table"] == table
    assert data["table_name"] == "Файл ходов"
    assert data["moves"] == [{"action": e["action"], "fields": e["fields"], "after": e["after"],
                              "client_id": e["client_id"]} for e in waiting]
    assert [as_posted(m) for m in data["moves"]] == [pass_form("Аня"), pass_form("Борис")]

    # the organizer records the file on the event's dashboard (the tablet is still offline)
    organizer = browser.new_context(storage_state=signed_in, viewport={"width": 1024, "height": 768})
    organizer.set_default_timeout(5_000)
    try:
        desk = organizer.new_page()
        desk.goto(f"{server.base}/organizer/events/{event_id}")
        # the table's row on the dashboard: its «⋯» leads to what the organizer can do with it
        more = desk.locator(f"tr[data-table='{table}'] td:last-child").locator("a, summary").filter(has_text="⋯")
        if more.evaluate("el => el.tagName") == "A":
            tap(desk, more)
        else:
            more.click()
        form = desk.locator(f"form[action='/organizer/events/{event_id}/tables/{table}/outbox']")
        form.locator("input[name=outbox]").set_input_files(str(path))
        tap(desk, form.locator("button[type=submit]"))
        assert desk.url == f"{server.base}/organizer/events/{event_id}"
        assert flashes(desk, "ok") == ["Waiting moves of «Файл ходов»: 2 recorded, 0 were already there."]
        assert flashes(desk, "error") == []
    finally:
        organizer.close()
    log = log_of(engine, table)
    assert [(r[0], r[2], r[4]) for r in log] == [(1, pass_move("Аня"), waiting[0]["client_id"]),
                                                 (2, pass_move("Борис"), waiting[1]["client_id"])]

    # the tablet back online: its moves are found recorded, not recorded again
    context.set_offline(False)
    wait_for_turn(page, server, table, 2)
    assert log_of(engine, table) == log and queued(page) == []
    assert page.locator("h2.mover").inner_text() == "Turn of Вика"


# ===== 8. tap targets, no sideways scroll, the «Last move» line whole ===================================
#: what a finger taps: links, buttons, fields, choices, folds, and a checkbox by its label
SCREEN_PROBLEMS = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth)
    problems.push(`scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
  const seen = new Set();
  const controls = document.querySelectorAll(
    "a, button, input:not([type=hidden]), select, textarea, summary, label");
  for (const el of controls) {
    let box = el;
    if (el.matches("label")) { if (!el.querySelector("input[type=checkbox]")) continue; }
    else if (el.matches("input[type=checkbox]")) box = el.closest("label") || el;
    if (seen.has(box)) continue;
    seen.add(box);
    const style = getComputedStyle(box);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const r = box.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.width < 44 || r.height < 44) {
      const label = (box.innerText || box.value || box.name || box.getAttribute("aria-label") || "").trim();
      problems.push(`${box.tagName.toLowerCase()}${box.className ? "." + box.className.split(" ").join(".") : ""}` +
                    ` «${label.slice(0, 40)}» ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  for (const last of document.querySelectorAll(".last")) {
    if (last.scrollWidth > last.clientWidth)
      problems.push(`the «Last move» line is cut: ${last.scrollWidth} > ${last.clientWidth}`);
  }
  return problems;
}"""


def screen_problems(page, name, shots):
    """Every problem of the screen at both tablet sizes (a screenshot of each)."""
    found = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"), full_page=True)
        found += [f"{name} at {width}×{height}: {p}" for p in page.evaluate(SCREEN_PROBLEMS)]
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return found


def test_every_control_is_a_fingers_size_nothing_scrolls_sideways_and_the_last_move_line_is_whole(
        context, tablet, server, engine, event_id, tmp_path):
    page = tablet
    problems = []

    # the turn screen after a red card with its redistribution (a long «Last move» line), and the
    # red card's draw page with the redistribution shown open
    table = new_table(engine, event_id, "Стол у большого окна в дальнем конце зала", [
        Move("adjust", player="Аня", sp={"creativity": 3}, reason="к красной карте")])
    red = f"{server.base}/table/{table}/draw?color=red&after=1&player=Аня&card=L-R-02"
    page.goto(red)
    assert page.locator("form.decision .redistribute.open input[name=redistribute-intellect]").is_visible()
    problems += screen_problems(page, "draw-red", tmp_path)
    form = page.locator("form.decision")
    form.locator("label.stepper:has(input[name=redistribute-health]) button.dec").click()
    form.locator("label.stepper:has(input[name=redistribute-communication]) button.inc").click()
    form.locator("button[value=play]").click()
    wait_for_turn(page, server, table, 2)
    page.reload()  # the move's lines were said by its confirmation; «Last move» says them on the next look
    assert page.locator(".last").is_visible()
    problems += screen_problems(page, "turn", tmp_path)
    allocate = page.locator("form.allocate")
    if allocate.count():  # Аня rose a level: her free SP first, by the + buttons
        total = int(allocate.locator(".skill-inputs").get_attribute("data-total"))
        for _ in range(total):
            allocate.locator("label.stepper:has(input[name=sp-health]) button.inc").click()
        allocate.locator("button[type=submit]").click()
        wait_for_turn(page, server, table, 3)
        problems += screen_problems(page, "turn-after-allocation", tmp_path)
    for fold in ("details.rest", "details.pass-confirm", ".secondary details:has(form[data-move=adjust])"):
        page.locator(f"{fold} > summary").click()
        problems += screen_problems(page, f"turn-{fold.split('.')[1].split(' ')[0].split(':')[0]}-open", tmp_path)
        page.locator(f"{fold} > summary").click()
    # the moved-on page: the red card's page opened again
    assert page.goto(red).status == 409
    problems += screen_problems(page, "moved-on", tmp_path)

    # the turn screen while moves wait (the outbox, the player choices)
    page.goto(turn_url(server, table))
    context.set_offline(True)
    pass_for(page, "Борис")
    wait_queued(page, 1)
    problems += screen_problems(page, "turn-waiting", tmp_path)
    page.get_by_role("button", name="Delete the last waiting move").click()
    context.set_offline(False)

    # the setup screen of a new table
    with db(engine) as s:
        fresh = services.events.add_table(s, services.events.get_event(s, event_id), "Новый стол").id
    page.goto(f"{server.base}/table/{fresh}/setup")
    assert page.locator("form.setup").is_visible()
    problems += screen_problems(page, "setup", tmp_path)

    # the finish confirmation and the final screen
    done = new_table(engine, event_id, "Финал")
    pass_until(engine, done, lambda g: g.next()["expects"] == "finish")
    after = log_of(engine, done)[-1][0]
    page.goto(f"{server.base}/table/{done}/finish?after={after}")
    assert page.locator("form[data-move=finish]").is_visible()
    problems += screen_problems(page, "finish", tmp_path)
    page.locator("form[data-move=finish] button[type=submit]").click()
    page.wait_for_url(f"{server.base}/table/{done}/final", timeout=SYNC_MS)
    problems += screen_problems(page, "final", tmp_path)

    # an error page
    assert page.goto(f"{server.base}/table/{table}/no-such-screen").status == 404
    problems += screen_problems(page, "error-404", tmp_path)

    assert not problems, "\n".join(problems)

"""The network off, for every game (issue 18, item 5): what the other browser tests leave out.

Already covered with ``context.set_offline(True)`` elsewhere: a whole «16/25» round
(``test_offline_turn.py``), the «16/25» outbox (``test_event_day.py``), Alter Ego's Bile with no
guests double-tapped offline and recorded once (``test_alterego_game.py``), a New Angeles end of
round with zero production double-tapped offline and recorded once, and a capital change of
10^12 refused on the outbox path in English (``test_newangeles_game.py``).

Here, in the game's own language (the first of its languages that is not English):

- for every registered game, two tablets on one table (the moves are the game's driver's,
  ``tests/games/drivers.py``): the second one, offline, queues a move of the first turn with a
  double tap (one move waits); the first one double-taps another one online and it is recorded
  once; the second one comes back online and its move is refused with the server's stale
  wording, the indicator says online, the screen is drawn again at the table's real state, and
  the host discards the move and enters the one the table now waits for. No tap asks "leave
  site?" (the very same move entered on both tablets is one move: the server takes the second
  as the first one's repeat, so the second tablet's is another one);
- a New Angeles capital change past the form's bound is refused on both paths, the form posted
  without JavaScript and the outbox's, with the same words in Swedish, and nothing is stored;
  without JavaScript the screen keeps what was typed and the host corrects it, on the outbox's
  path the host discards the refused move.
"""

import json
from dataclasses import replace

import pytest

from facilitator import games, services
from facilitator.i18n import gettext, use_locale
from facilitator.web.games import stale_text
from tests.games import plugin
from tests.games.drivers import DRIVERS, Move

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")]

WAIT_MS = 8_000
#: the games the server registers (the test game of tests/games is installed in a test process
#: only, never in the server's)
GAMES = sorted(g.key for g in games.registered() if g.key != plugin.KEY)


def language(key):
    """The game's first language that is not English (the players' own)."""
    return next((loc for loc in games.get(key).locales if loc != "en"), "en")


@pytest.fixture(scope="module")
def engine(server):
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


@pytest.fixture(scope="module")
def signed_in(browser, server):
    """The organizer's browser state: every tablet starts from it."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/organizer/login")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    assert "/login" not in page.url, page.inner_text("body")[:1000]
    state = context.storage_state()
    context.close()
    return state


class Tablet:
    """A tablet (its own cookies and storage) and the dialogs its page raised."""

    def __init__(self, browser, signed_in, javascript=True):
        self.context = browser.new_context(storage_state=signed_in, viewport={"width": 1024, "height": 768},
                                           java_script_enabled=javascript)
        self.context.set_default_timeout(WAIT_MS)
        self.page = self.context.new_page()
        self.dialogs = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.type), d.dismiss()))

    def open(self, url, lang):
        self.page.goto(f"{url}?lang={lang}")
        assert self.page.locator("html").get_attribute("lang") == lang

    def offline(self, off):
        self.context.set_offline(off)
        if off:
            self.page.locator("#connection.off").wait_for()

    def close(self):
        self.context.close()


def seated(engine, page, base, driver):
    """A table of the driver's game, seated through its setup form; its id."""
    with services.db.session_scope(engine) as s:
        row = services.packs.ensure_sample(s, driver.key)
        table_id = services.create_table(s, "Utan nät", row, access=True).id
    page.goto(base + driver.url(table_id, "/setup"))
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    answer = page.request.post(base + driver.url(table_id, "/setup"), max_redirects=0,
                               form={**{k: str(v) for k, v in driver.setup.items()}, "csrf_token": token})
    assert answer.status == 303, (answer.status, answer.text()[:1500])
    return table_id


def log_of(engine, table_id):
    """The table's log: ``[(seq, move without its time, client id)]``."""
    with services.db.session_scope(engine) as s:
        return [(r.seq, {k: v for k, v in json.loads(r.data).items() if k not in ("at", "note")}, r.client_id)
                for r in services.tables.read_log(s, table_id)]


def tap(page, move, double=False):
    """The host fills the screen's form of ``move`` (its folded section opened) and taps its
    button (``double``: twice, a nervous finger)."""
    form = page.locator(f"form[data-move='{move.kind}']").first
    for details in page.locator(f"details:has(form[data-move='{move.kind}'])").all():
        if details.get_attribute("open") is None:
            details.locator("> summary").click()
    for name, value in move.changes.items():
        if form.locator(f"select[name='{name}']").count():
            form.locator(f"select[name='{name}']").select_option(str(value))
        else:
            form.locator(f"input[name='{name}']").fill(str(value))
    button = form.locator("button[type=submit]").first
    button.dblclick() if double else button.click()


def waiting(page):
    return [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()]


def wait_waiting(page, n):
    page.wait_for_function("n => document.querySelectorAll('#outbox li').length === n", arg=n, timeout=WAIT_MS)


def stored_waiting(page, table_id):
    return page.evaluate(f"JSON.parse(localStorage.getItem('facilitator.outbox.{table_id}') || '[]')")


def refused(page, table_id):
    """The outbox lists a refused move (said with what the tablet shows when it does not)."""
    try:
        page.locator("#outbox li.refused").wait_for()
    except Exception as err:
        raise AssertionError(f"no refused move: {page.url} at #{page.locator('body').get_attribute('data-seq')}, "
                             f"waiting: {waiting(page)}, stored: {stored_waiting(page, table_id)}") from err


def live(page):
    """What the screen shows of the table (not the words about the last move), its choices left
    out (while moves wait, the player of a form is a choice)."""
    return page.locator("[data-position-live]").evaluate(
        "el => { const c = el.cloneNode(true); c.querySelectorAll('select, template, script').forEach(x => x.remove());"
        " return c.textContent.split(/\\s+/).join(' ').trim(); }")


@pytest.mark.parametrize("key", GAMES)
def test_a_stale_second_tablet_is_refused_with_the_servers_reason_and_a_double_tap_is_one_move(
        browser, server, engine, signed_in, key):
    driver, lang = DRIVERS[key], language(key)
    assert driver.rival and driver.then, f"{key}: its driver in tests/games/drivers.py names no rival or then move"
    first, second = Tablet(browser, signed_in), Tablet(browser, signed_in)
    try:
        table = seated(engine, first.page, server.base, driver)
        url = server.base + driver.url(table)
        first.open(url, lang)
        second.open(url, lang)

        # the second tablet, offline, queues a move (a double tap: one move waits)
        second.offline(True)
        tap(second.page, driver.rival, double=True)
        wait_waiting(second.page, 1)
        second.page.wait_for_timeout(150)
        assert len(stored_waiting(second.page, table)) == 1, waiting(second.page)

        # the first tablet enters another move of the first turn online, with a double tap: recorded once
        with first.page.expect_navigation():
            tap(first.page, driver.legal, double=True)
        recorded = log_of(engine, table)
        assert [(seq, m["type"]) for seq, m, _ in recorded] == [(1, driver.legal.kind)], recorded
        assert first.page.locator("body").get_attribute("data-seq") == "1"
        assert first.page.locator("#outbox").is_hidden() and stored_waiting(first.page, table) == []

        # the second tablet back online: refused with the server's reason, in the screen's language
        with second.page.expect_navigation():
            second.offline(False)
        page = second.page
        refused(page, table)
        with use_locale(lang):
            reason = stale_text(services.StaleMove(0, 1, False))
        with use_locale("en"):
            assert lang == "en" or reason != stale_text(services.StaleMove(0, 1, False)), "not translated"
        [line] = waiting(page)
        assert line.endswith(": " + " ".join(reason.split())), line
        assert page.locator("#connection").get_attribute("class") == "conn on"
        assert page.locator("html").get_attribute("lang") == lang
        # the screen drawn again at the table's real state: as the first tablet shows it
        assert page.locator("body").get_attribute("data-seq") == "1"
        assert live(page) == live(first.page)
        assert log_of(engine, table) == recorded, "the refused move was recorded"

        # the host discards it; the screen is drawn again with nothing waiting, and the host enters
        # the move the table waits for
        with page.expect_navigation():
            page.locator("#outbox button[data-outbox=drop-last]").click()
        assert page.locator("#outbox").is_hidden() and stored_waiting(page, table) == []
        with page.expect_navigation():
            tap(page, driver.then)
        corrected = log_of(engine, table)
        assert corrected[:1] == recorded and [(seq, m["type"]) for seq, m, _ in corrected[1:]] == \
            [(2, driver.then.kind)], corrected
        assert page.locator("body").get_attribute("data-seq") == "2" and page.locator("#outbox").is_hidden()
        assert first.dialogs == [] and second.dialogs == [], (first.dialogs, second.dialogs)
    finally:
        first.close()
        second.close()


def test_a_new_angeles_capital_change_past_the_forms_bound_is_refused_on_both_paths_in_the_screens_language(
        browser, server, engine, signed_in):
    driver, lang = DRIVERS["new-angeles"], "sv"
    slip = Move("capital", {"player": "Anna", "amount": 10 ** 12, "reason": "contract"})
    with use_locale(lang):
        out_of_range = gettext("{value} is out of range", value=str(10 ** 12))
    with use_locale("en"):
        assert out_of_range != gettext("{value} is out of range", value=str(10 ** 12)), "not translated"
    plain, tablet = Tablet(browser, signed_in, javascript=False), Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, driver)
        url = server.base + driver.url(table)

        # the form posted without JavaScript: refused (400), the screen says why in Swedish
        plain.open(url, lang)
        with plain.page.expect_navigation() as sent:
            tap(plain.page, slip)
        assert sent.value.status == 400
        [said] = [" ".join(t.split()) for t in plain.page.locator("[data-flash=error]").all_inner_texts()]
        assert out_of_range in said, said
        assert log_of(engine, table) == []
        # the screen keeps what was typed: the host corrects the amount and records it
        amount = plain.page.locator("form[data-move=capital] input[name=amount]")
        assert amount.input_value() == str(10 ** 12)
        corrected = Move("capital", dict(slip.changes, amount=12))
        with plain.page.expect_navigation():
            tap(plain.page, corrected)
        assert [m for _, m, _ in log_of(engine, table)] == [{"type": "capital", **corrected.changes}]
        recorded = log_of(engine, table)

        # the same form queued by the outbox offline: refused once the network is back, the same words
        tablet.open(url, lang)
        tablet.offline(True)
        tap(tablet.page, slip)
        wait_waiting(tablet.page, 1)
        with tablet.page.expect_navigation():
            tablet.offline(False)
        page = tablet.page
        refused(page, table)
        [line] = waiting(page)
        reason = line.split(": ", 2)[-1]
        assert out_of_range in reason and said.endswith(reason), (line, said)
        assert page.locator("#connection").get_attribute("class") == "conn on"
        assert log_of(engine, table) == recorded
        with page.expect_navigation():
            page.locator("#outbox button[data-outbox=drop-last]").click()
        assert page.locator("#outbox").is_hidden() and log_of(engine, table) == recorded
        assert tablet.dialogs == [], tablet.dialogs
    finally:
        plain.close()
        tablet.close()


def test_new_angeles_deal_after_deal_and_the_end_of_the_round_offline(browser, server, engine, signed_in):
    """The network off at a New Angeles table: the host enters Anna's deal on the live screen (its
    count cannot be asked: the screen says the server checks it), then Boris's deal and the end
    of the round on the forms the screen shows for them (the engine's answers); the network on,
    the log holds the three moves once and in order, Boris's counteroffer folded by the server."""
    driver, lang = DRIVERS["new-angeles"], "sv"
    two = replace(driver, setup=dict(driver.setup, assets=2))
    with use_locale(lang):
        no_count = " ".join([
            gettext("No count without the connection: the deal is checked by the server when the connection returns."),
            gettext("When an emergency card is offered against a counteroffer, choose the winner under «Winner other "
                    "than the count»: the next deals then know whose card is spent.")])
    tablet = Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, two)
        page = tablet.page
        tablet.open(server.base + driver.url(table), lang)
        page.locator("#positions[data-start]").wait_for(state="attached")  # the answers, fetched when idle
        tablet.offline(True)
        deal = page.locator("form[data-move=deal]").first
        assert deal.locator("input[name=active]").input_value() == "Anna"
        deal.locator("input[name=asset]").fill("A01")
        deal.locator("input[name=ui_main_card]").fill("Security: Sweep")
        deal.locator("button[data-record]").click()  # at once: the count was never asked
        wait_waiting(page, 1)
        # the next active player's deal, on its own form (nothing counted offline)
        deal = page.locator("form[data-move=deal][data-offline]")
        assert deal.locator("input[name=active]").input_value() == "Boris"
        assert deal.locator("[data-active]").get_attribute("data-active") == "Boris"
        assert " ".join(deal.locator("[data-count-offline]").inner_text().split()) == no_count
        deal.locator("input[name=asset]").click()  # a tap elsewhere: not a double tap's second one
        deal.locator("input[name=asset]").fill("A02")
        deal.locator("input[name=ui_main_card]").fill("Media: Ads")
        deal.locator(".na-counters li[data-player=Vera] input[name^=ui_counter_]:not([type=checkbox])").fill("Labor: Strike")
        deal.locator("button[data-record]").click()
        wait_waiting(page, 2)
        end = page.locator("form[data-move=end_round]")
        end.locator("input[name=next_assets]").click()
        end.locator("input[name=next_assets]").fill("1")
        end.locator("button[type=submit]").click()
        wait_waiting(page, 3)
        assert log_of(engine, table) == []
        with page.expect_navigation():
            tablet.offline(False)
        moves = [(seq, m) for seq, m, _ in log_of(engine, table)]
        assert [(seq, m["type"], m.get("active")) for seq, m in moves] == \
            [(1, "deal", "Anna"), (2, "deal", "Boris"), (3, "end_round", None)], moves
        assert moves[1][1]["counteroffers"] == [{"player": "Vera", "card": "Labor: Strike"}]
        assert moves[2][1] == {"type": "end_round", "production": {}, "next_assets": 1}
        assert page.locator("#outbox").is_hidden() and tablet.dialogs == []
    finally:
        tablet.close()

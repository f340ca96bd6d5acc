"""New Angeles offline past the end of a round (issue 18, item 2): with the network off the host
enters the rest of S1 on the screens the engine's answers carry, S1's end with zero production
typed everywhere, all of S2's deals (who is active, which deal of how many, the round in the
banner) and S2's end, after which the screen says the server must be asked; with the network
back the log holds every move once and in order, and the standings are those of the same moves
entered online, screen by screen, on another table. In Swedish, the game's own language."""

import json
from dataclasses import replace

import pytest

from facilitator import services
from facilitator.i18n import gettext, use_locale
from facilitator.rules.newangeles import table_standing
from tests.games.drivers import DRIVERS

from . import test_offline_games as offline
from .conftest import CHROMIUM
from .test_offline_games import Tablet, log_of, seated, wait_waiting

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")]

#: the organizer's browser state, every tablet starts from it (as test_offline_games' tablets do)
signed_in = offline.signed_in
LANG = "sv"
RESOURCES = ("energy", "entertainment", "tech", "consumables", "materials")
#: S1 (2 asset cards): Anna then Boris; S2 (3 asset cards): Vera, Dmitri, Anna
DEALS_S1 = [("Anna", "A01", "Security: Sweep", None), ("Boris", "A02", "Media: Ads", ("Vera", "Labor: Strike"))]
DEALS_S2 = [("Vera", "A03", "Biotech: Clinic", ("Dmitri", "Labor: Strike", "Anna", 2)),
            ("Dmitri", "A04", "Security: Patrol", None), ("Anna", "A05", "Media: Ads", ("Boris", "Biotech: Clinic"))]


@pytest.fixture(scope="module")
def engine(server):
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


def words(text, **params):
    with use_locale(LANG):
        return gettext(text, **params)


def one_line(text):
    return " ".join(text.split())


def enter_deal(form, deal):
    """The host fills a deal form as the table talks: the asset, the offer, a counteroffer and
    the support for it; then records it."""
    active, asset, card, counter = deal
    assert form.locator("input[name=active]").input_value() == active
    form.locator("input[name=asset]").click()  # a tap of its own: not a double tap's second one
    form.locator("input[name=asset]").fill(asset)
    form.locator("input[name=ui_main_card]").fill(card)
    if counter:
        form.locator(f".na-counters li[data-player={counter[0]}] input[name^=ui_counter_]:not([type=checkbox])") \
            .fill(counter[1])
    if counter and len(counter) > 2:
        form.locator(f".na-support tr[data-player={counter[2]}] input[name^=ui_sup_counter_]").fill(str(counter[3]))
    form.locator("button[data-record]").click()


def enter_end(form, next_assets):
    form.locator("input[name='production-energy']").click()
    for r in RESOURCES:
        form.locator(f"input[name='production-{r}']").fill("0")
    if next_assets is not None:
        form.locator("input[name=next_assets]").fill(str(next_assets))
    form.locator("button[type=submit]").click()


def deal_on_screen(page):
    return page.locator("form[data-move=deal]")


def test_the_rest_of_a_round_its_end_and_the_next_round_offline(browser, server, engine, signed_in):
    driver = DRIVERS["new-angeles"]
    two = replace(driver, setup=dict(driver.setup, assets=2))
    tablet, other = Tablet(browser, signed_in), Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, two)
        page = tablet.page
        url = server.base + driver.url(table)

        # Anna's deal online; then the network goes while Boris's deal is on the screen
        tablet.open(url, LANG)
        with page.expect_navigation():
            enter_deal(deal_on_screen(page), DEALS_S1[0])
        page.locator("#positions[data-start]").wait_for(state="attached")  # the answers, fetched when idle
        tablet.offline(True)
        entered = 0
        enter_deal(deal_on_screen(page), DEALS_S1[1])  # the live screen's own deal
        entered += 1
        wait_waiting(page, entered)

        # the end of S1 on its position's form: zero production typed everywhere, 3 asset cards
        end = page.locator("form[data-move=end_round]")
        assert one_line(end.locator("h2").inner_text()) == one_line(
            words("End of {round}: every asset card has had its deal", round="S1"))
        enter_end(end, 3)
        entered += 1
        wait_waiting(page, entered)

        # S2's deals, each on its active player's form, with its own title; the banner says S2
        for n, deal in enumerate(DEALS_S2, start=1):
            form = deal_on_screen(page)
            form.wait_for()
            assert form.count() == 1
            assert one_line(form.locator(".na-deal-title").inner_text()) == \
                one_line(words("Deal {n} of {of}", n=n, of=3) + " · " + words("{player} is active", player=deal[0]))
            assert form.locator("[data-count-offline]").is_visible()
            assert page.locator("[data-position-banner]").inner_text() == "S2"
            # whose deal it is, marked on the players' list as on the live screen
            assert page.locator(".na-player.turn").evaluate_all("els => els.map(e => e.dataset.name)") == [deal[0]]
            enter_deal(form, deal)
            entered += 1
            wait_waiting(page, entered)

        # S2's end: its form is the server's end-of-round form; what follows it (the demand round,
        # whose outcome depends on the production entered) is the server's to say
        end = page.locator("form[data-move=end_round]")
        assert one_line(end.locator("h2").inner_text()) == one_line(
            words("End of {round}: every asset card has had its deal", round="S2"))
        enter_end(end, 2)
        entered += 1
        wait_waiting(page, entered)
        page.locator("[data-position-shown='?'] [data-answers-end]").wait_for()
        assert page.locator("form[data-move=deal], form[data-move=end_round]").count() == 0
        assert len(log_of(engine, table)) == 1

        # the network back: every move once, in order
        with page.expect_navigation():
            tablet.offline(False)
        page.locator("#outbox").wait_for(state="hidden")
        moves = [(seq, m) for seq, m, _ in log_of(engine, table)]
        assert [(seq, m["type"], m.get("active")) for seq, m in moves] == \
            [(1, "deal", "Anna"), (2, "deal", "Boris"), (3, "end_round", None), (4, "deal", "Vera"),
             (5, "deal", "Dmitri"), (6, "deal", "Anna"), (7, "end_round", None)], moves
        assert moves[2][1] == {"type": "end_round", "production": {}, "next_assets": 3}
        assert moves[3][1]["counteroffers"] == [{"player": "Dmitri", "card": "Labor: Strike"}]
        assert moves[3][1]["support"] == [{"player": "Anna", "offer": "counter", "cards": 2}]
        assert len({c for _, _, c in log_of(engine, table)}) == 7
        assert page.locator("section.na-status").get_attribute("data-next") == "demand_round"
        assert tablet.dialogs == []

        # the same moves entered online on another table, screen by screen: the same standings
        twin = seated(engine, other.page, server.base, two)
        other.open(server.base + driver.url(twin), LANG)
        for deal in DEALS_S1:
            with other.page.expect_navigation():
                enter_deal(deal_on_screen(other.page), deal)
        with other.page.expect_navigation():
            enter_end(other.page.locator("form[data-move=end_round]"), 3)
        for deal in DEALS_S2:
            with other.page.expect_navigation():
                enter_deal(deal_on_screen(other.page), deal)
        with other.page.expect_navigation():
            enter_end(other.page.locator("form[data-move=end_round]"), 2)
        assert [m for _, m, _ in log_of(engine, twin)] == [m for _, m in moves]
        with services.db.session_scope(engine) as s:
            offline, online = (json.dumps(table_standing(services.load(s, t).game), sort_keys=True)
                               for t in (table, twin))
        assert offline == online
    finally:
        tablet.close()
        other.close()


def test_the_end_of_a_round_on_the_live_screen_leads_offline_to_the_next_rounds_deals(
        browser, server, engine, signed_in):
    """The end of S1 is the screen's own form when the network goes: where it leads is looked up
    in what the host types (a takeover would end the game; here 2 asset cards), and S2's deals
    follow on their forms."""
    driver = DRIVERS["new-angeles"]
    one = replace(driver, setup=dict(driver.setup, assets=1))
    tablet = Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, one)
        page = tablet.page
        tablet.open(server.base + driver.url(table), LANG)
        with page.expect_navigation():
            enter_deal(deal_on_screen(page), DEALS_S1[0])
        page.locator("#positions[data-start]").wait_for(state="attached")
        live_end = page.locator("[data-position-live] form[data-move=end_round]")
        assert live_end.get_attribute("data-then-by")  # put there from the answers
        tablet.offline(True)
        enter_end(live_end, 2)
        wait_waiting(page, 1)
        for n, deal in enumerate(DEALS_S1[1:] + DEALS_S2[:1], start=1):  # Boris, then Vera
            form = deal_on_screen(page)
            assert one_line(form.locator(".na-deal-title").inner_text()) == \
                one_line(words("Deal {n} of {of}", n=n, of=2) + " · " + words("{player} is active", player=deal[0]))
            enter_deal(form, deal)
            wait_waiting(page, n + 1)
        end = page.locator("form[data-move=end_round]")
        assert one_line(end.locator("h2").inner_text()) == one_line(
            words("End of {round}: every asset card has had its deal", round="S2"))
        with page.expect_navigation():
            tablet.offline(False)
        page.locator("#outbox").wait_for(state="hidden")
        moves = [(seq, m["type"], m.get("active")) for seq, m, _ in log_of(engine, table)]
        assert moves == [(1, "deal", "Anna"), (2, "end_round", None), (3, "deal", "Boris"), (4, "deal", "Vera")]
        assert page.locator("section.na-status").get_attribute("data-next") == "end_round"
        assert tablet.dialogs == []
    finally:
        tablet.close()


def record_online(engine, table_id, *moves):
    """Moves recorded as another tablet would have, to reach a position."""
    from facilitator.rules.newangeles import read_move
    for move in moves:
        with services.db.session_scope(engine) as s:
            services.record_move(s, table_id, read_move(move), services.load(s, table_id).seq)


def test_the_end_of_a_round_and_its_demand_round_offline(browser, server, engine, signed_in):
    """S2's end on the live screen when the network goes: the host types a production that
    leaves tech one short of the demand card, and the screen shows the demand round as it then
    goes (not met: threat rises by the card's 6, not how much is short); its investments and the
    next demand card entered on that form lead to S3's first deal. With the network back the
    end of the round and the demand round are recorded once and in order, as the form posted."""
    driver = DRIVERS["new-angeles"]
    one = replace(driver, setup=dict(driver.setup, assets=1))
    tablet = Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, one)
        deal = {"main": {"card": "Media: Ads"}, "counteroffers": [], "support": []}
        record_online(engine, table, dict(deal, type="deal", active="Anna", asset="A01"),
                      {"type": "end_round", "production": {}, "next_assets": 1},
                      dict(deal, type="deal", active="Boris", asset="A02"))
        page = tablet.page
        tablet.open(server.base + driver.url(table), LANG)
        page.locator("#positions[data-start]").wait_for(state="attached")
        live_end = page.locator("[data-position-live] form[data-move=end_round]")
        assert "at_least" in live_end.get_attribute("data-then-by")  # the production decides the demand round
        tablet.offline(True)
        typed = {"energy": "4", "entertainment": "3", "tech": "2", "consumables": "5", "materials": "2"}
        live_end.locator("input[name='production-energy']").click()
        for r, n in typed.items():
            live_end.locator(f"input[name='production-{r}']").fill(n)
        live_end.locator("input[name=next_assets]").fill("2")
        live_end.locator("button[type=submit]").click()
        wait_waiting(page, 1)

        demand = page.locator("form[data-move=demand_round]")
        demand.wait_for()
        assert one_line(demand.locator("h2").inner_text()) == one_line(words("Demand round {round}", round="D1"))
        assert page.locator("[data-position-banner]").inner_text() == "D1"
        outcome = one_line(demand.locator(".na-outcome").inner_text())
        assert outcome == one_line(words("With the production entered the demand is not met: threat rises by "
                                         "{amount}.", amount=6))
        assert words("Short: {short}. Threat rises by {amount}.", short="", amount=6).split(":")[0] not in outcome
        demand.locator("input[name=ui_inv_card_0]").click()  # a tap of its own: not a double tap's second one
        for i in range(4):
            demand.locator(f"input[name=ui_inv_card_{i}]").fill(f"I0{i + 1}")
        demand.locator("input[name=ui_inv_capital_2]").fill("4")
        demand.locator("select[name=ui_nd_code]").select_option("DM2")
        demand.locator("button[type=submit]").click()
        wait_waiting(page, 2)

        form = deal_on_screen(page)
        form.wait_for()
        assert one_line(form.locator(".na-deal-title").inner_text()) == \
            one_line(words("Deal {n} of {of}", n=1, of=2) + " · " + words("{player} is active", player="Vera"))
        assert page.locator("[data-position-banner]").inner_text() == "S3"
        assert len(log_of(engine, table)) == 3

        with page.expect_navigation():
            tablet.offline(False)
        page.locator("#outbox").wait_for(state="hidden")
        log = log_of(engine, table)
        assert [(seq, m["type"]) for seq, m, _ in log] == \
            [(1, "deal"), (2, "end_round"), (3, "deal"), (4, "end_round"), (5, "demand_round")]
        assert len({c for _, _, c in log[3:]}) == 2 and all(c for _, _, c in log[3:])
        assert log[3][1] == {"type": "end_round", "production": {r: int(n) for r, n in typed.items()},
                             "next_assets": 2}
        assert log[4][1]["investments"] == [{"player": n, "card": f"I0{i + 1}", "capital": 4 if i == 2 else 0}
                                            for i, n in enumerate(("Anna", "Boris", "Vera", "Dmitri"))]
        assert log[4][1]["next_demand"] == "DM2"
        with services.db.session_scope(engine) as s:
            game = services.load(s, table).game
        assert (game.label, game.threat, game.demand_history[-1]["short"]) == ("S3", 18, {"tech": 1})
        assert page.locator("section.na-status").get_attribute("data-next") == "deal"
        assert tablet.dialogs == []
    finally:
        tablet.close()


def offered(form):
    """The players whose emergency card the deal form offers (its boxes shown and enabled)."""
    return form.locator("input[data-token]").evaluate_all(
        "els => els.filter(e => !e.disabled && !(e.closest('label') || e).hidden).map(e => e.dataset.token)")


def test_an_emergency_card_spent_offline_is_not_offered_again(browser, server, engine, signed_in):
    """Anna's deal won by her emergency card, then Vera's counteroffer won by hers (the winner
    chosen, as the offline form asks), entered offline: the later deal forms no longer offer
    those cards, and every move is recorded once the network returns (none refused)."""
    driver = DRIVERS["new-angeles"]
    two = replace(driver, setup=dict(driver.setup, assets=2))
    tablet = Tablet(browser, signed_in)
    try:
        table = seated(engine, tablet.page, server.base, two)
        page = tablet.page
        tablet.open(server.base + driver.url(table), LANG)
        page.locator("#positions[data-start]").wait_for(state="attached")
        live = deal_on_screen(page)
        assert live.get_attribute("data-token-by")  # put there from the answers
        assert offered(live) == ["Anna", "Boris", "Vera", "Dmitri"]
        tablet.offline(True)
        live.locator("input[name=asset]").click()
        live.locator("input[name=asset]").fill("A01")
        live.locator("input[name=ui_main_kind]").check()
        live.locator("button[data-record]").click()
        wait_waiting(page, 1)

        form = deal_on_screen(page)
        assert form.locator("input[name=active]").input_value() == "Boris"
        assert offered(form) == ["Boris", "Vera", "Dmitri"]  # Anna's card is spent
        form.locator("input[name=asset]").click()
        form.locator("input[name=asset]").fill("A02")
        form.locator("input[name=ui_main_card]").fill("Media: Ads")
        form.locator(".na-counters li[data-player=Vera] input[type=checkbox]").check()
        form.locator(".na-support tr[data-player=Dmitri] input[name^=ui_sup_counter_]").fill("2")
        form.locator("details.na-override summary").click()
        form.locator("input[name=winner][value=counter]").check()
        form.locator("button[data-record]").click()
        wait_waiting(page, 2)

        enter_end(page.locator("form[data-move=end_round]"), 3)
        wait_waiting(page, 3)
        form = deal_on_screen(page)
        assert form.locator("input[name=active]").input_value() == "Vera"
        assert offered(form) == ["Dmitri", "Boris"]  # clockwise from Vera: Dmitri, Anna, Boris

        with page.expect_navigation():
            tablet.offline(False)
        page.locator("#outbox").wait_for(state="hidden")
        moves = [m for _, m, _ in log_of(engine, table)]
        assert [m["type"] for m in moves] == ["deal", "deal", "end_round"]
        assert moves[0]["main"] == {"emergency": "jinteki"}
        assert moves[1]["counteroffers"] == [{"player": "Vera", "emergency": "globalsec"}]
        assert moves[1]["winner"] == "counter"
        with services.db.session_scope(engine) as s:
            game = services.load(s, table).game
        assert [p.name for p in game.players if p.emergency == "faceup"] == ["Boris", "Dmitri"]
        assert tablet.dialogs == []
    finally:
        tablet.close()

"""A whole «16/25» round entered with the tablet offline (issue 18, item 2 and 5).

A 4-player table; the network goes off (``context.set_offline(True)``) and the host enters a
round and the next turn without the server: a green card played, a yellow card deferred, a red
card discarded, a rest with its allocation, then a pass. The screen names the right next player
after every move (the engine, applying the same moves here, says who), the card picker shows
each card's verdict as the engine gives it, nothing reaches the server; once the network is back
the moves are recorded once each, in order.
"""

import json

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.answers import turn_answers
from tests.web.helpers import FOUR

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")]

WAIT_MS = 8_000


@pytest.fixture(scope="module")
def engine(server):
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


def new_table(engine, players):
    with services.db.session_scope(engine) as s:
        pack = services.packs.list_packs(s, "lyceum-16-25")[0]
        event = services.events.create_event(s, "Без сети", "2026-12-01", pack)
        table = services.events.add_table(s, event, "Стол без сети")
        services.set_players(s, table.id, services.load(s, table.id).ruleset.read_setup(players))
        return table.id


def game_of(engine, table_id):
    with services.db.session_scope(engine) as s:
        return services.load(s, table_id).game


def log_of(engine, table_id):
    with services.db.session_scope(engine) as s:
        return [(r.seq, {k: v for k, v in json.loads(r.data).items() if k not in ("at", "note")}, r.client_id)
                for r in services.tables.read_log(s, table_id)]


def sign_in(page, base):
    page.goto(f"{base}/organizer/login?lang=ru")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    assert "/login" not in page.url


def mover(page):
    return " ".join(page.locator("h2.mover").inner_text().split())


def waiting(page, n):
    page.wait_for_function("n => document.querySelectorAll('#outbox li').length === n", arg=n, timeout=WAIT_MS)


def answers_ready(page):
    """The screen's answers arrived: the outbox fetches them apart, once the screen is idle."""
    page.locator("#positions[data-start]").wait_for(state="attached", timeout=WAIT_MS)


def card_for(answers, key, color, decision):
    """A card of ``color`` whose ``decision`` the engine allows at position ``key``, leading
    straight to the next player (no free SP to allocate)."""
    for row in answers["positions"][key]["colors"][color]:
        then = row["decisions"].get(decision)
        if then and answers["positions"][then]["expects"] == "main":
            return row
    raise AssertionError(f"no {color} card to {decision} at {key}")


def draw(page, color, row, decision):
    """The host finds the card by its code in the colour's list and taps the decision."""
    box = page.locator(f"details.offline-draw[data-color={color}]")
    box.locator("summary").click()
    box.locator("input[data-filter]").fill(row["card"].lower())
    assert box.locator("li:visible").count() == 1
    item = box.locator(f"li:has(input[value='{row['card']}'])")
    verdict = " ".join(item.locator(".verdict").inner_text().split())
    assert verdict.startswith("Подходит" if not row["shortfalls"] else "Не подходит"), verdict
    item.locator("input[type=radio]").check()
    enabled = {d for d in ("play", "defer", "discard")
               if box.locator(f"button[name=decision][value={d}]").is_enabled()}
    assert enabled == set(row["decisions"]), (row, enabled)
    box.locator(f"button[name=decision][value={decision}]").click()


def test_a_whole_round_entered_offline_follows_the_engine_and_is_recorded_once_in_order(browser, server, engine):
    table = new_table(engine, FOUR)
    game = game_of(engine, table)
    answers = turn_answers(game)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.type), d.dismiss()))
    try:
        sign_in(page, server.base)
        page.goto(f"{server.base}/table/{table}")
        first, second, third, fourth = game.order
        assert mover(page) == f"Ходит {first}"
        answers_ready(page)

        context.set_offline(True)
        page.locator("#connection.off").wait_for()
        # the start position replaces the live screen: the draw buttons open the card picker
        assert page.locator("[data-position-shown='m0'] details.offline-draw").count() == 3
        entered = []
        expect = game.copy()

        def entered_move(move, next_player):
            """The move is queued, and the screen names whom the engine says comes next."""
            entered.append(move)
            expect.apply(Move(**move))
            waiting(page, len(entered))
            nxt = expect.next()
            assert nxt["player"] == next_player
            if nxt["expects"] == "main":
                assert mover(page) == f"Ходит {next_player}"
                assert page.locator(f"article.player.turn[data-name='{next_player}']").count() == 1
            else:
                assert nxt["expects"] == "allocate"
                assert next_player in page.locator("form[data-move=allocate] h2").inner_text()

        green = card_for(answers, "m0", "green", "play")
        draw(page, "green", green, "play")
        entered_move({"type": "draw", "player": first, "color": "green", "card": green["card"], "decision": "play"},
                     second)
        yellow = card_for(answers, "m1", "yellow", "defer")
        draw(page, "yellow", yellow, "defer")
        entered_move({"type": "draw", "player": second, "color": "yellow", "card": yellow["card"],
                      "decision": "defer"}, third)
        red = answers["positions"]["m2"]["colors"]["red"][0]
        draw(page, "red", red, "discard")
        entered_move({"type": "draw", "player": third, "color": "red", "card": red["card"], "decision": "discard"},
                     fourth)
        rest = page.locator("details.rest")
        rest.locator("summary").click()
        rest.locator("button[type=submit]").click()
        entered_move({"type": "rest", "player": fourth}, fourth)
        allocate = page.locator("form[data-move=allocate]")
        allocate.locator("input[name='sp-health']").fill("1")
        allocate.locator("button[type=submit]").click()
        entered_move({"type": "allocate", "player": fourth, "sp": {"health": 1}}, first)
        # the second round's first turn: named, its answers past what this screen holds (says so)
        assert page.locator("[data-answers-end]").count() == 1
        assert " ".join(page.locator("[data-position-banner]").inner_text().split()).startswith("Раунд 2")
        page.locator("details.pass-confirm summary").click()
        page.locator("details.pass-confirm button[type=submit]").dblclick()  # a double tap is one move
        entered_move({"type": "pass", "player": first}, second)
        page.wait_for_timeout(300)
        lines = [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()]
        assert len(lines) == 6 and all(line.endswith("не проверено") for line in lines), lines
        assert log_of(engine, table) == [], "a move reached the server while the tablet was offline"

        context.set_offline(False)
        page.locator("section.actions[data-seq='6']").wait_for(timeout=WAIT_MS * 2)
        stored = [e for e in log_of(engine, table)]
        assert [seq for seq, _, _ in stored] == [1, 2, 3, 4, 5, 6]
        assert [m for _, m, _ in stored] == entered
        assert len({c for _, _, c in stored}) == 6, "each move once, by its client id"
        assert mover(page) == f"Ходит {second}" and page.locator("#outbox").is_hidden()
        assert dialogs == [], dialogs
    finally:
        context.close()


def test_answers_that_never_arrived_are_answers_run_out(browser, server, engine):
    """The network drops before the screen fetched its answers: the live screen stays, says so,
    and a pass is still entered (for the player chosen), then recorded when the network is back."""
    table = new_table(engine, FOUR)
    first = game_of(engine, table).order[0]
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    try:
        sign_in(page, server.base)
        page.route("**/positions?*", lambda route: route.abort("internetdisconnected"))
        page.goto(f"{server.base}/table/{table}")
        context.set_offline(True)
        page.locator("[data-answers-missing]").wait_for()
        assert page.locator("#positions[data-start]").count() == 0
        page.locator("details.pass-confirm summary").click()
        page.locator("details.pass-confirm button[type=submit]").click()
        waiting(page, 1)
        assert page.locator("details.pass-confirm select[name=player]").count() == 1  # whose pass: a choice
        assert page.locator("[data-answers-end]").count() == 1
        context.set_offline(False)
        page.locator("section.actions[data-seq='1']").wait_for(timeout=WAIT_MS * 2)
        assert [m for _, m, _ in log_of(engine, table)] == [{"type": "pass", "player": first}]
        assert page.locator("[data-answers-missing]").count() == 0
    finally:
        context.close()

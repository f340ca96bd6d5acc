"""Alter Ego's whole turn with the network off (issue 18, item 2): a card, a reaction, an ability
and the end of the turn entered on the screens drawn from the engine's answers.

A 3-player table in Finnish, Bertta first (Niksu, Tommi, Imaami), Meira carrying one anxiety
(a correction). The network drops before Bertta's draw. The host taps the draw on the live
screen; then, on the forms the positions fragment draws (no card page of the server can be
opened offline), Bertta's Hahmo kuolee onto Ville (its target among the legal ones only), Aino's
Taktinen teko cancelling Ville's gain (the reaction to it), Niksu taking an anxiety from Meira
(the ability), the end of Bertta's turn, and Cecilia's draw: the screen names the right player
each time. The network back, the log holds the six moves once and in order, exactly as the
server's own pages post them online; no "leave site?" was asked.

A second card of a turn is not answered: it is entered *unchecked* (every option offered, no
verdict, «tarkistamatta»), then the end of the turn, after which the screen cannot tell whose
turn it is; the network back, the moves are recorded once and in order, and an illegal second
card (a second activity onto the same active) is refused with the server's reason in Finnish.
"""

import json

import pytest

from facilitator import services
from facilitator.rules import registry

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")]

RULESET = "alter-ego-3"
WAIT_MS = 8_000
SETUP = {"players-0-name": "Aino", "players-0-born": "1991-04-02", "players-0-actives-0": "pare",
         "players-0-actives-1": "ville", "players-0-actives-2": "meira",
         "players-1-name": "Bertta", "players-1-born": "1985-11-20", "players-1-actives-0": "niksu",
         "players-1-actives-1": "tommi", "players-1-actives-2": "imaami",
         "players-2-name": "Cecilia", "players-2-born": "", "players-2-actives-0": "jaakko",
         "players-2-actives-1": "kalle", "players-2-actives-2": "tane", "first": "1"}


@pytest.fixture(scope="module")
def engine(server):
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


@pytest.fixture
def tablet(browser, server):
    """The organizer's tablet (signed in), its dialogs and script errors recorded."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"{server.base}/organizer/login")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    dialogs, errors = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.type), d.dismiss()))
    page.dialogs, page.errors = dialogs, errors
    yield page
    context.close()


def seated(engine, page, base):
    """A table seated through the setup form (Bertta first), Meira with one anxiety by a correction."""
    with services.db.session_scope(engine) as s:
        row = services.packs.ensure_sample(s, RULESET)
        table_id = services.create_table(s, "Ilman verkkoa", row, access=True).id
    page.goto(f"{base}/ae/table/{table_id}/setup")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    answer = page.request.post(f"{base}/ae/table/{table_id}/setup", max_redirects=0,
                               form={**SETUP, "csrf_token": token})
    assert answer.status == 303, (answer.status, answer.text()[:1500])
    with services.db.session_scope(engine) as s:
        adjust = registry.get(RULESET).read_move({"type": "adjust", "reason": "test",
                                                  "changes": [{"active": "meira", "anxiety": 1}]})
        services.record_move(s, table_id, adjust, 0)
    return table_id


def log_of(engine, table_id):
    with services.db.session_scope(engine) as s:
        return [(r.seq, {k: v for k, v in json.loads(r.data).items() if k not in ("at", "note")}, r.client_id)
                for r in services.tables.read_log(s, table_id)]


def waiting(page):
    return page.locator("#outbox li").count()


def entered(page, n):
    """The host's move is queued (``n`` waiting), and a moment passes: the next tap is the host's
    own, not a double tap's second one."""
    page.wait_for_function("n => document.querySelectorAll('#outbox li').length === n", arg=n)
    page.wait_for_timeout(700)


def mover(page):
    return " ".join(page.locator("[data-position-shown] h2.mover").inner_text().split())


def offered(form, name):
    return [i.get_attribute("value") for i in form.locator(f"input[name='{name}']").all() if i.is_visible()]


def play(page, selector):
    """The form of a card, an ability or a reaction (its tile opened) in the shown position."""
    box = page.locator(f"[data-position-shown] details.offline-play:has({selector}):visible")
    assert box.count() == 1, (selector, box.count())
    if box.get_attribute("open") is None:
        box.locator("> summary").click()
    return box.locator("form")


def draw_then_play(page, card, target):
    """The player in turn draws, then plays ``card`` onto ``target``: two moves entered offline."""
    page.locator("[data-position-live] form[data-move=draw] button[type=submit]").click()
    entered(page, 1)
    form = play(page, f"input[name=card][value={card}]")
    form.locator(f"input[name=target][value={target}]").check()
    form.locator("button[type=submit]").click()
    entered(page, 2)


def react(page, card, by, target):
    """``by`` plays the reaction ``card`` onto ``target``, the only active it may target."""
    form = play(page, f"input[name=card][value={card}]")
    form.locator(f"input[name=player][value={by}]").check()
    assert offered(form, "target") == [target]
    form.locator(f"input[name=target][value={target}]").check()
    form.locator("button[type=submit]").click()


def go_offline(page):
    page.locator("#positions[data-start]").wait_for(state="attached")  # the answers, fetched when idle
    page.context.set_offline(True)
    page.locator("#connection.off").wait_for()


def opened_offline(page, server, engine):
    """A seated table's turn screen opened in Finnish, its answers arrived, then the network off:
    the table and its log as it stood then."""
    table = seated(engine, page, server.base)
    page.goto(f"{server.base}/ae/table/{table}?lang=fi")
    before = log_of(engine, table)
    go_offline(page)
    return table, before


def test_a_card_a_reaction_an_ability_and_the_end_of_the_turn_offline(tablet, server, engine):
    page = tablet
    table, before = opened_offline(page, server, engine)

    # the draw, on the live screen
    page.locator("[data-position-live] form[data-move=draw] button[type=submit]").click()
    entered(page, 1)
    assert "Bertta" in mover(page)

    # Hahmo kuolee onto Ville: only the actives it may target are offered
    form = play(page, "input[name=card][value=hahmo_kuolee]")
    assert set(offered(form, "target")) == {"pare", "ville", "meira", "niksu", "tommi", "imaami", "jaakko", "kalle",
                                            "tane"}
    assert form.locator("button[type=submit]").is_disabled()
    form.locator("input[name=target][value=ville]").check()
    form.locator("button[type=submit]").click()
    entered(page, 2)

    # the reaction to it: Taktinen teko, its target the one that gained (Ville), Aino plays it
    panel = page.locator("[data-position-shown] .panel.react")
    assert panel.count() == 1 and "Hahmo kuolee" in panel.locator("h2").inner_text()
    react(page, "taktinen_teko", "Aino", "ville")
    entered(page, 3)

    # Niksu's ability: from an active with anxiety (Meira only: Ville's gain was cancelled)
    assert "Bertta" in mover(page)
    # a second card is not answered: the cards are offered unchecked, the abilities answered
    cards = page.locator("[data-position-shown] details.offline-play:has(input[name=card]):visible")
    assert cards.count() > 0 and cards.count() == page.locator(
        "[data-position-shown] details.offline-play.unchecked:has(input[name=card]):visible").count()
    assert page.locator("[data-position-shown] details.offline-play.unchecked:has(input[name=active])").count() == 0
    form = play(page, "input[name=active][value=niksu]")
    assert offered(form, "from") == ["meira"]
    form.locator("input[name=from][value=meira]").check()
    form.locator("button[type=submit]").click()
    entered(page, 4)

    # the end of Bertta's turn; then Cecilia draws
    assert "Bertta" in mover(page)
    page.locator("[data-position-shown] form[data-move=end_turn] button[type=submit]").click()
    entered(page, 5)
    assert "Cecilia" in mover(page)
    page.locator("[data-position-shown] form[data-move=draw] button[type=submit]").click()
    entered(page, 6)
    assert "Cecilia" in mover(page)
    assert page.locator(".factions [data-name].turn").get_attribute("data-name") == "Cecilia"
    banner = " ".join(page.locator("[data-position-banner]").inner_text().split())
    assert log_of(engine, table) == before, "a move reached the server while the tablet was offline"
    # the waiting moves name what they play by its name, not its key
    listed = page.locator("#outbox li").all_inner_texts()
    assert "Hahmo kuolee" in listed[1] and "Taktinen teko" in listed[2] and "Niksu" in listed[3], listed

    # the network back: recorded once, in order, as the server's own pages post them
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('#outbox:not([hidden])')")
    moves = [(seq, m) for seq, m, _ in log_of(engine, table)]
    assert moves == [(1, before[0][1]),
                     (2, {"type": "draw", "player": "Bertta"}),
                     (3, {"type": "play_event", "player": "Bertta", "card": "hahmo_kuolee", "target": "ville"}),
                     (4, {"type": "react", "player": "Aino", "card": "taktinen_teko", "to": 3, "target": "ville"}),
                     (5, {"type": "ability", "player": "Bertta", "active": "niksu", "from": "meira"}),
                     (6, {"type": "end_turn", "player": "Bertta"}),
                     (7, {"type": "draw", "player": "Cecilia"})], moves
    assert len({c for _, _, c in log_of(engine, table)[1:]}) == 6
    assert page.locator("body").get_attribute("data-seq") == "7"
    assert page.locator("section.actions").get_attribute("data-expects") == "play"
    # the screen named what the server now shows: Cecilia's play step
    assert " ".join(page.locator("[data-position-banner]").inner_text().split()) == banner
    assert page.locator(".factions [data-name].turn").get_attribute("data-name") == "Cecilia"
    assert page.dialogs == [] and page.errors == [], (page.dialogs, page.errors)


def back_online(page):
    """The network back: the waiting moves are sent and the screen drawn again at the table's state."""
    with page.expect_navigation():
        page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('#outbox:not([hidden])')")


def test_a_bile_without_and_with_guests_and_the_step_after_a_season_card_offline(tablet, server, engine):
    page = tablet
    table, before = opened_offline(page, server, engine)

    # Bertta draws on the live screen: the play step shown holds the bottom bar, the live screen's
    # correction bar (sticky at the draw step) no longer stacks under it
    page.locator("[data-position-live] form[data-move=draw] button[type=submit]").click()
    entered(page, 1)
    assert page.locator("[data-position-shown] .action-bar").count() == 1
    assert page.locator(".action-bar.secondary").evaluate("e => getComputedStyle(e).position") == "static"

    # a Bile thrown by Niksu: each set of guests leads where the engine said (none or one: a
    # position of its own; two: the play step whose cards need the server)
    form = play(page, "input[name=card][value=bile]")
    form.locator("input[name=target][value=niksu]").check()
    assert "niksu" not in offered(form, "participants[]")
    then = {}
    for guests in ((), ("pare",), ("pare", "ville"), ()):
        for box in form.locator("input[name='participants[]']").all():
            if box.is_checked() != (box.get_attribute("value") in guests):
                box.click()
        then[guests] = form.get_attribute("data-then")
    assert len({then[()], then[("pare",)], then[("pare", "ville")]}) == 3, then
    assert then[("pare", "ville")].startswith("np") and not then[()].startswith("np")
    assert form.locator("button[type=submit]").is_enabled()
    form.locator("button[type=submit]").click()  # the party nobody attends
    entered(page, 2)

    # the reactions to it are answered: Ei rahaa onto the organizer, played by Aino
    panel = page.locator("[data-position-shown] .panel.react")
    assert panel.count() == 1 and "Bile" in panel.locator("h2").inner_text()
    react(page, "ei_rahaa", "Aino", "niksu")
    entered(page, 3)
    assert "Bertta" in mover(page)
    page.locator("[data-position-shown] form[data-move=end_turn] button[type=submit]").click()
    entered(page, 4)
    assert "Cecilia" in mover(page)
    assert log_of(engine, table) == before, "a move reached the server while the tablet was offline"

    back_online(page)
    moves = [(seq, m) for seq, m, _ in log_of(engine, table)]
    assert moves[1:] == [(2, {"type": "draw", "player": "Bertta"}),
                         (3, {"type": "play_event", "player": "Bertta", "card": "bile", "target": "niksu",
                              "participants": []}),
                         (4, {"type": "react", "player": "Aino", "card": "ei_rahaa", "to": 3, "target": "niksu"}),
                         (5, {"type": "end_turn", "player": "Bertta"})], moves

    # Cecilia's turn: the season card drawn, then a Bile with guests on the play step after it
    go_offline(page)
    page.locator("[data-position-live] form[data-move=season] button[type=submit]").click()
    entered(page, 1)
    assert "Cecilia" in mover(page)
    note = page.locator("[data-position-shown] [data-answers-end]:visible")
    assert note.count() == 1 and "Sekoita pakka" in note.inner_text()
    form = play(page, "input[name=card][value=bile]")
    form.locator("input[name=target][value=kalle]").check()
    for guest in ("pare", "jaakko"):
        form.locator(f"input[name='participants[]'][value={guest}]").check()
    form.locator("button[type=submit]").click()
    entered(page, 2)
    assert "Cecilia" in mover(page)
    # the cards after it are not answered: offered unchecked, every one; the end of the turn too
    shown = page.locator("[data-position-shown] details.offline-play:visible")
    assert shown.count() > 0 and shown.count() == page.locator(
        "[data-position-shown] details.offline-play.unchecked:visible").count()
    page.locator("[data-position-shown] form[data-move=end_turn] button[type=submit]").click()
    entered(page, 3)
    assert "Aino" in mover(page)

    back_online(page)
    moves = [(seq, m) for seq, m, _ in log_of(engine, table)]
    assert moves[5:] == [(6, {"type": "season", "player": "Cecilia"}),
                         (7, {"type": "play_event", "player": "Cecilia", "card": "bile", "target": "kalle",
                              "participants": ["jaakko", "pare"]}),  # in the form's order
                         (8, {"type": "end_turn", "player": "Cecilia"})], moves
    assert len({c for _, _, c in log_of(engine, table)[1:]}) == 7
    assert page.locator("body").get_attribute("data-seq") == "8"
    assert page.dialogs == [] and page.errors == [], (page.dialogs, page.errors)


def unchecked_tile(page, selector):
    """An unchecked form's tile: no verdict, marked «tarkistamatta»."""
    box = page.locator(f"[data-position-shown] details.offline-play.unchecked:has({selector}):visible")
    assert box.count() == 1, (selector, box.count())
    assert " ".join(box.locator("[data-why]").inner_text().split()) == "tarkistamatta"
    return box


def test_a_second_card_entered_unchecked_then_the_end_of_the_turn_and_a_refused_one(tablet, server, engine):
    page = tablet
    table, before = opened_offline(page, server, engine)

    # Bertta draws; her first card is answered: Pelikampanja onto Niksu
    draw_then_play(page, "pelikampanja", "niksu")

    # a second card: not answered there, offered unchecked with every option and a note
    assert "Bertta" in mover(page)
    note = page.locator("[data-position-shown] [data-unchecked]:visible")
    assert note.count() == 1 and "tarkistamatta" in note.inner_text() and "hylätä" in note.inner_text()
    unchecked_tile(page, "input[name=card][value=hahmo_kuolee]").locator("> summary").click()
    form = page.locator("[data-position-shown] details.offline-play[open] form")
    assert set(offered(form, "target")) == {"pare", "ville", "meira", "niksu", "tommi", "imaami", "jaakko", "kalle",
                                            "tane"}
    assert form.locator("button[type=submit]").is_disabled()  # its question answered first
    form.locator("input[name=target][value=ville]").check()
    form.locator("button[type=submit]").click()
    entered(page, 3)

    # the play step entered unchecked: every card and ability offered unchecked, and the end of
    # the turn, after which the screen cannot tell whose turn it is
    assert "Bertta" in mover(page)
    assert "Bertta" in page.locator("[data-position-shown] [data-unchecked]:visible").inner_text()
    unchecked_tile(page, "input[name=active][value=niksu]")
    unchecked_tile(page, "input[name=card][value=pelikampanja]")
    assert page.locator("[data-position-shown] details.offline-play:visible:not(.unchecked)").count() == 0
    page.locator("[data-position-shown] form[data-move=end_turn] button[type=submit]").click()
    entered(page, 4)
    assert page.locator("[data-position-shown] h2.mover").count() == 0
    assert "palvelin" in page.locator("[data-position-shown] [data-answers-end]").inner_text()
    listed = page.locator("#outbox li").all_inner_texts()
    assert all(line.endswith("tarkistamatta") for line in listed), listed
    assert log_of(engine, table) == before, "a move reached the server while the tablet was offline"

    back_online(page)
    log = log_of(engine, table)
    assert [(seq, m) for seq, m, _ in log[1:]] == [
        (2, {"type": "draw", "player": "Bertta"}),
        (3, {"type": "play_activity", "player": "Bertta", "card": "pelikampanja", "target": "niksu"}),
        (4, {"type": "play_event", "player": "Bertta", "card": "hahmo_kuolee", "target": "ville"}),
        (5, {"type": "end_turn", "player": "Bertta"})], log
    assert len({c for _, _, c in log[1:]}) == 4
    assert page.locator("body").get_attribute("data-seq") == "5"

    # Cecilia's turn: a first activity onto Kalle, then a second one onto Kalle entered unchecked
    # (P6 forbids it): the server refuses it when the network returns, with its reason in Finnish
    go_offline(page)
    draw_then_play(page, "jarjestoaktiivi", "kalle")
    unchecked_tile(page, "input[name=card][value=pelikampanja]").locator("> summary").click()
    form = page.locator("[data-position-shown] details.offline-play[open] form")
    form.locator("input[name=target][value=kalle]").check()
    form.locator("button[type=submit]").click()
    entered(page, 3)
    with page.expect_navigation():
        page.context.set_offline(False)
    page.locator("#outbox li.refused").wait_for()
    [line] = page.locator("#outbox li").all_inner_texts()
    assert "Pelikampanja" in line and "P6: Kalle on jo saanut toimen tällä vuorolla (Järjestöaktiivi)" in line, line
    assert page.locator("#connection").get_attribute("class") == "conn on"
    log = log_of(engine, table)
    assert [(seq, m) for seq, m, _ in log[5:]] == [
        (6, {"type": "draw", "player": "Cecilia"}),
        (7, {"type": "play_activity", "player": "Cecilia", "card": "jarjestoaktiivi", "target": "kalle"})], log
    assert page.locator("body").get_attribute("data-seq") == "7"
    assert page.dialogs == [] and page.errors == [], (page.dialogs, page.errors)

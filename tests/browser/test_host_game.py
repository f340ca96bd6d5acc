"""A whole game on the host's tablet, in a real browser (issue 3, «How it is checked»).

Headless Chromium plays the host through a 3-player game of 10 rounds on the sample pack,
with only the screens a host uses: the new-table form, the setup screen (one character drawn
at random, one future image declared), then turn after turn the draw screens with the app's
own deck, rest, share, pass, the allocation prompt, play deferred and finish. The final
screen's standings must equal ``facilitator replay --json`` of the record the tablet
downloads, and the record must hold exactly the moves the host made.

Screenshots of the setup, turn and final screens are saved at 1024×768 and 768×1024 under
``test-output/screenshots/``; none of them may scroll sideways, and the turn screen must fit
a 1024×768 tablet without scrolling at all.
"""

import json
import random
import re
import subprocess
import sys

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack

from .conftest import CHROMIUM, ORGANIZER_PASSWORD, at

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

SKILLS = ("health", "intellect", "creativity", "communication", "energy")
RANDOM = "__random__"
SIZES = ((1024, 768), (768, 1024))
ROUNDS = 10

#: the table, clockwise; seat 1 lets the app draw the character, seat 3 declares a future image
SEATS = [
    {"name": "Аня", "born": "2009-03-14", "character": RANDOM, "extra": {"energy": 2, "health": 3}},
    {"name": "Борис", "born": "2008-11-02", "character": "C03",
     "extra": {"intellect": 2, "creativity": 2, "energy": 1}},
    {"name": "Вика", "born": "2009-07-30", "character": "C07", "extra": {"communication": 3, "energy": 2},
     "declaration": {"health": 8, "intellect": 8, "creativity": 8, "communication": 8, "energy": 8}},
]


# ----- what the host sees -------------------------------------------------------------
def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def fits_one_screen(page):
    return page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")


def shoot(page, screenshots, screen):
    """Screenshots of the current screen at both tablet sizes; asserts no sideways scrolling."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(screenshots / f"{screen}-{width}x{height}.png"), full_page=True)
        assert no_sideways_scroll(page), f"the {screen} screen scrolls sideways at {width}×{height}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def flashes(page, category):
    return [t.strip() for t in page.locator(f"[data-flash={category}]").all_inner_texts()]


def seq_of(page):
    return int(page.locator("section.actions").get_attribute("data-seq"))


def shown_round(page):
    return int(page.locator(".banner[data-round]").get_attribute("data-round"))


def shown_skills(page, name):
    card = page.locator(f"article.player[data-name='{name}']")
    return {s: int(card.locator(f"[data-skill={s}]").inner_text()) for s in SKILLS}


# ----- the host ----------------------------------------------------------------------------
class Host:
    """Taps through a game as a host would, and keeps a log of the moves it made."""

    def __init__(self, page, table_url, rng, screenshots):
        self.page = page
        self.table_url = table_url
        self.rng = rng
        self.screenshots = screenshots
        self.draw_shot = False
        self.moves = []  # what the host did, in the record's terms
        self.main_moves = 0
        self.counts = {}
        self.rounds_seen = []
        self.check_back = False  # whether to try the Back button after a played card (once)
        self.went_back = False
        self.went_offline = False  # two passes tapped offline, sent by the outbox (once)

    def tap(self, locator):
        """One tap that sends the page somewhere; waits for the new screen."""
        with self.page.expect_navigation():
            locator.click()

    def record(self, move):
        """Note a move the host just tapped, as the game record should carry it."""
        self.counts[move["type"]] = self.counts.get(move["type"], 0) + 1
        self.moves.append(move)

    def answered(self, seq_before, move_type):
        """The server's answer to a tap: the move is confirmed and recorded exactly once."""
        page = self.page
        assert not flashes(page, "error"), f"{move_type} refused: {flashes(page, 'error')}"
        assert flashes(page, "ok"), f"no confirmation after {move_type}: {page.inner_text('body')[:2000]}"
        if page.url.endswith("/final"):
            return
        assert at(page.url, self.table_url), page.url
        assert seq_of(page) == seq_before + 1, f"{move_type} did not add exactly one move"

    def step(self):
        """Make the one move the turn screen asks for next; False once the final screen shows."""
        page = self.page
        if page.url.endswith("/final"):
            return False
        # every turn screen, whatever it shows (flash lines, era banner, the allocation prompt),
        # fits the 1024×768 tablet without scrolling
        if not (no_sideways_scroll(page) and fits_one_screen(page)):
            shot = self.screenshots / f"does-not-fit-{page.url.rsplit('/', 1)[-1]}-{seq_of(page)}.png"
            page.screenshot(path=str(shot), full_page=True)
            size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            raise AssertionError(f"the turn screen scrolls at {page.url}: {size[0]}×{size[1]} px, see {shot}")
        seq = seq_of(page)
        if page.locator("form.allocate").count():
            self.allocate(seq)
        elif page.locator("form[action$='/move/play_deferred']").count():
            self.play_deferred(seq)
        elif page.locator("a[href*='/finish?after=']").count():  # the final results are checked first
            self.tap(page.locator("a[href*='/finish?after=']"))
            self.tap(page.locator("form[action$='/move/finish'] button[type=submit]"))
            self.record({"type": "finish"})
            self.answered(seq, "finish")
        else:
            self.main_move(seq)
        return True

    def allocate(self, seq):
        page = self.page
        form = page.locator("form.allocate")
        player = form.locator("input[name=player]").get_attribute("value")
        box = form.locator(".skill-inputs")
        total = int(box.get_attribute("data-total"))
        have = shown_skills(page, player)
        given = {}
        for _ in range(total):  # each free SP to the player's weakest skill
            skill = min(SKILLS, key=lambda s: (have[s] + given.get(s, 0), SKILLS.index(s)))
            given[skill] = given.get(skill, 0) + 1
        typed = "allocate" not in self.counts  # the first time typed into the inputs, then by + taps
        for skill, amount in given.items():
            if typed:
                box.locator(f"input[name='sp-{skill}']").fill(str(amount))
            else:
                for _ in range(amount):
                    box.locator(f"label.stepper:has(input[name='sp-{skill}']) button.inc").click()
        for s in SKILLS:
            expected = str(given[s]) if s in given else ""
            assert form.locator(f"input[name='sp-{s}']").input_value() == expected
        assert box.locator("output.live-check").get_attribute("class").split()[-1] == "good"
        self.tap(form.locator("button[type=submit]"))
        self.record({"type": "allocate", "player": player, "sp": given})
        self.answered(seq, "allocate")

    def play_deferred(self, seq):
        form = self.page.locator("form[action$='/move/play_deferred']")
        player = form.locator("input[name=player]").get_attribute("value")
        self.tap(form.locator("button[type=submit]"))
        self.record({"type": "play_deferred", "player": player})
        self.answered(seq, "play_deferred")

    def main_move(self, seq):
        page = self.page
        round_no = shown_round(page)
        self.rounds_seen.append(round_no)
        self.main_moves += 1
        k = self.main_moves
        share = page.locator("form[action$='/move/share'] button[type=submit]")
        if k in (4, 13, 22):
            self.rest(seq, redistribute=(k == 13))
        elif k in (8, 26):
            self.pass_turn(seq)
        elif k == 17 and not self.went_offline:
            self.passes_offline(seq)
        elif share.count() and "share" not in self.counts and round_no >= 5:
            player = page.locator("form[action$='/move/share'] input[name=player]").get_attribute("value")
            self.tap(share)
            self.record({"type": "share", "player": player})
            self.answered(seq, "share")
        else:
            self.draw(seq, self.rng.choice(("green", "yellow", "red")))

    def pass_turn(self, seq):
        """«Pass», then «Yes, pass»: the first tap only asks."""
        page = self.page
        player = page.locator("form[action$='/move/pass'] input[name=player]").get_attribute("value")
        page.locator("#pass-button").click()
        self.tap(page.locator("form[action$='/move/pass'] button[type=submit]"))
        self.record({"type": "pass", "player": player})
        self.answered(seq, "pass")

    def passes_offline(self, seq):
        """The venue's Wi-Fi drops: the host passes for this player and, the screen going on
        with the moves marked as waiting, for the next one; both wait in the outbox, nothing
        reaches the server, and once the tablet is back online they are recorded in order."""
        page, context = self.page, self.page.context
        self.went_offline = True
        context.set_offline(True)
        page.locator("#connection.off").wait_for(timeout=5_000)
        order = [page.locator("article.player").nth(i).get_attribute("data-name")
                 for i in range(page.locator("article.player").count())]
        mover = page.locator("form[action$='/move/pass'] input[name=player]").get_attribute("value")
        players = [mover, order[(order.index(mover) + 1) % len(order)]]  # the round's 2nd and 3rd turns
        for waiting, player in enumerate(players, start=1):
            box = page.locator("details.pass-confirm")
            if box.get_attribute("open") is None:
                box.locator("summary").click()
            choice = box.locator("select[name=player]")  # while moves wait, the host says whose pass it is
            if choice.count():
                choice.select_option(player)
            else:
                assert box.locator("input[name=player]").get_attribute("value") == player
            box.locator("button[type=submit]").click()
            page.locator("#outbox li").nth(waiting - 1).wait_for(timeout=5_000)
            assert seq_of(page) == seq, "a move reached the server while the tablet was offline"
        context.set_offline(False)
        page.locator(f"section.actions[data-seq='{seq + 2}']").wait_for(timeout=20_000)
        assert at(page.url, self.table_url) and page.locator("#outbox").is_hidden()
        for player in players:
            self.record({"type": "pass", "player": player})
        self.main_moves += 1  # the second pass (the first is counted by main_move)
        self.rounds_seen.append(self.rounds_seen[-1])

    def back_after_playing(self, card_url, code, player):
        """The Back button right after a played card: the card's page, opened again from the
        browser's history, says the card was played and offers no move; its link leads on to the
        current turn, and nothing was recorded."""
        page = self.page
        seq = seq_of(page)
        self.went_back = True
        page.go_back(wait_until="commit")
        moved_on = page.locator("section.moved-on")
        moved_on.wait_for(timeout=5_000)  # a page the back/forward cache restores is drawn again
        text = " ".join(moved_on.inner_text().split())
        assert code in text and player in text, text  # which card, played by whom
        assert page.locator("form[data-move], form[data-undo], form.decision, form[method=post]").count() == 0
        self.tap(moved_on.locator("a.button.primary"))
        assert at(page.url, self.table_url) and seq_of(page) == seq, "the Back button recorded something"

    def rest(self, seq, redistribute):
        page = self.page
        rest = page.locator("details.rest")
        rest.locator("summary").click()
        form = rest.locator("form")
        player = form.locator("input[name=player]").get_attribute("value")
        moved = None
        if redistribute:  # one SP from the strongest skill to the weakest, within the era's limit
            have = shown_skills(page, player)
            have["energy"] += 1  # the rest's own +1 energy comes first
            src = max(SKILLS, key=lambda s: have[s])
            dst = min(SKILLS, key=lambda s: have[s])
            form.locator(f"label.stepper:has(input[name='redistribute-{src}']) button.dec").click()
            form.locator(f"label.stepper:has(input[name='redistribute-{dst}']) button.inc").click()
            assert form.locator("output.live-check").get_attribute("class").split()[-1] == "good"
            moved = {src: -1, dst: 1}
        self.tap(form.locator("button[type=submit]"))
        move = {"type": "rest", "player": player}
        if moved:
            move["redistribute"] = moved
        self.record(move)
        self.answered(seq, "rest")

    def draw(self, seq, color):
        page = self.page
        mover = page.locator("form[action$='/move/pass'] input[name=player]").get_attribute("value")
        holds_deferred = page.locator(f"article.player[data-name='{mover}'] .badge[title]").count() > 0
        self.tap(page.locator(f".main-moves a.card-{color}"))
        assert f"color={color}" in page.url
        self.tap(page.locator("a[href*='random=1']"))  # «draw at random from the app's deck»
        form = page.locator("form.decision")
        player = form.locator("input[name=player]").get_attribute("value")
        code = form.locator("input[name=card]").get_attribute("value")
        assert code and form.locator("input[name=source]").get_attribute("value") == "deck"
        if not self.draw_shot and self.rounds_seen[-1] >= 4:
            shoot(page, self.screenshots, "draw")
            self.draw_shot = True
        eligible = page.locator(".verdict").get_attribute("data-eligible") == "1"
        enabled = {d for d in ("play", "defer", "discard")
                   if form.locator(f"button[name=decision][value={d}]").is_enabled()}
        # play when eligible; else defer, unless a deferred card is already held; discard always
        assert player == mover
        assert ("play" in enabled) == eligible, (code, eligible, enabled)
        assert ("defer" in enabled) == (not eligible and not holds_deferred), (code, holds_deferred, enabled)
        assert "discard" in enabled
        decision = next(d for d in ("play", "defer", "discard") if d in enabled)
        card_page = page.url
        self.tap(form.locator(f"button[name=decision][value={decision}]"))
        self.record({"type": "draw", "player": player, "color": color, "card": code, "decision": decision,
                     "source": "app-deck"})
        self.answered(seq, f"draw {code} {decision}")
        if self.check_back and not self.went_back and decision == "play" and not page.url.endswith("/final"):
            assert "random=1" in card_page
            self.back_after_playing(card_page, code, player)


# ----- the game --------------------------------------------------------------------------
def sign_in(page, base):
    """The organizer signs in on the tablet (only the organizer opens new tables)."""
    page.goto(f"{base}/organizer/login?lang=en")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    assert "/login" not in page.url, page.inner_text("body")[:2000]


def create_table(page, base):
    page.goto(f"{base}/?game=lyceum-16-25")
    form = page.locator("form[action$='/tables']")
    form.locator("input[name=name]").fill("Стол у окна")
    pack = form.locator("select[name=pack]")
    assert pack.locator("option").count() >= 1
    pack.select_option(index=0)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    match = re.fullmatch(rf"{re.escape(base)}/table/(\d+)/setup", page.url)
    assert match, f"{page.url}: {page.inner_text('body')[:2000]}"
    return int(match.group(1))


def fill_setup(page):
    for i, seat in enumerate(SEATS):
        box = page.locator(f"fieldset[data-player='{i}']")
        box.locator(f"input[name='players-{i}-name']").fill(seat["name"])
        box.locator(f"input[name='players-{i}-born']").fill(seat["born"])
        box.locator(f"select[name='players-{i}-character']").select_option(seat["character"])
        for s, v in seat["extra"].items():
            box.locator(f"input[name='players-{i}-extra-{s}']").fill(str(v))
        for s, v in seat.get("declaration", {}).items():
            box.locator(f"input[name='players-{i}-declaration-{s}']").fill(str(v))
        sums = box.locator("td.sum")
        assert sums.nth(0).inner_text() == "5/5" and "good" in sums.nth(0).get_attribute("class")
        if "declaration" in seat:
            assert sums.nth(1).inner_text() == "40" and "good" in sums.nth(1).get_attribute("class")


def final_standings(page):
    rows = []
    for row in page.locator("table.results tbody tr").all():
        cells = row.locator("td")
        rows.append({"name": row.get_attribute("data-player"), "place": int(cells.nth(0).inner_text()),
                     "final_xp": int(row.locator("td.final-xp").inner_text())})
    return rows


def replay_json(path):
    done = subprocess.run([sys.executable, "-m", "facilitator", "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def comparable(move):
    """A recorded move without its timestamp, empty maps compacted as the record writes them."""
    return {k: v for k, v in move.items() if k not in ("at", "note")}


def test_a_host_runs_a_whole_game_and_the_final_screen_matches_the_replayed_record(
        page, live_server, screenshots, tmp_path):
    sign_in(page, live_server)
    table_id = create_table(page, live_server)
    fill_setup(page)
    shoot(page, screenshots, "setup")
    with page.expect_navigation():
        page.locator("form.setup button[type=submit]").click()
    table_url = f"{live_server}/table/{table_id}"
    assert at(page.url, table_url), page.url
    assert seq_of(page) == 0 and shown_round(page) == 1

    host = Host(page, table_url, random.Random(1625), screenshots)
    host.check_back = True
    turn_shot = False
    while host.step():
        if not turn_shot and at(page.url, table_url) and shown_round(page) >= 6 and \
                not page.locator("form.allocate").count() and page.locator(".main-moves").count():
            shoot(page, screenshots, "turn")
            turn_shot = True
        assert host.main_moves <= 3 * ROUNDS, "more main moves than 10 rounds of 3 players"

    # every main move of every round, in order, and the screens the host needed
    assert host.main_moves == 3 * ROUNDS
    assert host.rounds_seen == sorted(host.rounds_seen) and host.rounds_seen[-1] == ROUNDS
    assert turn_shot and host.draw_shot
    for kind in ("draw", "rest", "pass", "allocate", "finish"):
        assert host.counts.get(kind), f"the game never used {kind}: {host.counts}"
    assert host.went_back and host.went_offline, "the Back button and the offline outbox were not tried"
    print(f"moves tapped: {host.counts}")

    assert page.url == f"{table_url}/final"
    shoot(page, screenshots, "final")
    shown = final_standings(page)
    assert len(shown) == 3

    with page.expect_download() as download:
        page.locator("a[href$='/record.json']").first.click()
    record_path = tmp_path / "record.json"
    download.value.save_as(record_path)
    record = json.loads(record_path.read_text("utf-8"))

    # the record holds exactly the setup entered and the moves tapped
    players = {p["name"]: p for p in record["players"]}
    assert list(players) == [s["name"] for s in SEATS]
    codes = {c.code for c in sample_pack().characters}
    drawn_character = players[SEATS[0]["name"]]["character"]
    assert drawn_character in codes and drawn_character not in {s["character"] for s in SEATS[1:]}
    assert players["Вика"]["declaration"] == SEATS[2]["declaration"]
    assert not players["Аня"].get("declaration") and not players["Борис"].get("declaration")
    assert [comparable(m) for m in record["moves"]] == host.moves

    # the final screen says what the replay of that record says
    table = replay_json(record_path)["tables"][0]
    assert table["finished"] and table["round"] == ROUNDS
    expected = [{"name": p["name"], "place": p["place"], "final_xp": p["final_xp"]} for p in table["players"]]
    assert sorted(shown, key=lambda r: r["name"]) == sorted(expected, key=lambda r: r["name"])
    assert [r["place"] for r in shown] == sorted(r["place"] for r in shown)
    bonus_row = page.locator("table.results tr[data-player='Вика']")
    assert "40" in bonus_row.inner_text()

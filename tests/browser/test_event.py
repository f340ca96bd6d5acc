"""An event in a real browser (issue 5, «How it is checked»): the organizer creates an event
with three tables, three hosts play their games through to the end, and the projector page,
opened at the start and never reloaded, ends up showing the final ranking.

Every party has its own Playwright browser context (its own cookies), all in one headless
Chromium:

* the organizer (1024×768) signs in with the password, creates the event with three tables
  on the new-event form, renames them on the dashboard and reads each table's PIN there;
* three hosts (1024×768) open their table with its PIN on ``/pin`` only — and cannot open
  another table — seat 3, 3 and 4 players and play the first round in turn, one move each,
  quickly (draws from the app's deck, passes and rests), through the host screens of issue 3;
  the rest of each game comes from the tablet a few moves at a time, as its outbox sends moves
  (a whole game tapped through the screens is tests/browser/test_host_game.py's), and each
  host taps the finish;
* the projector (1280×720), the public ``/e/<event id>``, is opened right after the event is
  created and left alone: it polls ``standings.json`` and swaps the ranking in place. A marker
  set in its window at load time and Playwright's count of its navigations prove that it was
  never reloaded.

The final team and individual rankings the projector shows must be those of
``facilitator replay --json`` of the three game records the hosts download, ranked by the
average (the tables have different sizes). Then the organizer steps the announcement mode
from the dashboard, and the projector reveals the places from the last to the first.

Screenshots: ``dashboard-1024x768.png``, ``projector-1280x720.png``, ``projector-event-chart-1280x720.png`` and
``projector-announce-1280x720.png`` under ``test-output/screenshots/``.
"""

import json
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

import pytest

from facilitator.i18n import gettext, use_locale

from .conftest import CHROMIUM, ORGANIZER_PASSWORD, at
from .test_host_game import RANDOM, Host, comparable, no_sideways_scroll, seq_of, shown_round

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1280, "height": 720}
#: the projector polls every 3 s and, while the games go on, its standings may be 5 s old
#: (PROJECTOR_FRESH_SECONDS): an update shows within 8 s
PROJECTOR_UPDATE_MS = 12_000
POLL_MS = 3_000
ROUNDS = 10
COLORS = ("green", "yellow", "red")

#: the tables after renaming, with their players clockwise (name, birth date, 5 extra SP);
#: different sizes, so the teams are ranked by the average final XP per player
TABLES = [
    ("Сириус", [("Аня", "2009-03-14", {"energy": 2, "health": 3}),
                ("Борис", "2008-11-02", {"intellect": 2, "creativity": 2, "energy": 1}),
                ("Вика", "2009-07-30", {"communication": 3, "energy": 2})]),
    ("Вега", [("Гоша", "2009-01-05", {"health": 1, "intellect": 1, "creativity": 1, "communication": 1,
                                       "energy": 1}),
              ("Даша", "2008-12-24", {"energy": 5}),
              ("Егор", "2009-05-17", {"intellect": 3, "communication": 2})]),
    ("Альтаир", [("Женя", "2008-10-10", {"creativity": 4, "energy": 1}),
                 ("Зоя", "2009-02-28", {"health": 2, "energy": 3}),
                 ("Илья", "2009-09-09", {"intellect": 1, "communication": 4}),
                 ("Катя", "2008-09-01", {"health": 1, "creativity": 2, "energy": 2})]),
]
PLAYERS = sum(len(seats) for _name, seats in TABLES)


# ----- the hosts -----------------------------------------------------------------------------
class QuickHost(Host):
    """A host of issue 3's test in a hurry: each main move is a draw from the app's deck (a
    third of the time), a pass or now and then a rest; allocations, deferred cards and the
    finish are answered as the screens ask (``Host.step``). Passes are one tap, a draw three
    screens: the games stay quick to play in a browser."""

    def main_move(self, seq):
        self.rounds_seen.append(shown_round(self.page))
        self.main_moves += 1
        roll = self.rng.random()
        if roll < 0.35:
            self.draw(seq, self.rng.choice(COLORS))
        elif roll < 0.45:
            self.rest(seq, redistribute=False)
        else:
            self.pass_turn(seq)


def tap(page, locator):
    with page.expect_navigation():
        locator.click()


def open_with_pin(page, base, pin):
    """The host's way in: the PIN from the access sheet, typed on ``/pin``."""
    page.goto(f"{base}/pin")
    page.locator("input[name=pin]").fill(pin)
    tap(page, page.locator("form button[type=submit]"))


def seat_players(page, seats):
    """The setup screen: names, birth dates, characters drawn by the app, 5 extra SP each."""
    for i, (name, born, extra) in enumerate(seats):
        box = page.locator(f"fieldset[data-player='{i}']")
        box.locator(f"input[name='players-{i}-name']").fill(name)
        box.locator(f"input[name='players-{i}-born']").fill(born)
        box.locator(f"select[name='players-{i}-character']").select_option(RANDOM)
        for skill, sp in extra.items():
            box.locator(f"input[name='players-{i}-extra-{skill}']").fill(str(sp))
        assert box.locator("td.sum").first.inner_text() == "5/5"
    tap(page, page.locator("form.setup button[type=submit]"))


# ----- the projector ---------------------------------------------------------------------------
PROJECTOR_VIEW = """() => {
  const rows = (sel) => [...document.querySelectorAll(sel)].map((li) => ({
    place: li.querySelector('.place') ? li.querySelector('.place').textContent.trim() : null,
    name: li.querySelector('.name') ? li.querySelector('.name').firstChild.textContent.trim() : li.textContent.trim(),
    table: li.querySelector('.name small') ? li.querySelector('.name small').textContent.trim() : null,
    score: li.querySelector('.score') ? li.querySelector('.score').textContent.trim() : null,
    classes: [...li.classList]}));
  return {
    rule: (document.querySelector('.proj-sub') || {}).textContent || '',
    provisional: !!document.querySelector('.proj-sub .badge'),
    teams: rows('.proj-cols .proj-teams li'),
    players: rows('.proj-players li'),
    announced: document.querySelector('.proj-announce') ? rows('.proj-announce li') : null,
    progress: [...document.querySelectorAll('.proj-progress span')].map((s) => s.textContent.trim()),
    marker: window.__leftOpen === undefined ? null : window.__leftOpen,
    offline: !document.getElementById('offline').hidden,
  };
}"""


def projector_view(projector):
    return projector.evaluate(PROJECTOR_VIEW)


def wait_for_projector(projector, condition, what):
    """Wait (without touching the page) until the polled projector shows something; ``condition``
    is a JS expression over ``document``. The page's clock (Playwright's, installed before it was
    opened) skips ahead to its next poll instead of waiting the 3 s; the page polls as it would."""
    # polled from here: ``wait_for_function`` evaluates its predicate with ``eval``, which the
    # app's Content-Security-Policy (script-src 'self') rightly refuses
    deadline = time.monotonic() + PROJECTOR_UPDATE_MS / 1000
    while not projector.evaluate(condition):
        if time.monotonic() > deadline:
            raise AssertionError(f"the projector did not show {what}: {projector_view(projector)}")
        projector.clock.fast_forward(POLL_MS)
        projector.wait_for_timeout(250)


def polled(projector):
    """The projector's clock skipped ahead to its next poll, twice, each time until the answer
    came: the page has polled at least once since this was called."""
    for _ in range(2):
        with projector.expect_response(lambda r: "/standings" in r.url, timeout=PROJECTOR_UPDATE_MS):
            projector.clock.fast_forward(POLL_MS)
        projector.wait_for_timeout(100)  # the answer drawn


def figure(text):
    """A number as a screen prints it, with either decimal mark (433,3 in Russian, 433.3 in English)."""
    return text.strip().replace("\u202f", "").replace("\xa0", "").replace(",", ".")


def teams_shown(rows):
    return [(int(r["place"]), r["name"], figure(r["score"])) for r in rows]


def fits_one_screen(page):
    return page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")


# ----- what the replayed records say ---------------------------------------------------------------
def score_text(team):
    """A team's score as the projector prints it: the sum, or the average rounded to whole XP."""
    return str(team["total_xp"]) if team["ranked_by"] == "total" else "%.0f" % team["average_xp"]


def expected_teams(standings):
    return [(t["place"], t["table"], score_text(t)) for t in standings["teams"]]


def expected_players(standings):
    return [(p["place"], p["name"], p["table"], p["final_xp"]) for p in standings["individuals"]]


def ranked_by_average_text():
    """The projector's line for the average rule, in the hall's language (Russian by default)."""
    with use_locale("ru"):
        return gettext("team score: the average final XP per player (tables of different sizes)")


# ----- the event, played once for the module ---------------------------------------------------------
@dataclass
class PlayedEvent:
    base: str
    event_id: int
    table_ids: list
    organizer: object  # the organizer's page (dashboard)
    projector: object  # the projector's page, never reloaded
    projector_loads: list  # main-frame navigations of the projector page seen by Playwright
    marker: float
    standings: dict  # ``facilitator replay --json`` of the three downloaded records
    records: list
    hosts: list = field(default_factory=list)


def new_context(browser, viewport):
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    context.set_default_timeout(10_000)
    return context


@pytest.fixture(scope="module")
def event(browser, live_server, screenshots, tmp_path_factory):
    base = live_server
    contexts = []
    try:
        yield play_the_event(browser, base, contexts, screenshots, tmp_path_factory.mktemp("records"))
    finally:
        for context in contexts:
            context.close()


def play_the_event(browser, base, contexts, screenshots, folder):
    # the organizer signs in and creates the event with three tables
    contexts.append(new_context(browser, TABLET))
    organizer = contexts[-1].new_page()
    organizer.goto(f"{base}/organizer/login")
    organizer.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    tap(organizer, organizer.locator("form button[type=submit]").first)
    assert organizer.url.rstrip("/").endswith("/organizer"), organizer.inner_text("body")[:2000]
    organizer.goto(f"{base}/organizer/?game=lyceum-16-25")  # the game is the first choice
    form = organizer.locator("form[action$='/organizer/events']")
    form.locator("input[name=name]").fill("Кубок «16/25»")
    form.locator("input[name=date]").fill("2026-11-29")
    assert form.locator("select[name=pack] option").count() >= 1
    form.locator("select[name=pack]").select_option(index=0)
    form.locator("input[name=tables]").fill("3")
    tap(organizer, form.locator("button[type=submit]"))
    match = re.fullmatch(rf"{re.escape(base)}/organizer/events/(\d+)", organizer.url)
    assert match, f"{organizer.url}: {organizer.inner_text('body')[:2000]}"
    event_id = int(match.group(1))
    rows = organizer.locator("table.dashboard tbody tr[data-table]")
    assert rows.count() == len(TABLES)
    table_ids = [int(rows.nth(i).get_attribute("data-table")) for i in range(len(TABLES))]

    # the projector is opened now and left alone until the end
    contexts.append(new_context(browser, PROJECTOR))
    projector = contexts[-1].new_page()
    loads = []
    projector.on("framenavigated", lambda frame: loads.append(frame.url) if frame == projector.main_frame else None)
    # how the page was opened, as the browser's own clock told it (the page's clock is Playwright's
    # from here: its time runs, and the waits below skip it ahead to the next poll)
    contexts[-1].add_init_script("window.__navigation = performance.getEntriesByType('navigation')[0].type")
    contexts[-1].clock.install()
    projector.goto(f"{base}/e/{event_id}")
    marker = random.random()
    projector.evaluate(f"window.__leftOpen = {marker!r}")
    shown = projector_view(projector)
    assert shown["teams"] and "muted" in shown["teams"][0]["classes"], shown  # «the games have not started»
    assert shown["provisional"] and not shown["players"], shown

    # the organizer names the tables; the projector picks the new names up by itself
    for table_id, (name, _seats) in zip(table_ids, TABLES):
        row = organizer.locator(f"table.dashboard tr[data-table='{table_id}']")
        tap(organizer, row.locator(f"a[href$='/tables/{table_id}']"))  # «⋯»: the table's own page
        rename = organizer.locator("form[action$='/rename']")
        rename.locator("input[name=name]").fill(name)
        tap(organizer, rename.locator("button[type=submit]"))  # and back on the dashboard
    pins = {}
    for table_id, (name, _seats) in zip(table_ids, TABLES):
        row = organizer.locator(f"table.dashboard tr[data-table='{table_id}']")
        assert row.locator("td").first.inner_text().strip() == name
        pins[table_id] = row.locator("td.pin").inner_text().strip()
    assert all(re.fullmatch(r"\d{6}", pin) for pin in pins.values()), pins
    assert len(set(pins.values())) == len(TABLES), pins
    names_js = json.dumps([name for name, _seats in TABLES])
    wait_for_projector(projector, f"""{names_js}.every((n) => [...document.querySelectorAll('.proj-progress span')]
                                        .some((s) => s.textContent.trim().startsWith(n + ':')))""",
                       "the renamed tables")

    # each host opens their own table with its PIN, and only that table
    hosts = []
    for table_id, (name, seats) in zip(table_ids, TABLES):
        contexts.append(new_context(browser, TABLET))
        page = contexts[-1].new_page()
        open_with_pin(page, base, pins[table_id])
        assert page.url == f"{base}/table/{table_id}/setup", (name, page.url)
        for other in table_ids:
            if other != table_id:
                assert page.request.get(f"{base}/table/{other}").status == 403, (name, other)
        assert page.request.get(f"{base}/organizer/events/{event_id}", max_redirects=0).status in (302, 303)
        seat_players(page, seats)
        assert at(page.url, f"{base}/table/{table_id}"), (name, page.url, page.inner_text("body")[:2000])
        host = QuickHost(page, page.url, random.Random(f"16/25 {name}"), screenshots)
        host.draw_shot = True  # the host screens' screenshots belong to issue 3's test
        hosts.append(host)

    # the hosts play in turn through the screens, one move each, until every table has played a
    # round; meanwhile the open projector already ranks the three teams, provisionally
    live_checked = False
    while any(host.main_moves < len(seats) for host, (_name, seats) in zip(hosts, TABLES)):
        for host, (_name, seats) in zip(hosts, TABLES):
            if host.main_moves < len(seats):
                assert host.step()
        if not live_checked and all(h.main_moves >= 2 for h in hosts):
            wait_for_projector(projector, "document.querySelectorAll('.proj-cols .proj-teams li .place').length == 3"
                                          " && !!document.querySelector('.proj-sub .badge')",
                               "the provisional ranking of the three tables mid-game")
            live_checked = True
    assert live_checked
    # the rest of each game up to its finish, a few moves at a time from each tablet as its outbox
    # sends them (a whole game tapped on these screens is tests/browser/test_host_game.py's)
    games = {id(host): game_on_the_tablet(host, base, table_id) for host, table_id in zip(hosts, table_ids)}
    while any(not games[id(host)].next()["expects"] == "finish" for host in hosts):
        for host, table_id in zip(hosts, table_ids):
            send_from_the_outbox(host, base, table_id, games[id(host)], moves=8)
    # and the finish tapped on each tablet
    playing = list(hosts)
    steps = 0
    for host in hosts:
        host.page.goto(host.table_url)
        assert seq_of(host.page) == len(host.moves)
    while playing:
        for host in list(playing):
            if not host.step():
                playing.remove(host)
            steps += 1
            assert steps < 100, "the games do not end"
    for host, (name, seats) in zip(hosts, TABLES):
        assert host.page.url.endswith("/final"), (name, host.page.url)
        assert host.counts.get("finish") == 1, (name, host.counts)
        # every player made a main move in each of the 10 rounds
        assert sum(1 for m in host.moves if m["type"] in ("draw", "rest", "pass", "share")) == len(seats) * ROUNDS
    print("moves made: " + "; ".join(f"{name}: {h.counts}" for h, (name, _s) in zip(hosts, TABLES)))

    # each host downloads the table's game record from the final screen
    records = []
    for host, (name, _seats) in zip(hosts, TABLES):
        with host.page.expect_download() as download:
            host.page.locator("a[href$='/record.json']").first.click()
        path = folder / f"record-{len(records) + 1}.json"
        download.value.save_as(path)
        record = json.loads(path.read_text("utf-8"))
        assert [comparable(m) for m in record["moves"]] == host.moves, f"{name}: the record is not what was sent"
        records.append(path)
    standings = replay_many(records)
    return PlayedEvent(base=base, event_id=event_id, table_ids=table_ids, organizer=organizer,
                       projector=projector, projector_loads=loads, marker=marker, standings=standings,
                       records=records, hosts=hosts)


def game_on_the_tablet(host, base, table_id):
    """The table's game so far, replayed from the record the tablet downloads."""
    from facilitator.rules.lyceum import read_record, replay
    answer = host.page.request.get(f"{base}/table/{table_id}/record.json")
    assert answer.ok, answer.text()
    game = replay(read_record(answer.json()))
    assert [comparable(m.to_dict()) for m in game.moves] == host.moves
    return game


def send_from_the_outbox(host, base, table_id, game, moves):
    """Up to ``moves`` legal moves, chosen as a plausible table plays (``simulate.choose_move``),
    sent as one batch the way the tablet's outbox sends its queue (the host's session, no token);
    all are recorded, and noted as the host's moves. Stops before the finish."""
    from facilitator.rules.lyceum.simulate import choose_move
    rng = random.Random(f"{table_id} {len(game.moves)}")
    seq = len(game.moves)
    items = []
    while len(items) < moves and game.next()["expects"] != "finish":
        move = choose_move(game, rng)
        try:
            game.apply(move)
        except Exception:  # noqa: BLE001 - a random redistribution the rules refuse: choose again
            continue
        items.append({"after": seq, "move": move.to_dict(), "client_id": f"outbox-{table_id}-{seq}"})
        seq += 1
    if not items:
        return
    answer = host.page.request.post(f"{base}/api/v1/tables/{table_id}/moves/batch", data={"moves": items},
                                    headers={"Content-Type": "application/json", "Accept": "application/json"})
    assert answer.ok, answer.text()
    out = answer.json()
    assert out["refused"] is None and len(out["recorded"]) == len(items) and out["seq"] == seq, out
    for item in items:
        host.record(comparable(item["move"]))


def replay_many(paths):
    """``facilitator replay <records> --json``: the event's standings from the records alone."""
    done = subprocess.run([sys.executable, "-m", "facilitator", "replay", *map(str, paths), "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def assert_never_reloaded(event):
    projector = event.projector
    assert projector.evaluate("window.__leftOpen") == event.marker, "the projector page was reloaded"
    assert len(event.projector_loads) == 1, f"the projector navigated: {event.projector_loads}"
    assert projector.evaluate("window.__navigation") == "navigate"


# ----- the checks ---------------------------------------------------------------------------------
def test_the_open_projector_ends_on_the_final_ranking_of_the_replayed_records(event, screenshots):
    standings = event.standings
    assert [t["table"] for t in standings["tables"]] == [name for name, _seats in TABLES]
    assert all(t["finished"] and t["round"] == ROUNDS for t in standings["tables"])
    assert {t["ranked_by"] for t in standings["teams"]} == {"average"}

    projector = event.projector
    wait_for_projector(projector, "!document.querySelector('.proj-sub .badge')"
                                  f" && document.querySelectorAll('.proj-players li').length == {PLAYERS}",
                       "the final results")
    shown = projector_view(projector)
    assert not shown["provisional"] and not shown["offline"], shown
    assert ranked_by_average_text() in shown["rule"], shown["rule"]
    assert teams_shown(shown["teams"]) == expected_teams(standings)
    assert [(int(r["place"]), r["name"], r["table"], int(figure(r["score"]))) for r in shown["players"]] == \
        expected_players(standings)[:10]
    assert len(shown["players"]) == PLAYERS  # all ten players make the top ten
    winners = [t["table"] for t in standings["teams"] if t["place"] == 1]
    assert [r["name"] for r in shown["teams"] if "first" in r["classes"]] == winners
    # the standings and the game's chart take turns, each filling the screen (the turn forced
    # through projector.js's hook rather than waited for)
    for view in ("chart", "standings"):
        turned = projector.evaluate(f"window.__projectorShow({view!r})")
        assert turned["view"] == view and turned["charts"] == 1, turned
        assert projector.locator(".proj-chart svg").is_visible() == (view == "chart"), view
        assert projector.locator(".proj-cols").is_visible() == (view == "standings"), view
        assert projector.locator(".proj-head h1").is_visible(), view
        assert fits_one_screen(projector) and no_sideways_scroll(projector), f"the projector's {view} scroll at 1280×720"
        projector.screenshot(path=str(screenshots / f"projector{'-event-chart' if view == 'chart' else ''}-1280x720.png"))
    # by themselves: the standings ~20 s, then the chart ~12 s, and the standings again
    view = "document.getElementById('standings').className"
    projector.clock.fast_forward(19_000)
    assert projector.evaluate(view) == "view-standings"
    projector.clock.fast_forward(1_500)
    assert projector.evaluate(view) == "view-chart"
    projector.clock.fast_forward(12_000)
    assert projector.evaluate(view) == "view-standings"
    assert_never_reloaded(event)


def test_the_dashboard_shows_every_table_finished_and_the_same_ranking(event, screenshots):
    organizer = event.organizer
    organizer.goto(f"{event.base}/organizer/events/{event.event_id}")
    for table_id, path in zip(event.table_ids, event.records):
        row = organizer.locator(f"table.dashboard tr[data-table='{table_id}']")
        cells = row.locator("td")
        moves = len(json.loads(path.read_text("utf-8"))["moves"])
        assert int(cells.nth(5).inner_text()) == moves
        assert cells.nth(4).inner_text().strip() == "—", "a finished table has nobody's turn"
        assert cells.nth(7).locator("b").count() == 1, "the state is not «finished»"  # «setup»/«playing» are plain
        assert "stalled" not in (row.get_attribute("class") or "")
    ranking = organizer.locator("section.panel.two").first
    with use_locale("ru"):
        rule = gettext("Ranked by the average final XP per player: tables have different numbers of players.")
    assert rule in ranking.inner_text()
    teams = []
    for row in ranking.locator("table.grid").first.locator("tbody tr").all():
        place, table, players, total, average = [c.inner_text().strip() for c in row.locator("td").all()]
        teams.append((int(place), table, int(players), int(figure(total)), figure(average)))
    assert teams == [(t["place"], t["table"], t["players"], t["total_xp"], "%.1f" % t["average_xp"])
                     for t in event.standings["teams"]]
    organizer.screenshot(path=str(screenshots / "dashboard-1024x768.png"), full_page=True)
    assert no_sideways_scroll(organizer), "the dashboard scrolls sideways at 1024×768"


def announce(event, action):
    """One tap on the dashboard's announcement buttons."""
    organizer = event.organizer
    button = organizer.locator(f"#announce form:has(input[name=action][value={action}]) button[type=submit]")
    tap(organizer, button)
    assert organizer.url.endswith(f"/organizer/events/{event.event_id}#announce"), organizer.url


def test_the_announcement_reveals_the_places_from_the_last_to_the_first(event, screenshots):
    projector = event.projector
    ranking = expected_teams(event.standings)  # best first
    reveal_order = list(reversed(ranking))  # what the hall sees, top to bottom, as places are revealed

    def wait_for_revealed(n):
        wait_for_projector(projector, f"!!document.querySelector('.proj-announce')"
                                      f" && document.querySelectorAll('.proj-announce li').length == {n}",
                           f"{n} revealed place(s)")
        shown = projector_view(projector)["announced"]
        assert teams_shown(shown) == reveal_order[:n], (n, shown)
        assert [r["classes"].count("newest") for r in shown] == [0] * (n - 1) + [1], shown
        return shown

    event.organizer.goto(f"{event.base}/organizer/events/{event.event_id}")
    announce(event, "start")
    wait_for_revealed(1)
    assert projector_view(projector)["teams"] == [], "the live ranking stays hidden while announcing"
    announce(event, "next")
    wait_for_revealed(2)
    announce(event, "back")
    wait_for_revealed(1)
    announce(event, "next")
    wait_for_revealed(2)
    announce(event, "next")
    shown = wait_for_revealed(3)
    # every team on the first place is marked so (tied teams are revealed together, in either order)
    assert sorted(r["name"] for r in shown if "first" in r["classes"]) == \
        sorted(t["table"] for t in event.standings["teams"] if t["place"] == 1)
    assert fits_one_screen(projector), "the announcement scrolls at 1280×720"
    projector.screenshot(path=str(screenshots / "projector-announce-1280x720.png"), animations="disabled")
    announce(event, "next")  # nothing left to reveal: the first place stays the last shown
    polled(projector)
    assert teams_shown(projector_view(projector)["announced"]) == reveal_order
    announce(event, "stop")  # back to the live ranking
    wait_for_projector(projector, "!document.querySelector('.proj-announce')"
                                  " && document.querySelectorAll('.proj-cols .proj-teams li .place').length == 3",
                       "the live ranking again")
    assert teams_shown(projector_view(projector)["teams"]) == ranking
    assert_never_reloaded(event)


def test_the_ranking_rule_is_named_in_russian_on_the_projector_and_the_dashboard(event):
    """The hall reads Russian: tables of different sizes are ranked by the average (средний опыт,
    «по среднему»), not by the sum (сумма)."""
    rule = projector_view(event.projector)["rule"]
    assert re.search(r"средн", rule, re.IGNORECASE) and not re.search(r"сумм", rule, re.IGNORECASE), \
        f"the projector does not name the average rule in Russian: {rule!r}"
    event.organizer.goto(f"{event.base}/organizer/events/{event.event_id}")
    ranking = event.organizer.locator("section.panel.two").first.inner_text()
    assert "по среднему" in ranking, f"the dashboard does not name the average rule in Russian: {ranking[:300]!r}"

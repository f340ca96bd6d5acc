"""The players' pages on a phone and the projector's chart in a hall (issue 21), in a real browser:
one table of each game (imported from a record, or played through the API), each player's page
at 390×844 (no sideways scrolling, the figures and the curve on screen), and the «16/25»
projector pinned to its chart (``?view=chart``) filling 1920×1080 and 1280×720 without scrolling,
its labels at 24 px or more at 1920×1080; a page following the game by itself (``seat.js``):
left as it is by a move that changed nothing of its player's, drawn again by one that did."""

import dataclasses
import json
import random
import re

import pytest

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

PHONE = {"width": 390, "height": 844}
LYCEUM_PLAYERS = [
    {"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2}},
    {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}},
    {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}}]


def records(tmp_path):
    """An unfinished record of Alter Ego (a random game cut in its second season) and New Angeles
    (the example of RECORD.md cut after its first moves), as files to import."""
    from pathlib import Path

    from facilitator.rules.alterego import simulate
    from facilitator.rules.alterego.record import write_record
    record, _game = simulate.play_random(random.Random(3), players=3, max_moves=300)
    cut = next(i for i, m in enumerate(record.moves) if m.type == "season") + 5
    ae = write_record(dataclasses.replace(record, moves=record.moves[:cut]))
    na = json.loads((Path(__file__).resolve().parents[1] / "newangeles" / "data" / "example_rounds.json")
                    .read_text(encoding="utf-8"))
    na["moves"] = na["moves"][:4]
    out = []
    for name, data in (("ae.json", ae), ("na.json", na)):
        path = tmp_path / name
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        out.append(path)
    return out


def test_every_games_player_pages_fit_a_phone_and_the_projector_reads_from_the_back(browser, live_server, tmp_path,
                                                                                     screenshots):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(10_000)
    page = context.new_page()
    base = live_server
    page.goto(f"{base}/organizer/login?lang=en")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    api = page.request
    # «16/25»: an event of one table, seated and played through the API
    event = api.post(f"{base}/api/v1/events", data={"name": "Cup", "game": "lyceum-16-25", "tables": 1}).json()
    table = event["tables"][0]["id"]
    assert api.put(f"{base}/api/v1/tables/{table}/players", data={"rev": 0, "players": LYCEUM_PLAYERS}).ok
    state = api.get(f"{base}/api/v1/tables/{table}").json()
    for _ in range(4):
        nxt = state["next"]
        move = ({"type": "allocate", "player": nxt["player"], "sp": {"creativity": 1}}
                if nxt["expects"] == "allocate" else {"type": "rest", "player": nxt["player"]})
        state = api.post(f"{base}/api/v1/tables/{table}/moves", data={"after": state["seq"], "move": move}).json()
    links = {("lyceum", p["name"]): p["page"] for p in state["players"]}
    # Alter Ego and New Angeles: records imported on the start page
    for key, path in zip(("alterego", "newangeles"), records(tmp_path)):
        page.goto(f"{base}/?lang=en")
        form = page.locator("form[action$='/tables/import']")
        form.locator("input[type=file]").set_input_files(str(path))
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        table_id = int(re.search(r"/table/(\d+)", page.url).group(1))
        links.update({(key, p["name"]): p["page"] for p in api.get(f"{base}/api/v1/tables/{table_id}").json()["players"]})
    assert len(links) == 3 + 3 + 4
    # each player's phone: no sign-in (a context of its own, no cookie), no sideways scrolling
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    try:
        tab = phone.new_page()
        shot = set()
        for (game, name), link in links.items():
            tab.goto(link)
            assert tab.locator(".seat-name").inner_text() == name
            assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (game, name)
            chart = tab.locator("#seat svg.chart").bounding_box()
            assert chart and 0 < chart["width"] <= PHONE["width"], (game, name, chart)
            assert tab.locator(".figures dd").first.is_visible()
            if game not in shot:
                shot.add(game)
                tab.screenshot(path=str(screenshots / f"seat-{game}-390x844.png"), full_page=True)
    finally:
        phone.close()
    # a page follows the game by itself (seat.js, its timer run on a fake clock): Вика's move leaves
    # Аня's page as it is (304, the ETag naming the table's new position kept for the next poll);
    # the move that makes it Аня's turn draws it again, swapped in place
    phone = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        tab = phone.new_page()
        tab.clock.install()
        tab.goto(links[("lyceum", "Аня")])
        held = tab.locator("#seat").get_attribute("data-etag")
        assert state["next"]["player"] == "Вика" and not tab.locator("[data-my-turn]").count()

        def play(move):
            return api.post(f"{base}/api/v1/tables/{table}/moves", data={"after": state["seq"], "move": move}).json()

        def poll():
            with tab.expect_response(lambda r: "/p/" in r.url) as answer:
                tab.clock.run_for(10_500)
            return answer.value

        state = play({"type": "rest", "player": "Вика"})
        first = poll()
        assert first.status == 304 and first.request.headers["if-none-match"] == held
        assert first.headers["etag"] != held and "lang=" in first.url
        assert (state["next"]["player"], state["next"]["expects"]) == ("Вика", "allocate")
        state = play({"type": "allocate", "player": "Вика", "sp": {"energy": 1}})
        second = poll()
        assert second.request.headers["if-none-match"] == first.headers["etag"] and second.status == 200
        tab.locator("[data-my-turn]").wait_for()
    finally:
        phone.close()
    # the projector in a hall, pinned to its chart (a second screen): the chart fills the screen
    # below the header, never scrolls, and its labels are 24 px or more at 1920×1080
    hall = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        tab = hall.new_page()
        tab.goto(f"{base}/e/{event['id']}?lang=en&view=chart")
        assert tab.locator(".proj-chart svg").is_visible() and not tab.locator(".proj-cols").is_visible()
        for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
            tab.set_viewport_size(size)
            box = tab.evaluate("""() => {
                const svg = document.querySelector('.proj-chart svg'), box = svg.getBoundingClientRect();
                return {top: box.top, bottom: box.bottom, width: box.width, height: box.height,
                        head: document.querySelector('.proj-head').getBoundingClientRect().bottom,
                        fits: document.documentElement.scrollHeight <= window.innerHeight
                              && document.documentElement.scrollWidth <= window.innerWidth};
            }""")
            assert box["fits"], (size, box)
            assert box["head"] <= box["top"] and box["bottom"] <= size["height"], (size, box)
            assert box["width"] >= size["width"] * 0.8, (size, box)  # the chart fills the screen
            tab.screenshot(path=str(screenshots / f"projector-chart-{size['width']}x{size['height']}.png"))
            if size["width"] == 1920:
                # each label's size on the screen: its font size through the SVG's own scaling
                smallest = tab.evaluate("""() => Math.min(...[...document.querySelectorAll('.proj-chart svg')].map(svg => {
                    const scale = svg.getScreenCTM().a;
                    return Math.min(...[...svg.querySelectorAll('text')].map(
                        t => parseFloat(t.getAttribute('font-size') || svg.getAttribute('font-size')) * scale));
                }))""")
                assert 24 <= smallest < 100, smallest
    finally:
        hall.close()
    context.close()

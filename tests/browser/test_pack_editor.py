"""Issue 6, «How it is checked»: the browser test of the pack editor. The organizer adds a card
through the editor's form; a host then sees it offered on the draw screen.

Headless Chromium against the real ``facilitator serve``. The organizer prepares an event of one
table on the sample pack, then opens the pack (the app asks them to sign in first and brings them
back), narrows the card list to the era «Лицей» and the green colour, and adds a green card with
the editor's form. The host, on another tablet, opens the table with its PIN, seats three players
on the setup screen, taps the green deck, types a few letters of the new card's title in another
case, and opens the card: its conditions and gains are the ones the organizer entered.
"""

import re

import pytest

from .conftest import CHROMIUM, ORGANIZER_PASSWORD, Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

NEW_CARD = {"code": "L-G-42", "title": "Турнир по игре го", "text": "Выиграл лицейский турнир по игре го.",
            "conditions_intellect": "4", "conditions_creativity": "2", "gains_creativity": "1"}
SEATS = [
    {"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2}},
    {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}},
    {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}},
]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """A server of this module's own: the test edits the sample pack (its version 2, the one
    unstarted table that plays it), which the other modules' server must keep as shipped."""
    server = Server(tmp_path_factory.mktemp("pack-editor-server"))
    server.start()
    try:
        yield server.base
    finally:
        server.stop()
        print(server.log_tail())


def tap(page, locator):
    """One tap that sends the page somewhere; waits for the new page."""
    with page.expect_navigation():
        locator.click()


def flashes(page, category):
    return [" ".join(t.split()) for t in page.locator(f"[data-flash={category}]").all_inner_texts()]


def sign_in_to(page, base, path):
    """Open an organizer's page: the app asks for the password, then comes back to it."""
    page.goto(f"{base}{path}")
    assert "/organizer/login" in page.url, page.url
    assert flashes(page, "error") == ["Чтобы открыть эту страницу, войдите как организатор"]
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    tap(page, page.locator("form button[type=submit]").first)
    assert page.url == f"{base}{path}", page.url


def create_event(page, base):
    """An event of one table on the sample pack; returns the table's PIN."""
    page.goto(f"{base}/organizer/?game=lyceum-16-25")
    form = page.locator("form[action$='/organizer/events']")
    form.locator("input[name=name]").fill("Кубок лицея")
    form.locator("select[name=pack]").select_option(label="Пример колоды (не оригинальная игра)")
    form.locator("input[name=tables]").fill("1")
    tap(page, form.locator("button[type=submit]"))
    assert re.search(r"/organizer/events/\d+$", page.url), page.url
    pins = page.locator("td.pin").all_inner_texts()
    assert len(pins) == 1 and re.fullmatch(r"\d{6}", pins[0].strip()), pins
    return pins[0].strip()


def add_green_lyceum_card(page, base):
    """The organizer narrows the card list to green cards of «Лицей» and adds one there."""
    search = page.locator("form[method=get]").filter(has=page.locator("input[name=q]"))
    search.locator("select[name=era]").select_option(label="Лицей")
    search.locator("select[name=color]").select_option(label="зелёная")
    tap(page, search.locator("button[type=submit]"))
    assert page.locator("a[href*='/cards/L-G-']").count() == 9
    assert page.locator("a[href*='/cards/L-Y-']").count() == 0

    tap(page, page.locator("a[href*='/organizer/packs/sample/cards/new']"))
    form = page.locator("form[method=post]").filter(has=page.locator("input[name=title]"))
    assert form.locator("select[name=era]").input_value() == "lyceum"  # the list it came from
    assert form.locator("select[name=color]").input_value() == "green"
    for name, value in NEW_CARD.items():
        form.locator(f"input[name={name}]").fill(value)
    tap(page, form.locator("button[type=submit]"))
    assert flashes(page, "error") == []
    assert flashes(page, "ok") == ["Сохранено как версия 2. Столы, где игра ещё не началась, играют с ней (1); "
                                   "начатые игры остаются на своей версии."]
    assert page.locator("a[href$='/cards/L-G-42']").count() == 1
    assert NEW_CARD["title"] in page.inner_text("body")


def seat_the_players(page):
    assert page.url.endswith("/setup"), page.url
    for i, seat in enumerate(SEATS):
        box = page.locator(f"fieldset[data-player='{i}']")
        box.locator(f"input[name='players-{i}-name']").fill(seat["name"])
        box.locator(f"input[name='players-{i}-born']").fill(seat["born"])
        box.locator(f"select[name='players-{i}-character']").select_option(seat["character"])
        for skill, value in seat["extra"].items():
            box.locator(f"input[name='players-{i}-extra-{skill}']").fill(str(value))
    tap(page, page.locator("form.setup button[type=submit]"))
    assert flashes(page, "error") == [], flashes(page, "error")
    assert re.search(r"/table/\d+$", page.url), page.url


def test_a_card_added_in_the_editor_is_offered_on_a_hosts_draw_screen(browser, live_server, page):
    base = live_server
    sign_in_to(page, base, "/organizer/packs/sample")
    pin = create_event(page, base)
    page.goto(f"{base}/organizer/packs/sample")
    add_green_lyceum_card(page, base)

    host = browser.new_context(viewport={"width": 1024, "height": 768})
    host.set_default_timeout(10_000)
    try:
        tablet = host.new_page()
        tablet.goto(f"{base}/pin")
        tablet.locator("input[name=pin]").fill(pin)
        tap(tablet, tablet.locator("form button[type=submit]"))
        if not tablet.url.endswith("/setup"):  # a table without players sends its host to the setup
            tap(tablet, tablet.locator("a[href$='/setup']").first)
        seat_the_players(tablet)

        tap(tablet, tablet.locator("a.card-green[href*='/draw?color=green']"))
        search = tablet.locator("form.search")
        search.locator("input[name=q]").fill("ИГРЕ Г")
        with tablet.expect_navigation():
            search.locator("input[name=q]").press("Enter")
        offered = [" ".join(t.split()) for t in tablet.locator("ul.card-list li").all_inner_texts()]
        assert offered == ["L-G-42 Турнир по игре го"], offered

        tap(tablet, tablet.locator("ul.card-list a", has_text="Турнир по игре го"))
        assert tablet.locator(".card-face h3").inner_text() == "Турнир по игре го"
        rows = {}
        for row in tablet.locator("table.card-check tbody tr").all():
            cells = [c.strip() for c in row.locator("th, td").all_inner_texts()]
            rows[cells[0]] = {"condition": cells[2], "loss": cells[3], "gain": cells[4]}
        assert rows["интеллект"] == {"condition": "4", "loss": "", "gain": ""}
        assert rows["творчество"] == {"condition": "2", "loss": "", "gain": "+1"}
        assert [r["condition"] for s, r in rows.items() if s not in ("интеллект", "творчество")] == ["", "", ""]
        assert tablet.locator(".verdict").get_attribute("data-eligible") == "1"  # Аня: intellect 8, creativity 2
    finally:
        host.close()

"""Every host screen of every game fits a tablet (issue 20, item 4), written once for every
registered game over simulated games of each.

For each game the engine's own simulator plays a random legal game; tables are imported at
checkpoints along it (the start, the first and the third move, a quarter, half, two thirds,
the last move before the end, the end), and a host opens each with its PIN, as at an event, in the game's own
language (its first one that is not English: longer words than English). On each table's main
screen and on every other screen it links to (a card's page, a correction, the setup, the
finish, …; each kind of screen of a game measured once), at 1024×768 and at 768×1024 without
scrolling:

* the screen's primary action is in view and nothing covers it: the controls marked
  ``data-primary``, else the first visible ``.primary`` control; a long screen keeps it in a
  bar at the bottom (``.action-bar``, Alter Ego's with «Undo» beside «End the turn»); an «Undo»
  kept in such a bar (New Angeles' deal and end-of-round forms) is in view too;
* no control of the top bar is covered by another part of it (wrapping over the PIN link);
* every figure shown (a text with a digit in it) is at least 14 px;
* nothing scrolls sideways.

One more check of New Angeles' deal: a tap on «Record the deal» right after typing records the
deal (its count is made first), it is never a tap that only recounts.

A screen with a problem is saved as ``test-output/screenshots/fit-*.png`` at the size it has it.
"""

import random
import re

import pytest

from facilitator import games, services

from .conftest import CHROMIUM

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

SIZES = ((1024, 768), (768, 1024))
#: the smallest figure a host reads across a table
FIGURE_PX = 14


def _lyceum(seed):
    from facilitator.rules.lyceum.ruleset import sample_pack
    from facilitator.rules.lyceum.simulate import random_game
    return random_game(sample_pack(), seed=seed, players=4)[0].to_dict()


def _alterego(seed):
    from facilitator.rules.alterego.simulate import play_random
    return play_random(random.Random(seed), players=3, max_moves=70)[0].to_dict()


def _newangeles(seed):
    from facilitator.rules.newangeles.simulate import random_game
    return random_game(random.Random(seed), players=5, end="rounds").to_dict()


#: a finished random legal game of each game, from its engine's simulator (a record dict)
SIMULATED = {"lyceum-16-25": _lyceum, "alter-ego-3": _alterego, "new-angeles": _newangeles}
GAMES = [g.key for g in games.registered()]


def checkpoints(count):
    """Where a game is looked at: its start, its first moves, fractions of it, its last move, its
    end. (The second move and a third of the game were looked at too: their screens were never
    taller than the neighbours' and showed no kind of screen the others did not.)"""
    return sorted({0, 1, 3, count // 4, count // 2, 2 * count // 3, count - 1, count})


def language(game):
    """The game's first language that is not English (a host's own, with longer words)."""
    return next((code for code in game.locales if code != "en"), game.locales[0])


# ----- what is measured on a screen -----------------------------------------------------------
MEASURE = """(figurePx) => {
  const problems = [];
  const doc = document.documentElement;
  const W = window.innerWidth, H = window.innerHeight;
  if (doc.scrollWidth > doc.clientWidth) problems.push(`scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
  const shown = el => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const name = el => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : ""}` +
                     ` «${(el.innerText || el.value || "").trim().split("\\n")[0].slice(0, 40)}»`;
  const onTop = el => {
    const r = el.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + Math.min(r.width / 2, 40), 1), W - 1), y = Math.min(r.top + Math.min(r.height / 2, 22), H - 1);
    const hit = document.elementFromPoint(x, y);
    return hit && (el.contains(hit) || hit.contains(el));
  };
  // the primary action: marked, else the first visible .primary control
  let primary = [...document.querySelectorAll("main [data-primary]")].filter(shown);
  if (!primary.length) primary = [...document.querySelectorAll("main .primary")].filter(shown).slice(0, 1);
  if (!primary.length) problems.push("no primary action shown");
  const boxes = [];
  for (const el of primary) {
    const r = el.getBoundingClientRect();
    boxes.push([name(el), Math.round(r.top), Math.round(r.bottom)]);
    // the whole of a button, the first finger's height of a panel
    const bottom = Math.min(r.bottom, r.top + 56);
    if (r.top < 0 || bottom > H) problems.push(`${name(el)} is not in view: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`);
    else if (!onTop(el)) problems.push(`${name(el)} is covered by ${name(document.elementFromPoint(r.left + 4, r.top + 4))}`);
  }
  // «Undo» kept in a sticky action bar beside the primary action (New Angeles' move forms): in view too
  const undos = [...document.querySelectorAll("main .action-bar [data-undo-now]")].filter(shown);
  for (const el of undos) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > H) problems.push(`${name(el)} is not in view: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`);
    else if (!onTop(el)) problems.push(`${name(el)} is covered by ${name(document.elementFromPoint(r.left + 4, r.top + 4))}`);
  }
  // the top bar: no control covered by another part of it
  for (const el of document.querySelectorAll(".topbar a, .topbar button, .topbar summary")) {
    if (shown(el) && !onTop(el)) problems.push(`the top bar covers ${name(el)}`);
  }
  // figures: a text with a digit, shown, at least figurePx
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const small = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!/\\d/.test(node.textContent) || !el || el.closest("script, style, [hidden], #outbox-words, option, datalist")) continue;
    if (!shown(el) || el.closest("details:not([open]) > :not(summary)")) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < figurePx) small.add(`${name(el)} ${px}px`);
  }
  for (const s of small) problems.push(`a figure of ${s}`);
  return {problems, boxes, height: doc.scrollHeight, undos: undos.length};
}"""


def measure(page, label, shots):
    """The problems of the screen at both tablet sizes (unscrolled), a screenshot of each size
    that has some; the page heights; how many «Undo» controls of an action bar were checked."""
    found, heights, undos = [], [], 0
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        result = page.evaluate(MEASURE, FIGURE_PX)
        if result["problems"]:  # what the problems look like (a screenshot costs a tenth of a second)
            page.screenshot(path=str(shots / f"fit-{label}-{width}x{height}.png"))
        heights.append(result["height"])
        undos += result["undos"]
        found += [f"{label} at {width}×{height}: {p}" for p in result["problems"]]
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return found, heights, undos


# ----- the server, its tables and the host's tablet ----------------------------------------------
@pytest.fixture(scope="module")
def engine(server):
    eng = services.db.engine_for(server.db_url)
    yield eng
    eng.dispose()


def import_table(engine, record, name):
    """A table holding ``record`` (a game in progress or finished); its id and PIN."""
    with services.db.session_scope(engine) as s:
        table = services.tables.import_record(s, record, name=name)
        services.access.ensure_access(s, table)
        return table.id, table.pin


def open_with_pin(page, base, pin):
    page.goto(f"{base}/pin")
    page.locator("input[name=pin]").fill(pin)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()


#: links to a table's files, not its screens
FILES = re.compile(r"\.(pdf|xlsx|json|csv)(\?|$)|/record|/export")


def screen_links(page, table_id):
    """The table's other screens this one links to: ``{kind: url}`` (kind: the path, ids out)."""
    hrefs = page.evaluate("""(id) => [...document.querySelectorAll("main a[href]")]
        .map(a => a.href).filter(h => new URL(h).pathname.includes(`/table/${id}/`))""", table_id)
    links = {}
    for href in hrefs:
        if FILES.search(href):
            continue
        kind = re.sub(r"/table/\d+/", "/table/<id>/", "/" + href.split("?")[0].split("://", 1)[1].split("/", 1)[1])
        kind = re.sub(r"/(card|react|ability)/[^/]+$", r"/\1/<key>", kind)
        links.setdefault(kind, href)
    return links


def test_every_registered_game_is_simulated():
    assert set(GAMES) <= set(SIMULATED), f"no simulated games of {set(GAMES) - set(SIMULATED)}: add one here"


@pytest.mark.parametrize("key", GAMES)
def test_every_host_screen_fits_a_tablet(key, server, engine, browser, screenshots):
    game = games.get(key)
    record = SIMULATED[key](seed=3)
    moves = record["moves"]
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server.base}/pin?lang={language(game)}")
    problems, seen, tallest, undos = [], set(), {}, 0
    try:
        for k in checkpoints(len(moves)):
            table_id, pin = import_table(engine, dict(record, moves=moves[:k]), f"{game.name} {k}")
            open_with_pin(page, server.base, pin)
            found, heights, undo_checked = measure(page, f"{key}-{k}", screenshots)
            problems += found
            undos += undo_checked
            tallest[k] = heights
            for kind, url in screen_links(page, table_id).items():
                if kind in seen:
                    continue
                seen.add(kind)
                response = page.goto(url)
                assert response.status < 500, (url, response.status)
                label = f"{key}-{k}-" + kind.split("/table/<id>/", 1)[-1].replace("/", "-").replace("<key>", "x")
                problems += measure(page, label, screenshots)[0]
        # the setup screen of a table without players
        with services.db.session_scope(engine) as s:
            row = services.packs.ensure_sample(s, key)
            fresh = services.create_table(s, "Fit", row, access=True)
            pin = fresh.pin
        open_with_pin(page, server.base, pin)
        problems += measure(page, f"{key}-setup", screenshots)[0]
    finally:
        context.close()
    print(f"{key}: page heights (1024×768, 768×1024) by checkpoint: {tallest}; screens: {sorted(seen)}")
    assert not problems, "\n".join(problems)
    if key == "new-angeles":  # its deal and end-of-round screens keep «Undo» in their bar
        assert undos, "no New Angeles screen had «Undo» in its action bar"


def test_a_quick_tap_on_record_the_deal_records_it(server, engine, browser):
    """New Angeles: «Record the deal» tapped right after typing counts and then records, at once;
    «Undo the last move» in the next deal's bar undoes it."""
    key = "new-angeles"
    if key not in GAMES:
        pytest.skip("New Angeles is not registered")
    record = SIMULATED[key](seed=3)
    table_id, pin = import_table(engine, dict(record, moves=[]), "Quick tap")
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{server.base}/pin?lang=sv")
        open_with_pin(page, server.base, pin)
        form = page.locator("form#na-deal")
        assert form.count() == 1, page.inner_text("main")[:1000]
        form.locator("input[name=asset]").fill("A01")
        form.locator("input[name=ui_main_card]").fill("Security: Sweep")
        record_button = form.locator("button[data-record]")
        assert record_button.is_visible() and record_button.bounding_box()["y"] + 44 <= 768
        with page.expect_navigation():
            record_button.click()  # before any count came back
        assert page.locator("[data-flash=ok]").count() == 1, page.inner_text("main")[:1000]
        with services.db.session_scope(engine) as s:
            assert services.load(s, table_id, fresh=True).seq == 1
        # «Undo the last move» in the next deal's bar, in view, undoes it (after its confirmation)
        undo = page.locator("form#na-deal .action-bar [data-undo-now]")
        assert undo.is_visible() and undo.bounding_box()["y"] + 44 <= 768
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            undo.click()
        assert page.locator("[data-flash=ok]").count() == 1, page.inner_text("main")[:1000]
        with services.db.session_scope(engine) as s:
            assert not services.load(s, table_id, fresh=True).moves_in_force
    finally:
        context.close()

"""The shared pages fit a tablet (issue 20, item 6): the start page, the PIN page, the
organizer's home and an event's dashboard with a started table show every control whole, inside
the screen's width, at 1024×768 and 768×1024 (nothing runs past the right edge, where a page
that cannot scroll sideways would clip it). Measured from the controls' bounding boxes."""

import json

import pytest

from tests.browser.conftest import CHROMIUM, ORGANIZER_PASSWORD
from tests.events.helpers import game_record

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

SIZES = ({"width": 1024, "height": 768}, {"width": 768, "height": 1024})
CONTROLS = "a, button, input:not([type=hidden]), select, textarea, summary"

#: every visible control's box that does not lie whole inside the viewport's width, and how wide
#: the page's content is (a page wider than its viewport hides what is past its edge)
MEASURE = """(selector) => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    if (r.left < 0 || r.right > width + 0.5)
      out.push({control: (el.innerText || el.name || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40),
                left: Math.round(r.left), right: Math.round(r.right)});
  }
  return {width, scrollWidth: document.documentElement.scrollWidth, clipped: out};
}"""


@pytest.fixture(scope="module")
def started_event(browser, live_server, tmp_path_factory):
    """The organizer's browser and an event of «16/25» whose one table has started (its row on
    the dashboard carries the protocol links and «⋯»)."""
    context = browser.new_context(viewport=SIZES[0])
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server}/organizer/login?lang=ru")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()
    page.goto(f"{live_server}/organizer/?game=lyceum-16-25")
    form = page.locator("form[action$='/organizer/events']")
    form.locator("input[name=name]").fill("Кубок лицея: весенний тур в большом зале")
    form.locator("input[name=tables]").fill("1")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    dashboard = page.url
    record = tmp_path_factory.mktemp("fit") / "record.json"
    record.write_text(json.dumps(game_record(3, 4, moves=6)[0], ensure_ascii=False))
    upload = page.locator("form[action$='/import']")
    upload.locator("input[type=file]").set_input_files(str(record))
    upload.locator("input[name=name]").fill("Стол у окна с длинным названием")
    with page.expect_navigation():
        upload.locator("button[type=submit]").click()
    assert page.locator("table.dashboard a[href$='/protocol.xlsx']").count() == 1, page.inner_text("body")[:1000]
    try:
        yield page, dashboard
    finally:
        context.close()


def lone_pages(base):
    return {"start page": f"{base}/?lang=fi", "start page, game chosen": f"{base}/?game=alter-ego-3",
            "PIN page": f"{base}/pin"}


def test_the_shared_pages_show_every_control_whole_at_both_tablet_sizes(started_event, live_server):
    page, dashboard = started_event
    pages = {"start page": f"{live_server}/", "start page, game chosen": f"{live_server}/?game=lyceum-16-25",
             "PIN page": f"{live_server}/pin", "organizer's home": f"{live_server}/organizer/?game=new-angeles",
             "organizer's home, no game yet": f"{live_server}/organizer/", "dashboard": dashboard}
    # a lone host's tablet (not signed in) sees the start page's other column
    anonymous = page.context.browser.new_context(viewport=SIZES[0])
    tablet = anonymous.new_page()
    problems, measured = [], {}
    try:
        for who, view in (("organizer", page), ("lone host", tablet)):
            for name, url in pages.items() if who == "organizer" else lone_pages(live_server).items():
                view.goto(url)  # loaded once, laid out at each size (a tablet turned)
                for size in SIZES:
                    view.set_viewport_size(size)
                    found = view.evaluate(MEASURE, CONTROLS)
                    measured[(who, name, size["width"])] = found["scrollWidth"]
                    if found["clipped"] or found["scrollWidth"] > found["width"]:
                        problems.append(f"{name} ({who}) at {size['width']}×{size['height']}: content "
                                        f"{found['scrollWidth']} px wide, clipped {found['clipped']}")
    finally:
        anonymous.close()
    assert not problems, "\n".join(problems)
    # the dashboard's row of a started table: its protocol links and «⋯» are there to tap
    page.goto(dashboard)
    page.set_viewport_size(SIZES[1])
    row = page.locator("table.dashboard tbody tr[data-table]:has(a[href$='/protocol.xlsx'])")
    for link in ("a[href$='/protocol.pdf']", "a[href$='/protocol.xlsx']", "a[href*='/tables/']"):
        assert row.locator(link).is_visible(), link
        box = row.locator(link).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[1]["width"], (link, box)

"""Two New Angeles games on the host's tablet, in a real browser (issue 13): Debian's headless
Chromium plays the tablet through the organizer's event, the setup screen (a rival sealed), deals
walked offer → counteroffers → support with the live count, capital and threat changes, the ends
of rounds, the demand rounds and the reveal. One game ends BY THREAT (a takeover in D1), the other
BY ROUNDS (all nine slots S1 S2 D1 S3 S4 D2 S5 S6 D3). The winners on the final screen equal
``facilitator replay --json`` of the record the tablet downloads, and the record holds the moves
tapped.

Screenshots of every kind of screen are saved at 1024×768 and 768×1024 under
``test-output/screenshots/``; none may scroll sideways, and every control (link, button, field,
the label of a checkbox) is at least 44×44 px.
"""

import json
import re
import subprocess
import sys

import pytest

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

SIZES = ((1024, 768), (768, 1024))
SEATS = [("Anna", "jinteki"), ("Boris", "nbn"), ("Vera", "globalsec"), ("Dmitri", "haas-bioroid")]

SMALL_CONTROLS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('a, button, input:not([type=hidden]), select, summary, textarea')) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let target = el;
    if (el.type === 'checkbox' || el.type === 'radio') target = el.closest('label') || el;
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // inside a closed <details>, or hidden
    if (r.width < 44 || r.height < 44) {
      out.push(`${el.tagName} ${el.name || el.textContent.trim().slice(0, 30)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return out;
}"""


def check_screen(page, screenshots, name):
    """Screenshots at both tablet sizes: no sideways scrolling, no control under 44 px."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(screenshots / f"newangeles-{name}-{width}x{height}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
            f"the {name} screen scrolls sideways at {width}×{height}"
        small = page.evaluate(SMALL_CONTROLS)
        assert not small, f"controls under 44 px on the {name} screen at {width}×{height}: {small}"
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def flashes(page, category):
    return [t.strip() for t in page.locator(f"[data-flash={category}]").all_inner_texts()]


class Tablet:
    """The host taps through a game; ``moves`` keeps what the record should hold."""

    def __init__(self, page, base, screenshots):
        self.page = page
        self.base = base
        self.screenshots = screenshots
        self.moves = []
        self.shot = set()
        self.table_id = None

    # ----- helpers --------------------------------------------------------------------------
    def seq(self):
        return int(self.page.locator("body").get_attribute("data-seq"))

    def shoot(self, name):
        if name not in self.shot:
            self.shot.add(name)
            check_screen(self.page, self.screenshots, name)

    def sent(self, move, before):
        """A move form was sent (through the tablet's outbox): the table is one move on, the
        screen says what changed."""
        page = self.page
        page.wait_for_function("n => document.body.dataset.seq === String(n) && "
                               "!document.querySelector('#outbox:not([hidden])')", arg=before + 1)
        assert not flashes(page, "error"), flashes(page, "error")
        self.moves.append(move)

    def submit(self, form, move):
        before = self.seq()
        with self.page.expect_navigation():
            form.locator("button[type=submit].primary").click()
        self.sent(move, before)

    def open_details(self, inside):
        """Open the folded section that holds ``inside`` (a CSS selector)."""
        details = self.page.locator(f"details:has({inside})").last
        if details.get_attribute("open") is None:
            details.locator("summary").first.click()

    # ----- the event and the setup --------------------------------------------------------------
    def create_table(self, event_name):
        page = self.page
        page.goto(f"{self.base}/organizer/login?lang=en")
        page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
        with page.expect_navigation():
            page.locator("form button[type=submit]").first.click()
        page.goto(f"{self.base}/organizer/?lang=en&game=new-angeles")
        form = page.locator("form[action$='/organizer/events']")
        form.locator("input[name=name]").fill(event_name)
        form.locator("select[name=pack]").select_option(index=0)  # the game's own packs only
        form.locator("input[name=tables]").fill("1")
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        with page.expect_navigation():
            page.locator("table.dashboard tbody tr td a").first.click()
        match = re.search(r"/na/table/(\d+)/setup$", page.url)
        assert match, page.url
        self.table_id = int(match.group(1))

    def setup(self, capital, threat, assets, first, sealed=None):
        page = self.page
        for i, (name, corp) in enumerate(SEATS):
            seat = page.locator(f"fieldset[data-seat='{i}']")
            seat.locator(f"input[name='players-{i}-name']").fill(name)
            seat.locator(f"select[name='players-{i}-corp']").select_option(corp)
            seat.locator(f"input[name='players-{i}-capital']").fill(str(capital[name]))
            if name == first:
                seat.locator("input[name=first_player]").check()
            if sealed and name in sealed:
                seat.locator(f"select[name='players-{i}-rival']").select_option(sealed[name])
        page.locator("input[name=threat]").fill(str(threat))
        page.locator("input[name=assets]").fill(str(assets))
        page.locator("select[name=demand]").select_option("DM2")
        self.shoot("setup")
        with page.expect_navigation():
            page.locator("form.na-setup button[type=submit]").click()
        assert page.url.endswith(f"/na/table/{self.table_id}"), page.url
        assert not flashes(page, "error")
        if sealed:  # never shown again on the tablet
            for rival in sealed.values():
                assert rival not in page.content().lower().replace("globalsec", "").replace("jinteki", "") or \
                    rival in ("nbn",), rival

    # ----- the table's moves -------------------------------------------------------------------
    def deal(self, asset, main, counters=(), support=(), emergency=False, expect=None, transfer=None,
             override=None, counted=None):
        """One deal as the table talks; ``expect`` is the winner the live count must show first."""
        page = self.page
        form = page.locator("#na-deal")
        active = form.locator("input[name=active]").get_attribute("value")
        form.locator("input[name=asset]").fill(asset)
        if emergency:
            form.locator("input[name=ui_main_kind]").check()
        else:
            form.locator("input[name=ui_main_card]").fill(main)
        for name, card in counters:
            row = form.locator(f".na-counters li[data-player='{name}']")
            if card is None:
                row.locator("input[type=checkbox]").check()
            else:
                row.locator("input[name^=ui_counter_]:not([type=checkbox])").fill(card)
        for name, which, cards in support:
            plus = form.locator(f".na-support tr[data-player='{name}'] input[name^=ui_sup_{which}_]") \
                .locator("xpath=following-sibling::button[1]")
            for _ in range(cards):
                plus.click()
        if transfer:
            self.open_details("select[name=ui_tr_from]")
            form.locator("select[name=ui_tr_from]").select_option(transfer["from"])
            form.locator("select[name=ui_tr_to]").select_option(transfer["to"])
            form.locator("input[name=ui_tr_capital]").fill(str(transfer["capital"]))
            form.locator("button[value=transfer_add]").click()
            page.wait_for_selector(".na-transfers li")
        if counted:  # what the count says before the host overrides it
            self.counted(counted)
        if override:
            self.open_details("input[name=override_reason]")
            form.locator(f"input[name=winner][value={override['winner']}]").check()
            form.locator("input[name=override_reason]").fill(override["reason"])
            form.locator("input[name=override_reason]").blur()
        self.counted(expect)
        if len(counters) >= 2 or transfer:
            self.shoot("deal")
        move = {"type": "deal", "active": active, "asset": asset,
                "main": {"emergency": SEATS_CORP[active]} if emergency else {"card": main},
                "counteroffers": [{"player": n, **({"emergency": SEATS_CORP[n]} if c is None else {"card": c})}
                                  for n, c in counters if c != ""],
                "support": [{"player": n, "offer": w, "cards": k} for n, w, k in
                            sorted(support, key=lambda s: self.order(active).index(s[0]))]}
        if transfer:
            move["transfers"] = [{"from": transfer["from"], "to": transfer["to"], "capital": transfer["capital"],
                                  "assets": []}]
        if override:
            move["winner"] = override["winner"]
            move["override_reason"] = override["reason"]
        self.submit(form, move)

    def counted(self, winner):
        """Wait for the live count (the engine's, before anything is recorded) to name ``winner``."""
        self.page.wait_for_function("w => { const f = document.getElementById('na-deal'); "
                                    "const line = document.querySelector('.na-count-line'); "
                                    "return f && !f.dataset.dirty && line && (!w || line.dataset.winner === w); }",
                                    arg=winner)

    def shoot_other_moves(self):
        """The table screen with every other move unfolded (capital … adjust, files)."""
        for summary in self.page.locator(".na-other details > summary").all():
            summary.click()
        self.shoot("other-moves")
        self.page.reload()

    def order(self, active):
        names = [n for n, _c in SEATS]
        i = names.index(active)
        return names[i + 1:] + names[:i]

    def capital(self, player, amount, reason):
        self.open_details("form[data-move=capital]")
        form = self.page.locator("form[data-move=capital]")
        form.locator("select[name=player]").select_option(player)
        form.locator("input[name=amount]").fill(str(amount))
        form.locator("select[name=reason]").select_option(reason)
        self.submit(form, {"type": "capital", "player": player, "amount": amount, "reason": reason})

    def threat(self, amount, reason):
        self.open_details("form[data-move=threat]")
        form = self.page.locator("form[data-move=threat]")
        form.locator("input[name=amount]").fill(str(amount))
        form.locator("select[name=reason]").select_option(reason)
        self.submit(form, {"type": "threat", "amount": amount, "reason": reason})

    def end_round(self, production, event=None, event_threat=0, next_assets=None):
        form = self.page.locator("form[data-move=end_round]")
        for res, n in production.items():
            form.locator(f"input[name='production-{res}']").fill(str(n))
        if event:
            form.locator("input[name=event]").fill(event)
        if event_threat:
            form.locator("input[name=event_threat]").fill(str(event_threat))
        if next_assets is not None:
            form.locator("input[name=next_assets]").fill(str(next_assets))
        self.shoot("end-round")
        move = {"type": "end_round", "production": {r: n for r, n in production.items() if n}}
        if event:
            move["event"] = event
        if event_threat:
            move["event_threat"] = event_threat
        if next_assets is not None:
            move["next_assets"] = next_assets
        self.submit(form, move)

    def end_round_offline(self, next_assets):
        """The Wi-Fi drops at the end of a round: the host types 0 into every production field (a
        round nothing produced) and taps «Record» twice (a nervous finger), then records a capital
        change with a slip of the finger (10^12). Both wait in the outbox, as their forms post
        them; no "leave site?" is asked. Back online, the end of the round is recorded once; the
        slip is refused by the form's own bound, as without JavaScript (issue 18): the tablet says
        it is online, shows the screen as the table is with the reason, and the host deletes it."""
        page = self.page
        before = self.seq()
        dialogs = []

        def seen(dialog):
            dialogs.append(dialog.type)
            dialog.dismiss()
        page.on("dialog", seen)
        page.context.set_offline(True)
        try:
            page.locator("#connection.off").wait_for(timeout=5_000)
            form = page.locator("form[data-move=end_round]")
            for field in form.locator("input[name^='production-']").all():
                field.fill("0")
            form.locator("input[name=next_assets]").fill(str(next_assets))
            form.locator("button[type=submit]").dblclick()
            page.locator("#outbox li").first.wait_for(timeout=5_000)
            self.open_details("form[data-move=capital]")
            capital = page.locator("form[data-move=capital]")
            capital.locator("select[name=player]").select_option("Anna")
            capital.locator("input[name=amount]").fill(str(10 ** 12))
            capital.locator("select[name=reason]").select_option("contract")
            capital.locator("button[type=submit]").click()
            page.locator("#outbox li").nth(1).wait_for(timeout=5_000)
            page.wait_for_timeout(300)
            assert page.locator("#outbox li").count() == 2, "a double tap queued two moves"
            assert self.seq() == before, "a move reached the server while the tablet was offline"
        finally:
            with page.expect_navigation(timeout=10_000):  # the screen drawn again at the table's real state
                page.context.set_offline(False)
        self.moves.append({"type": "end_round", "production": {}, "next_assets": next_assets})
        assert self.seq() == before + 1
        slip = f"Anna: capital change · refused: Amount: {10 ** 12} is out of range"
        assert [" ".join(t.split()) for t in page.locator("#outbox li").all_inner_texts()] == [slip]
        assert page.locator("#connection").get_attribute("class") == "conn on"
        with page.expect_navigation(timeout=10_000):
            page.get_by_role("button", name="Delete the last waiting move").click()
        assert self.seq() == before + 1 and page.locator("#outbox").is_hidden()
        page.remove_listener("dialog", seen)
        assert dialogs == [], dialogs

    def demand_round(self, investments, next_demand=None):
        page = self.page
        form = page.locator("form[data-move=demand_round]")
        self.shoot("demand-round")
        for i, (name, _corp) in enumerate(SEATS):
            card, capital = investments[name]
            form.locator(f"input[name=ui_inv_card_{i}]").fill(card)
            form.locator(f"input[name=ui_inv_capital_{i}]").fill(str(capital))
        if next_demand:
            form.locator("select[name=ui_nd_code]").select_option(next_demand)
        move = {"type": "demand_round", "investments": [{"player": n, "card": investments[n][0],
                                                         "capital": investments[n][1]} for n, _c in SEATS]}
        if next_demand:
            move["next_demand"] = next_demand
        self.submit(form, move)

    def reveal(self, rivals):
        page = self.page
        with page.expect_navigation():
            page.locator("a", has_text="Reveal the rival cards").click()
        assert "/finish?after=" in page.url
        form = page.locator("form[data-move=finish]")
        for name, rival in rivals.items():
            form.locator(f"select[name='rivals-{name}']").select_option(rival)
        self.shoot("reveal")
        before = self.seq()
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r".*/final$"))
        self.moves.append({"type": "finish", "rivals": rivals})
        assert before >= 0

    def shown(self):
        page = self.page
        return {"label": page.locator(".na-rounds li[aria-current=step]").inner_text(),
                "threat": int(page.locator(".na-threat").get_attribute("data-threat"))}


SEATS_CORP = dict(SEATS)


def replay_json(path):
    done = subprocess.run([sys.executable, "-m", "facilitator", "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def comparable(move):
    return {k: v for k, v in move.items() if k not in ("at", "note")}


def final_check(tablet, tmp_path, ended_by):
    page = tablet.page
    tablet.shoot("final")
    shown = page.locator(".na-winners").get_attribute("data-winners")
    results = {row.get_attribute("data-player"): row.get_attribute("data-result")
               for row in page.locator("table.na-results tbody tr").all()}
    with page.expect_download() as download:
        page.locator("a[href$='/record.json']").first.click()
    path = tmp_path / f"record-{ended_by}.json"
    download.value.save_as(path)
    record = json.loads(path.read_text("utf-8"))
    assert [comparable(m) for m in record["moves"]] == tablet.moves
    table = replay_json(path)["tables"][0]
    assert table["finished"] and table["ended_by"] == ended_by
    assert shown.split("|") if shown else [] == table["winners"]
    assert (shown.split("|") if shown else []) == table["winners"]
    assert results == {p["name"]: p["result"] for p in table["players"]}
    return table


def test_a_game_ends_by_threat_on_the_tablet(page, live_server, screenshots, tmp_path):
    tablet = Tablet(page, live_server, screenshots)
    tablet.create_table("New Angeles: a takeover")
    tablet.setup({"Anna": 10, "Boris": 10, "Vera": 10, "Dmitri": 10}, threat=12, assets=2, first="Anna",
                 sealed={"Vera": "federalist"})
    assert tablet.shown() == {"label": "S1", "threat": 12}
    # the same screen in Swedish and in Russian (longer words) still fits
    table_url = page.url
    for lang in ("sv", "ru"):
        page.goto(f"{table_url}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        tablet.shoot(f"table-{lang}")
    page.goto(f"{table_url}?lang=en")
    # S1: a counteroffer covered by another, support, a bribe inside the deal
    tablet.deal("A05", "Biotech: Vaccination Drive",
                counters=[("Boris", "Media: Public Broadcast"), ("Vera", "Labor: Relocate Androids")],
                support=[("Boris", "main", 1), ("Dmitri", "counter", 2)], expect="Vera",
                transfer={"from": "Anna", "to": "Dmitri", "capital": 2})
    tablet.capital("Vera", 5, "contract")
    tablet.shoot_other_moves()
    tablet.deal("A11", None, emergency=True, expect="Boris")
    tablet.end_round({"energy": 2, "tech": 2, "consumables": 1}, event="E07", event_threat=3, next_assets=1)
    assert tablet.shown() == {"label": "S2", "threat": 15}
    # S2: a tie goes to the main offer; then an override with its reason
    tablet.deal("A02", "Security: Sweep", counters=[("Dmitri", "Media: Ads")],
                support=[("Anna", "main", 1), ("Boris", "counter", 1)], counted="Vera", expect="Dmitri",
                override={"winner": "counter", "reason": "asset A02: ties go to the counteroffer"})
    tablet.threat(2, "illness")
    tablet.end_round({"energy": 1}, event="E12", event_threat=2, next_assets=2)
    assert tablet.shown() == {"label": "D1", "threat": 19}
    # D1: tech and materials short: threat 19 + 6 = 25, the U.S. government takes over
    tablet.demand_round({"Anna": ("I04", 3), "Boris": ("I09", 2), "Vera": ("I01", 10), "Dmitri": ("I07", 1)})
    assert tablet.shown()["threat"] == 25
    assert page.locator("form[data-move=capital]").count() == 0
    tablet.reveal({"Anna": "nbn", "Boris": "haas-bioroid", "Dmitri": "jinteki"})
    table = final_check(tablet, tmp_path, "threat")
    assert table["winners"] == ["Vera"] and table["government_takeover"]


def test_a_game_ends_by_rounds_on_the_tablet(page, live_server, screenshots, tmp_path):
    tablet = Tablet(page, live_server, screenshots)
    tablet.create_table("New Angeles: nine rounds")
    tablet.setup({"Anna": 10, "Boris": 12, "Vera": 9, "Dmitri": 11}, threat=4, assets=1, first="Boris")
    seen = []
    deals = 0
    main_cards = ["Security: Sweep", "Media: Ads", "Biotech: Clinic", "Construction: Develop District",
                  "Labor: Strike Breakers", "Energy: Grid"]
    for slot in ("S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"):
        seen.append(tablet.shown()["label"])
        if slot.startswith("S"):
            active = page.locator("#na-deal input[name=active]").get_attribute("value")
            others = tablet.order(active)
            tablet.deal(f"A{deals + 1:02d}", main_cards[deals % len(main_cards)],
                        counters=[(others[1], "Counter: " + slot)], support=[(others[0], "counter", deals % 3 + 1)],
                        expect=others[1])
            deals += 1
            if slot in ("S2", "S4"):
                tablet.capital(others[2], 3, "contract")
            if slot == "S3":
                tablet.end_round_offline(next_assets=1)
            else:
                tablet.end_round({"energy": 2, "entertainment": 2, "tech": 2, "consumables": 2, "materials": 1},
                                 event_threat=1, next_assets=None if slot == "S6" else 1)
        else:
            n = int(slot[1])
            tablet.demand_round({"Anna": (f"I{n}1", n), "Boris": (f"I{n}2", 1), "Vera": (f"I{n}3", 2 * n),
                                 "Dmitri": (f"I{n}4", 0)}, next_demand=None if slot == "D3" else "DM2")
    assert seen == ["S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"]
    assert page.locator("a", has_text="Reveal the rival cards").count() == 1
    tablet.reveal({"Anna": "globalsec", "Boris": "nbn", "Vera": "federalist", "Dmitri": "jinteki"})
    table = final_check(tablet, tmp_path, "rounds")
    assert table["round"]["label"] == "D3" and not table["government_takeover"]
    assert len(table["deals"]) == 6 and len(table["demand_history"]) == 3

"""A deal on the tablet (RULES.md §4): the asset, the active player's offer, counteroffers
clockwise (the standing one on top, covered ones struck), support by the players without a
standing offer, the engine's count shown before anything is recorded, an override only with a
reason, transfers inside the deal. Without JavaScript the screen counts through "Count"; a
queued form (the outbox) carries every nested key as its JSON field."""

import json

from tests.newangeles_web.helpers import (deal_json, get, load, move_post, post, record, screen, seated, seq, submit,
                                          ui_deal)


def count(client, table_id, after, **fields):
    """The deal screen drawn again with these helper fields (the "Count" of a tablet without JS)."""
    page = post(client, f"/na/table/{table_id}/deal?after={after}", dict(ui_deal(**fields), after=after))
    assert page.status == 200, (page.status, page.html[:2000])
    return page


def verdict(page):
    import re
    m = re.search(r'class="na-count-line" data-main="([^"]*)" data-counter="([^"]*)" data-winner="([^"]*)" '
                  r'data-won-by="([^"]*)" data-tie="(\d)"', page.html)
    return None if m is None else {"main": m.group(1), "counter": m.group(2), "winner": m.group(3),
                                   "won_by": m.group(4), "tie": m.group(5) == "1"}


def row_state(page, name):
    chunk = page.html.split('<li class="na-row ')
    for c in chunk[1:]:
        if f'data-player="{name}"' in c.split(">", 1)[0]:
            return c.split('"', 1)[0]
    raise AssertionError(name)


def test_a_whole_deal_through_the_screen_shows_the_count_before_it_is_recorded(app, client):
    table_id = seated(app, client)
    page = screen(client, table_id)
    form = page.form("/move/deal")
    assert form.fields["active"] == "Anna" and form.fields["after"] == "0"
    assert 'data-move="deal"' in page.html and "data-json" in page.html
    # RECORD.md §5, deal 1: Boris counters, Vera supports the main offer, Dmitri the counter
    page = count(client, table_id, 0, active="Anna", asset="A05", main="Biotech: Vaccination Drive",
                 counters={"Boris": "Media: Public Broadcast"}, support={"Vera": ("main", 1), "Dmitri": ("counter", 2)})
    assert verdict(page) == {"main": "1", "counter": "2", "winner": "Boris", "won_by": "counter", "tie": False}
    assert "Boris takes the asset A05." in page.text
    assert load(app, table_id).seq == 0  # nothing recorded by counting
    form = page.form("/move/deal")
    assert json.loads(form.fields["counteroffers"]) == [{"player": "Boris", "card": "Media: Public Broadcast"}]
    assert json.loads(form.fields["support"]) == [{"player": "Vera", "offer": "main", "cards": 1},
                                                  {"player": "Dmitri", "offer": "counter", "cards": 2}]
    done = submit(client, form)
    assert done.status == 303
    after = get(client, done.response.location)  # where the host is sent: the table, saying what the deal did
    assert "Deal 1: Boris's offer wins" in " ".join(after.messages("ok"))
    game = load(app, table_id).game
    assert game.deals[0].winner == "Boris" and game.first_player == "Boris"
    assert game.by_name["Boris"].assets == ["A05"]
    recorded = game.moves[0].to_dict()
    assert recorded["main"] == {"card": "Biotech: Vaccination Drive"} and "extra" not in recorded


def test_a_covered_counteroffer_is_struck_and_its_owner_may_support(app, client):
    table_id = seated(app, client, first="Boris")
    page = count(client, table_id, 0, active="Boris", asset="A11", main="Security: Sweep",
                 counters={"Vera": "Labor: Relocate Androids", "Dmitri": "Construction: Restore Power"},
                 support={"Vera": ("main", 1), "Anna": ("main", 1)})
    assert row_state(page, "Vera") == "covered" and row_state(page, "Dmitri") == "standing"
    assert "covered" in page.text and "stands" in page.text
    assert verdict(page) == {"main": "2", "counter": "0", "winner": "Boris", "won_by": "main", "tie": False}
    assert submit(client, page.form("/move/deal")).status == 303
    deal = load(app, table_id).game.deals[0].to_dict()
    assert deal["covered"] == [{"player": "Vera", "offer": {"card": "Labor: Relocate Androids"}}]
    assert deal["counter"]["player"] == "Dmitri"


def test_a_tie_goes_to_the_main_offer(app, client):
    table_id = seated(app, client, first="Dmitri")
    page = count(client, table_id, 0, active="Dmitri", asset="A20", main="Construction: Develop District",
                 counters={"Anna": "Biotech: Clinic"}, support={"Boris": ("main", 1), "Vera": ("counter", 1)})
    assert verdict(page) == {"main": "1", "counter": "1", "winner": "Dmitri", "won_by": "main", "tie": True}
    assert "A tie goes to the main offer: Dmitri wins." in page.text
    assert submit(client, page.form("/move/deal")).status == 303
    assert load(app, table_id).game.deals[0].tie


def test_an_override_needs_a_reason(app, client):
    table_id = seated(app, client)
    fields = dict(active="Anna", asset="A01", main="Security: Sweep", counters={"Boris": "Media: Ads"},
                  support={"Vera": ("main", 2)})
    page = count(client, table_id, 0, winner="counter", **fields)
    assert "the winner differs from the count (main offer 2 vs counteroffer 0) without a reason for the override" in page.text
    refused = submit(client, page.form("/move/deal"))
    assert refused.status == 422
    assert "the winner differs from the count (main offer 2 vs counteroffer 0) without a reason for the override" in refused.error
    assert load(app, table_id).seq == 0
    # the refused screen keeps what was entered
    assert json.loads(refused.form("/move/deal").fields["counteroffers"])[0]["player"] == "Boris"
    page = count(client, table_id, 0, winner="counter", override_reason="asset A01: ties and losses go to Boris",
                 **fields)
    assert "(overridden by the host)" in page.text and "Boris takes the asset A01." in page.text
    assert submit(client, page.form("/move/deal")).status == 303
    deal = load(app, table_id).game.deals[0].to_dict()
    assert deal["winner"] == "Boris" and deal["override_reason"] == "asset A01: ties and losses go to Boris"


def test_refusals_of_a_queued_deal_say_the_rule_and_the_numbers(app, client):
    table_id = seated(app, client)
    cases = [
        (deal_json("Anna", counters=["Boris", "Boris"]), 422, "Boris countered twice"),
        (deal_json("Anna", counters=["Anna"]), 422, "the active player countered"),
        (deal_json("Boris"), 422, "wrong active player: expected Anna"),
        (deal_json("Anna", counters=["Dmitri", "Boris"]), 422,
         "counteroffers out of clockwise order from the active player's left: Boris after Dmitri"),
        (deal_json("Anna", counters=["Boris"], support=[("Boris", "main", 1)]), 422,
         "Boris supports while holding an offer"),
        (deal_json("Anna", support=[("Vera", "counter", 1)]), 422, "counter with no counteroffer: Vera supports it"),
        (deal_json("Anna", support=[("Vera", "main", 0)]), 422, "cards < 1: Vera supports with 0 cards"),
        (deal_json("Anna", main={"emergency": "nbn"}), 422,
         "emergency card of another corporation: Anna plays NBN, whose card is not Anna's"),
        (dict(deal_json("Anna"), main=""), 400, "Main offer: is missing"),
        (dict(deal_json("Anna"), support="[oops"), 400, "Support: the field does not hold valid JSON"),
        (dict(deal_json("Anna"), extra="[1]"), 400, "Extra support: must be an object, got [1]"),
        (dict(deal_json("Anna"), counteroffers='{"player": "Boris"}'), 400, "Counteroffers: must be a list"),
        (dict(deal_json("Anna"), main='"Security"'), 400, "Main offer: must be an object"),
    ]
    # a malformed field is named by its label on the screen, never by the record's key (issue 20)
    for fields, status, message in cases:
        page = move_post(client, table_id, "deal", dict(fields, after=0))
        assert page.status == status, (message, page.status, page.error)
        assert message in page.error, (message, page.error)
    assert seq(app, table_id) == 0
    other = seated(app, client, first="Dmitri")  # Anna sits on Dmitri's left
    page = move_post(client, other, "deal", dict(deal_json("Dmitri", counters=["Anna", "Anna"]), after=0))
    assert page.status == 422 and "The move was not recorded: Anna countered twice" in page.error


def test_the_queue_form_records_a_deal_with_its_json_fields(app, client):
    table_id = seated(app, client, first="Vera")
    page = move_post(client, table_id, "deal", dict(deal_json("Vera", asset="A02", main={"emergency": "globalsec"}),
                                                    after=0))
    assert page.status == 303
    game = load(app, table_id).game
    assert game.by_name["Vera"].emergency == "facedown" and game.deals[0].winner == "Vera"


def test_an_emergency_card_offered_from_the_screen(app, client):
    table_id = seated(app, client)
    page = count(client, table_id, 0, active="Anna", asset="A03", emergency=True,
                 counters={"Boris": ""}, support={})
    assert json.loads(page.form("/move/deal").fields["main"]) == {"emergency": "jinteki"}
    assert "No counteroffer: Anna's offer wins unopposed." in page.text
    # Boris counters with his own emergency card
    page = count(client, table_id, 0, active="Anna", asset="A03", main="Biotech: Quarantine",
                 ui_counter_em_1="1", support={"Vera": ("counter", 2)})
    assert json.loads(page.form("/move/deal").fields["counteroffers"]) == [{"player": "Boris", "emergency": "nbn"}]
    assert submit(client, page.form("/move/deal")).status == 303
    game = load(app, table_id).game
    assert game.by_name["Boris"].emergency == "facedown" and game.by_name["Anna"].emergency == "faceup"


def test_steppers_and_the_preview_of_a_refused_support(app, client):
    table_id = seated(app, client)
    page = count(client, table_id, 0, active="Anna", asset="A01", main="Security: Sweep", step="inc:ui_sup_main_2")
    assert json.loads(page.form("/move/deal").fields["support"]) == [{"player": "Vera", "offer": "main", "cards": 1}]
    page = count(client, table_id, 0, active="Anna", asset="A01", main="Security: Sweep",
                 support={"Vera": ("main", 2)}, step="dec:ui_sup_main_2")
    assert json.loads(page.form("/move/deal").fields["support"]) == [{"player": "Vera", "offer": "main", "cards": 1}]
    page = count(client, table_id, 0, active="Anna", asset="A01", main="Security: Sweep",
                 counters={"Vera": "Media: Ads"}, support={"Vera": ("main", 1)})
    assert "Vera supports while holding an offer" in page.text  # shown before any tap on Record
    assert "holds the counteroffer" in page.text


def test_a_form_whose_fields_say_more_than_its_count_is_counted_first(app, client):
    table_id = seated(app, client)
    page = screen(client, table_id)
    fields = dict(page.form("/move/deal").fields, asset="A01", ui_main_card="Security: Sweep")
    shown = post(client, f"/na/table/{table_id}/move/deal", fields)
    assert shown.status == 200 and "check the winner, then record the deal" in shown.text
    assert seq(app, table_id) == 0
    assert "No counteroffer: Anna's offer wins unopposed." in shown.text
    assert submit(client, shown.form("/move/deal")).status == 303
    assert seq(app, table_id) == 1


def test_transfers_inside_a_deal(app, client):
    table_id = seated(app, client)
    page = count(client, table_id, 0, active="Anna", asset="A05", main="Biotech: Vaccination Drive",
                 ui_tr_from="Anna", ui_tr_to="Vera", ui_tr_capital="2", step="transfer_add")
    form = page.form("/move/deal")
    assert json.loads(form.fields["transfers"]) == [{"from": "Anna", "to": "Vera", "capital": 2, "assets": []}]
    assert form.fields["ui_tr_capital"] == "" and "Anna → Vera" in page.text
    # a second one, then the first removed
    page = submit(client, form, ui_tr_from="Boris", ui_tr_to="Dmitri", ui_tr_capital="1", step="transfer_add",
                  **{"after": 0})
    assert page.status in (200, 303)
    page = count(client, table_id, 0, active="Anna", asset="A05", main="Biotech: Vaccination Drive",
                 ui_tr_list=json.dumps([{"from": "Anna", "to": "Vera", "capital": 2, "assets": []},
                                        {"from": "Boris", "to": "Dmitri", "capital": 1, "assets": []}]),
                 step="transfer_remove:0")
    form = page.form("/move/deal")
    assert json.loads(form.fields["transfers"]) == [{"from": "Boris", "to": "Dmitri", "capital": 1, "assets": []}]
    page = count(client, table_id, 0, active="Anna", asset="A05", main="Biotech: Vaccination Drive",
                 ui_tr_from="Anna", ui_tr_to="Vera", ui_tr_capital="11", step="transfer_add")
    assert "Anna gives more capital than held: 11 > 10" in page.text
    refused = submit(client, page.form("/move/deal"))
    assert refused.status == 422 and "Anna gives more capital than held: 11 > 10" in refused.error
    page = count(client, table_id, 0, active="Anna", asset="A05", main="Biotech: Vaccination Drive",
                 ui_tr_from="Anna", ui_tr_to="Vera", ui_tr_capital="2", step="transfer_add")
    assert submit(client, page.form("/move/deal")).status == 303
    game = load(app, table_id).game
    assert game.by_name["Anna"].capital == 8 and game.by_name["Vera"].capital == 12


def test_a_deal_screen_drawn_before_the_table_moved_on_says_what_happened(app, client):
    table_id = seated(app, client)
    page = count(client, table_id, 0, active="Anna", asset="A01", main="Security: Sweep")
    record(app, table_id, {"type": "capital", "player": "Anna", "amount": 2, "reason": "contract"})
    stale = post(client, f"/na/table/{table_id}/deal?after=0", dict(page.form("/move/deal").fields))
    assert stale.status == 409 and "This screen is out of date" in stale.text
    assert "Move #1 was recorded since this screen was drawn: capital change · Anna." in stale.text
    assert not stale.has_form("/move/deal")
    moved = get_bound(client, table_id, 0)
    assert moved.status == 409 and moved.has_form("/move/deal") is False
    refused = submit(client, page.form("/move/deal"))
    assert refused.status == 409 and "move #0, now #1" in refused.error
    assert seq(app, table_id) == 1


def get_bound(client, table_id, after):
    from tests.newangeles_web.helpers import get
    return get(client, f"/na/table/{table_id}/deal?after={after}")


def test_a_repeated_deal_form_is_recorded_once(app, client):
    table_id = seated(app, client)
    page = count(client, table_id, 0, active="Anna", asset="A01", main="Security: Sweep")
    form = page.form("/move/deal")
    assert submit(client, form).status == 303
    again = submit(client, form, follow=True)
    assert "This move was already recorded; nothing was added." in again.text
    assert seq(app, table_id) == 1


def test_the_players_list_marks_whose_deal_it_is_and_follows_the_first_player(app, client):
    """The active player of the deal to enter is marked on the live screen (and, offline, the
    outbox moves the mark along the positions: the list says so with data-turns)."""
    import re
    table_id = seated(app, client)

    def marked(page):
        return re.findall(r'<article class="na-player[^"]*\bturn\b[^"]*" data-name="([^"]+)"', page.html)

    page = screen(client, table_id)
    assert "data-turns" in page.html and marked(page) == ["Anna"]
    record(app, table_id, {"type": "deal", "active": "Anna", "asset": "A05", "main": {"card": "Biotech: Drive"},
                           "counteroffers": [], "support": []})
    game = load(app, table_id).game
    active = {m["type"]: m for m in game.legal_moves()}["deal"]["active"]
    assert active != "Anna" and marked(screen(client, table_id)) == [active]

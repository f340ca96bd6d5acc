"""RULES.md §4 A deal, step by step: asset, main offer, counteroffers (only the top one stands),
support, resolution; the token passes left. Plus the live preview a deal screen uses.

Anna is active (the default table); clockwise from her left: Boris, Vera, Dmitri.
"""

import pytest

from facilitator.rules.newangeles import DEAL_STAGES, IllegalMoveError, compute_deal, table_standing

from .helpers import deal, make_game, make_pack, refused, row

# id, counteroffers, support, extra fields, pack rules, (S(main), S(counter), won_by, winner, tie)
COUNTS = [
    ("no counteroffer: main wins without a count (D5)", [], [], {}, {}, (0, None, "main", "Anna", False)),
    ("support on an unopposed main offer is shown (D26)", [], [("Vera", "main", 2)], {}, {},
     (2, None, "main", "Anna", False)),
    ("main 1 vs counter 2: counter wins", ["Boris"], [("Vera", "main", 1), ("Dmitri", "counter", 2)], {}, {},
     (1, 2, "counter", "Boris", False)),
    ("main 2 vs counter 1: main wins", ["Boris"], [("Vera", "main", 2), ("Dmitri", "counter", 1)], {}, {},
     (2, 1, "main", "Anna", False)),
    ("a 1-1 tie goes to the main offer (D6)", ["Boris"], [("Vera", "main", 1), ("Dmitri", "counter", 1)], {}, {},
     (1, 1, "main", "Anna", True)),
    ("nobody supports: a 0-0 tie", ["Dmitri"], [], {}, {}, (0, 0, "main", "Anna", True)),
    ("extra support counts (D4, D27)", ["Boris"], [("Vera", "counter", 2)],
     {"extra": {"main": 2}, "extra_reason": "asset A01"}, {}, (2, 2, "main", "Anna", True)),
    ("extra support for the counteroffer", ["Boris"], [("Vera", "main", 1)],
     {"extra": {"counter": 2}, "extra_reason": "asset A01"}, {}, (1, 2, "counter", "Boris", False)),
    ("negative extra support", ["Boris"], [("Vera", "main", 2), ("Dmitri", "counter", 1)],
     {"extra": {"main": -2}, "extra_reason": "card effect"}, {}, (0, 1, "counter", "Boris", False)),
    ("a covered counteroffer's owner supports (D3)", ["Boris", "Vera"],
     [("Boris", "counter", 1), ("Dmitri", "main", 2)], {}, {}, (2, 1, "main", "Anna", False)),
    ("host override against the count (D7)", ["Boris"], [("Vera", "counter", 2)],
     {"winner": "main", "override_reason": "asset ability"}, {}, (0, 2, "main", "Anna", False)),
    ("the host names the winner the count gives", ["Boris"], [("Vera", "counter", 2)], {"winner": "counter"}, {},
     (0, 2, "counter", "Boris", False)),
    ("active_chooses: the active player picks the counteroffer in a tie (D6)", ["Boris"], [],
     {"winner": "counter"}, {"support_tie": "active_chooses"}, (0, 0, "counter", "Boris", True)),
    ("an override keeps tie as counted (D32)", ["Boris"], [("Vera", "counter", 1), ("Dmitri", "main", 1)],
     {"winner": "counter", "override_reason": "asset A03"}, {}, (1, 1, "counter", "Boris", True)),
]


@pytest.mark.parametrize("counters, support, more, rules, expected", [c[1:] for c in COUNTS],
                         ids=[c[0] for c in COUNTS])
def test_the_offer_with_the_most_support_wins(counters, support, more, rules, expected):
    game = make_game(make_pack(**rules))
    result = game.apply(deal("Anna", asset="A05", counters=counters, support=support, **more))
    entry = table_standing(game)["deals"][0]
    got = (entry["main"]["support"], entry["counter"] and entry["counter"]["support"], entry["won_by"],
           entry["winner"], entry["tie"])
    assert got == expected
    assert result.deal == entry
    winner = expected[3]
    assert row(game, winner)["assets"] == ["A05"]
    assert result.assets == [{"asset": "A05", "from": None, "to": winner}]


def test_only_the_top_counteroffer_stands_the_covered_ones_are_listed():
    game = make_game()
    game.apply(deal("Anna", counters=[("Boris", "Media: Ad Campaign"), ("Dmitri", "Labor: Strike")]))
    entry = table_standing(game)["deals"][0]
    assert entry["covered"] == [{"player": "Boris", "offer": {"card": "Media: Ad Campaign"}}]
    assert entry["counter"] == {"player": "Dmitri", "offer": {"card": "Labor: Strike"}, "support": 0}


def test_the_winner_takes_the_asset_and_the_token_passes_left():
    game = make_game(first="Dmitri")
    result = game.apply(deal("Dmitri", asset="A20", counters=["Anna"], support=[("Boris", "counter", 1)]))
    assert row(game, "Anna")["assets"] == ["A20"]
    assert result.first_player == {"before": "Dmitri", "after": "Anna"}
    assert result.assets_left == {"before": 3, "after": 2}
    assert game.next() == {"expects": "deal", "active": "Anna", "deal": 2, "of": 3}


@pytest.mark.parametrize("counters, support, main_state, boris_state", [
    ([], [], "facedown", "faceup"),  # Anna's emergency card wins unopposed
    ([("Boris", {"emergency": "nbn"})], [("Vera", "counter", 1)], "faceup", "facedown"),
    ([("Boris", {"emergency": "nbn"}), "Vera"], [], "facedown", "faceup"),  # covered: back faceup
])
def test_a_proposed_emergency_card_is_spent_if_it_wins_and_returns_faceup_if_it_loses(counters, support, main_state,
                                                                                       boris_state):
    game = make_game()
    result = game.apply(deal("Anna", main={"emergency": "jinteki"}, counters=counters, support=support))
    assert (row(game, "Anna")["emergency"], row(game, "Boris")["emergency"]) == (main_state, boris_state)
    spent = {"jinteki": "facedown"} if main_state == "facedown" else {"nbn": "facedown"}
    assert result.emergency == spent


def test_transfers_in_a_deal_are_applied_first():
    game = make_game(capital={"Anna": 2, "Boris": 10, "Vera": 10, "Dmitri": 10})
    result = game.apply(deal("Anna", support=[("Vera", "main", 1)],
                             transfers=[{"from": "Anna", "to": "Vera", "capital": 2, "note": "for support"}]))
    assert (row(game, "Anna")["capital"], row(game, "Vera")["capital"]) == (0, 12)
    assert result.capital == {"Anna": -2, "Vera": 2}
    assert table_standing(game)["deals"][0]["transfers"] == [{"from": "Anna", "to": "Vera", "capital": 2,
                                                              "assets": []}]


def test_a_transfer_in_a_deal_may_pass_on_what_an_earlier_one_gave():
    game = make_game(capital={"Anna": 0, "Boris": 3, "Vera": 0, "Dmitri": 0})
    game.apply(deal("Anna", transfers=[{"from": "Boris", "to": "Vera", "capital": 3},
                                       {"from": "Vera", "to": "Dmitri", "capital": 3}]))
    assert [p.capital for p in game.players] == [0, 0, 0, 3]


# ----- the live deal screen ------------------------------------------------------------------
DEAL_SO_FAR = {"active": "Anna", "asset": "A05", "main": {"card": "Biotech: Clinic"},
               "counteroffers": [{"player": "Boris", "card": "Media"}, {"player": "Vera", "card": "Labor"}],
               "support": [{"player": "Boris", "offer": "main", "cards": 1}]}


def test_the_preview_walks_offer_counteroffers_support_winner():
    game = make_game()
    assert DEAL_STAGES == ("asset", "offer", "counteroffers", "support", "winner")
    p = compute_deal(game, {"active": "Anna", "asset": "A05"}, "asset")
    assert (p.order, p.may_counter, p.main) == (["Boris", "Vera", "Dmitri"], ["Boris", "Vera", "Dmitri"], None)
    assert p.emergency_faceup == {"Anna": "jinteki", "Boris": "nbn", "Vera": "globalsec", "Dmitri": "haas-bioroid"}
    p = compute_deal(game, {"active": "Anna", "asset": "A05", "main": {"card": "Biotech: Clinic"}}, "offer")
    assert p.main == {"player": "Anna", "offer": {"card": "Biotech: Clinic"}}
    p = compute_deal(game, DEAL_SO_FAR, "counteroffers")
    assert p.counter == {"player": "Vera", "offer": {"card": "Labor"}}
    assert p.covered == [{"player": "Boris", "offer": {"card": "Media"}}]
    assert p.may_counter == ["Dmitri"]
    assert p.supporters == ["Boris", "Dmitri"]
    p = compute_deal(game, DEAL_SO_FAR, "support")
    assert (p.support, p.computed, p.tie, p.winner) == ({"main": 1, "counter": 0}, "main", False, "Anna")
    assert p.may_support == ["Dmitri"]
    p = compute_deal(game, dict(DEAL_SO_FAR, winner="counter", override_reason="asset"), "winner")
    assert (p.computed, p.won_by, p.winner) == ("main", "counter", "Vera")
    assert game.moves == []  # a preview records nothing


def test_a_partial_deal_is_checked_only_as_far_as_it_goes():
    game = make_game()
    bad = dict(DEAL_SO_FAR, support=[{"player": "Vera", "offer": "main", "cards": 1}])  # Vera holds the top offer
    compute_deal(game, bad, "counteroffers")
    with pytest.raises(IllegalMoveError, match="Vera supports while holding an offer"):
        compute_deal(game, bad, "support")


def test_a_tie_under_active_chooses_has_no_computed_winner_until_named():
    game = make_game(make_pack(support_tie="active_chooses"))
    p = compute_deal(game, DEAL_SO_FAR | {"support": []}, "support")
    assert (p.computed, p.tie, p.winner) == (None, True, None)
    refused(game, deal("Anna", counters=["Boris"]), "D6", "tie_needs_winner")


def test_the_preview_of_a_move_equals_what_apply_records():
    game = make_game()
    move = deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1)])
    preview = game.preview_deal(move)
    result = game.apply(move)
    assert (preview.won_by, preview.winner, preview.tie) == (result.deal["won_by"], result.deal["winner"],
                                                              result.deal["tie"])
    assert preview.support == {"main": result.deal["main"]["support"], "counter": result.deal["counter"]["support"]}

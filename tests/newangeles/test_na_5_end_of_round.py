"""RULES.md §5 End of a standard round: the host enters production, the event and its threat,
and the asset cards for the next standard round; the round marker advances."""

import pytest

from facilitator.rules.newangeles import table_standing

from .helpers import end_round, make_game, reach, refused, unopposed


def _round_done(**setup):
    game = make_game(assets=1, **setup)
    unopposed(game)
    return game


def test_production_is_added_to_supply_and_the_event_adds_threat():
    game = _round_done()
    result = game.apply(end_round({"energy": 2, "tech": 1, "materials": 0}, event="E07", event_threat=3,
                                  next_assets=4))
    t = table_standing(game)
    assert t["supply"] == {"energy": 2, "entertainment": 0, "tech": 1, "consumables": 0, "materials": 0}
    assert (t["threat"], t["assets_left"], t["round"]["label"]) == (15, 4, "S2")
    assert result.supply == {"energy": 2, "tech": 1}
    assert result.threat == {"before": 12, "after": 15, "added": 3, "capped": False, "reason": "event"}
    assert result.advanced == {"from": "S1", "to": "S2"}
    assert result.assets_left == {"before": 0, "after": 4}


def test_event_threat_defaults_to_0_and_the_event_is_optional():
    game = _round_done()
    result = game.apply(end_round(next_assets=2))
    assert (game.threat, result.threat) == (12, None)


@pytest.mark.parametrize("label, next_label", [("S1", "S2"), ("S2", "D1"), ("S3", "S4"), ("S4", "D2"),
                                               ("S5", "S6"), ("S6", "D3")])
def test_the_round_marker_advances(label, next_label):
    game = reach(make_game(), label)
    while game.assets_left:
        unopposed(game)
    game.apply(end_round(next_assets=None if label == "S6" else 2))
    assert game.label == next_label


def test_after_s6_no_asset_cards_wait_d36():
    game = reach(make_game(), "S6")
    while game.assets_left:
        unopposed(game)
    refused(game, end_round(next_assets=2), "D36", "next_assets_after_last")
    game.apply(end_round(next_assets=None))
    assert (game.label, game.assets_left) == ("D3", 0)


def test_next_assets_is_required_in_s1_to_s5():
    refused(_round_done(), end_round(next_assets=None), "D2", "next_assets_missing")


def test_a_takeover_by_the_event_keeps_the_production_and_skips_the_advance_d25():
    game = _round_done(threat=20)
    refused(game, end_round({"tech": 1}, event_threat=5, next_assets=3), "D19", "next_assets_not_allowed")
    result = game.apply(end_round({"tech": 1}, event="E12", event_threat=7, next_assets=None))
    t = table_standing(game)
    assert (t["threat"], t["ended_by"], t["government_takeover"]) == (25, "threat", True)
    assert t["supply"]["tech"] == 1
    assert (t["round"]["label"], t["assets_left"]) == ("S1", 0)
    assert result.threat == {"before": 20, "after": 25, "added": 7, "capped": True, "reason": "event"}
    assert (result.ended_by, result.advanced) == ("threat", None)
    assert t["next"] == {"expects": "finish"}

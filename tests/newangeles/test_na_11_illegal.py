"""RULES.md §11 Illegal moves, in ONE table: every refusal the engine knows, each checked for the
RULES.md reference (``rule``: "§N" a section, "DN" a decision), its stable ``code``, its exact
English message with the names and numbers, and a game left exactly as it was (by ``check``
and by ``apply``).

The default table (helpers): Anna, Boris, Vera, Dmitri clockwise; capital 10 each; threat 12;
3 asset cards; Anna active.
"""

import ast
import re
import string
from pathlib import Path

import pytest

from facilitator.rules.newangeles import (IllegalMoveError, Move, ReplayError, read_pack, read_record, replay)
from facilitator.rules.newangeles import game as game_module

from .helpers import (adjust, capital, deal, demand_round, end_round, ended_by_threat, finish, load, make_game,
                      make_pack, move, pack_data, reach, state, supply, threat, transfer, unopposed)

ALL_RIVALS = {"Anna": "nbn", "Boris": "haas-bioroid", "Vera": "federalist", "Dmitri": "jinteki"}


def fresh():
    return make_game()


def dealt():
    """Anna has won A05 (unopposed); Boris holds the token."""
    game = make_game()
    game.apply(deal("Anna", asset="A05"))
    return game


def s1_done():
    """S1 had one asset card and its deal is made: the round waits for end_round."""
    game = make_game(assets=1)
    unopposed(game)
    return game


def s1_done_at(threat_now):
    game = make_game(assets=1, threat=threat_now)
    unopposed(game)
    return game


def no_deal():
    """An adjust took every asset card of S1 before any deal (D36)."""
    game = make_game()
    game.apply(adjust(assets_left=-3))
    return game


def at(label, **setup):
    return lambda: reach(make_game(**setup), label)


def s6_done():
    game = reach(make_game(), "S6")
    while game.assets_left:
        unopposed(game)
    return game


def spent():
    game = make_game()
    game.apply(adjust(emergency={"jinteki": "facedown"}))
    return game


def choosing():
    return make_game(make_pack(support_tie="active_chooses"))


def listed():
    """A pack that lists its asset, investment and event cards: records must use those codes."""
    data = pack_data()
    data["assets"] = [{"code": "A01", "title": "Clinic"}]
    data["investments"] = [{"code": f"I0{i}", "title": f"Investment {i}"} for i in range(1, 5)]
    data["events"] = [{"code": "E07", "title": "Outage"}]
    return make_game(read_pack(data), assets=1)


def listed_round_done():
    game = listed()
    game.apply(deal("Anna", asset="A01"))
    return game


def listed_at_d1():
    game = listed()
    game.apply(deal("Anna", asset="A01"))
    game.apply(end_round(next_assets=1))
    game.apply(adjust(remove_assets={"Anna": ["A01"]}))
    game.apply(deal("Boris", asset="A01"))
    game.apply(end_round(next_assets=1))
    return game


def ended():
    return ended_by_threat(make_game())


def sealed_end():
    return ended_by_threat(make_game(rivals={"Boris": "haas-bioroid"}))


def finished():
    game = ended()
    game.apply(finish(**ALL_RIVALS))
    return game


D1, D3 = at("D1"), at("D3")  # the token holder in D1 is Vera (six unopposed deals)

# id, position, move, rule, code, message
ILLEGAL = [
    # §3 the round track
    ("deal in a demand round", D1, deal("Vera"), "§3", "not_standard_round",
     "not a standard round: D1 is a demand round"),
    ("end_round in a demand round", D1, end_round(), "§3", "not_standard_round",
     "not a standard round: D1 is a demand round"),
    ("demand_round in a standard round", fresh, demand_round(), "§3", "not_demand_round",
     "not a demand round: S1 is a standard round"),
    # D2, D36 asset cards
    ("deal with no asset card left", s1_done, deal("Boris"), "D2", "no_asset_left",
     "no asset card left (assets_left = 0)"),
    ("end_round with assets left", fresh, end_round(), "D2", "assets_left",
     "end_round with assets left: 3 asset card(s) still need a deal"),
    ("end_round with no deal made", no_deal, end_round(), "D36", "no_deal_made",
     "end_round with no deal made in S1: correct assets_left with an adjust"),
    # §4 a deal
    ("wrong active player", fresh, deal("Boris"), "D21", "wrong_active", "wrong active player: expected Anna"),
    ("the active player counters", fresh, deal("Anna", counters=["Anna"]), "§4", "active_countered",
     "the active player countered"),
    ("a second counteroffer by the same player", fresh, deal("Anna", counters=["Boris", "Vera", "Boris"]), "§4",
     "countered_twice", "Boris countered twice"),
    ("counteroffers out of clockwise order", fresh, deal("Anna", counters=["Vera", "Boris"]), "§4", "counter_order",
     "counteroffers out of clockwise order from the active player's left: Boris after Vera"),
    ("the active player supports", fresh, deal("Anna", support=[("Anna", "main", 1)]), "D3", "supports_with_offer",
     "Anna supports while holding an offer"),
    ("the standing counteroffer's owner supports", fresh,
     deal("Anna", counters=["Vera", "Dmitri"], support=[("Dmitri", "counter", 1)]), "D3", "supports_with_offer",
     "Dmitri supports while holding an offer"),
    ("a player supports twice", fresh, deal("Anna", support=[("Vera", "main", 1), ("Vera", "main", 2)]), "D4",
     "supports_twice", "Vera supports twice"),
    ("supports out of clockwise order", fresh, deal("Anna", support=[("Dmitri", "main", 1), ("Vera", "main", 1)]),
     "§4", "support_order", "supports out of clockwise order from the active player's left: Vera after Dmitri"),
    ("support with 0 cards", fresh, deal("Anna", support=[("Vera", "main", 0)]), "D4", "support_cards",
     "cards < 1: Vera supports with 0 cards"),
    ("support for a counteroffer nobody made", fresh, deal("Anna", support=[("Vera", "counter", 1)]), "D4",
     "counter_missing", "counter with no counteroffer: Vera supports it"),
    ("an asset already held", dealt, deal("Boris", asset="A05"), "D29", "asset_held", "asset already held by Anna"),
    ("another corporation's emergency card as main offer", fresh, deal("Anna", main={"emergency": "nbn"}), "D8",
     "emergency_other", "emergency card of another corporation: Anna plays nbn, whose card is not Anna's"),
    ("another corporation's emergency card as counteroffer", fresh,
     deal("Anna", counters=[("Vera", {"emergency": "nbn"})]), "D8", "emergency_other",
     "emergency card of another corporation: Vera plays nbn, whose card is not Vera's"),
    ("a facedown emergency card", spent, deal("Anna", main={"emergency": "jinteki"}), "D8", "emergency_facedown",
     "emergency card facedown: Anna's jinteki card is spent"),
    ("an emergency card of no corporation", fresh, deal("Anna", main={"emergency": "umbrella"}), "D34",
     "unknown_corporation",
     "unknown corporation umbrella; the corporations are haas-bioroid, jinteki, nbn, weyland, melange, globalsec"),
    ("winner against the count without override_reason", fresh,
     deal("Anna", counters=["Boris"], support=[("Vera", "counter", 2)], winner="main"), "D7", "winner_differs",
     "winner differs from the count (main 0 vs counter 2) without override_reason"),
    ("a tie under active_chooses without a winner", choosing,
     deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1), ("Dmitri", "main", 1)]), "D6",
     "tie_needs_winner", "a tie (main 1 vs counter 1) needs a winner: the pack's support_tie is active_chooses"),
    ("override_reason without a winner", fresh, deal("Anna", override_reason="asset"), "D7",
     "override_without_winner", "override_reason without a winner: name the winner it overrides the count with"),
    ("winner counter without a counteroffer", fresh, deal("Anna", winner="counter", override_reason="x"), "D32",
     "winner_counter_missing", "counter with no counteroffer: the winner cannot be counter"),
    ("extra support without a reason", fresh, deal("Anna", extra={"main": 1}), "D27", "extra_reason_missing",
     "extra support without extra_reason (main 1, counter 0)"),
    ("extra support for a counteroffer nobody made", fresh,
     deal("Anna", extra={"counter": 1}, extra_reason="card"), "D27", "extra_counter_missing",
     "counter with no counteroffer: extra support 1 for it"),
    ("a deal's bribe larger than the capital held", fresh,
     deal("Anna", transfers=[{"from": "Anna", "to": "Vera", "capital": 11}]), "D9", "gives_too_much",
     "Anna gives more capital than held: 11 > 10"),
    # D9, D10, D11: capital, threat, supply, transfers
    ("capital below 0", fresh, capital("Anna", -11), "D10", "capital_negative", "capital Anna would be -1"),
    ("a capital move of 0", fresh, capital("Anna", 0), "§10", "capital_amount_zero",
     "a capital move needs an amount other than 0"),
    ("gives more capital than held", fresh, transfer("Anna", "Vera", capital=11), "D9", "gives_too_much",
     "Anna gives more capital than held: 11 > 10"),
    ("gives an asset not held", dealt, transfer("Boris", "Vera", assets=["A05"]), "D9", "asset_not_held",
     "asset not held: Boris does not hold A05"),
    ("gives the same asset twice", dealt, transfer("Anna", "Vera", assets=["A05", "A05"]), "D9", "asset_not_held",
     "asset not held: Anna does not hold A05"),
    ("a transfer to oneself", fresh, transfer("Anna", "Anna", capital=1), "§10", "transfer_same_player",
     "a transfer needs two different players, got Anna to Anna"),
    ("a transfer of negative capital", fresh, transfer("Anna", "Vera", capital=-1), "§10",
     "transfer_capital_negative", "a transfer's capital must be at least 0, got -1"),
    ("an empty transfer", fresh, transfer("Anna", "Vera", capital=0, assets=[]), "§10", "transfer_empty",
     "a transfer from Anna gives neither capital nor assets"),
    ("threat below 0", fresh, threat(-13), "D11", "threat_negative", "threat below 0: 12 -13 = -1"),
    ("a threat move of 0", fresh, threat(0), "§10", "threat_amount_zero", "a threat move needs an amount other than 0"),
    ("supply below 0", fresh, supply(tech=-1), "D11", "supply_negative", "supply below 0: tech 0 -1 = -1"),
    ("a supply move changing nothing", fresh, supply(tech=0), "D31", "supply_nothing",
     "a supply move must change at least one resource"),
    # adjust
    ("assets_left below 0", fresh, adjust(assets_left=-4), "§10", "assets_left_negative",
     "assets_left would be -1: 3 -4"),
    ("an adjust with a blank reason", fresh, Move("adjust", reason=" "), "D37", "adjust_reason",
     "an adjust needs a reason; it is printed in the protocol"),
    ("an emergency card of a corporation not in play", fresh, adjust(emergency={"weyland": "facedown"}), "D34",
     "corporation_not_in_play", "corporation weyland is not in play"),
    ("an emergency card of no corporation", fresh, adjust(emergency={"umbrella": "facedown"}), "D34",
     "unknown_corporation",
     "unknown corporation umbrella; the corporations are haas-bioroid, jinteki, nbn, weyland, melange, globalsec"),
    ("removing an asset not held", dealt, adjust(remove_assets={"Vera": ["A05"]}), "D9", "asset_not_held",
     "asset not held: Vera does not hold A05"),
    # unknown names and codes
    ("unknown player", fresh, capital("Olga", 1), "§2", "unknown_player",
     "unknown player Olga; the players are Anna, Boris, Vera, Dmitri"),
    ("unknown counteroffer player", fresh, deal("Anna", counters=["Olga"]), "§2", "unknown_player",
     "unknown player Olga; the players are Anna, Boris, Vera, Dmitri"),
    ("unknown first player in adjust", fresh, adjust(first_player="Olga"), "§2", "unknown_player",
     "unknown player Olga; the players are Anna, Boris, Vera, Dmitri"),
    ("unknown resource", fresh, supply(food=1), "§1", "unknown_resource",
     "unknown resource food; the resources are energy, entertainment, tech, consumables, materials"),
    ("production of an unknown resource", s1_done, end_round({"food": 1}), "§1", "unknown_resource",
     "unknown resource food; the resources are energy, entertainment, tech, consumables, materials"),
    ("an asset code the pack does not list", listed, deal("Anna", asset="A99"), "§1", "unknown_code",
     "unknown asset code A99: the pack lists its asset cards"),
    ("an event code the pack does not list", listed_round_done, end_round(event="E99", next_assets=1), "§1",
     "unknown_code", "unknown event code E99: the pack lists its event cards"),
    ("an investment code the pack does not list", listed_at_d1,
     move({"type": "demand_round", "next_demand": "DM2",
           "investments": [{"player": n, "card": c, "capital": 0}
                           for n, c in zip(("Anna", "Boris", "Vera", "Dmitri"), ("I01", "I02", "I03", "I99"))]}),
     "§1", "unknown_code", "unknown investment code I99: the pack lists its investment cards"),
    ("an unknown demand card", D1, demand_round(next_demand="DM9"), "D20", "unknown_demand",
     "unknown demand card DM9; the pack's are DM2"),
    ("an inline demand card with an unknown resource", D1,
     demand_round(next_demand={"code": "DX", "threat": 1, "targets": {"food": 1}}), "§1", "unknown_resource",
     "unknown resource food; the resources are energy, entertainment, tech, consumables, materials"),
    # §5 end of round
    ("negative production", s1_done, end_round({"tech": -1}), "§10", "production_negative",
     "production of tech must be at least 0, got -1"),
    ("negative event threat", s1_done, end_round(event_threat=-2), "§10", "event_threat_negative",
     "event_threat must be at least 0, got -2"),
    ("next_assets missing in S1", s1_done, end_round(next_assets=None), "D2", "next_assets_missing",
     "next_assets missing: the asset cards for S2 are needed"),
    ("next_assets 0", s1_done, end_round(next_assets=0), "§10", "next_assets_below_1",
     "next_assets must be at least 1, got 0"),
    ("next_assets after S6", s6_done, end_round(next_assets=3), "D36", "next_assets_after_last",
     "next_assets present after S6: no standard round follows"),
    ("next_assets with a takeover by the event", lambda: s1_done_at(20), end_round(event_threat=5), "D19",
     "next_assets_not_allowed", "next_assets present although the event brings threat to 25: the game ends"),
    # §6 demand rounds (D13, D28, D19, D20)
    ("investments missing a player", D1, move({"type": "demand_round", "next_demand": "DM2",
                                              "investments": [{"player": n, "card": f"I{n}", "capital": 0}
                                                              for n in ("Anna", "Boris", "Vera")]}),
     "D13", "investment_missing", "investments missing a player: Dmitri"),
    ("investments repeating a player", D1, move({"type": "demand_round", "next_demand": "DM2",
                                                "investments": [{"player": n, "card": f"I{i}", "capital": 0}
                                                                for i, n in enumerate(("Anna", "Boris", "Anna"))]}),
     "D13", "investment_repeated", "investments repeating a player: Anna"),
    ("investments reusing a card", D1, move({"type": "demand_round", "next_demand": "DM2",
                                            "investments": [{"player": n, "card": "I01", "capital": 0}
                                                            for n in ("Anna", "Boris", "Vera", "Dmitri")]}),
     "D28", "investment_card_reused", "investments reusing a card: I01"),
    ("an investment with negative capital", D1, demand_round(-1, 0, 0, 0), "D13", "investment_capital_negative",
     "investment capital must be at least 0: Anna -1"),
    ("an investment by an unknown player", D1,
     move({"type": "demand_round", "next_demand": "DM2",
           "investments": [{"player": "Olga", "card": "I1", "capital": 0}]}), "§2", "unknown_player",
     "unknown player Olga; the players are Anna, Boris, Vera, Dmitri"),
    ("next_demand missing in D1", D1, demand_round(next_demand=None), "D20", "next_demand_missing",
     "next_demand missing: D1 reveals the next demand card"),
    ("next_demand with a takeover in Pay Demand", at("D1", threat=19), demand_round(), "D19",
     "next_demand_not_allowed", "next_demand present although unmet demand brings threat to 25: the game ends"),
    ("next_demand in D3", D3, demand_round(next_demand="DM2"), "D1", "next_demand_after_last",
     "next_demand present in D3: the last demand round stops after Pay Demand"),
    # §8 the end, D14, D19, D22, D30
    ("any move after the end but finish", ended, capital("Anna", 1), "D19", "after_end",
     "move after the end: the game ended by threat; only finish is accepted"),
    ("a deal after the end", ended, deal("Anna"), "D19", "after_end",
     "move after the end: the game ended by threat; only finish is accepted"),
    ("any move after finish", finished, capital("Anna", 1), "D19", "after_finish",
     "move after finish: the game is finished"),
    ("a second finish", finished, finish(**ALL_RIVALS), "D19", "after_finish", "move after finish: the game is finished"),
    ("finish before the end", fresh, finish(**ALL_RIVALS), "§8", "finish_early",
     "finish before the end: the game waits for deal"),
    ("a rival not in play", ended, finish(**dict(ALL_RIVALS, Anna="weyland")), "D14", "rival_not_in_play",
     "rival not in play: Anna's rival weyland"),
    ("a rival of no corporation", ended, finish(**dict(ALL_RIVALS, Anna="umbrella")), "D34", "unknown_corporation",
     "unknown corporation umbrella; the corporations are haas-bioroid, jinteki, nbn, weyland, melange, globalsec"),
    ("a rival repeated", ended, finish(**dict(ALL_RIVALS, Boris="nbn")), "D14", "rival_repeated",
     "rival repeated: nbn for Anna and Boris"),
    ("a rival contradicting setup", sealed_end, finish(**dict(ALL_RIVALS, Boris="nbn", Anna="haas-bioroid")), "D22",
     "rival_contradicts_setup", "rival contradicting setup: Boris's rival nbn in finish is not the card sealed at setup"),
    ("a rival missing", ended, finish(Anna="nbn", Boris="haas-bioroid", Vera="federalist"), "D30", "rival_missing",
     "finish misses the rival of Dmitri"),
    ("a rival of an unknown player", ended, finish(**dict(ALL_RIVALS, Olga="weyland")), "§2", "unknown_player",
     "unknown player Olga; the players are Anna, Boris, Vera, Dmitri"),
]


@pytest.mark.parametrize("position, move_, rule, code, message", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_every_illegal_move_is_refused_naming_the_rule_and_the_numbers(position, move_, rule, code, message):
    game = position()
    before = state(game)
    with pytest.raises(IllegalMoveError) as checked:
        game.check(move_)
    assert state(game) == before
    with pytest.raises(IllegalMoveError) as applied:
        game.apply(move_)
    assert state(game) == before
    for error in (checked.value, applied.value):
        assert (error.rule, error.code, str(error)) == (rule, code, message)
    for name, value in applied.value.params.items():  # every number it carries is in the message
        if isinstance(value, int) and not isinstance(value, bool):
            assert str(value) in message, (name, value)


def test_the_refusal_line_of_a_record_reads_as_in_rules_md():
    """RULES.md §11: ``t2.json: move 9 (deal by Dmitri): Anna countered twice``."""
    data = load("example_takeover.json")
    data["moves"][8]["counteroffers"] = [{"player": "Anna", "card": "Biotech: Clinic"},
                                        {"player": "Anna", "card": "Biotech: Clinic"}]
    with pytest.raises(ReplayError) as err:
        replay(read_record(data))
    assert (err.value.number, err.value.error.code) == (9, "countered_twice")
    assert f"t2.json: {err.value}" == "t2.json: move 9 (deal by Dmitri): Anna countered twice"


def test_a_refusal_of_a_move_without_a_player_names_its_type_d38():
    data = load("example_takeover.json")
    data["moves"][6]["next_assets"] = 0
    with pytest.raises(ReplayError) as err:
        replay(read_record(data))
    assert str(err.value) == "move 7 (end_round): next_assets must be at least 1, got 0"


# ----- the table covers the engine, and the references are RULES.md's -------------------------
def _engine_sources():
    return sorted(Path(game_module.__file__).parent.glob("*.py"))


def test_every_refusal_code_of_the_engine_is_in_the_table():
    source = Path(game_module.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'_illegal\("[^"]+", "(\w+)"', source))
    assert len(codes) >= 55
    assert codes == {c[4] for c in ILLEGAL}


def _rules_md():
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "games" / "new-angeles" / "RULES.md"
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None


def _references():
    refs = set()
    for path in _engine_sources():
        refs |= set(re.findall(r'_illegal\("([^"]+)"', path.read_text(encoding="utf-8")))
        refs |= set(re.findall(r'_ruled\("([^"]+)"', path.read_text(encoding="utf-8")))
    return refs


def test_every_rule_reference_is_a_section_or_a_decision():
    refs = _references()
    assert refs and all(re.fullmatch(r"§([1-9]|1[01])|D([1-9]|[1-3]\d|40)", r) for r in refs), refs


def test_the_references_exist_in_rules_md():
    text = _rules_md()
    if text is None:
        pytest.skip("games/new-angeles/RULES.md is not beside the project")
    sections = {f"§{n}" for n in re.findall(r"^## (\d+)\. ", text, re.M)}
    decisions_text = text.split("## 9. Decisions", 1)[1].split("\n## ", 1)[0]
    decisions = {f"D{n}" for n in re.findall(r"^(\d+)\. \*\*", decisions_text, re.M)}
    assert len(sections) == 11 and len(decisions) == 40
    assert _references() <= sections | decisions


# ----- templates: literal, English, and filled by the params given -------------------------------
TEMPLATE_ARG = {"_illegal": 2, "SetupError": 2, "MalformedError": 1}


def _error_calls():
    for path in _engine_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in TEMPLATE_ARG:
                    yield f"{path.name}:{node.lineno}", node, TEMPLATE_ARG[name]


def test_every_error_template_is_a_literal_whose_placeholders_are_given():
    calls = list(_error_calls())
    assert len(calls) > 90
    for where, node, index in calls:
        template = node.args[index]
        assert isinstance(template, ast.Constant) and isinstance(template.value, str), where
        fields = {f for _, f, _, _ in string.Formatter().parse(template.value) if f}
        given = {k.arg for k in node.keywords}
        if None in given:  # **params: checked by the refusal table instead
            continue
        assert {f.split("!")[0].split(".")[0] for f in fields} <= given, (where, fields, given)

"""Content packs (`newangeles-pack/1`, RECORD.md §2): the shipped sample pack, every rule of the
pack table, every problem listed at once, and an exact round trip."""

import json
import re
from pathlib import Path

import pytest

from facilitator.rules.newangeles import PACK_FORMAT, PackError, default_pack, default_pack_data, pack_problems, read_pack
from facilitator.rules.newangeles.pack import SAMPLE_RULES

from .helpers import make_game, pack_data, refused, deal

SHIPPED = Path(__file__).resolve().parents[2] / "facilitator" / "rules" / "newangeles" / "sample_pack.json"


def test_the_default_pack_is_the_shipped_file_read_exactly():
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert data["format"] == PACK_FORMAT
    assert default_pack_data() == data
    assert default_pack().to_dict() == data
    assert default_pack() is default_pack()  # read once


def test_the_sample_rules_that_fill_missing_keys_are_the_shipped_ones_d35():
    assert SAMPLE_RULES == default_pack_data()["rules"]


def test_the_shipped_pack_is_the_sample_of_record_md_section_2():
    for parent in Path(__file__).resolve().parents:
        spec = parent / "shared" / "games" / "new-angeles" / "RECORD.md"
        if spec.is_file():
            block = re.findall(r"```json\n(.*?)```", spec.read_text(encoding="utf-8"), re.S)[0]
            assert json.loads(block) == default_pack_data()
            return
    pytest.skip("games/new-angeles/RECORD.md is not beside the project")


def test_unknown_keys_are_kept_and_written_back():
    data = default_pack_data()
    data["description"] = "for the club"
    data["rules"]["house_rule"] = True
    data["resources"][0]["icon"] = "bolt"
    data["assets"] = [{"code": "A01", "title": "Clinic", "district": "Laguna"}]
    assert read_pack(data).to_dict() == data


# mutation of the sample pack, the field named, the problem's key
PROBLEMS = [
    (lambda d: d.update(format="lyceum-pack/1"), "format", "wrong_format"),
    (lambda d: d.update(id=""), "id", "missing_text"),
    (lambda d: d.pop("title"), "title", "missing_text"),
    (lambda d: d.update(rules=[]), "rules", "not_object"),
    (lambda d: d["rules"].update(players_min=1), "rules.players_min", "below_minimum"),
    (lambda d: d["rules"].update(players_min=5, players_max=4), "rules.players_min", "min_above_max"),
    (lambda d: d["rules"].update(players_max="6"), "rules.players_max", "not_whole_number"),
    (lambda d: d["rules"].update(threat_max=0), "rules.threat_max", "below_minimum"),
    (lambda d: d["rules"].update(federalist_capital=-1), "rules.federalist_capital", "below_minimum"),
    (lambda d: d["rules"].update(support_tie="counter"), "rules.support_tie", "bad_choice"),
    (lambda d: d["rules"].update(self_rival_beats={"4": 2, "5": 2}), "rules.self_rival_beats", "count_missing"),
    (lambda d: d["rules"]["self_rival_beats"].update({"7": 3}), "rules.self_rival_beats.7", "count_outside"),
    (lambda d: d["rules"]["self_rival_beats"].update({"4": 4}), "rules.self_rival_beats.4", "beats_too_many"),
    (lambda d: d["rules"]["self_rival_beats"].update({"5": 0}), "rules.self_rival_beats.5", "below_minimum"),
    (lambda d: d["rules"]["self_rival_beats"].update({"four": 2}), "rules.self_rival_beats.four", "bad_player_count"),
    (lambda d: d.update(resources=[]), "resources", "empty"),
    (lambda d: d["resources"].append({"key": "tech", "name": "Tech again"}), "resources[5].key", "duplicate"),
    (lambda d: d["resources"][0].update(key="Energy"), "resources[0].key", "bad_key"),
    (lambda d: d["resources"][1].update(name=""), "resources[1].name", "missing_text"),
    (lambda d: d["corporations"][5].update(key="umbrella"), "corporations[5].key", "unknown_corporation"),
    (lambda d: d["corporations"].pop(), "corporations", "too_few"),
    (lambda d: d["rival_cards"].pop(), "rival_cards", "rival_missing"),
    (lambda d: d["rival_cards"][0].update(rival="umbrella"), "rival_cards[0].rival", "unknown_rival"),
    (lambda d: d["rival_cards"][1].update(rival="haas-bioroid"), "rival_cards[1].rival", "duplicate"),
    (lambda d: d["rival_cards"][1].update(code="R-HB"), "rival_cards[1].code", "duplicate"),
    (lambda d: d["demand_cards"][0].update(threat=-1), "demand_cards[0].threat", "below_minimum"),
    (lambda d: d["demand_cards"][0]["targets"].update(food=1), "demand_cards[0].targets.food", "unknown_resource"),
    (lambda d: d["demand_cards"][0]["targets"].update(tech=-2), "demand_cards[0].targets.tech", "below_minimum"),
    (lambda d: d["demand_cards"].append(dict(d["demand_cards"][0])), "demand_cards[1].code", "duplicate"),
    (lambda d: d.update(assets=[{"code": "A1"}]), "assets[0].title", "missing_text"),
    (lambda d: d.update(events=[{"code": "E1", "title": "a"}, {"code": "E1", "title": "b"}]), "events[1].code",
     "duplicate"),
    (lambda d: d.update(investments={}), "investments", "not_list"),
]


@pytest.mark.parametrize("mutate, field, key", PROBLEMS)
def test_each_rule_of_the_pack_table(mutate, field, key):
    data = default_pack_data()
    mutate(data)
    with pytest.raises(PackError) as err:
        read_pack(data)
    assert (field, key) in [(p.field, p.key) for p in err.value.problems], err.value.problems


def test_a_pack_is_refused_as_a_whole_with_every_problem_listed():
    data = default_pack_data()
    for mutate, _, _ in PROBLEMS[:3] + PROBLEMS[25:28]:
        mutate(data)
    pack, problems = pack_problems(data)
    assert pack is None
    assert [p.field for p in problems] == ["format", "id", "title", "demand_cards[0].threat",
                                           "demand_cards[0].targets.tech", "demand_cards[0].targets.food"]
    assert str(problems[3]) == "pack: demand_cards[0].threat: must be at least 0, got -1"
    assert problems[3].params == {"minimum": 0, "value": -1} and problems[3].template


def test_the_pack_table_limits_in_numbers():
    """2 <= min <= max <= corporations; k(n) within 1..n-1; an empty demand card list is fine."""
    read_pack(pack_data(players_min=2, players_max=6, self_rival_beats={str(n): 1 for n in range(2, 7)}))
    data = pack_data()
    data["demand_cards"] = []
    assert read_pack(data).demand_cards == ()


def test_a_non_empty_card_list_makes_records_use_its_codes():
    data = pack_data()
    data["assets"] = [{"code": "A05", "title": "Clinic"}]
    game = make_game(read_pack(data))
    refused(game, deal("Anna", asset="Clinic"), "§1", "unknown_code")
    game.apply(deal("Anna", asset="A05"))


def test_not_an_object():
    assert [p.key for p in pack_problems([])[1]] == ["not_object"]

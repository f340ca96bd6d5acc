"""RULES.md §2 Setup: what the host enters, and every setup the rules refuse (``SetupError``,
whose line reads ``file: setup: …``, D38), with the RULES.md reference it breaks."""

import pytest

from facilitator.rules.newangeles import (Game, MalformedError, SetupError, default_pack, read_setup,
                                          table_standing)

from .helpers import make_game, make_pack, setup_data


def test_a_setup_reads_and_writes_back_exactly():
    data = setup_data(supply={"energy": 1, "tech": 0}, rivals={"Boris": "federalist"})
    data["setup"]["players"][0]["seat_colour"] = "red"  # an unknown key is kept
    data["setup"]["demand"] = {"code": "DX", "threat": 4, "targets": {"tech": 2}}
    setup = read_setup(data)
    assert setup.to_dict() == data
    assert setup.sealed_rivals() == {"Boris": "federalist"}


def test_the_host_enters_capital_threat_first_player_assets_demand_and_supply():
    game = make_game(capital={"Anna": 4, "Boris": 0, "Vera": 9, "Dmitri": 12}, threat=0, first="Dmitri",
                     assets=5, supply={"tech": 2})
    t = table_standing(game)
    assert [p["capital"] for p in t["players"]] == [4, 0, 9, 12]
    assert (t["threat"], t["first_player"], t["assets_left"]) == (0, "Dmitri", 5)
    assert t["supply"] == {"energy": 0, "entertainment": 0, "tech": 2, "consumables": 0, "materials": 0}
    assert t["next"] == {"expects": "deal", "active": "Dmitri", "deal": 1, "of": 5}


def test_supply_is_0_for_every_resource_unless_entered():
    assert set(table_standing(make_game())["supply"].values()) == {0}


def test_an_inline_demand_card_sets_targets_and_missing_resources_are_0():
    game = make_game(demand={"code": "DX", "threat": 4, "targets": {"tech": 2}})
    assert table_standing(game)["demand"] == {
        "card": "DX", "threat": 4,
        "targets": {"energy": 0, "entertainment": 0, "tech": 2, "consumables": 0, "materials": 0}}


@pytest.mark.parametrize("count", [4, 5, 6])
def test_four_to_six_players(count):
    names = ("Anna", "Boris", "Vera", "Dmitri", "Elena", "Fyodor")[:count]
    assert len(make_game(players=names).players) == count


def _with(**changes):
    data = setup_data()
    data["setup"].update(changes)
    return data


def _player(index, **changes):
    data = setup_data()
    data["setup"]["players"][index].update(changes)
    return data


# id, setup data, rule, code, message
REFUSED = [
    ("3 players", setup_data(players=("Anna", "Boris", "Vera")), "§2", "players_count",
     "3 players; the pack allows 4 to 6"),
    ("a name twice", _player(1, name="Anna"), "§2", "name_twice", "player name Anna is used twice"),
    ("unknown corporation", _player(2, corp="umbrella"), "D34", "unknown_corporation",
     "unknown corporation umbrella for Vera; the pack's corporations are haas-bioroid, jinteki, nbn, weyland, "
     "melange, globalsec"),
    ("a corporation twice", _player(3, corp="nbn"), "§2", "corporation_twice",
     "corporation nbn is played by Boris and Dmitri"),
    ("negative capital", _player(0, capital=-1), "D12", "capital_negative", "capital Anna is -1, below 0"),
    ("rival not in play", _player(0, rival="weyland"), "D14", "rival_not_in_play",
     "rival not in play: Anna's rival weyland"),
    ("rival repeated", setup_data(rivals={"Anna": "nbn", "Vera": "nbn"}), "D14", "rival_repeated",
     "rival repeated: nbn is dealt to two players"),
    ("first player not at the table", _with(first_player="Olga"), "§2", "first_player_unknown",
     "first player Olga is not at the table"),
    ("threat 25", _with(threat=25), "D12", "threat_range", "threat 25 must be 0 to 24"),
    ("threat -1", _with(threat=-1), "D12", "threat_range", "threat -1 must be 0 to 24"),
    ("no asset card for S1", _with(assets=0), "D2", "assets_below_1", "asset cards for S1 must be at least 1, got 0"),
    ("unknown demand code", _with(demand="DM9"), "D20", "unknown_demand", "unknown demand card DM9; the pack's are DM2"),
    ("inline demand with an unknown resource", _with(demand={"code": "DX", "threat": 1, "targets": {"food": 1}}),
     "§1", "unknown_resource",
     "unknown resource food in the demand card; the resources are energy, entertainment, tech, consumables, "
     "materials"),
    ("supply of an unknown resource", _with(supply={"food": 1}), "§1", "unknown_resource",
     "unknown resource food in supply; the resources are energy, entertainment, tech, consumables, materials"),
    ("negative supply", _with(supply={"tech": -2}), "§2", "supply_negative", "supply tech is -2, below 0"),
]


@pytest.mark.parametrize("data, rule, code, message", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_a_setup_breaking_the_rules_is_refused(data, rule, code, message):
    with pytest.raises(SetupError) as err:
        Game(default_pack(), read_setup(data))
    assert (err.value.rule, err.value.code, err.value.path) == (rule, code, "setup")
    assert err.value.message == message
    assert str(err.value) == f"setup: {message}"  # D38: "file: setup: …"


def test_threat_limit_and_player_counts_come_from_the_pack():
    pack = make_pack(threat_max=10, players_min=3, players_max=5, self_rival_beats={"3": 1, "4": 2, "5": 2})
    with pytest.raises(SetupError, match="threat 12 must be 0 to 9"):
        Game(pack, read_setup(setup_data()))
    Game(pack, read_setup(setup_data(players=("Anna", "Boris", "Vera"), threat=9)))


@pytest.mark.parametrize("mutate, path", [
    (lambda s: s.pop("first_player"), "setup.first_player"),
    (lambda s: s.update(threat="12"), "setup.threat"),
    (lambda s: s.update(players={}), "setup.players"),
    (lambda s: s["players"][1].pop("corp"), "setup.players[1].corp"),
    (lambda s: s["players"][2].update(capital=1.5), "setup.players[2].capital"),
    (lambda s: s.update(demand={"code": "DX", "threat": -1}), "setup.demand.threat"),
    (lambda s: s.update(supply={"tech": "two"}), "setup.supply.tech"),
    (lambda s: s["players"][0].update(name="A" * 61), "setup.players[0].name"),  # longer than a move may name
    (lambda s: s.update(first_player="A" * 61), "setup.first_player"),
])
def test_a_malformed_setup_names_the_field(mutate, path):
    data = setup_data()
    mutate(data["setup"])
    with pytest.raises(MalformedError) as err:
        read_setup(data)
    assert err.value.path == path

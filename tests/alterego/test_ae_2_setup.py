"""RULES.md 2: setup. 2 to ⌊actives / 3⌋ players in clockwise seating order with unique names,
3 distinct actives each, a first player at the table; the start position."""

import pytest

from facilitator.rules.alterego import (Game, SetupError, default_pack, propose_first, read_pack, read_setup,
                                        table_standing)
from facilitator.rules.alterego.setup import PlayerSetup, first_player_reason

from .helpers import AINO, BERTTA, CECILIA, pack_data, setup_data, three, two


def players(*rows):
    return [{"name": n, "actives": list(a), **({"born": b} if b else {})} for n, a, b in rows]


# id, setup data, path, code, params
SETUP_REFUSALS = [
    ("one player", {"players": players(("Aino", AINO, None)), "first": "Aino"},
     "players", "player_count", {"count": 1}),
    ("four players with 9 actives",
     {"players": players(("A", AINO, None), ("B", BERTTA, None), ("C", CECILIA, None), ("D", ("x", "y", "z"), None)),
      "first": "A"}, "players", "player_count_pack", {"high": 3, "count": 4}),
    ("a name used twice", {"players": players(("Aino", AINO, None), ("Aino", BERTTA, None)), "first": "Aino"},
     "players[1].name", "duplicate_name", {"name": "Aino"}),
    ("an empty name", {"players": players(("  ", AINO, None), ("Bertta", BERTTA, None)), "first": "Bertta"},
     "players[0].name", "name_missing", {}),
    ("a name longer than a move may name", {"players": players(("A" * 61, AINO, None), ("Bertta", BERTTA, None)),
                                            "first": "Bertta"}, "players[0].name", "name_invalid", {"limit": 60}),
    ("a name of two lines", {"players": players(("Aino\nBertta", AINO, None), ("Bertta", BERTTA, None)),
                             "first": "Bertta"}, "players[0].name", "name_invalid", {"limit": 60}),
    ("two actives", {"players": players(("Aino", ("pare", "ville"), None), ("Bertta", BERTTA, None)),
                     "first": "Aino"}, "players[0].actives", "actives_count", {"got": 2}),
    ("four actives", {"players": players(("Aino", AINO + ("jaakko",), None), ("Bertta", BERTTA, None)),
                      "first": "Aino"}, "players[0].actives", "actives_count", {"got": 4}),
    ("an active dealt twice", {"players": players(("Aino", AINO, None), ("Bertta", ("niksu", "pare", "tane"), None)),
                               "first": "Aino"}, "players[1].actives[1]", "active_taken", {"other": "Aino"}),
    ("an active repeated by one player",
     {"players": players(("Aino", ("pare", "pare", "ville"), None), ("Bertta", BERTTA, None)), "first": "Aino"},
     "players[0].actives[1]", "active_taken", {}),
    ("an active the pack lacks", {"players": players(("Aino", ("pare", "ville", "elvis"), None),
                                                     ("Bertta", BERTTA, None)), "first": "Aino"},
     "players[0].actives[2]", "active_unknown", {"active": "elvis"}),
    ("a first player not at the table", {"players": players(("Aino", AINO, None), ("Bertta", BERTTA, None)),
                                         "first": "Kalle"}, "first", "first_unknown", {"first": "Kalle"}),
    ("no first player", {"players": players(("Aino", AINO, None), ("Bertta", BERTTA, None))},
     "first", "first_missing", {}),
    ("a bad birth date", {"players": players(("Aino", AINO, "1991-13-02"), ("Bertta", BERTTA, None)),
                          "first": "Aino"}, "players[0].born", "born_invalid", {}),
    ("players not a list", {"players": {"Aino": AINO}, "first": "Aino"}, "players", "players_not_list", {}),
    ("a player not an object", {"players": ["Aino", "Bertta"], "first": "Aino"}, "players[0]",
     "player_not_object", {}),
]


@pytest.mark.parametrize("name, data, path, code, params", SETUP_REFUSALS, ids=[r[0] for r in SETUP_REFUSALS])
def test_a_setup_breaking_rules_2_is_refused(name, data, path, code, params):
    with pytest.raises(SetupError) as info:
        read_setup(data, pack=default_pack())
    err = info.value
    assert (err.path, err.code) == (path, code), str(err)
    for k, v in params.items():
        assert err.params[k] == v
    with pytest.raises(SetupError) as again:  # a game refuses the same setup, for the same reason
        Game(default_pack(), data)
    assert again.value.code == code


@pytest.mark.parametrize("count, ok", [(1, False), (2, True), (3, True), (4, False)])
def test_2_or_3_players_with_the_9_actives_of_the_3rd_edition(count, ok):
    deals = (AINO, BERTTA, CECILIA, ("x1", "x2", "x3"))
    data = setup_data(*deals[:count]) if count <= 3 else {
        "players": [{"name": f"P{i}", "actives": list(d)} for i, d in enumerate(deals)], "first": "P0"}
    if ok:
        assert len(read_setup(data, pack=default_pack()).players) == count
    else:
        with pytest.raises(SetupError):
            read_setup(data, pack=default_pack())


def test_a_pack_of_12_actives_seats_4_players():
    data = pack_data()
    extra = [dict(data["actives"][0], key=f"clone{i}", ability=None) for i in range(3)]
    data["actives"] += extra
    pack = read_pack(data)
    deals = (AINO, BERTTA, CECILIA, ("clone0", "clone1", "clone2"))
    setup = read_setup({"players": [{"name": f"P{i}", "actives": list(d)} for i, d in enumerate(deals)],
                        "first": "P2"}, pack=pack)
    assert Game(pack, setup).order == ("P2", "P3", "P0", "P1")


@pytest.mark.parametrize("first, order", [("Aino", ("Aino", "Bertta", "Cecilia")),
                                          ("Bertta", ("Bertta", "Cecilia", "Aino")),
                                          ("Cecilia", ("Cecilia", "Aino", "Bertta"))])
def test_turns_go_clockwise_from_the_first_player(first, order):
    game = three(first=first)
    assert game.order == order
    assert [p["name"] for p in table_standing(game)["players"]] == list(order)


@pytest.mark.parametrize("rows, proposed, reason", [
    ([("Aino", "1991-04-02"), ("Bertta", "1993-11-20")], "Aino", ("oldest", {"born": "1991-04-02"})),
    ([("Aino", "1993-11-20"), ("Bertta", "1991-04-02")], "Bertta", ("oldest", {"born": "1991-04-02"})),
    ([("Aino", "1991-04-02"), ("Bertta", "1991-04-02")], "Aino", ("oldest", {"born": "1991-04-02"})),  # tie: seat
    ([("Aino", None), ("Bertta", "2001-01-01")], "Bertta", ("oldest", {"born": "2001-01-01"})),  # no born: not first
    ([("Aino", None), ("Bertta", None)], "Aino", ("first_seat", {})),
])
def test_the_app_proposes_the_oldest_player_first_and_says_why(rows, proposed, reason):
    seats = [PlayerSetup(name=n, actives=a, born=b) for (n, b), a in zip(rows, (AINO, BERTTA))]
    assert propose_first(default_pack(), seats) == proposed
    as_dicts = [{"name": n, "actives": list(a), **({"born": b} if b else {})}
                for (n, b), a in zip(rows, (AINO, BERTTA))]
    assert propose_first(default_pack(), as_dicts) == proposed
    code, params = reason
    assert first_player_reason(seats) == (code, {"player": proposed, **params})


def test_the_start_position():
    """RULES.md 2.4: season 1, turn 1, every hand 5, every T 0, no activities, none away; the
    undealt actives form the active deck (in pack order)."""
    s = table_standing(two())
    assert (s["season"], s["season_key"], s["turn"], s["current"], s["step"]) == (1, "winter", 1, "Aino", "draw")
    assert [p["hand"] for p in s["players"]] == [5, 5]
    assert all(a["anxiety_temp"] == 0 and a["activities"] == [] and not a["away"] for a in s["actives"])
    assert s["active_deck"] == ["jaakko", "kalle", "tane"]
    assert s["next"] == {"player": "Aino", "expects": "draw"}
    assert three().active_deck == []


def test_a_setup_writes_back_exactly_the_keys_it_was_read_from():
    data = {"players": [{"name": "Aino", "born": "1991-04-02", "actives": ["pare", "ville", "meira"], "seat": 1},
                        {"name": "Bertta", "actives": ["niksu", "tommi", "imaami"]}], "first": "Bertta"}
    assert read_setup(data).to_dict() == data


def test_a_nested_setup_names_its_path():
    with pytest.raises(SetupError) as info:
        read_setup({"players": [], "first": "x"}, path="tables[2]")
    assert info.value.path == "tables[2].players"

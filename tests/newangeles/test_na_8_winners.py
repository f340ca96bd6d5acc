"""RULES.md §8 The end and the winners: each player against his rival card; several may win, at
least one loses (D18). Strict comparisons (D15, D16); the Federalist wins only by takeover with
at least federalist_capital (D17); an own card must beat k(n) others (D15).

Each row is played as a whole game (capital entered at setup, the game ended by a takeover or
after D3, then ``finish``) and also fed to ``decide`` directly.
"""

import pytest

from facilitator.rules.newangeles import decide, table_standing

from .helpers import ended_by_rounds, ended_by_threat, finish, make_game, make_pack

CORPS = {"Anna": "jinteki", "Boris": "nbn", "Vera": "globalsec", "Dmitri": "haas-bioroid", "Elena": "weyland",
         "Fyodor": "melange"}

# id, ended_by, {name: (capital, rival)}, pack rules, winners
OUTCOMES = [
    ("RECORD.md §6: Anna beats her rival Vera 31 > 30; Boris's own card beats only Dmitri", "rounds",
     {"Anna": (31, "globalsec"), "Boris": (30, "nbn"), "Vera": (30, "federalist"), "Dmitri": (18, "jinteki")},
     {}, ["Anna"]),
    ("RECORD.md §5: takeover, the Federalist Vera has 25 >= 25", "threat",
     {"Anna": (10, "nbn"), "Boris": (14, "haas-bioroid"), "Vera": (25, "federalist"), "Dmitri": (8, "jinteki")},
     {}, ["Vera"]),
    ("takeover with the Federalist at 24: everyone loses", "threat",
     {"Anna": (30, "nbn"), "Boris": (14, "haas-bioroid"), "Vera": (24, "federalist"), "Dmitri": (8, "jinteki")},
     {}, []),
    ("takeover without a Federalist dealt: everyone loses", "threat",
     {"Anna": (30, "nbn"), "Boris": (14, "haas-bioroid"), "Vera": (25, "globalsec"), "Dmitri": (8, "jinteki")},
     {}, []),
    ("equal capital with the rival loses (D16)", "rounds",
     {"Anna": (20, "nbn"), "Boris": (20, "jinteki"), "Vera": (5, "federalist"), "Dmitri": (3, "globalsec")},
     {}, []),
    ("several players win against their rivals", "rounds",
     {"Anna": (21, "nbn"), "Boris": (20, "jinteki"), "Vera": (15, "haas-bioroid"), "Dmitri": (3, "federalist")},
     {}, ["Anna", "Vera"]),
    ("the Federalist loses an end by rounds even with 40 capital (D17)", "rounds",
     {"Anna": (1, "nbn"), "Boris": (2, "jinteki"), "Vera": (40, "federalist"), "Dmitri": (3, "globalsec")},
     {}, ["Boris"]),
    ("own card, 4 players: beating exactly k(4) = 2 others strictly wins (9 = 9 does not count)", "rounds",
     {"Anna": (9, "jinteki"), "Boris": (9, "globalsec"), "Vera": (5, "federalist"), "Dmitri": (4, "nbn")},
     {}, ["Anna", "Boris"]),
    ("own card beating one other: lost with k(4) = 2 ...", "rounds",
     {"Anna": (6, "jinteki"), "Boris": (9, "globalsec"), "Vera": (5, "federalist"), "Dmitri": (8, "nbn")},
     {}, ["Boris"]),
    ("... and won with a pack's k(4) = 1 (D15: the pack fixes the mapping)", "rounds",
     {"Anna": (6, "jinteki"), "Boris": (9, "globalsec"), "Vera": (5, "federalist"), "Dmitri": (8, "nbn")},
     {"self_rival_beats": {"4": 1, "5": 2, "6": 3}}, ["Anna", "Boris"]),
    ("own cards, 5 players: k(5) = 2 beaten wins, 1 loses", "rounds",
     {"Anna": (8, "weyland"), "Boris": (3, "nbn"), "Vera": (2, "globalsec"), "Dmitri": (1, "federalist"),
      "Elena": (8, "jinteki")}, {}, ["Boris"]),
    ("own card, 6 players: beating 2 of k(6) = 3 loses", "rounds",
     {"Anna": (8, "jinteki"), "Boris": (8, "haas-bioroid"), "Vera": (9, "federalist"), "Dmitri": (1, "weyland"),
      "Elena": (2, "globalsec"), "Fyodor": (20, "nbn")}, {}, ["Boris", "Fyodor"]),
    ("own card, 6 players: beating 3 wins", "rounds",
     {"Anna": (9, "jinteki"), "Boris": (8, "haas-bioroid"), "Vera": (9, "federalist"), "Dmitri": (1, "weyland"),
      "Elena": (2, "globalsec"), "Fyodor": (20, "nbn")}, {}, ["Anna", "Boris", "Fyodor"]),
    ("a pack's federalist_capital 20 (D40)", "threat",
     {"Anna": (30, "nbn"), "Boris": (14, "haas-bioroid"), "Vera": (20, "federalist"), "Dmitri": (8, "jinteki")},
     {"federalist_capital": 20}, ["Vera"]),
]


@pytest.mark.parametrize("ended_by, players, rules, winners", [o[1:] for o in OUTCOMES], ids=[o[0] for o in OUTCOMES])
def test_who_wins(ended_by, players, rules, winners):
    pack = make_pack(**rules)
    names = tuple(players)
    game = make_game(pack, players=names, capital={n: c for n, (c, _) in players.items()}, threat=5)
    (ended_by_threat if ended_by == "threat" else ended_by_rounds)(game)
    assert [p.capital for p in game.players] == [c for c, _ in players.values()]  # nothing else moved capital
    game.apply(finish(**{n: r for n, (_, r) in players.items()}))
    t = table_standing(game)
    assert (t["ended_by"], t["winners"]) == (ended_by, winners)
    assert t["losers"] == [n for n in names if n not in winners]
    assert [p["result"] for p in t["players"]] == ["won" if n in winners else "lost" for n in names]
    direct = decide(ended_by, [(n, CORPS[n], c) for n, (c, _) in players.items()],
                    {n: r for n, (_, r) in players.items()}, pack.k(len(names)), pack.federalist_capital)
    assert [n for n, won in direct.items() if won] == winners


def test_rival_player_names_the_rivals_player_himself_for_his_own_card_none_for_the_federalist():
    game = ended_by_rounds(make_game())
    game.apply(finish(Anna="globalsec", Boris="nbn", Vera="federalist", Dmitri="jinteki"))
    assert [(p["rival"], p["rival_player"]) for p in table_standing(game)["players"]] == [
        ("globalsec", "Vera"), ("nbn", "Boris"), ("federalist", None), ("jinteki", "Anna")]


def test_at_least_one_player_loses_is_asserted_d18():
    """The assertion can fire: with k = 0 (a pack the reader refuses) every own card would win."""
    table = [("Anna", "jinteki", 5), ("Boris", "nbn", 5), ("Vera", "globalsec", 5), ("Dmitri", "haas-bioroid", 5)]
    own = {"Anna": "jinteki", "Boris": "nbn", "Vera": "globalsec", "Dmitri": "haas-bioroid"}
    with pytest.raises(AssertionError, match="D18"):
        decide("rounds", table, own, 0, 25)
    assert not any(decide("rounds", table, own, 1, 25).values())  # with k >= 1 the least capital loses

"""Game records of each of the three games, made by their own random-game simulators, with the
players renamed as a test asks (a name is replaced wherever the record holds it as a whole
JSON string: seats, moves, rivals), for the tests of every game's protocol files."""

import json
import random

from facilitator.rules import registry

LYCEUM, ALTER_EGO, NEW_ANGELES = "lyceum-16-25", "alter-ego-3", "new-angeles"
GAMES = (LYCEUM, ALTER_EGO, NEW_ANGELES)
#: how many players each game's record seats here
SEATS = {LYCEUM: 4, ALTER_EGO: 3, NEW_ANGELES: 4}


def _simulated(game, seed):
    """A finished random game of ``game`` as a record dict, and its players' names."""
    if game == LYCEUM:
        from facilitator.rules.lyceum.ruleset import sample_pack
        from facilitator.rules.lyceum.simulate import random_game
        record, _game = random_game(sample_pack(), seed=seed, players=SEATS[game], table="Стол 1")
        data = record.to_dict()
        return data, [p["name"] for p in data["players"]]
    if game == ALTER_EGO:
        from facilitator.rules.alterego.simulate import play_random
        record, _game = play_random(random.Random(seed), players=SEATS[game], max_moves=60, table="Pöytä 1")
        data = record.to_dict()
        return data, [p["name"] for p in data["players"]]
    from facilitator.rules.newangeles.simulate import random_game
    data = random_game(random.Random(seed), players=SEATS[game], end="rounds", table="Table 1").to_dict()
    return data, [p["name"] for p in data["setup"]["players"]]


def game_record(game, names=None, seed=1, table=None):
    """A finished record of ``game`` (a dict of its record format), its players named ``names``
    (in seating order) when given, its table named ``table`` when given."""
    data, old = _simulated(game, seed)
    text = json.dumps(data, ensure_ascii=False)
    for before, after in zip(old, names or old):
        text = text.replace(json.dumps(before, ensure_ascii=False), json.dumps(after, ensure_ascii=False))
    data = json.loads(text)
    if table is not None:
        data["table"] = table
    return data


def replayed(data):
    """The game a record leaves, replayed with its own ruleset."""
    rules = registry.of_record(data)
    return rules.replay(rules.read_record(data))


def names_of(data):
    players = data.get("players") or data["setup"]["players"]
    return [p["name"] for p in players]

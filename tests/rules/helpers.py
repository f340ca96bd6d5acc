"""Builders for tiny hand-made packs and games, so each rules test states the numbers it needs.

The default pack is deliberately small and flat:

* levels ``[0, 300, 600, 1000]``, no ``skill_max``;
* four characters ``C1``..``C4``, every skill at 2;
* per era (``L`` lyceum, ``U`` university, ``A`` adult) one green, one yellow and one red card:
  ``L-G`` gains intellect 1; ``L-Y`` loses energy 1, gains creativity 2;
  ``L-R`` needs intellect 5, gains health 2 and 2 free SP.

The default table is Аня, Борис, Вика (C1, C2, C3), each adding the 5 extra SP to health and
born the same day, so the turn order is the seating order. Tests that need other numbers pass
their own characters, cards, players or extra SP.
"""

from facilitator.rules.lyceum import Card, Game, Move, PlayerSetup, read_pack, standings
from facilitator.rules.lyceum.cards import Special
from facilitator.rules.lyceum.skills import SKILLS

LEVELS = (0, 300, 600, 1000)
ERA_PREFIX = {"lyceum": "L", "university": "U", "adult": "A"}
NAMES = ("Аня", "Борис", "Вика", "Гоша")
BORN = "2009-05-01"


def skills(**given):
    """A full five-skill map: ``skills(health=3)`` -> every other skill 0."""
    unknown = set(given) - set(SKILLS)
    assert not unknown, f"unknown skills {unknown}"
    return {s: given.get(s, 0) for s in SKILLS}


def flat(value, **overrides):
    """Every skill at ``value``, except the ones named."""
    return {s: overrides.get(s, value) for s in SKILLS}


def character(code, skill_map=None, name=None):
    return {"code": code, "name": name or f"Персонаж {code}", "direction": "тест",
            "skills": dict(skill_map if skill_map is not None else flat(2))}


def card_data(code, era, color, *, conditions=None, losses=None, gains=None, free=0,
              special=None, title=None):
    """One card as the pack's JSON has it."""
    return {"code": code, "era": era, "color": color, "title": title or f"Карта {code}",
            "text": "", "conditions": conditions or {}, "losses": losses or {},
            "gains": gains or {}, "free": free, "special": special}


def default_cards():
    out = []
    for era, prefix in ERA_PREFIX.items():
        out.append(card_data(f"{prefix}-G", era, "green", gains={"intellect": 1}))
        out.append(card_data(f"{prefix}-Y", era, "yellow", losses={"energy": 1},
                             gains={"creativity": 2}))
        out.append(card_data(f"{prefix}-R", era, "red", conditions={"intellect": 5},
                             gains={"health": 2}, free=2))
    return out


def pack_data(*, levels=LEVELS, characters=None, cards=(), skill_max=None, default=True):
    """A `lyceum-pack/1` object: the default cards plus ``cards`` (unless ``default=False``)."""
    chars = characters if characters is not None else [character(f"C{i}") for i in range(1, 5)]
    return {
        "format": "lyceum-pack/1", "id": "test-pack", "title": "Тестовая колода",
        "levels": list(levels), "skill_max": skill_max,
        "characters": chars,
        "cards": (default_cards() if default else []) + list(cards),
    }


def make_pack(**kw):
    """A validated ``ContentPack`` (through ``read_pack``, so a bad test pack fails loudly)."""
    return read_pack(pack_data(**kw))


def player(name, character_code, *, born=BORN, extra=None, declaration=None):
    return PlayerSetup(name=name, born=born, character=character_code,
                       extra=dict(extra if extra is not None else {"health": 5}),
                       declaration=declaration)


def default_players(count=3, **kw):
    return [player(NAMES[i], f"C{i + 1}", **kw) for i in range(count)]


def make_game(pack=None, players=None, count=3, table="Стол 1"):
    return Game(pack or make_pack(), players or default_players(count), table=table)


def hand_card(color, *, title="Карта от руки", conditions=None, losses=None, gains=None, free=0,
              special=None, era=None):
    """A hand-entered card object (no code), as a host types it in."""
    return Card(code=None, era=era, color=color, title=title, conditions=dict(conditions or {}),
                losses=dict(losses or {}), gains=dict(gains or {}), free=free,
                special=Special(**special) if special else None)


# ----- moves ----------------------------------------------------------------------------
def draw(name, code, decision="play", color=None, redistribute=None, pack=None):
    """A draw move; the colour is read off the code (``L-Y`` -> yellow) unless given."""
    if color is None:
        if isinstance(code, Card):
            color = code.color
        else:
            letter = code.split("-")[1][0]
            color = {"G": "green", "Y": "yellow", "R": "red"}[letter]
    return Move("draw", player=name, color=color, card=code, decision=decision,
                redistribute=redistribute)


def rest(name, redistribute=None):
    return Move("rest", player=name, redistribute=redistribute)


def share(name):
    return Move("share", player=name)


def pass_(name):
    return Move("pass", player=name)


def play_deferred(name, redistribute=None):
    return Move("play_deferred", player=name, redistribute=redistribute)


def allocate(name, **sp):
    return Move("allocate", player=name, sp=sp)


def adjust(name, xp=None, reason="спецспособность карты", **sp):
    return Move("adjust", player=name, xp=xp, sp=sp or None, reason=reason)


FINISH = Move("finish")


# ----- driving a game -------------------------------------------------------------------
def main_moves_made(game):
    return sum(1 for m in game.moves if m.is_main)


def next_slot(game):
    """(round, player) of the next main move, counted from the main moves made so far."""
    n = main_moves_made(game)
    count = len(game.order)
    return n // count + 1, game.order[n % count]


def allocate_all(game, skill="health"):
    """Allocate every pending free SP of every player to one skill."""
    for name, count in game.pending().items():
        game.apply(Move("allocate", player=name, sp={skill: count}))


def reach(game, round_no, name=None):
    """Pass (allocating pending SP to health on the way) until the next main move is
    ``name``'s in round ``round_no`` (the first player of that round when ``name`` is None)."""
    target = (round_no, name or game.order[0])
    slot = lambda r, n: (r, game.order.index(n))  # noqa: E731
    assert slot(*target) >= slot(*next_slot(game)), f"round {round_no}, {target[1]}'s turn is past"
    for _ in range(11 * len(game.order)):
        allocate_all(game)
        if next_slot(game) == target:
            return game
        game.apply(pass_(next_slot(game)[1]))
    raise AssertionError(f"cannot reach round {round_no}, {name}'s turn")


def reach_finish(game):
    """Pass every remaining turn of round 10 (allocating on the way): the game waits for finish."""
    while main_moves_made(game) < 10 * len(game.order):
        allocate_all(game)
        game.apply(pass_(next_slot(game)[1]))
    allocate_all(game)
    return game


def give(game, name, xp=None, **sp):
    """Put a player where a test needs them, with a host adjust (levels up as usual)."""
    game.apply(adjust(name, xp=xp, reason="подготовка теста", **sp))
    return game.players[name]


def state(game):
    """Everything the table shows: the standings object plus the move and history counts."""
    return standings([game]), len(game.moves), len(game.history)


def row(game, name):
    """The player's row in the standings."""
    for r in standings([game])["tables"][0]["players"]:
        if r["name"] == name:
            return r
    raise KeyError(name)


def set_skills(game, name, **values):
    """Set the named skills to the given values (a host adjust of the difference)."""
    p = game.players[name]
    deltas = {s: v - p.skills[s] for s, v in values.items() if v != p.skills[s]}
    if deltas:
        game.apply(adjust(name, reason="подготовка теста", **deltas))
    return p


def refused(game, move, rule, code):
    """Assert ``move`` is refused for RULES.md section ``rule`` with this ``code``, and that the
    refusal changed nothing; return the error for the test to check its numbers."""
    import pytest

    from facilitator.rules import IllegalMoveError

    before = state(game)
    with pytest.raises(IllegalMoveError) as err:
        game.apply(move)
    assert (err.value.rule, err.value.code) == (rule, code), err.value.message
    assert state(game) == before
    return err.value

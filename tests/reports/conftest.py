"""A small hand-made game whose every number is worked out here, for the protocol tests.

The pack is tiny and lives in the record (so the numbers never move when the sample pack
changes): levels begin at 0 / 200 / 400 / 700 / 1000 XP.

Setup (seating order Аня, Борис, Вика); ``START`` lists the start skills (base + extra SP).

Аня and Борис both start with energy 6; Борис is younger (born 2009-06-01 against Аня's
2009-03-14), so he goes first and the turn order is Борис → Вика → Аня (RULES.md 2.4).

The game, round by round (XP after the round in brackets: Борис / Вика / Аня):

1. Борис plays green L-G-01 (+100). Вика draws red L-R-02 (needs creativity 9, she has 8):
   deferred, playable until round 4. Аня plays red L-R-01 (+500 -> level 3: levels 2 and 3,
   4 SP, plus the card's 1 free SP) and allocates the 5 SP.          (100 / 0 / 500)
2. Борис rests, moving 1 SP from health to creativity, and allocates the rest's SP. Вика
   passes. Аня plays green L-G-01 (+100).                             (100 / 0 / 600)
3. Борис plays yellow L-Y-01 (+200 -> 300, level 2: 2 SP). Вика passes. Аня shares:
   30% of 600 = 180 -> 200 to each other player: Борис 500 (level 3: 2 SP), Вика 200
   (level 2: 2 SP, she puts 1 into creativity: 9).                    (500 / 200 / 600)
4. Борис plays green U-G-01 (+100). Вика passes, then plays her deferred L-R-02 (+500 ->
   700, level 4: levels 3 and 4, 4 SP); its special gives every other player +1 health,
   which the host enters as two corrections. Аня draws red U-R-01 (needs intellect 12, she
   has 11): deferred, playable until round 7.                         (600 / 700 / 600)
5.–7. Everybody passes; Аня's U-R-01 expires when her turn in round 7 ends.
8. Борис plays green A-G-01 (+100 -> 700, level 4: 2 SP). The others pass.
9. Everybody passes.
10. Борис and Вика pass; Аня plays yellow A-Y-01 (+200 -> 800, level 4: 2 SP). The host
    finishes.

Final: Аня 800 XP, her future image (35) is met -> +300 = 1100, place 1;
Борис 700 XP, his image (40) misses on creativity (6 < 9) -> 700; Вика 700 XP, no image ->
700. Борис and Вика share place 2. Table total 2500, average 833.3.
"""

import copy
import json

import pytest

from facilitator.rules.lyceum import read_record

from facilitator.rules.lyceum import replay

PACK = {
    "format": "lyceum-pack/1",
    "id": "protocol-test",
    "title": "Колода для тестов протокола",
    "levels": [0, 200, 400, 700, 1000],
    "skill_max": None,
    "characters": [
        {"code": "K1", "name": "Маша", "direction": "Математика",
         "skills": {"health": 4, "intellect": 6, "creativity": 3, "communication": 3, "energy": 4}},
        {"code": "K2", "name": "Дима", "direction": "Физика",
         "skills": {"health": 5, "intellect": 4, "creativity": 4, "communication": 3, "energy": 3}},
        {"code": "K3", "name": "Соня", "direction": "Дизайн",
         "skills": {"health": 3, "intellect": 3, "creativity": 6, "communication": 4, "energy": 2}},
        {"code": "K4", "name": "Ваня", "direction": "Естественные науки",
         "skills": {"health": 3, "intellect": 3, "creativity": 3, "communication": 3, "energy": 3}},
    ],
    "cards": [
        {"code": "L-G-01", "era": "lyceum", "color": "green", "title": "Школьная олимпиада", "text": "",
         "conditions": {"intellect": 4}, "losses": {}, "gains": {"intellect": 1}, "free": 0, "special": None},
        {"code": "L-Y-01", "era": "lyceum", "color": "yellow", "title": "Театральная студия", "text": "",
         "conditions": {"creativity": 4}, "losses": {"energy": 1}, "gains": {"creativity": 1, "communication": 1},
         "free": 0, "special": None},
        {"code": "L-R-01", "era": "lyceum", "color": "red", "title": "Всероссийская олимпиада", "text": "",
         "conditions": {"intellect": 8}, "losses": {"energy": 1}, "gains": {"intellect": 2}, "free": 1,
         "special": None},
        {"code": "L-R-02", "era": "lyceum", "color": "red", "title": "Благотворительный концерт", "text": "",
         "conditions": {"creativity": 9}, "losses": {"energy": 2}, "gains": {"creativity": 2}, "free": 0,
         "special": {"text": "Каждый другой игрок получает +1 SP здоровья"}},
        {"code": "U-G-01", "era": "university", "color": "green", "title": "Первая сессия", "text": "",
         "conditions": {"intellect": 3}, "losses": {}, "gains": {"intellect": 1}, "free": 0, "special": None},
        {"code": "U-R-01", "era": "university", "color": "red", "title": "Стажировка за рубежом", "text": "",
         "conditions": {"intellect": 12}, "losses": {}, "gains": {"intellect": 2}, "free": 0, "special": None},
        {"code": "A-G-01", "era": "adult", "color": "green", "title": "Первая работа", "text": "",
         "conditions": {}, "losses": {}, "gains": {"communication": 1}, "free": 0, "special": None},
        {"code": "A-Y-01", "era": "adult", "color": "yellow", "title": "Велопутешествие", "text": "",
         "conditions": {}, "losses": {"energy": 1}, "gains": {"health": 2}, "free": 0, "special": None},
    ],
}

PLAYERS = [
    # start: health 5, intellect 8, creativity 3, communication 3, energy 6
    {"name": "Аня", "born": "2009-03-14", "character": "K1", "extra": {"health": 1, "intellect": 2, "energy": 2},
     "declaration": {"health": 10, "intellect": 11, "creativity": 4, "communication": 6, "energy": 4}},
    # start: health 7, intellect 4, creativity 4, communication 3, energy 6
    {"name": "Борис", "born": "2009-06-01", "character": "K2", "extra": {"health": 2, "energy": 3},
     "declaration": {"health": 9, "intellect": 8, "creativity": 9, "communication": 5, "energy": 9}},
    # start: health 3, intellect 3, creativity 8, communication 7, energy 2
    {"name": "Вика", "born": "2009-01-10", "character": "K3", "extra": {"creativity": 2, "communication": 3},
     "declaration": None},
]

START = {
    "Аня": {"health": 5, "intellect": 8, "creativity": 3, "communication": 3, "energy": 6},
    "Борис": {"health": 7, "intellect": 4, "creativity": 4, "communication": 3, "energy": 6},
    "Вика": {"health": 3, "intellect": 3, "creativity": 8, "communication": 7, "energy": 2},
}


def _draw(player, color, card, decision):
    return {"type": "draw", "player": player, "color": color, "card": card, "decision": decision}


def _pass(player):
    return {"type": "pass", "player": player}


MOVES = [
    # round 1
    _draw("Борис", "green", "L-G-01", "play"),                       # 1: Борис 100 XP, intellect 5
    _draw("Вика", "red", "L-R-02", "defer"),                         # 2: deferred until round 4
    _draw("Аня", "red", "L-R-01", "play"),                           # 3: Аня 500 XP, level 3, 5 SP pending
    {"type": "allocate", "player": "Аня", "sp": {"health": 2, "creativity": 1, "communication": 2}},  # 4
    # round 2
    {"type": "rest", "player": "Борис", "redistribute": {"health": -1, "creativity": 1}},  # 5
    {"type": "allocate", "player": "Борис", "sp": {"energy": 1}},                          # 6
    _pass("Вика"),                                                   # 7
    _draw("Аня", "green", "L-G-01", "play"),                         # 8: Аня 600 XP
    # round 3
    _draw("Борис", "yellow", "L-Y-01", "play"),                      # 9: Борис 300 XP, level 2
    {"type": "allocate", "player": "Борис", "sp": {"health": 2}},    # 10
    _pass("Вика"),                                                   # 11
    {"type": "share", "player": "Аня"},                              # 12: +200 to Борис and Вика
    {"type": "allocate", "player": "Борис", "sp": {"intellect": 2}},                   # 13
    {"type": "allocate", "player": "Вика", "sp": {"creativity": 1, "health": 1}},      # 14
    {"type": "allocate", "player": "Аня", "sp": {"energy": 1}},                        # 15
    # round 4
    _draw("Борис", "green", "U-G-01", "play"),                       # 16: Борис 600 XP
    _pass("Вика"),                                                   # 17
    {"type": "play_deferred", "player": "Вика"},                     # 18: Вика 700 XP, level 4
    {"type": "allocate", "player": "Вика", "sp": {"energy": 2, "communication": 2}},   # 19
    {"type": "adjust", "player": "Борис", "sp": {"health": 1}, "reason": "спецвозможность L-R-02"},  # 20
    {"type": "adjust", "player": "Аня", "sp": {"health": 1}, "reason": "спецвозможность L-R-02"},    # 21
    _draw("Аня", "red", "U-R-01", "defer"),                          # 22: deferred until round 7
    # rounds 5-7
    _pass("Борис"), _pass("Вика"), _pass("Аня"),                     # 23-25
    _pass("Борис"), _pass("Вика"), _pass("Аня"),                     # 26-28
    _pass("Борис"), _pass("Вика"), _pass("Аня"),                     # 29-31
    # round 8 (Аня's U-R-01 expired when her round-7 turn ended)
    _draw("Борис", "green", "A-G-01", "play"),                       # 32: Борис 700 XP, level 4
    {"type": "allocate", "player": "Борис", "sp": {"energy": 2}},    # 33
    _pass("Вика"), _pass("Аня"),                                     # 34-35
    # round 9
    _pass("Борис"), _pass("Вика"), _pass("Аня"),                     # 36-38
    # round 10
    _pass("Борис"), _pass("Вика"),                                   # 39-40
    _draw("Аня", "yellow", "A-Y-01", "play"),                        # 41: Аня 800 XP, level 4
    {"type": "allocate", "player": "Аня", "sp": {"creativity": 2}},  # 42
    {"type": "finish"},                                              # 43
]

#: XP after each round, as worked out in the module docstring (turn order Борис, Вика, Аня)
XP_AFTER_ROUND = {
    "Борис": [100, 100, 500, 600, 600, 600, 600, 700, 700, 700],
    "Вика": [0, 0, 200, 700, 700, 700, 700, 700, 700, 700],
    "Аня": [500, 600, 600, 600, 600, 600, 600, 600, 600, 800],
}
LEVEL_AFTER_ROUND = {
    "Борис": [1, 1, 3, 3, 3, 3, 3, 4, 4, 4],
    "Вика": [1, 1, 2, 4, 4, 4, 4, 4, 4, 4],
    "Аня": [3, 3, 3, 3, 3, 3, 3, 3, 3, 4],
}
FINAL_SKILLS = {
    "Аня": {"health": 10, "intellect": 11, "creativity": 6, "communication": 6, "energy": 4},
    "Борис": {"health": 9, "intellect": 8, "creativity": 6, "communication": 5, "energy": 9},
    "Вика": {"health": 4, "intellect": 3, "creativity": 11, "communication": 9, "energy": 2},
}


def record_data(table="Стол 1", moves=None, players=None):
    """The hand-made game as a `lyceum-record/1` object (a fresh copy each time)."""
    return {"format": "lyceum-record/1", "table": table, "content": copy.deepcopy(PACK),
            "players": copy.deepcopy(players if players is not None else PLAYERS),
            "moves": copy.deepcopy(MOVES if moves is None else moves)}


def game_of(data):
    return replay(read_record(data))


def write_record_file(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def game():
    """The finished hand-made game."""
    return game_of(record_data())


@pytest.fixture(scope="session")
def midgame():
    """The same game stopped after round 4 (22 moves): provisional."""
    return game_of(record_data(moves=MOVES[:22]))

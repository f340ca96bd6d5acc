"""``facilitator replay RECORD.json [...] [--json]`` (RECORD.md 3): the standings of one table or
of an event, as a Russian table or as `lyceum-standings/1` JSON; a record that is malformed or
breaks a rule exits 2 with nothing on stdout and one line on stderr naming the file and why.

The records are written by hand here, so every number in the expected output can be checked
against RULES.md by reading this file. A few tests run the real ``python -m facilitator``;
the rest call ``facilitator.cli.main`` directly, which is the same code and much faster.
"""

import copy
import json
import os
import re
import subprocess
import sys

import pytest

from facilitator.cli import main
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum import SKILLS, write_record
from facilitator.rules.lyceum.simulate import random_game

PACK = {
    "format": "lyceum-pack/1", "id": "cli-test", "title": "Колода для проверки CLI",
    "levels": [0, 300, 600, 1000], "skill_max": None,
    "characters": [
        {"code": "C1", "name": "Маша", "direction": "Математика",
         "skills": {"health": 3, "intellect": 3, "creativity": 2, "communication": 2, "energy": 3}},
        {"code": "C2", "name": "Дима", "direction": "Физика",
         "skills": {"health": 4, "intellect": 5, "creativity": 3, "communication": 1, "energy": 5}},
        {"code": "C3", "name": "Лиза", "direction": "Дизайн",
         "skills": {"health": 2, "intellect": 2, "creativity": 6, "communication": 3, "energy": 4}},
        {"code": "C4", "name": "Артём", "direction": "Право",
         "skills": {"health": 3, "intellect": 4, "creativity": 2, "communication": 5, "energy": 2}},
    ],
    "cards": [
        {"code": "L-G-01", "era": "lyceum", "color": "green", "title": "Олимпиада", "text": "",
         "conditions": {"intellect": 3}, "losses": {}, "gains": {"intellect": 1}, "free": 0,
         "special": None},
        {"code": "L-R-01", "era": "lyceum", "color": "red", "title": "Научная конференция", "text": "",
         "conditions": {"intellect": 5}, "losses": {"energy": 1}, "gains": {"intellect": 2}, "free": 2,
         "special": None},
    ],
}

# Energy 3, 5, 4, 2 after the extra SP: Борис goes first, then clockwise Вика, Гоша, Аня.
PLAYERS = [
    {"name": "Аня", "born": "2009-03-14", "character": "C1", "extra": {"health": 5}},
    {"name": "Борис", "born": "2008-12-01", "character": "C2", "extra": {"health": 5}, "declaration": None},
    {"name": "Вика", "born": "2009-07-30", "character": "C3", "extra": {"health": 5},
     "declaration": {"intellect": 20, "creativity": 15}},
    {"name": "Гоша", "born": "2010-01-02", "character": "C4", "extra": {"communication": 5},
     "declaration": {"health": 5, "intellect": 5, "creativity": 5, "communication": 10, "energy": 10}},
]

# Round 1, then the host's adjusts: Гоша 300 XP + 300 bonus, Борис 500, Вика 500, Аня 0.
MOVES = [
    {"type": "draw", "player": "Борис", "color": "green", "card": "L-G-01", "decision": "play"},
    {"type": "rest", "player": "Вика"},
    {"type": "allocate", "player": "Вика", "sp": {"creativity": 1}},
    {"type": "pass", "player": "Гоша"},
    {"type": "draw", "player": "Аня", "color": "red", "card": "L-R-01", "decision": "defer"},
    {"type": "adjust", "player": "Борис", "xp": 400, "reason": "спецспособность"},
    {"type": "allocate", "player": "Борис", "sp": {"health": 1, "energy": 1}},
    {"type": "adjust", "player": "Вика", "xp": 500, "reason": "спецспособность"},
    {"type": "allocate", "player": "Вика", "sp": {"intellect": 2}},
    {"type": "adjust", "player": "Гоша", "xp": 300, "reason": "подготовка к зачёту",
     "sp": {"health": 2, "intellect": 1, "creativity": 3, "energy": 8}},
    {"type": "allocate", "player": "Гоша", "sp": {"communication": 2}},
]


def table1():
    return {"format": "lyceum-record/1", "table": "Стол 1", "content": copy.deepcopy(PACK),
            "players": copy.deepcopy(PLAYERS), "moves": copy.deepcopy(MOVES)}


def table2():
    """Three players, only adjusts: Борис 700, Вика 600 (her 4 level-up SP still pending)."""
    return {"format": "lyceum-record/1", "table": "Стол 2", "content": copy.deepcopy(PACK),
            "players": copy.deepcopy(PLAYERS[:3]),
            "moves": [{"type": "adjust", "player": "Борис", "xp": 700, "reason": "бонус"},
                      {"type": "allocate", "player": "Борис", "sp": {"energy": 4}},
                      {"type": "adjust", "player": "Вика", "xp": 600, "reason": "бонус"}]}


def skills(health, intellect, creativity, communication, energy):
    return {"health": health, "intellect": intellect, "creativity": creativity,
            "communication": communication, "energy": energy}


def row(name, character, xp, level, skill_map, place, *, deferred=None, declared=None, met=False, bonus=0,
        pending=0):
    return {"name": name, "character": character, "xp": xp, "level": level, "skills": skill_map,
            "pending_sp": pending, "deferred": deferred, "shared": False, "declared": declared,
            "declaration_met": met, "bonus": bonus, "final_xp": xp + bonus, "place": place}


TABLE1 = {
    "table": "Стол 1", "finished": False, "round": 1, "era": "lyceum",
    "next": {"player": "Борис", "expects": "main"},
    "players": [
        row("Борис", "C2", 500, 2, skills(10, 6, 3, 1, 6), 2),
        row("Вика", "C3", 500, 2, skills(7, 4, 7, 3, 5), 2, declared=35),
        row("Гоша", "C4", 300, 2, skills(5, 5, 5, 12, 10), 1, declared=35, met=True, bonus=300),
        row("Аня", "C1", 0, 1, skills(8, 3, 2, 2, 3), 4,
            deferred={"card": "L-R-01", "round": 1, "expires_after_round": 4}),
    ],
    "total_xp": 1600, "average_xp": 400.0,
}

TABLE2 = {
    "table": "Стол 2", "finished": False, "round": 1, "era": "lyceum",
    "next": {"player": "Вика", "expects": "allocate"},
    "players": [
        row("Борис", "C2", 700, 3, skills(9, 5, 3, 1, 9), 1),
        row("Вика", "C3", 600, 3, skills(7, 2, 6, 3, 4), 2, declared=35, pending=4),
        row("Аня", "C1", 0, 1, skills(8, 3, 2, 2, 3), 3),
    ],
    "total_xp": 1300, "average_xp": 1300 / 3,
}

STANDINGS_KEYS = {"format", "tables", "teams", "individuals"}
TABLE_KEYS = {"table", "finished", "round", "era", "next", "players", "total_xp", "average_xp"}
PLAYER_KEYS = {"name", "character", "xp", "level", "skills", "pending_sp", "deferred", "shared",
               "declared", "declaration_met", "bonus", "final_xp", "place"}
TEAM_KEYS = {"table", "players", "total_xp", "average_xp", "ranked_by", "place"}
INDIVIDUAL_KEYS = {"table", "name", "final_xp", "place"}


def save(folder, name, data):
    path = folder / name
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=1)
    path.write_text(text, encoding="utf-8")
    return str(path)


def call(capsys, *args):
    """``facilitator.cli.main`` as the console script runs it: (status, stdout, stderr)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def run(*args, cwd=None):
    """The real command in a subprocess: ``python -m facilitator ...``."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "facilitator", *args], capture_output=True,
                          text=True, encoding="utf-8", env=env, cwd=cwd, timeout=60)
    return done.returncode, done.stdout, done.stderr


def in_place_order(rows):
    """Rows sorted by place; the order within a shared place is not specified."""
    return sorted(rows, key=lambda r: (r["place"], r["table"], r.get("name", "")))


# ----- --json: lyceum-standings/1 ---------------------------------------------------------
def test_json_of_one_table_is_exactly_the_standings(tmp_path, capsys):
    status, out, err = call(capsys, "replay", save(tmp_path, "stol1.json", table1()), "--json")
    assert (status, err) == (0, "")
    result = json.loads(out)
    individuals = result.pop("individuals")
    assert result == {
        "format": "lyceum-standings/1",
        "tables": [TABLE1],
        "teams": [{"table": "Стол 1", "players": 4, "total_xp": 1600, "average_xp": 400.0,
                   "ranked_by": "total", "place": 1}],
    }
    assert in_place_order(individuals) == in_place_order([
        {"table": "Стол 1", "name": "Гоша", "final_xp": 600, "place": 1},
        {"table": "Стол 1", "name": "Борис", "final_xp": 500, "place": 2},
        {"table": "Стол 1", "name": "Вика", "final_xp": 500, "place": 2},
        {"table": "Стол 1", "name": "Аня", "final_xp": 0, "place": 4},
    ])
    assert [r["place"] for r in individuals] == [1, 2, 2, 4]


def test_tables_of_different_sizes_are_ranked_by_average(tmp_path, capsys):
    """Стол 1 has the larger total (1600 > 1300) but Стол 2 the larger average (433.3 > 400)."""
    paths = [save(tmp_path, "stol1.json", table1()), save(tmp_path, "stol2.json", table2())]
    status, out, err = call(capsys, "replay", *paths, "--json")
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["tables"] == [TABLE1, TABLE2]
    assert result["teams"] == [
        {"table": "Стол 2", "players": 3, "total_xp": 1300, "average_xp": 1300 / 3,
         "ranked_by": "average", "place": 1},
        {"table": "Стол 1", "players": 4, "total_xp": 1600, "average_xp": 400.0,
         "ranked_by": "average", "place": 2},
    ]
    assert in_place_order(result["individuals"]) == in_place_order([
        {"table": "Стол 2", "name": "Борис", "final_xp": 700, "place": 1},
        {"table": "Стол 1", "name": "Гоша", "final_xp": 600, "place": 2},
        {"table": "Стол 2", "name": "Вика", "final_xp": 600, "place": 2},
        {"table": "Стол 1", "name": "Борис", "final_xp": 500, "place": 4},
        {"table": "Стол 1", "name": "Вика", "final_xp": 500, "place": 4},
        {"table": "Стол 1", "name": "Аня", "final_xp": 0, "place": 6},
        {"table": "Стол 2", "name": "Аня", "final_xp": 0, "place": 6},
    ])
    assert [r["place"] for r in result["individuals"]] == [1, 2, 2, 4, 4, 6, 6]


def test_tables_of_equal_size_are_ranked_by_total_and_ties_share_the_place(tmp_path, capsys):
    twin = dict(table1(), table="Стол 4")
    small = dict(table2(), players=copy.deepcopy(PLAYERS), table="Стол 5")  # 4 players, total 1300
    paths = [save(tmp_path, f"{i}.json", t) for i, t in enumerate((table1(), twin, small))]
    status, out, _ = call(capsys, "replay", *paths, "--json")
    assert status == 0
    teams = json.loads(out)["teams"]
    assert [(t["table"] in ("Стол 1", "Стол 4"), t["total_xp"], t["place"]) for t in teams] == [
        (True, 1600, 1), (True, 1600, 1), (False, 1300, 3)]
    assert {t["ranked_by"] for t in teams} == {"total"}


def test_json_has_every_key_of_the_format_and_all_five_skills(tmp_path, capsys):
    """A real game (simulated on the sample pack, finished) and a game in progress."""
    finished, game = random_game(sample_pack(), seed=7, players=4, table="Финал")
    unfinished, _ = random_game(sample_pack(), seed=8, players=3, finish=False, table="Полуфинал")
    paths = [save(tmp_path, "a.json", write_record(finished)),
             save(tmp_path, "b.json", write_record(unfinished))]
    status, out, _ = call(capsys, "replay", *paths, "--json")
    assert status == 0
    result = json.loads(out)
    assert set(result) == STANDINGS_KEYS and result["format"] == "lyceum-standings/1"
    for table in result["tables"]:
        assert set(table) == TABLE_KEYS
        for player in table["players"]:
            assert set(player) == PLAYER_KEYS
            assert list(player["skills"]) == list(SKILLS)
    assert all(set(t) == TEAM_KEYS for t in result["teams"])
    assert all(set(i) == INDIVIDUAL_KEYS for i in result["individuals"])
    done, going = result["tables"]
    assert (done["finished"], done["round"], done["era"], done["next"]) == (True, 10, "adult", None)
    assert [p["name"] for p in done["players"]] == game.order
    assert going["finished"] is False and going["next"] == {"player": None, "expects": "finish"}
    assert {t["ranked_by"] for t in result["teams"]} == {"average"}


# ----- the Russian table ------------------------------------------------------------------
def table_rows(text, header):
    """The rows (split on whitespace) of the plain-text table whose header starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        cells = line.split()
        if not cells or not cells[0].isdigit():  # a table's rows start with the place
            break
        rows.append(cells)
    return rows


def test_one_table_in_russian(tmp_path, capsys):
    status, out, err = call(capsys, "replay", save(tmp_path, "stol1.json", table1()))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Стол 1: раунд 1, эпоха «Лицей», идёт игра, результаты предварительные"
    assert lines[1].split() == ["Место", "Игрок", "Персонаж", "Опыт", "Ур.", "Здр", "Инт", "Тв", "Ком",
                                "Эн", "Образ", "Бонус", "Итого"]
    assert table_rows(out, "Место  Игрок  Персонаж") == [
        ["1", "Гоша", "C4", "300", "2", "5", "5", "5", "12", "10", "35", "да", "300", "600"],
        ["2", "Борис", "C2", "500", "2", "10", "6", "3", "1", "6", "—", "0", "500"],
        ["2", "Вика", "C3", "500", "2", "7", "4", "7", "3", "5", "35", "нет", "0", "500"],
        ["4", "Аня", "C1", "0", "1", "8", "3", "2", "2", "3", "—", "0", "0"],
    ]
    assert "Сумма опыта стола: 1600, в среднем на игрока: 400.0" in lines
    assert "Командный зачёт" not in out and "Личный зачёт" not in out


def test_an_event_in_russian_has_team_and_individual_rankings(tmp_path, capsys):
    paths = [save(tmp_path, "stol1.json", table1()), save(tmp_path, "stol2.json", table2())]
    status, out, err = call(capsys, "replay", *paths)
    assert (status, err) == (0, "")
    assert "Стол 2: раунд 1, эпоха «Лицей», идёт игра, результаты предварительные" in out
    assert "Командный зачёт, по среднему опыту на игрока (за столами разное число игроков):" in out
    assert [r[:3] for r in table_rows(out, "Место  Стол")] == [["1", "Стол", "2"], ["2", "Стол", "1"]]
    individuals = table_rows(out, "Место  Игрок  Стол")
    assert [r[0] for r in individuals] == ["1", "2", "2", "4", "4", "6", "6"]
    assert individuals[0] == ["1", "Борис", "Стол", "2", "700"]


def test_an_event_of_equal_tables_says_it_ranks_by_total(tmp_path, capsys):
    paths = [save(tmp_path, "1.json", table1()), save(tmp_path, "4.json", dict(table1(), table="Стол 4"))]
    status, out, _ = call(capsys, "replay", *paths)
    assert status == 0
    assert "Командный зачёт, по сумме опыта (за всеми столами поровну игроков):" in out


def test_a_finished_game_says_so(tmp_path, capsys):
    record, _ = random_game(sample_pack(), seed=3, players=4, table="Стол 7")
    status, out, _ = call(capsys, "replay", save(tmp_path, "stol7.json", write_record(record)))
    assert status == 0
    assert out.splitlines()[0] == "Стол 7: раунд 10, эпоха «Взрослая жизнь», игра окончена"


def test_the_real_command_prints_the_table_and_the_json(tmp_path):
    path = save(tmp_path, "stol1.json", table1())
    status, out, err = run("replay", path)
    assert (status, err) == (0, "")
    assert out.startswith("Стол 1: раунд 1, эпоха «Лицей»")
    status, out, err = run("replay", path, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["tables"] == [TABLE1]


# ----- records that break a rule ----------------------------------------------------------
def moves_then(count, *more):
    """The first ``count`` moves of Стол 1, then ``more``."""
    return copy.deepcopy(MOVES[:count]) + list(more)


ILLEGAL = [
    # (what, moves, the error line after "<path>: ", numbers the reason must contain)
    ("draw played without being eligible",
     moves_then(4, {"type": "draw", "player": "Аня", "color": "red", "card": "L-R-01", "decision": "play"}),
     "move 5 (draw by Аня): not eligible: intellect 3 < 5", ()),
    ("not eligible later in the record",
     moves_then(11, {"type": "pass", "player": "Борис"}, {"type": "pass", "player": "Вика"},
                {"type": "pass", "player": "Гоша"},
                {"type": "draw", "player": "Аня", "color": "red", "card": "L-R-01", "decision": "play"}),
     "move 15 (draw by Аня): not eligible: intellect 3 < 5", ()),
    ("a main move out of turn", moves_then(4, {"type": "pass", "player": "Борис"}),
     "move 5 (pass by Борис): ", ("Аня", "1")),
    ("a main move while free SP are pending", moves_then(2, {"type": "pass", "player": "Гоша"}),
     "move 3 (pass by Гоша): ", ("Вика", "1")),
    ("allocating more than pending",
     moves_then(2, {"type": "allocate", "player": "Вика", "sp": {"health": 2}}),
     "move 3 (allocate by Вика): ", ("1", "2")),
    ("sharing below level 3", [{"type": "share", "player": "Борис"}],
     "move 1 (share by Борис): ", ("3", "1")),
    ("finishing in round 1", moves_then(1, {"type": "finish"}), "move 2 (finish): ", ("10",)),
]


@pytest.mark.parametrize("what, moves, line, numbers", ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_a_record_breaking_a_rule_exits_2_with_one_line(tmp_path, capsys, what, moves, line, numbers):
    path = save(tmp_path, "stol3.json", dict(table1(), moves=moves))
    status, out, err = call(capsys, "replay", path, "--json")
    assert (status, out) == (2, "")
    assert err.endswith("\n") and len(err.splitlines()) == 1
    assert err.startswith(f"{path}: {line}")
    reason = err[len(f"{path}: {line}"):]
    for number in numbers:
        assert re.search(rf"(?<!\d){number}(?!\d)", reason), f"{number} is not in {err!r}"


def test_the_real_command_names_the_file_as_given(tmp_path):
    bad = dict(table1(), moves=ILLEGAL[0][1])
    save(tmp_path, "stol3.json", bad)
    status, out, err = run("replay", "stol3.json", cwd=tmp_path)
    assert (status, out) == (2, "")
    assert err == "stol3.json: move 5 (draw by Аня): not eligible: intellect 3 < 5\n"


def test_a_setup_breaking_the_rules_exits_2(tmp_path, capsys):
    data = table1()
    data["players"][1]["character"] = "C1"
    path = save(tmp_path, "stol1.json", data)
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}: players[1].character: ")


def test_one_bad_table_of_an_event_refuses_the_event(tmp_path, capsys):
    good = save(tmp_path, "stol1.json", table1())
    bad = save(tmp_path, "stol2.json", dict(table2(), moves=[{"type": "share", "player": "Борис"}]))
    status, out, err = call(capsys, "replay", good, bad)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"{bad}: move 1 (share by Борис): ")


# ----- malformed and missing files --------------------------------------------------------
def spoiled(change):
    data = table1()
    change(data)
    return data


MALFORMED = [
    # (what, file content, the start of the error after "<path>: ")
    ("not JSON", '{"format": "lyceum-record/1", ', "not valid JSON: line 1 column "),
    ("JSON but a list", "[]", "must be an object"),
    ("a missing field", spoiled(lambda d: d["players"][0].pop("born")), "players[0].born: is missing"),
    # a malformed move is named as an illegal one (RECORD.md §3): its number, type and player
    ("an unknown skill in an allocation", spoiled(lambda d: d["moves"][2].update(sp={"luck": 1})),
     "move 3 (allocate by Вика): sp.luck: unknown skill 'luck'"),
    ("an adjust without its reason", spoiled(lambda d: d["moves"][7].pop("reason")),
     "move 8 (adjust by Вика): reason is missing\n"),
    ("an allocation of text", spoiled(lambda d: d["moves"][8].update(sp={"intellect": "2"})),
     "move 9 (allocate by Вика): sp.intellect must be "),
    ("a move that is not an object", spoiled(lambda d: d["moves"].__setitem__(1, "rest")), "move 2: must be "),
    ("a move without its player", spoiled(lambda d: d["moves"][3].pop("player")), "move 4 (pass): player is missing"),
    ("an unknown skill in extra SP", spoiled(lambda d: d["players"][3].update(extra={"charm": 5})),
     "players[3].extra.charm: unknown skill 'charm'"),
    ("an unknown move type", spoiled(lambda d: d["moves"][3].update(type="trade")),
     "move 4 (trade by Гоша): type: unknown move type 'trade'"),
    ("a broken inline pack", spoiled(lambda d: d["content"]["cards"][1].update(free=9)),
     "content.cards[1].gains: "),
]


@pytest.mark.parametrize("what, content, message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_file_exits_2_naming_the_bad_field(tmp_path, capsys, what, content, message):
    path = save(tmp_path, "stol1.json", content)
    status, out, err = call(capsys, "replay", path, "--json")
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}: {message}")


def test_a_file_that_is_not_utf8_exits_2(tmp_path, capsys):
    path = tmp_path / "stol1.json"
    path.write_bytes(json.dumps(table1(), ensure_ascii=False).encode("cp1251"))
    status, out, err = call(capsys, "replay", str(path))
    assert (status, out) == (2, "")
    assert err == f"{path}: not a UTF-8 text file\n"


def test_a_missing_file_exits_2(tmp_path, capsys):
    path = str(tmp_path / "nowhere.json")
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}: cannot read the file: ")


def test_the_real_command_exits_2_for_a_missing_file(tmp_path):
    status, out, err = run("replay", "nowhere.json", cwd=tmp_path)
    assert (status, out) == (2, "")
    assert err.startswith("nowhere.json: cannot read the file: ") and len(err.splitlines()) == 1


def test_replay_needs_at_least_one_record(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["replay"])
    assert stopped.value.code == 2
    assert capsys.readouterr().out == ""

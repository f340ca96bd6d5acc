"""The game record format (`lyceum-record/1`, RECORD.md 2): read and written back exactly,
and every malformed field refused with ``MalformedError`` naming its path.

The record here is written by hand, as a host's tablet or a person with a text editor would,
with every move type and every optional key. It is only read and written, not replayed: the
rules themselves are other tests' business.
"""

import copy
import json

import pytest

from facilitator.rules import MalformedError
from facilitator.rules.lyceum import read_move, read_record, write_move, write_record

PACK = {
    "format": "lyceum-pack/1",
    "id": "hand-made",
    "title": "Колода для проверки формата",
    "levels": [0, 300, 600, 1000],
    "skill_max": None,
    "characters": [
        {"code": "C1", "name": "Маша", "direction": "Математика",
         "skills": {"health": 3, "intellect": 6, "creativity": 2, "communication": 2, "energy": 3}},
        {"code": "C2", "name": "Дима", "direction": "Физика",
         "skills": {"health": 4, "intellect": 5, "creativity": 3, "communication": 1, "energy": 2}},
        {"code": "C3", "name": "Лиза", "direction": "Дизайн",
         "skills": {"health": 2, "intellect": 2, "creativity": 6, "communication": 3, "energy": 3}},
        {"code": "C4", "name": "Артём", "direction": "Юриспруденция",
         "skills": {"health": 3, "intellect": 4, "creativity": 2, "communication": 5, "energy": 2}},
    ],
    "cards": [
        {"code": "L-G-01", "era": "lyceum", "color": "green", "title": "Школьная олимпиада",
         "text": "Прошёл школьный этап.", "conditions": {"intellect": 3}, "losses": {},
         "gains": {"intellect": 1}, "free": 0, "special": None},
        {"code": "L-Y-01", "era": "lyceum", "color": "yellow", "title": "Подготовка к ЕГЭ",
         "text": "", "conditions": {"intellect": 4}, "losses": {"energy": 1},
         "gains": {"intellect": 1}, "free": 1, "special": None},
        {"code": "L-R-01", "era": "lyceum", "color": "red", "title": "Своя игра",
         "text": "Ты придумал настольную игру.", "conditions": {"creativity": 5, "intellect": 5},
         "losses": {"energy": 2}, "gains": {"creativity": 2}, "free": 2,
         "special": {"text": "Можно перераспределить до 2 SP", "redistribute": 2}},
    ],
}

RECORD = {
    "format": "lyceum-record/1",
    "table": "Стол 3",
    "event": "Весенний турнир",  # an unknown top-level key: kept as it came
    "content": PACK,
    "players": [
        {"name": "Аня", "born": "2009-03-14", "character": "C1", "extra": {"energy": 2, "intellect": 3},
         "declaration": {"health": 7, "intellect": 7, "creativity": 7, "communication": 7, "energy": 7}},
        {"name": "Борис", "born": "2008-12-01", "character": "C2", "extra": {"health": 5},
         "declaration": None},
        {"name": "Вика", "born": "2009-07-30", "character": "C3", "extra": {"creativity": 4, "energy": 1}},
        {"name": "Гоша", "born": "2010-01-02", "character": "C4", "extra": {"communication": 5},
         "declaration": {"intellect": 20, "communication": 20}},
    ],
    "moves": [
        {"type": "draw", "player": "Аня", "color": "green", "card": "L-G-01", "decision": "play",
         "source": "app-deck", "at": "2025-03-01T10:02:13+03:00"},
        {"type": "allocate", "player": "Аня", "sp": {"intellect": 1, "health": 1}},
        {"type": "rest", "player": "Борис", "redistribute": {"health": -1, "creativity": 1}},
        {"type": "rest", "player": "Вика"},
        {"type": "draw", "player": "Гоша", "color": "red", "card": "L-R-01", "decision": "defer",
         "note": "не хватает творчества"},
        {"type": "draw", "player": "Аня", "color": "yellow", "decision": "play",
         "card": {"era": "lyceum", "color": "yellow", "title": "Карта с пятном", "text": "",
                  "conditions": {}, "losses": {"health": 1}, "gains": {"communication": 2},
                  "free": 0, "special": None}},
        {"type": "draw", "player": "Борис", "color": "red", "decision": "discard",
         "card": {"color": "red", "title": "Карта без эпохи", "text": "Введена вручную",
                  "conditions": {"health": 9}, "losses": {}, "gains": {}, "free": 3,
                  "special": {"text": "Сыграй ещё раз"}}},
        {"type": "share", "player": "Вика"},
        {"type": "play_deferred", "player": "Гоша", "redistribute": {"energy": -2, "creativity": 2}},
        {"type": "play_deferred", "player": "Аня"},
        {"type": "adjust", "player": "Аня", "xp": 100, "sp": {"energy": -1},
         "reason": "спецспособность", "note": "карта «Своя игра»"},
        {"type": "adjust", "player": "Борис", "xp": -200, "reason": "ошибка ведущего"},
        {"type": "adjust", "player": "Вика", "sp": {"health": 1, "energy": -1}, "reason": "опечатка"},
        {"type": "pass", "player": "Гоша", "at": "2025-03-01T10:14:00+03:00", "note": "время вышло"},
        {"type": "finish", "at": "2025-03-01T11:40:00+03:00"},
    ],
}


def record(**changes):
    """A deep copy of the hand-written record, for a test to spoil."""
    out = copy.deepcopy(RECORD)
    out.update(changes)
    return out


# ----- exact round trip -------------------------------------------------------------------
def test_the_record_covers_every_move_type_and_optional_key():
    """Guards the other tests: the hand-written record really has what they round-trip."""
    types = {m["type"] for m in RECORD["moves"]}
    assert types == {"draw", "allocate", "rest", "share", "play_deferred", "adjust", "pass", "finish"}
    assert {"at", "note"} <= {k for m in RECORD["moves"] for k in m}
    inline = [m["card"] for m in RECORD["moves"] if m["type"] == "draw" and isinstance(m["card"], dict)]
    assert [("era" in c) for c in inline] == [True, False]
    declarations = [p.get("declaration", "absent") for p in RECORD["players"]]
    assert declarations.count(None) == 1 and declarations.count("absent") == 1


def test_write_of_read_is_the_record_itself():
    assert write_record(read_record(record())) == RECORD


def test_round_trip_survives_json_text():
    text = json.dumps(write_record(read_record(json.loads(json.dumps(RECORD, ensure_ascii=False)))),
                      ensure_ascii=False)
    assert json.loads(text) == RECORD
    assert write_record(read_record(json.loads(text))) == RECORD


@pytest.mark.parametrize("move", RECORD["moves"], ids=lambda m: m["type"])
def test_each_move_is_written_back_as_it_came(move):
    assert write_move(read_move(copy.deepcopy(move))) == move


def with_unknown_keys():
    """The record with keys no move or card has: on a move, on a hand-entered card and on its
    special (as another program's record file might carry them)."""
    data = record()
    data["moves"][7].update(timer_left=12, device={"id": "tablet-2"})
    data["moves"][6]["card"]["printed_by"] = "x" * 10_000
    data["moves"][6]["card"]["special"]["icon"] = "★"
    return data


def test_a_record_readers_ignore_unknown_move_keys_and_do_not_keep_them():
    """RECORD.md 2: readers ignore any other unknown key on a move. Ignored means not kept, so
    a record file cannot carry megabytes into a table's log."""
    read = read_record(with_unknown_keys())
    assert write_record(read) == RECORD
    assert read.moves[7] == read_move({"type": "share", "player": "Вика"})


CARD_KEYS = "code, color, conditions, era, free, gains, losses, special, text, title"


@pytest.mark.parametrize("index, spoil, path, allowed", [
    (7, lambda m: m.update(timer_left=12), "move.timer_left", "type, player, at, note"),
    (6, lambda m: m["card"].update(timer_left=12), "move.card.timer_left", CARD_KEYS),
    (6, lambda m: m["card"]["special"].update(timer_left=12), "move.card.special.timer_left", "redistribute, text"),
], ids=["on a move", "on a hand-entered card", "on its special"])
def test_a_move_sent_with_an_unknown_key_is_refused_naming_it_and_the_allowed_keys(index, spoil, path, allowed):
    """A move from a tablet, a form or the API holds only its type's fields."""
    move = copy.deepcopy(RECORD["moves"][index])
    spoil(move)
    with pytest.raises(MalformedError) as info:
        read_move(move)
    err = info.value
    assert (err.path, err.template) == (path, "unknown key {key!r}; the keys allowed here are {allowed}")
    assert err.params == {"key": "timer_left", "allowed": allowed}


def test_at_and_note_are_read_as_text():
    moves = read_record(record()).moves
    assert moves[0].at == "2025-03-01T10:02:13+03:00" and moves[0].note is None
    assert moves[13].note == "время вышло"
    assert moves[14].type == "finish" and moves[14].at == "2025-03-01T11:40:00+03:00"


def test_hand_entered_cards_are_read_as_cards_without_code():
    moves = read_record(record()).moves
    with_era, without_era = moves[5].card, moves[6].card
    assert (with_era.code, with_era.era, with_era.color, with_era.xp) == (None, "lyceum", "yellow", 200)
    assert (without_era.code, without_era.era, without_era.free) == (None, None, 3)
    assert without_era.special.text == "Сыграй ещё раз" and without_era.redistribute is None
    assert without_era.label == "Карта без эпохи"


def test_declaration_absent_and_null_both_mean_no_declaration():
    players = read_record(record()).players
    assert [p.declared for p in players] == [35, None, None, 40]


def test_explicit_zeros_are_read_and_left_out_when_written():
    data = record()
    data["players"][1]["extra"] = {"health": 5, "energy": 0}
    data["moves"][1]["sp"] = {"intellect": 1, "health": 1, "creativity": 0}
    written = write_record(read_record(data))
    assert read_record(data).players[1].extra == {"health": 5, "energy": 0}
    assert written["moves"][1]["sp"] == {"intellect": 1, "health": 1}


def test_a_player_changed_after_reading_is_written_as_changed():
    rec = read_record(record())
    rec.players[2] = type(rec.players[2])(name="Вика", born="2009-07-30", character="C3",
                                          extra={"energy": 5})
    assert write_record(rec)["players"][2] == {"name": "Вика", "born": "2009-07-30", "character": "C3",
                                               "extra": {"energy": 5}, "declaration": None}
    assert write_record(rec)["players"][0] == RECORD["players"][0]


# ----- malformed records ------------------------------------------------------------------
def spoil(path, value):
    """A copy of the record with the field at ``path`` (a tuple of keys/indexes) set to
    ``value``, or removed when ``value`` is ``MISSING``."""
    data = record()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is MISSING:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


MISSING = object()
GREEN_TWO_GAINS = {"color": "green", "title": "Две награды", "gains": {"health": 1, "energy": 1}}
YELLOW_NO_LOSS = {"color": "yellow", "title": "Без потерь", "gains": {"health": 1}}
GREEN_SPECIAL = {"color": "green", "title": "Зелёная с особым", "gains": {"health": 1},
                 "special": {"text": "особое"}}
RED_TOO_MUCH = {"color": "red", "title": "Щедрая", "gains": {"health": 4}, "free": 3}

MALFORMED = [
    # (what is wrong, where, new value, the path the error names)
    ("format of another version", ("format",), "lyceum-record/2", "format"),
    ("table missing", ("table",), MISSING, "table"),
    ("table is a number", ("table",), 3, "table"),
    ("content missing", ("content",), MISSING, "content"),
    ("content is a list", ("content",), [], "content"),
    ("players missing", ("players",), MISSING, "players"),
    ("players is an object", ("players",), {}, "players"),
    ("a player is a text", ("players", 1), "Борис", "players[1]"),
    ("player name missing", ("players", 0, "name"), MISSING, "players[0].name"),
    ("player name is a number", ("players", 0, "name"), 7, "players[0].name"),
    ("birth date missing", ("players", 2, "born"), MISSING, "players[2].born"),
    ("birth date does not exist", ("players", 0, "born"), "2009-02-30", "players[0].born"),
    ("birth date in Russian order", ("players", 0, "born"), "14.03.2009", "players[0].born"),
    ("birth date is a number", ("players", 0, "born"), 20090314, "players[0].born"),
    ("character missing", ("players", 3, "character"), MISSING, "players[3].character"),
    ("unknown skill in extra", ("players", 1, "extra"), {"luck": 5}, "players[1].extra.luck"),
    ("extra SP as text", ("players", 1, "extra"), {"health": "5"}, "players[1].extra.health"),
    ("negative extra SP", ("players", 1, "extra"), {"health": 6, "energy": -1}, "players[1].extra.energy"),
    ("extra SP a fraction", ("players", 1, "extra"), {"health": 2.5}, "players[1].extra.health"),
    ("unknown skill in declaration", ("players", 0, "declaration", "luck"), 7,
     "players[0].declaration.luck"),
    ("declaration is a number", ("players", 0, "declaration"), 35, "players[0].declaration"),
    ("moves missing", ("moves",), MISSING, "moves"),
    ("moves is an object", ("moves",), {}, "moves"),
    ("a move is a text", ("moves", 3), "rest", "moves[3]"),
    ("move type missing", ("moves", 2, "type"), MISSING, "moves[2].type"),
    ("unknown move type", ("moves", 2, "type"), "trade", "moves[2].type"),
    ("move player missing", ("moves", 3, "player"), MISSING, "moves[3].player"),
    ("move player is a number", ("moves", 3, "player"), 2, "moves[3].player"),
    ("unknown colour", ("moves", 0, "color"), "blue", "moves[0].color"),
    ("colour missing", ("moves", 0, "color"), MISSING, "moves[0].color"),
    ("colour as a list", ("moves", 0, "color"), ["green"], "moves[0].color"),
    ("colour as an object", ("moves", 0, "color"), {"green": 1}, "moves[0].color"),
    ("decision as a list", ("moves", 0, "decision"), ["play"], "moves[0].decision"),
    ("a source other than the app's deck", ("moves", 0, "source"), "my-deck", "moves[0].source"),
    ("a source as a list", ("moves", 0, "source"), ["app-deck"], "moves[0].source"),
    ("move type as a list", ("moves", 2, "type"), ["rest"], "moves[2].type"),
    ("move type as an object", ("moves", 2, "type"), {"rest": 1}, "moves[2].type"),
    ("unknown decision", ("moves", 0, "decision"), "keep", "moves[0].decision"),
    ("decision missing", ("moves", 0, "decision"), MISSING, "moves[0].decision"),
    ("card missing", ("moves", 0, "card"), MISSING, "moves[0].card"),
    ("card is a number", ("moves", 0, "card"), 17, "moves[0].card"),
    ("card code empty", ("moves", 0, "card"), "", "moves[0].card"),
    ("allocation missing", ("moves", 1, "sp"), MISSING, "moves[1].sp"),
    ("unknown skill in an allocation", ("moves", 1, "sp"), {"luck": 2}, "moves[1].sp.luck"),
    ("negative allocation", ("moves", 1, "sp"), {"health": 3, "energy": -1}, "moves[1].sp.energy"),
    ("allocation as text", ("moves", 1, "sp"), {"health": "2"}, "moves[1].sp.health"),
    ("allocation is a list", ("moves", 1, "sp"), ["health"], "moves[1].sp"),
    ("unknown skill in a rest's redistribution", ("moves", 2, "redistribute"),
     {"health": -1, "luck": 1}, "moves[2].redistribute.luck"),
    ("redistribution as text", ("moves", 2, "redistribute"), {"health": "-1"},
     "moves[2].redistribute.health"),
    ("unknown skill in a deferred card's redistribution", ("moves", 8, "redistribute"),
     {"energy": -2, "charm": 2}, "moves[8].redistribute.charm"),
    ("unknown skill in an adjust", ("moves", 10, "sp"), {"luck": 1}, "moves[10].sp.luck"),
    ("adjust XP as text", ("moves", 10, "xp"), "100", "moves[10].xp"),
    ("adjust XP null", ("moves", 10, "xp"), None, "moves[10].xp"),
    ("adjust reason missing", ("moves", 11, "reason"), MISSING, "moves[11].reason"),
    ("adjust reason empty", ("moves", 11, "reason"), "  ", "moves[11].reason"),
    ("time as a number", ("moves", 0, "at"), 1709276533, "moves[0].at"),
    ("note as a list", ("moves", 13, "note"), ["время"], "moves[13].note"),
    ("inline card gives two SP for green", ("moves", 5, "card"), GREEN_TWO_GAINS, "moves[5].card.gains"),
    ("inline yellow card without a loss", ("moves", 5, "card"), YELLOW_NO_LOSS, "moves[5].card.losses"),
    ("inline green card with a special", ("moves", 5, "card"), GREEN_SPECIAL, "moves[5].card.special"),
    ("inline red card giving 7 SP", ("moves", 6, "card"), RED_TOO_MUCH, "moves[6].card.gains"),
    ("inline card without title", ("moves", 6, "card", "title"), MISSING, "moves[6].card.title"),
    ("inline card of an unknown colour", ("moves", 6, "card", "color"), "purple", "moves[6].card.color"),
    ("inline card of an unknown era", ("moves", 5, "card", "era"), "childhood", "moves[5].card.era"),
    ("inline card's colour as a list", ("moves", 6, "card", "color"), ["red"], "moves[6].card.color"),
    ("inline card's era as an object", ("moves", 5, "card", "era"), {"lyceum": 1}, "moves[5].card.era"),
    ("inline card with an unknown skill", ("moves", 6, "card", "conditions"), {"luck": 1},
     "moves[6].card.conditions.luck"),
    ("inline card with a negative free", ("moves", 6, "card", "free"), -3, "moves[6].card.free"),
    ("inline redistribute of zero", ("moves", 6, "card", "special"), {"text": "", "redistribute": 0},
     "moves[6].card.special.redistribute"),
    ("inline pack of another format", ("content", "format"), "lyceum-pack/0", "content.format"),
    ("inline pack without levels", ("content", "levels"), MISSING, "content.levels"),
    ("inline pack levels not increasing", ("content", "levels"), [0, 300, 300], "content.levels[2]"),
    ("inline pack card with an unknown skill", ("content", "cards", 1, "gains"), {"charm": 1},
     "content.cards[1].gains.charm"),
    ("inline pack card breaking its colour", ("content", "cards", 0, "gains"), {"intellect": 2},
     "content.cards[0].gains"),
    ("inline pack character with a negative skill", ("content", "characters", 2, "skills", "energy"), -1,
     "content.characters[2].skills.energy"),
    ("inline pack duplicate character", ("content", "characters", 3, "code"), "C1",
     "content.characters[3].code"),
]


@pytest.mark.parametrize("what, where, value, path", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_field_is_refused_with_its_path(what, where, value, path):
    with pytest.raises(MalformedError) as refused:
        read_record(spoil(where, value))
    assert refused.value.path == path
    assert str(refused.value).startswith(f"{path}: ")


@pytest.mark.parametrize("where, value", [(("moves", 0, "color"), ["green"]), (("moves", 0, "decision"), ["play"]),
                                          (("moves", 6, "card", "color"), {"red": 1}),
                                          (("moves", 5, "card", "era"), ["lyceum"])])
def test_a_choice_of_the_wrong_json_type_is_refused_as_not_one_of_the_choices(where, value):
    """A list or an object where a colour, an era or a decision belongs is refused with the
    choices; the value is never put where a screen would look a colour's name up by it."""
    with pytest.raises(MalformedError) as refused:
        read_record(spoil(where, value))
    err = refused.value
    assert err.template == "must be one of {allowed}, got {value!r}"
    assert err.params["value"] == value and set(err.params) == {"allowed", "value"}


def test_a_record_that_is_not_an_object_is_refused():
    with pytest.raises(MalformedError) as refused:
        read_record([RECORD])
    assert refused.value.path == ""


def test_a_broken_inline_pack_names_the_card_and_counts_the_other_problems():
    data = spoil(("content", "cards", 1, "gains"), {"charm": 1})
    data["content"]["levels"] = [0, 300, 300]
    data["content"]["cards"][2]["losses"] = {"energy": 4}
    with pytest.raises(MalformedError) as refused:
        read_record(data)
    message = str(refused.value)
    assert message.startswith("content.levels[2]: ") and "(and 2 more)" in message
    with pytest.raises(MalformedError) as refused:
        read_record(spoil(("content", "cards", 1, "gains"), {"charm": 1}))
    assert "card L-Y-01" in str(refused.value) and "charm" in str(refused.value)

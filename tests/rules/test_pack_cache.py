"""A record's inline pack is read once per content (``rules/packcache.py``): records of one
content share one pack object, a changed content is read anew, a refused one is refused every
time, and no game changes the pack it shares with the others."""

import copy
import json
import random

import pytest

from facilitator.rules import packcache
from facilitator.rules.alterego import read_record as ae_read_record
from facilitator.rules.alterego import replay as ae_replay
from facilitator.rules.alterego import write_record as ae_write_record
from facilitator.rules.alterego.simulate import random_game as ae_random_game
from facilitator.rules.errors import MalformedError, PackError
from facilitator.rules.lyceum import read_record, replay, write_record
from facilitator.rules.lyceum.pack import read_pack
from facilitator.rules.lyceum.simulate import random_game
from facilitator.rules.newangeles import read_record as na_read_record
from facilitator.rules.newangeles import replay as na_replay
from facilitator.rules.newangeles import write_record as na_write_record
from facilitator.rules.newangeles.simulate import random_game as na_random_game
from facilitator.rules.lyceum.ruleset import sample_pack


def as_json(record_dict):
    """A record as ``json.load`` gives it: a new dict, sharing nothing with the one written."""
    return json.loads(json.dumps(record_dict, ensure_ascii=False))


def lyceum_records(count):
    return [as_json(write_record(random_game(sample_pack(), seed=i, players=4)[0])) for i in range(count)]


def test_records_of_one_content_share_one_pack_read_once():
    packcache.clear()
    reads = []
    first, second = lyceum_records(2)  # two games, two dicts of one content
    reader = lambda data: reads.append(1) or read_pack(data)  # noqa: E731
    a = packcache.read_once(reader, first["content"])
    b = packcache.read_once(reader, second["content"])
    assert a is b and len(reads) == 1
    assert read_record(first).pack is read_record(second).pack


def test_a_changed_content_is_read_anew_and_a_refused_one_every_time():
    packcache.clear()
    data = lyceum_records(1)[0]
    pack = read_record(data).pack
    changed = copy.deepcopy(data)
    changed["content"]["title"] = "Другая колода"
    other = read_record(changed).pack
    assert other is not pack and other.title == "Другая колода" and pack.title != "Другая колода"
    broken = copy.deepcopy(data)
    broken["content"]["cards"][0]["gains"] = {"energy": "много"}
    for _ in range(2):  # refused again: a refusal is never kept as a pack
        with pytest.raises(MalformedError, match=r"content\.cards\[0\]"):
            read_record(broken)


def test_the_cache_keeps_at_most_size_packs(monkeypatch):
    packcache.clear()
    monkeypatch.setattr(packcache, "SIZE", 3)
    data = lyceum_records(1)[0]
    packs = []
    for i in range(5):
        changed = copy.deepcopy(data)
        changed["content"]["title"] = f"Колода {i}"
        packs.append(read_record(changed).pack)
    assert len(packcache._packs) == 3
    again = copy.deepcopy(data)
    again["content"]["title"] = "Колода 4"  # the newest is still kept
    assert read_record(again).pack is packs[4]


def _frozen(pack):
    return json.dumps(pack.to_dict(), ensure_ascii=False, sort_keys=True)


@pytest.mark.parametrize("game", ["lyceum", "alterego", "newangeles"])
def test_no_game_changes_the_pack_it_shares(game):
    """Every game of a content plays with the same pack object: a whole game of each engine,
    replayed from records, leaves the shared pack exactly as it was read."""
    packcache.clear()
    if game == "lyceum":
        records = lyceum_records(3)
        read, play = read_record, replay
    elif game == "alterego":
        records = [as_json(ae_write_record(ae_random_game(random.Random(i)))) for i in range(3)]
        read, play = ae_read_record, ae_replay
    else:
        records = [as_json(na_write_record(na_random_game(i, players=5, end="rounds"))) for i in range(3)]
        read, play = na_read_record, na_replay
    shared = read(records[0]).pack
    before = _frozen(shared)
    for data in records:
        record = read(data)
        assert record.pack is shared
        play(record)
    assert _frozen(shared) == before


def test_a_content_is_found_however_its_texts_are_shared_and_only_the_same_content_is():
    """The quick key (marshal version 4) differs when a content's texts are also held elsewhere:
    such a content is still read once. A content equal to a kept one but for a number's type
    (``1000.0`` or ``True`` where the kept one says ``1000`` or ``1``) is read, and refused."""
    packcache.clear()
    reads = []
    reader = lambda data: reads.append(1) or read_pack(data)  # noqa: E731
    first, second = (record["content"] for record in lyceum_records(2))
    held = [card["code"] for card in second["cards"]]  # second's texts are held twice now
    assert packcache.read_once(reader, first) is packcache.read_once(reader, second) is \
        packcache.read_once(reader, first) and len(reads) == 1 and held
    card, skill = next((i, s) for i, c in enumerate(first["cards"]) for s, v in c["gains"].items() if v == 1)
    for change in (lambda c: c["levels"].__setitem__(1, float(c["levels"][1])),
                   lambda c: c["cards"][card]["gains"].__setitem__(skill, True)):
        changed = copy.deepcopy(first)
        change(changed)
        assert changed == first  # equal as Python compares, another content as JSON
        with pytest.raises(PackError):
            packcache.read_once(reader, changed)
    assert len(reads) == 3

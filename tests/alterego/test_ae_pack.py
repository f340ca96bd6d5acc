"""RECORD.md 1: content packs (`alterego-pack/1`). The shipped 3rd-edition pack reads and writes
back exactly; a pack breaking any rule of RECORD.md 1 is refused as a whole, with every
problem listed by key."""

import json

import pytest

from facilitator.rules.alterego import PACK_FORMAT, RULESET, PackError, default_pack, read_pack
from facilitator.rules.alterego.pack import EFFECTS, REACTIONS, pack_problems

from .helpers import pack_data


def card(data, key):
    return next(c for c in data["cards"] if c["key"] == key)


def active(data, key):
    return next(a for a in data["actives"] if a["key"] == key)


def test_the_shipped_pack_is_the_3rd_edition_deck_and_reads_back_exactly():
    data = pack_data()
    pack = read_pack(data)
    assert pack.to_dict() == data
    assert json.dumps(pack.to_dict(), ensure_ascii=False) == json.dumps(data, ensure_ascii=False)
    assert (data["format"], data["ruleset"]) == (PACK_FORMAT, RULESET)
    assert len(pack.actives) == 9 and sum(c.count for c in pack.cards) == 71
    assert default_pack() == pack


# RULES.md 1.2: key -> (count, type, subtype, influence, permanent anxiety)
CARD_TABLE = {
    "sekoita_pakka": (1, "event", None, 0, 0), "energiapuuska": (3, "event", None, 0, 0),
    "tarkea_nakki": (2, "event", None, 0, 0), "uusi_aktiivi": (3, "event", None, 0, 0),
    "taktinen_teko": (3, "event", None, 0, 0), "loppu": (1, "event", None, 0, 0),
    "tauko": (2, "event", None, 0, 0), "mun_kaverit": (2, "event", None, 0, 0),
    "ei_kiinnostusta": (2, "event", None, 0, 0), "hahmo_kuolee": (1, "event", None, 0, 0),
    "uusi_tyyli": (1, "event", None, 0, 0), "maallepako": (1, "event", None, 0, 0),
    "bile": (5, "event", None, 0, 0), "ei_rahaa": (2, "event", None, 0, 0),
    "tyokiireita": (2, "event", None, 0, 0), "seurustelu": (3, "hobby", "dating", 0, 0),
    "pelikampanja": (8, "hobby", "campaign", 2, 0), "hype_kampanja": (2, "hobby", "campaign", 3, 0),
    "stressinpoistokampanja": (1, "hobby", "campaign", 3, 0), "atleettiharrastus": (4, "hobby", "athletic", 0, 0),
    "naurettava_harrastus": (2, "hobby", "other", 0, 1), "jarjestoaktiivi": (6, "hobby", "other", 1, 1),
    "lopputyo": (2, "hobby", "other", 0, 2), "tyo": (4, "chore", None, 0, 0),
    "tyo_maalla": (1, "chore", None, 0, 0), "htt_tyo": (3, "chore", None, 1, 1),
    "vastuutyo": (2, "chore", None, 0, 2), "nakkikone": (2, "chore", None, 0, 0),
}


@pytest.mark.parametrize("key", list(CARD_TABLE))
def test_every_card_of_rules_1_2(key):
    c = default_pack().cards_by_key[key]
    assert (c.count, c.type, c.subtype, c.influence, c.permanent_anxiety) == CARD_TABLE[key]
    assert c.reaction == (key in REACTIONS)
    assert c.work == (key in ("tyo", "tyo_maalla", "htt_tyo", "vastuutyo"))  # decision 25
    assert c.no_money_immune == (key in ("htt_tyo", "vastuutyo"))


def test_the_card_table_covers_the_whole_pack():
    assert set(CARD_TABLE) == set(default_pack().cards_by_key)


# ----- refusals: every bullet of RECORD.md 1 --------------------------------------------------------
def _dup_active(d):
    d["actives"][1]["key"] = "pare"


def _dup_card(d):
    card(d, "tauko")["key"] = "loppu"


def _non_ascii_card(d):
    card(d, "tyo")["key"] = "työ"


def _bad_active_key(d):
    active(d, "pare")["key"] = "Pare"


def _missing_card_field(d):
    del card(d, "bile")["count"]


def _missing_active_field(d):
    del active(d, "meira")["bo"]


def _wrong_type_count(d):
    card(d, "bile")["count"] = "5"


def _wrong_type_work(d):
    card(d, "tyo")["work"] = "yes"


def _zero_va(d):
    active(d, "tommi")["va"] = 0


def _unknown_ability(d):
    active(d, "tommi")["ability"] = "sleep"


def _unknown_effect(d):
    card(d, "bile")["effect"] = "rave"


def _effect_wrong_type(d):
    card(d, "tyo")["effect"] = "seurustelu"
    card(d, "tyo")["params"] = {"breakup_gain": 2}


def _event_effect_on_hobby(d):
    c = card(d, "pelikampanja")
    c["effect"], c["params"] = "hahmo_kuolee", {"gain": 2}


def _params_lack(d):
    del card(d, "bile")["params"]["per_guest"]


def _params_add(d):
    card(d, "hahmo_kuolee")["params"]["loss"] = 1


def _param_negative(d):
    card(d, "tyokiireita")["params"]["base"] = -1


def _cancels_no_hobby(d):
    card(d, "ei_kiinnostusta")["params"]["cancels"] = ["tyo"]


def _cancels_unknown(d):
    card(d, "ei_kiinnostusta")["params"]["cancels"] = ["shogi"]


def _cancels_empty(d):
    card(d, "ei_kiinnostusta")["params"]["cancels"] = []


def _two_season_cards(d):
    card(d, "sekoita_pakka")["count"] = 2


def _no_season_card(d):
    d["cards"] = [c for c in d["cards"] if c["key"] != "sekoita_pakka"]


def _five_actives(d):
    d["actives"] = d["actives"][:5]


def _reaction_flag(d):
    card(d, "bile")["reaction"] = True


def _work_on_hobby(d):
    card(d, "pelikampanja")["work"] = True


def _influence_on_event(d):
    card(d, "bile")["influence"] = 1


def _subtype_on_chore(d):
    card(d, "tyo")["subtype"] = "other"


def _hobby_without_subtype(d):
    card(d, "pelikampanja")["subtype"] = None


def _wrong_format(d):
    d["format"] = "lyceum-pack/1"


def _wrong_ruleset(d):
    d["ruleset"] = "alter-ego-2"


# id, change, (item, key, field, problem key)
REFUSALS = [
    ("an active key repeats", _dup_active, ("active", "pare", "key", "duplicate_key")),
    ("a card key repeats", _dup_card, ("card", "loppu", "key", "duplicate_key")),
    ("a card key is not ASCII", _non_ascii_card, ("card", "työ", "key", "bad_key")),
    ("an active key is not lower-case ASCII", _bad_active_key, ("active", "Pare", "key", "bad_key")),
    ("a card field is missing", _missing_card_field, ("card", "bile", "count", "missing")),
    ("an active field is missing", _missing_active_field, ("active", "meira", "bo", "missing")),
    ("a count of the wrong type", _wrong_type_count, ("card", "bile", "count", "not_whole_number")),
    ("a flag of the wrong type", _wrong_type_work, ("card", "tyo", "work", "not_boolean")),
    ("free time below 1", _zero_va, ("active", "tommi", "va", "below_minimum")),
    ("an unknown ability", _unknown_ability, ("active", "tommi", "ability", "unknown_value")),
    ("an unknown effect", _unknown_effect, ("card", "bile", "effect", "unknown_effect")),
    ("a hobby effect on a chore", _effect_wrong_type, ("card", "tyo", "effect", "effect_wrong_type")),
    ("an event effect on a hobby", _event_effect_on_hobby, ("card", "pelikampanja", "effect", "effect_wrong_type")),
    ("params lack a key", _params_lack, ("card", "bile", "params.per_guest", "param_missing")),
    ("params add a key", _params_add, ("card", "hahmo_kuolee", "params.loss", "param_extra")),
    ("a negative parameter", _param_negative, ("card", "tyokiireita", "params.base", "param_not_number")),
    ("cancels names a chore", _cancels_no_hobby, ("card", "ei_kiinnostusta", "params.cancels", "cancels_not_hobby")),
    ("cancels names no card", _cancels_unknown, ("card", "ei_kiinnostusta", "params.cancels", "cancels_not_hobby")),
    ("cancels names nothing", _cancels_empty, ("card", "ei_kiinnostusta", "params.cancels", "cancels_not_list")),
    ("the season card with count 2", _two_season_cards, ("pack", None, "cards", "season_card")),
    ("no season card", _no_season_card, ("pack", None, "cards", "season_card")),
    ("fewer than 6 actives", _five_actives, ("pack", None, "actives", "too_few_actives")),
    ("reaction flag on a non-reaction", _reaction_flag, ("card", "bile", "reaction", "reaction_flag")),
    ("work on a hobby", _work_on_hobby, ("card", "pelikampanja", "work", "work_not_chore")),
    ("influence on an event", _influence_on_event, ("card", "bile", "influence", "event_value")),
    ("a subtype on a chore", _subtype_on_chore, ("card", "tyo", "subtype", "subtype_not_null")),
    ("a hobby without subtype", _hobby_without_subtype, ("card", "pelikampanja", "subtype", "bad_subtype")),
    ("another game's format", _wrong_format, ("pack", None, "format", "wrong_format")),
    ("a ruleset the engine does not implement", _wrong_ruleset, ("pack", None, "ruleset", "unknown_ruleset")),
]


@pytest.mark.parametrize("name, change, expected", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_pack_breaking_record_md_1_is_refused(name, change, expected):
    data = pack_data()
    change(data)
    with pytest.raises(PackError) as info:
        read_pack(data)
    found = [(p.item, p.code, p.field, p.key) for p in info.value.problems]
    assert expected in found, found
    assert len(found) == 1, found


def test_every_problem_is_listed_at_once_by_key():
    data = pack_data()
    for change in (_dup_card, _missing_card_field, _unknown_effect, _cancels_no_hobby, _five_actives):
        change(data)
    with pytest.raises(PackError) as info:
        read_pack(data)
    text = str(info.value)
    assert "5 problem(s)" in text
    for where in ("card loppu: key", "card bile: count", "card bile: effect", "card ei_kiinnostusta: params.cancels",
                  "pack: actives"):
        assert where in text, text


def test_problems_carry_a_template_and_numbers_for_translation():
    data = pack_data()
    _five_actives(data)
    _, problems = pack_problems(data)
    (p,) = problems
    assert (p.key, p.template, p.params) == ("too_few_actives", p.template, {"count": 5})
    assert p.message == p.template.format(**p.params)


def test_every_effect_of_the_pack_has_the_params_record_md_1_lists():
    for c in default_pack().cards:
        if c.effect is not None:
            assert set(c.params) == set(EFFECTS[c.effect][2]), c.key


def test_a_renamed_card_keeps_its_rule_rules_act_on_the_effect_not_the_key():
    data = pack_data()
    card(data, "tyo_maalla")["key"] = "farm_job"
    pack = read_pack(data)
    assert pack.cards_by_key["farm_job"].is_tyo_maalla


def test_unknown_keys_are_kept_and_written_back():
    data = pack_data()
    data["editor"] = {"version": 3}
    card(data, "bile")["artist"] = "Pekka"
    active(data, "pare")["portrait"] = "pare.png"
    assert read_pack(data).to_dict() == data


def test_a_pack_that_is_not_an_object_is_refused():
    with pytest.raises(PackError):
        read_pack(["not", "a", "pack"])


def test_a_pack_read_before_is_the_same_object_and_nothing_else_is():
    """``read_pack`` recognises a pack it read before by its exact JSON text: ``1`` is not
    ``true`` there, so a near-copy is read (and refused) on its own."""
    data = pack_data()
    assert read_pack(data) is read_pack(pack_data())
    near = pack_data()
    card(near, "tyo")["work"] = 1  # equal to True in Python, not in JSON
    with pytest.raises(PackError) as info:
        read_pack(near)
    assert [(p.code, p.field) for p in info.value.problems] == [("tyo", "work")]
    renamed = pack_data()
    renamed["title"] = "Alter Ego – turnausversio"
    assert read_pack(renamed) is not read_pack(data) and read_pack(renamed).title == renamed["title"]

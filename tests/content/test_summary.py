"""Issue 6, item 6: a pack's summary counts its cards per era and colour, averages their
conditions, and warns (without refusing) about what looks unbalanced."""

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.summary import format_summary, pack_summary
from facilitator.i18n import use_locale
from facilitator.rules.lyceum import read_pack

from .helpers import sample_data_with


def _keys(summary):
    return [w["key"] for w in summary["warnings"]]


def test_the_sample_pack_has_nine_cards_of_each_era_and_colour():
    s = pack_summary(sample_pack())
    assert s["counts"] == {era: {"green": 9, "yellow": 9, "red": 9} for era in ("lyceum", "university", "adult")}
    assert (s["characters"], s["cards"], s["levels"]) == (10, 81, 9)


def test_average_conditions_per_colour_and_per_era_and_colour():
    pack = sample_pack()
    s = pack_summary(pack)
    greens = [sum(c.conditions.values()) for c in pack.cards if c.color == "green"]
    assert s["average_conditions"]["green"] == round(sum(greens) / len(greens), 2)
    lyceum_red = [sum(c.conditions.values()) for c in pack.cards_of("lyceum", "red")]
    assert s["average_conditions_by_era"]["lyceum"]["red"] == round(sum(lyceum_red) / 9, 2)
    assert s["average_conditions"]["green"] < s["average_conditions"]["yellow"] < s["average_conditions"]["red"]


def test_an_era_and_colour_with_fewer_than_3_cards_is_a_warning():
    def thin(data):
        data["cards"] = [c for c in data["cards"] if c["code"] not in ("U-Y-01", "U-Y-02", "U-Y-03", "U-Y-04",
                                                                         "U-Y-05", "U-Y-06", "U-Y-07")]
    s = pack_summary(read_pack(sample_data_with(thin)))
    assert s["counts"]["university"]["yellow"] == 2
    (w,) = [w for w in s["warnings"] if w["key"] == "few_cards"]
    assert w["params"] == {"era": "university", "color": "yellow", "count": 2, "min": 3}
    assert w["message"] == ("«Универ», жёлтая колода: карт всего 2, меньше 3; одни и те же карты "
                            "будут выпадать снова и снова")


def test_a_deck_with_no_cards_of_an_era_and_colour_is_a_warning_with_no_average():
    s = pack_summary(read_pack(sample_data_with(
        lambda d: d.update(cards=[c for c in d["cards"] if not c["code"].startswith("A-R")]))))
    assert s["counts"]["adult"]["red"] == 0
    assert s["average_conditions_by_era"]["adult"]["red"] is None
    assert {"era": "adult", "color": "red", "count": 0, "min": 3} in [w["params"] for w in s["warnings"]]


def test_exactly_3_cards_is_enough():
    def three(data):
        data["cards"] = [c for c in data["cards"] if not c["code"].startswith("A-G-0")
                         or c["code"] in ("A-G-01", "A-G-02", "A-G-03")]
    s = pack_summary(read_pack(sample_data_with(three)))
    assert s["counts"]["adult"]["green"] == 3
    assert "few_cards" not in _keys(s)


def test_a_character_with_a_skill_sum_far_from_the_others_is_a_warning():
    def strong(data):
        data["characters"][0]["skills"] = {"health": 6, "intellect": 6, "creativity": 2, "communication": 2,
                                           "energy": 3}  # 19 SP; the others have 15 or 16
    s = pack_summary(read_pack(sample_data_with(strong)))
    (w,) = [w for w in s["warnings"] if w["key"] == "skill_sum"]
    assert w["params"]["code"] == "C01" and w["params"]["sum"] == 19
    assert w["message"] == "у персонажа C01 (Маша) всего 19 SP умений, у остальных около 16"


def test_a_character_two_sp_from_the_others_is_not_a_warning():
    def near(data):
        data["characters"][0]["skills"]["health"] += 2
    assert "skill_sum" not in _keys(pack_summary(read_pack(sample_data_with(near))))


def test_levels_closer_than_a_red_card_are_a_warning():
    s = pack_summary(read_pack(sample_data_with(lambda d: d.update(levels=[0, 100, 1000, 1400, 2000]))))
    (w,) = [w for w in s["warnings"] if w["key"] == "level_jumps"]
    assert w["params"] == {"levels": [4], "xp": 500}  # 1000 -> 1400: one red card from 900 passes both
    assert w["message"] == ("уровни 4 начинаются меньше чем через 500 XP после предыдущего: одна красная "
                            "карта может поднять игрока сразу на два уровня")


def test_levels_500_apart_are_not_a_warning():
    s = pack_summary(read_pack(sample_data_with(lambda d: d.update(levels=[0, 100, 600, 1100]))))
    assert "level_jumps" not in _keys(s)


def test_a_colour_that_asks_for_more_than_a_harder_one_is_a_warning():
    def easy_yellow(data):
        for c in data["cards"]:
            if c["code"].startswith("L-Y"):
                c["conditions"] = {"health": 1}
    s = pack_summary(read_pack(sample_data_with(easy_yellow)))
    (w,) = [w for w in s["warnings"] if w["key"] == "conditions_order"]
    assert (w["params"]["era"], w["params"]["color"], w["params"]["other"]) == ("lyceum", "green", "yellow")


def test_fewer_characters_than_a_full_table_is_a_warning():
    s = pack_summary(read_pack(sample_data_with(lambda d: d.update(characters=d["characters"][:3]))))
    assert "few_characters" in _keys(s)


def test_card_codes_that_differ_only_in_case_or_dashes_are_a_warning():
    def alike(data):
        data["cards"][1]["code"] = "l-g 01"  # and L-G-01 stays
    (w,) = [w for w in pack_summary(read_pack(sample_data_with(alike)))["warnings"] if w["key"] == "codes_alike"]
    assert w["params"] == {"codes": ["L-G-01", "l-g 01"]}
    assert w["message"] == ("коды карт L-G-01, l-g 01 отличаются только регистром, пробелами или дефисами; "
                            "ведущий найдёт их как один")


def test_the_sample_pack_warns_only_about_its_level_gaps():
    assert _keys(pack_summary(sample_pack())) == ["level_jumps"]


def test_warnings_follow_the_locale():
    with use_locale("en"):
        (w,) = pack_summary(sample_pack())["warnings"]
    assert w["message"].startswith("levels 3, 4, 5, 6, 7 begin less than 500 XP above the level before")


def test_the_text_summary_shows_the_table_and_the_warnings():
    lines = format_summary(pack_summary(sample_pack()))
    assert lines[0] == "Персонажей: 10, карт: 81, уровней: 9"
    assert lines[1].split() == ["Эпоха", "зелёная", "жёлтая", "красная"]
    assert lines[2].split() == ["Лицей", "9", "9", "9"]
    assert lines[-2] == "Предупреждения (набор принят):"
    assert lines[-1].startswith("- уровни 3, 4, 5, 6, 7")

"""``facilitator.safejson``: JSON from uploads and stored texts is read within bounds. Deep
nesting, endless numbers, NaN/Infinity, bytes that are not UTF-8 are refused with one
exception class (``JSONInputError``, a ``ValueError``) that a screen can say in Russian;
everything an honest file holds comes back exactly as ``json.loads`` gives it."""

import json
import string

import pytest

from facilitator import i18n, safejson
from facilitator.rules.lyceum.ruleset import sample_pack_data
from facilitator.safejson import JSONInputError, dumps_safe, loads


def refusal(data, **kw):
    with pytest.raises(JSONInputError) as err:
        loads(data, **kw)
    return err.value


def record_text(moves=100):
    record = {"format": "lyceum-record/1", "table": "Стол 3", "content": sample_pack_data(),
              "players": [{"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 5}}],
              "moves": [{"type": "adjust", "player": "Аня", "xp": 100, "sp": {"energy": -1},
                         "reason": "спец \"кавычки\" \\ [скобки] {фигурные} 12345678901234567890123456789012345",
                         "note": None} for _ in range(moves)]}
    return json.dumps(record, ensure_ascii=False, indent=2)


# ----- what an honest file holds comes back exactly ------------------------------------------
def test_the_sample_pack_loads_identically():
    text = json.dumps(sample_pack_data(), ensure_ascii=False, indent=2)
    assert loads(text) == json.loads(text)
    assert loads(text.encode("utf-8")) == json.loads(text)


def test_a_record_loads_identically_with_brackets_quotes_and_long_digits_inside_strings():
    text = record_text()
    assert loads(text) == json.loads(text)


@pytest.mark.parametrize("text", ['{"a": [1, -2, 3.5, 1e3, -0.0, true, false, null, "x"]}', "[]", "{}", "0",
                                  '"just a string"', '  [ [ ] ]  ', '"\\u2028 \\\\"', "-12345678901234567890"])
def test_small_documents_load_as_json_loads_them(text):
    assert loads(text) == json.loads(text)


def test_a_utf8_byte_order_mark_is_skipped():
    assert loads(b"\xef\xbb\xbf{\"a\": 1}") == {"a": 1}
    assert loads("\ufeff[1]") == [1]


def test_nesting_up_to_the_limit_is_accepted():
    assert loads("[" * 64 + "]" * 64) is not None
    assert loads('{"a": ' * 10 + "1" + "}" * 10, max_depth=10) is not None


# ----- what is refused ------------------------------------------------------------------------------
@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a": ', "}")])
def test_100000_nested_brackets_are_refused_not_a_recursion_error(opening, closing):
    text = opening * 100_000 + "1" + closing * 100_000
    with pytest.raises(RecursionError):  # what json.loads does with it: the 500 page
        json.loads(text)
    err = refusal(text)
    assert (err.key, err.params) == ("too_deep", {"limit": 64})
    assert refusal(text.encode()).key == "too_deep"


def test_one_level_too_deep_is_refused():
    assert refusal("[" * 65 + "]" * 65).key == "too_deep"
    assert refusal("[" * 11 + "]" * 11, max_depth=10).key == "too_deep"


def test_deep_nesting_of_an_unterminated_document_is_refused_too():
    assert refusal("[" * 100_000).key == "too_deep"


def test_brackets_inside_strings_do_not_count():
    text = json.dumps(["[" * 1000, "{" * 1000, '\\"[[['])
    assert loads(text) == json.loads(text)


def test_a_5000_digit_integer_is_refused_not_a_value_error():
    text = '{"xp": ' + "9" * 5000 + "}"
    with pytest.raises(ValueError) as plain:
        json.loads(text)
    assert not isinstance(plain.value, json.JSONDecodeError)  # a bare ValueError: the 500 page
    err = refusal(text)
    assert (err.key, err.params) == ("long_number", {"limit": 30})


def test_integers_up_to_30_digits_are_read_and_31_are_refused():
    assert loads("9" * 30) == int("9" * 30)
    assert refusal("-" + "9" * 31).key == "long_number"
    assert refusal("1." + "0" * 40).key == "long_number"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(literal):
    err = refusal(f'{{"xp": {literal}}}')
    assert (err.key, err.params) == ("not_a_number", {"literal": literal})


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1.5e400"])
def test_a_float_too_large_for_python_is_refused_not_infinity(number):
    assert json.loads(number) in (float("inf"), float("-inf"))
    err = refusal(f"[{number}]")
    assert (err.key, err.params) == ("huge_number", {"number": number})


@pytest.mark.parametrize("data", [b"\xc3\x28", b'{"a": "\xff"}', "{}".encode("utf-16"), "[]".encode("utf-32")])
def test_bytes_that_are_not_utf8_are_refused(data):
    assert refusal(data).key == "not_utf8"


def test_text_that_is_not_json_is_refused_with_its_position():
    err = refusal('{"format": "lyceum-pack/1",}')
    assert err.key == "not_json"
    assert (err.params["line"], err.params["column"]) == (1, 28)
    assert refusal("").key == "not_json"
    assert refusal('["unterminated').key == "not_json"


def test_input_larger_than_the_limit_is_refused_before_it_is_read():
    err = refusal(b"[" + b"1," * 100 + b"1]", max_bytes=100)
    assert (err.key, err.params["limit"]) == ("too_large", 100)
    assert refusal("x" * 101, max_bytes=100).key == "too_large"


def test_only_text_and_bytes_are_read():
    with pytest.raises(TypeError):
        loads({"a": 1})


def test_the_refusal_is_a_value_error_naming_the_input():
    err = refusal("[NaN]", what="stol3.json")
    assert isinstance(err, ValueError)
    assert str(err) == "stol3.json: NaN is not a number JSON allows"
    assert err.message == "NaN is not a number JSON allows"


def test_a_1mb_record_is_read_as_json_reads_it():
    """(How fast: ``benchmarks/bench_safejson.py``.)"""
    text = record_text(moves=4000)
    assert len(text.encode()) > 1_000_000
    assert loads(text) == json.loads(text)


# ----- writing ---------------------------------------------------------------------------------------
def test_dumps_safe_writes_what_loads_reads_back():
    data = json.loads(record_text(3))
    assert loads(dumps_safe(data)) == data
    assert dumps_safe({"a": "ё"}) == '{"a": "ё"}'
    assert dumps_safe([1], indent=2) == json.dumps([1], indent=2)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 10 ** 40, -(10 ** 5000)],
                         ids=["nan", "inf", "-inf", "41 digits", "5001 digits"])
def test_dumps_safe_refuses_numbers_no_reader_accepts(value):
    with pytest.raises(JSONInputError) as err:
        dumps_safe({"xp": value})
    assert err.value.key == "unwritable"


# ----- the refusals in Russian ----------------------------------------------------------------------
def _fields(text):
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)


@pytest.mark.parametrize("key", sorted(safejson.TEMPLATES))
def test_every_refusal_has_a_russian_translation_with_the_same_placeholders(key):
    template = safejson.TEMPLATES[key]
    russian = i18n.translations("ru").ugettext(template)
    assert russian != template
    assert _fields(russian) == _fields(template)


def test_a_screen_says_the_refusal_in_russian():
    err = refusal("[" * 100 + "]" * 100)
    with i18n.use_locale("ru"):
        assert i18n.describe_error(err) == "скобки вложены глубже 64 уровней"
    with i18n.use_locale("en"):
        assert i18n.describe_error(err) == "brackets are nested more than 64 levels deep"

"""JSON from people and files, read within bounds: the one way uploads and stored texts become
Python objects.

``json.loads`` trusts its input. 100,000 nested brackets make it recurse until a
``RecursionError``; an integer of 5,000 digits makes it raise a bare ``ValueError`` (Python
refuses to convert more than 4,300 digits); ``NaN`` and ``Infinity`` come back as floats no
format of this project allows, and ``1e999`` quietly becomes infinity. Each of these was a
500 page. ``loads`` looks at the text first, cheaply and without recursion, and refuses:

* more than ``max_bytes`` bytes (a ``str`` is measured in characters);
* bytes that are not UTF-8 (a UTF-8 byte-order mark is accepted and skipped);
* brackets nested deeper than ``max_depth`` (the formats need fewer than 10 levels);
* a number with more than ``max_digits`` digits in a row (no number of the game has more
  than 7; 30 leaves room for any honest file);
* ``NaN``, ``Infinity``, ``-Infinity`` and numbers too large for a float;
* and, as ``json.loads`` would, text that is not JSON.

Every refusal is a ``JSONInputError`` (a ``ValueError``) carrying an English ``str.format``
``template`` and its ``params``, like the rules engine's errors, so a screen translates it
with ``facilitator.i18n.describe_error`` (the Russian is in ``translations/ru/rules.po``).
``what`` names the input in the English text (``record.json: brackets are nested ...``) and
is kept out of the template, so a screen says in its own words what was refused.

``dumps_safe`` is the writer's half: it refuses NaN, Infinity and numbers longer than
``max_digits`` digits, so whatever the app exports, ``loads`` reads back.
"""

import json
import re
from itertools import accumulate

__all__ = ["JSONInputError", "loads", "dumps_safe", "MAX_DEPTH", "MAX_BYTES", "MAX_DIGITS", "TEMPLATES"]

#: nesting the formats never need: a backup holds tables > log > move > card > special (< 10)
MAX_DEPTH = 64
#: the web app's upload limit (``MAX_CONTENT_LENGTH``): 16 MB
MAX_BYTES = 16 * 1024 * 1024
#: the longest run of digits a number may have; the game's numbers have at most 7
MAX_DIGITS = 30

#: every refusal's English template (the catalog test reads them from here)
TEMPLATES = {
    "too_large": "is {size} bytes, more than the {limit} bytes allowed",
    "not_utf8": "is not UTF-8 text",
    "too_deep": "brackets are nested more than {limit} levels deep",
    "long_number": "a number has more than {limit} digits",
    "not_a_number": "{literal} is not a number JSON allows",
    "huge_number": "the number {number} is too large",
    "not_json": "not valid JSON: line {line}, column {column}: {error}",
    "unwritable": "a number cannot be written as JSON (NaN, Infinity or more than {limit} digits)",
}

# a complete JSON string, escapes included (the unrolled form runs in linear time)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_CHUNK = 1 << 16
_UTF8_BOM = b"\xef\xbb\xbf"
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-16 (and UTF-32, which starts the same way)


class JSONInputError(ValueError):
    """JSON input refused: ``template`` (English, ``str.format``), ``params``, and ``key``
    (a stable name of the refusal, one of ``TEMPLATES``); ``what`` names the input."""

    def __init__(self, key, /, what="", **params):
        self.key = key
        self.template = TEMPLATES[key]
        self.params = params
        self.what = what
        super().__init__(self.message)

    @property
    def message(self):
        return self.template.format(**self.params)

    def __str__(self):
        return f"{self.what}: {self.message}" if self.what else self.message


def _text_of(data, max_bytes, what):
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) > max_bytes:
            raise JSONInputError("too_large", what=what, size=len(data), limit=max_bytes)
        if data.startswith(_UTF8_BOM):
            data = data[len(_UTF8_BOM):]
        elif data.startswith(_WIDE_BOMS):
            raise JSONInputError("not_utf8", what=what)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError("not_utf8", what=what) from None
    if not isinstance(data, str):
        raise TypeError(f"safejson.loads takes str or bytes, not {type(data).__name__}")
    if len(data) > max_bytes:
        raise JSONInputError("too_large", what=what, size=len(data), limit=max_bytes)
    return data[1:] if data.startswith("\ufeff") else data


def _outside_strings(text):
    """The text with every complete string blanked out; an unterminated string runs to the
    end of the text, so it is cut there (``json.loads`` refuses it anyway)."""
    bare = _STRING.sub(" ", text)
    stray = bare.find('"')
    return bare if stray < 0 else bare[:stray]


def _check_depth(bare, max_depth, what):
    brackets = _NOT_BRACKET.sub("", bare)
    if len(brackets) <= max_depth:
        return
    depth = 0
    for start in range(0, len(brackets), _CHUNK):
        steps = accumulate(map(_DEPTH_STEP.__getitem__, brackets[start:start + _CHUNK]), initial=depth)
        running = list(steps)
        if max(running) > max_depth:
            raise JSONInputError("too_deep", what=what, limit=max_depth)
        depth = running[-1]


def _digits_pattern(max_digits):
    return re.compile(r"[0-9]{%d}" % (max_digits + 1))


def _check_numbers(bare, max_digits, what):
    if _digits_pattern(max_digits).search(bare):
        raise JSONInputError("long_number", what=what, limit=max_digits)


def loads(data, *, max_depth=MAX_DEPTH, max_bytes=MAX_BYTES, max_digits=MAX_DIGITS, what=""):
    """The Python object of a JSON text (``str`` or UTF-8 ``bytes``); raises ``JSONInputError``
    for anything refused (see the module's docstring). Objects and arrays come back as
    ``dict`` and ``list``, exactly as ``json.loads`` gives them."""
    text = _text_of(data, max_bytes, what)
    bare = _outside_strings(text)
    _check_depth(bare, max_depth, what)
    _check_numbers(bare, max_digits, what)

    def refuse_constant(literal):
        raise JSONInputError("not_a_number", what=what, literal=literal)

    def finite_float(number):
        value = float(number)
        if value in (float("inf"), float("-inf")):
            raise JSONInputError("huge_number", what=what, number=number)
        return value

    try:
        return json.loads(text, parse_constant=refuse_constant, parse_float=finite_float)
    except json.JSONDecodeError as err:
        raise JSONInputError("not_json", what=what, line=err.lineno, column=err.colno, error=err.msg) from None
    except RecursionError:  # only with a max_depth near the interpreter's own limit
        raise JSONInputError("too_deep", what=what, limit=max_depth) from None


def dumps_safe(obj, *, max_digits=MAX_DIGITS, ensure_ascii=False, **kwargs):
    """``json.dumps`` for exports (same keyword arguments, ``ensure_ascii`` off by default),
    refusing NaN, Infinity and numbers of more than ``max_digits`` digits, so the text it
    writes is one ``loads`` reads back. Raises ``JSONInputError``."""
    try:
        text = json.dumps(obj, allow_nan=False, ensure_ascii=ensure_ascii, **kwargs)
    except ValueError:  # NaN/Infinity, or an int Python will not turn into 4,300+ digits
        raise JSONInputError("unwritable", limit=max_digits) from None
    if _digits_pattern(max_digits).search(_outside_strings(text)):
        raise JSONInputError("unwritable", limit=max_digits)
    return text

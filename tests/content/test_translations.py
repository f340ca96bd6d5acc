"""Every text the content modules show goes through facilitator.i18n and has its Russian in a
catalog; content.po redefines no other catalog's msgid; each translation keeps its msgid's
{placeholders}; and each problem the engine can report has an import sentence."""

import ast
import re
import string
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import facilitator.content as content_package
from facilitator.games.lyceum import importing
from facilitator.games.lyceum import excel
from facilitator.i18n import translations
from facilitator.rules.lyceum import pack as pack_module
from facilitator.rules.lyceum.cards import COLOUR_TEMPLATES
from facilitator.rules.lyceum.pack import MALFORMED_KEYS

#: the modules whose texts content.po translates: «16/25»'s deck files, search and summary (its
#: game package) and the import refusals and ``facilitator pack`` every game shares, with the
#: workbook reading every game's deck reader builds on (``content/workbook.py``)
MODULES = [Path("facilitator/games/lyceum") / name for name in ("excel.py", "summary.py", "search.py")] + [
    Path("facilitator/games/lyceum") / "importing.py", Path("facilitator/games/lyceum/commands.py"),
    Path("facilitator/content/workbook.py")]
CATALOGS = resources.files("facilitator").joinpath("games", "lyceum", "translations", "ru")


def _literal_msgids(path):
    """The first argument of every ``gettext("...")`` call in a module."""
    tree = ast.parse(Path(path).read_text("utf-8"))
    return {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("gettext", "_")
            and node.args and isinstance(node.args[0], ast.Constant)}


def _table_msgids():
    columns = excel.CHARACTER_COLUMNS + excel.CARD_COLUMNS + excel.LEVEL_COLUMNS
    return ({c.header for c in columns if c.header} | {m for _, m in excel.GROUPS}
            | {m for _, m, _ in excel.SETTINGS} | {h for _, _, h in excel.SETTINGS}
            | {m for _, m in excel.SHEETS} | set(importing.FIELD_NAMES.values())
            | set(importing.IMPORT_TEMPLATES.values()) | set(importing.ITEM_TEMPLATES.values())
            | {"green", "yellow", "red", "Lyceum", "University", "Adult life"})


def all_msgids():
    root = Path(content_package.__file__).parent.parent.parent
    found = set().union(*(_literal_msgids(root / m) for m in MODULES))
    return sorted(found | _table_msgids())


@pytest.mark.parametrize("msgid", all_msgids())
def test_every_content_text_has_a_russian_translation(msgid):
    assert translations("ru").ugettext(msgid) != msgid


def _catalog(name):
    with CATALOGS.joinpath(name).open("rb") as fh:
        return {m.id: m.string for m in read_po(fh, locale="ru") if m.id}


def _fields(text):
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)


def test_translations_keep_the_placeholders_of_their_msgid():
    for msgid, msgstr in _catalog("content.po").items():
        assert _fields(msgid) == _fields(msgstr), msgid


def test_content_po_redefines_no_msgid_of_another_catalog():
    ours = _catalog("content.po")
    for entry in CATALOGS.iterdir():
        if entry.name.endswith(".po") and entry.name != "content.po":
            theirs = _catalog(entry.name)
            clashes = {m: (ours[m], theirs[m]) for m in ours.keys() & theirs.keys() if ours[m] != theirs[m]}
            assert not clashes, f"{entry.name} translates these differently: {clashes}"


def _engine_problem_keys():
    """Every key the pack reader gives a problem: MalformedError keys, colour rules, and the
    literal keys of its PackProblem(...) calls."""
    tree = ast.parse(Path(pack_module.__file__).read_text("utf-8"))
    literal = {node.args[4].value for node in ast.walk(tree)
               if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PackProblem"
               and len(node.args) > 4 and isinstance(node.args[4], ast.Constant)}
    return literal | set(MALFORMED_KEYS.values()) | set(COLOUR_TEMPLATES)


@pytest.mark.parametrize("key", sorted(_engine_problem_keys()))
def test_every_problem_the_engine_reports_has_an_import_sentence(key):
    by_item = {k for k, _ in importing.ITEM_TEMPLATES}
    assert key in importing.IMPORT_TEMPLATES or key in by_item


def test_import_sentences_use_only_the_numbers_the_engine_gives():
    # e.g. losses_exact gives color, need, got: the sentence may not ask for anything else
    known = {"losses_exact": {"color", "need", "got"}, "gains_range": {"color", "min", "max", "got"},
             "levels_not_increasing": {"level", "xp", "previous", "previous_xp"}}
    for key, fields in known.items():
        assert set(_fields(importing.IMPORT_TEMPLATES[key])) <= fields
    assert set(_fields(importing.IMPORT_TEMPLATES["losses_exact"])) == set(
        re.findall(r"\{(\w+)\}", COLOUR_TEMPLATES["losses_exact"]))

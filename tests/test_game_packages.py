"""ARCHITECTURE.md decision 12: a game is one package. Its engine is ``facilitator/rules/<game>/``,
the rest ``facilitator/games/<game>/``; the registry (the ``facilitator.games`` entry points) is
the only switch: no module or template outside a game's own folders imports a game's code or
names its key, and no game is the default."""

import ast
from pathlib import Path

import pytest

from facilitator import games
from facilitator.games import GamePackage
from facilitator.rules import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "facilitator"
#: the game folders that ship with the app (a plugin's live in its own distribution)
GAME_FOLDERS = {path.name for path in (PACKAGE / "games").iterdir() if (path / "__init__.py").is_file()}
#: where a game may be named by its key outside its folders, and why (none: history, such as an
#: event backup of format /1, is claimed by the game itself: ``GamePackage.before_games``)
HISTORY = {}


def _own(path):
    """True for a file in one game's own folders (or the migrations' history)."""
    parts = path.relative_to(PACKAGE).parts
    return (len(parts) > 2 and parts[0] in ("games", "rules") and parts[1] in GAME_FOLDERS) or parts[0] == "migrations"


def _shared(pattern):
    return sorted(p for p in PACKAGE.rglob(pattern) if not _own(p) and "__pycache__" not in p.parts)


def _docstrings(tree):
    """The docstring nodes of a module, its classes and functions (prose may name a game)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def game_references(path, keys):
    """What a shared module names of a game: imports of a game's packages, and string constants
    (not prose) equal to a game's key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    found = []
    own_modules = tuple(f"facilitator.{part}.{game}" for part in ("rules", "games") for game in GAME_FOLDERS)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(own_modules):
            found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.ImportFrom) and node.module in ("facilitator.rules", "facilitator.games"):
            found += [f"line {node.lineno}: imports {node.module}.{a.name}" for a in node.names if a.name in GAME_FOLDERS]
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name.startswith(own_modules)]
        elif isinstance(node, ast.Constant) and node.value in keys and id(node) not in prose:
            found.append(f"line {node.lineno}: names {node.value!r}")
    return found


KEYS = {game.key for game in games.registered()}


@pytest.mark.parametrize("path", _shared("*.py"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_module_names_a_game(path):
    found = game_references(path, KEYS)
    if str(path.relative_to(ROOT)) in HISTORY:
        assert all("names" in f for f in found), found
        return
    assert found == []


@pytest.mark.parametrize("path", _shared("*.html") + _shared("*.js"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_template_or_script_names_a_game(path):
    text = path.read_text(encoding="utf-8")
    assert [key for key in KEYS if key in text] == []


def test_the_check_sees_a_game_named_in_a_shared_module(tmp_path):
    """The check above can fail: a module importing a game's engine and defaulting to its key."""
    spoiled = tmp_path / "spoiled.py"
    spoiled.write_text('"""Names lyceum-16-25 in prose only."""\nfrom facilitator.rules.lyceum import Game\n'
                       'RULESET = "lyceum-16-25"\n', encoding="utf-8")
    found = game_references(spoiled, KEYS)
    assert found == ["line 2: imports facilitator.rules.lyceum", "line 3: names 'lyceum-16-25'"]


def test_every_game_is_found_through_the_entry_points():
    from importlib.metadata import entry_points
    declared = {ep.load().key for ep in entry_points(group=registry.GAMES_GROUP)}
    assert declared == KEYS >= {"lyceum-16-25", "alter-ego-3", "new-angeles"}
    assert {r.key for r in registry.all_rulesets()} == KEYS


@pytest.mark.parametrize("game", games.registered(), ids=lambda g: g.key)
def test_every_game_implements_the_interface(game):
    assert isinstance(game, GamePackage)
    assert game.ruleset is registry.get(game.key)
    assert game.templates is not None and (game.templates / game.layout).is_file() or game.layout == "base.html"
    assert game.translations is not None
    names = {bp.name for bp in game.blueprints()}
    for endpoint in (game.turn, game.setup, game.final):
        assert endpoint.split(".")[0] in names, endpoint
    sheets = game.reports_module()
    assert callable(sheets.table_protocol_xlsx) and callable(sheets.table_protocol_pdf)
    assert set(game.event_files) <= {"workbook", "results", "certificates"}


SEAT_HOOKS = {"player_view": ("loaded", "Anna"), "player_state": ("loaded", "Anna"),
              "player_sheet": ("loaded", "Anna"), "projector_chart": (["tables"],)}


@pytest.mark.parametrize("game", games.registered(), ids=lambda g: g.key)
def test_a_games_seat_module_answers_its_players_pages_and_the_projectors_chart(game):
    """Each game that ships with the app names its ``seat`` module, whose functions answer the
    four hooks; a game naming none (the test game) offers none of them."""
    module = __import__(game.seat, fromlist=["_"]) if game.seat else None
    for hook in SEAT_HOOKS:
        assert game.offers(hook) == (module is not None and hasattr(module, hook)), hook
    if game.key in ("lyceum-16-25", "alter-ego-3", "new-angeles"):
        assert all(game.offers(hook) for hook in SEAT_HOOKS)


def test_a_seat_module_answers_the_hooks_it_has_and_a_class_may_override_one(tmp_path, monkeypatch):
    (tmp_path / "some_seat.py").write_text("def player_view(loaded, name):\n    return ('seat.html', {'who': name})\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    class Seated(GamePackage):
        seat = "some_seat"

    class Charted(GamePackage):
        def projector_chart(self, tables):
            return len(tables)

    seated, charted, bare = Seated(), Charted(), GamePackage()
    assert seated.player_view("loaded", "Anna") == ("seat.html", {"who": "Anna"}) and seated.offers("player_view")
    assert seated.player_sheet("loaded", "Anna") is None and not seated.offers("player_sheet")
    assert charted.projector_chart([1, 2]) == 2 and charted.offers("projector_chart") and not charted.offers("player_view")
    assert all(getattr(bare, hook)(*args) is None and not bare.offers(hook) for hook, args in SEAT_HOOKS.items())


def test_no_stored_row_has_a_default_game():
    from facilitator.storage.models import ContentPackRow, Event, GameTable
    for model in (ContentPackRow, Event, GameTable):
        assert model.model_fields["ruleset"].is_required(), model.__name__

"""ARCHITECTURE: the New Angeles engine is pure Python, standard library only. Importing every
module of ``facilitator.rules.newangeles`` in a fresh interpreter must pull in nothing outside
the standard library and ``facilitator.rules``."""

import json
import subprocess
import sys

PROBE = """
import importlib, json, pkgutil, sys
before = set(sys.modules)
import facilitator.rules.newangeles as na
names = [m.name for m in pkgutil.iter_modules(na.__path__)]
for name in names:
    importlib.import_module("facilitator.rules.newangeles." + name)
print(json.dumps({"modules": names, "loaded": sorted(set(sys.modules) - before),
                  "stdlib": sorted(sys.stdlib_module_names)}))
"""


def _run(probe):
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def _outside(report):
    stdlib = set(report["stdlib"])
    return sorted(m for m in report["loaded"]
                  if m.split(".")[0] not in stdlib and m.split(".")[0] != "_distutils_hack"
                  and not (m == "facilitator" or m.startswith("facilitator.rules")))


def test_the_engine_imports_only_the_standard_library_and_the_rules_package():
    report = _run(PROBE)
    assert {"game", "pack", "setup", "moves", "record", "standings", "simulate", "winners"} <= set(report["modules"])
    assert _outside(report) == []


def test_the_probe_would_see_a_foreign_import():
    """The check above can fail: a probe that also imports a web library lists it."""
    report = _run(PROBE.replace("import facilitator.rules.newangeles as na",
                                "import facilitator.rules.newangeles as na\nimport jinja2"))
    assert "jinja2" in _outside(report)


def test_the_engine_borrows_only_the_shared_core_of_the_rules_package():
    """Outside its own package the engine may use the shared core of ``facilitator.rules``: its
    errors (``ReplayError`` among them), the games-neutral bounds (text bounds, what a refusal
    quotes), ``places``, the JSON-schema helpers its declared moves are written with (``schema``), the pack cache (``packcache``) and the registry's ``Ruleset`` (what it is
    as a game), and the standard library: nothing of «16/25»'s rules."""
    import ast
    from pathlib import Path

    import facilitator.rules.newangeles as na

    allowed = {("errors", None), ("bounds", None), ("schema", None), (None, "schema"), ("places", "places"), ("packcache", "read_once"),
               ("registry", "Ruleset")}
    borrowed = set()
    for path in Path(na.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                for alias in node.names:
                    key = (node.module, None if node.module in ("errors", "bounds", "schema") else alias.name)
                    borrowed.add(key)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module.split(".")[0] in sys.stdlib_module_names, (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in sys.stdlib_module_names for a in node.names), path.name
    assert borrowed <= allowed, borrowed - allowed
    assert ("errors", None) in borrowed

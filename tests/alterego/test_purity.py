"""ARCHITECTURE: the Alter Ego rules engine is pure Python, standard library only. Importing every
module of ``facilitator.rules.alterego`` in a fresh interpreter must not pull in a web or
database library, nor any third-party package."""

import json
from functools import lru_cache
import subprocess
import sys

FORBIDDEN = ("flask", "sqlalchemy", "sqlmodel", "werkzeug", "jinja2", "wtforms", "babel", "openpyxl",
             "weasyprint", "alembic")

PROBE = """
import importlib, json, pkgutil, sys
import facilitator.rules.alterego as engine
names = [m.name for m in pkgutil.iter_modules(engine.__path__)]
for name in names:
    importlib.import_module("facilitator.rules.alterego." + name)
engine.default_pack()
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""


@lru_cache(maxsize=None)
def _probe(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def test_the_engine_imports_no_web_or_database_library():
    report = _probe(PROBE)
    assert {"pack", "setup", "moves", "state", "checks", "effects", "game", "record", "standings",
            "simulate"} <= set(report["modules"])
    leaked = sorted(m for m in report["loaded"] if m.split(".")[0] in FORBIDDEN)
    assert leaked == []


def test_the_engine_imports_only_the_standard_library_and_the_shared_rules_modules():
    report = _probe(PROBE)
    ours = sorted(m for m in report["loaded"] if m.startswith("facilitator"))
    outside = [m for m in ours if not (m.startswith("facilitator.rules") or m == "facilitator")]
    assert outside == []
    stdlib = set(sys.stdlib_module_names)
    third_party = sorted({m.split(".")[0] for m in report["loaded"]} - stdlib - {"facilitator", "__main__"}
                         - {m for m in sys.builtin_module_names})
    assert [m for m in third_party if not m.startswith("_")] == []


def test_the_probe_would_see_a_forbidden_import():
    """The check above can fail: a probe that imports one of them does list it."""
    probe = PROBE.replace("import facilitator.rules.alterego as engine",
                          "import facilitator.rules.alterego as engine\nimport jinja2")
    assert "jinja2" in _probe(probe)["loaded"]

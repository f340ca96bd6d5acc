"""ARCHITECTURE: the rules engine is pure Python, standard library only. Importing every module
of ``facilitator.rules`` (every game's engine and the shared core) in a fresh interpreter must not pull in a web or database library."""

import json
import subprocess
import sys

FORBIDDEN = ("flask", "sqlalchemy", "sqlmodel", "werkzeug", "jinja2")

PROBE = """
import importlib, json, pkgutil, sys
import facilitator.rules as rules
names = [m.name for m in pkgutil.walk_packages(rules.__path__, "facilitator.rules.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""


def test_the_rules_engine_imports_no_web_or_database_library():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                         timeout=60)
    report = json.loads(out.stdout)
    assert {f"facilitator.rules.{game}.{m}" for game in ("lyceum", "alterego", "newangeles")
            for m in ("game", "setup", "pack", "record", "standings", "moves")} <= set(report["modules"])
    leaked = sorted(m for m in report["loaded"] if m.split(".")[0] in FORBIDDEN)
    assert leaked == []


def test_the_probe_would_see_a_forbidden_import():
    """The check above can fail: a probe that imports one of them does list it."""
    probe = PROBE.replace("import facilitator.rules as rules",
                          "import facilitator.rules as rules\nimport jinja2")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         timeout=60)
    loaded = json.loads(out.stdout)["loaded"]
    assert "jinja2" in loaded

"""The test game of tests/plugin_game/ (Tally) installed as a distribution of its own, as pip
would install it, without pip: its package and a ``facilitator_tally-0.1.dist-info`` folder
(``METADATA``, and ``entry_points.txt`` written from the entry points its ``pyproject.toml``
declares) in a folder put on ``sys.path``. The app then finds it the way it finds any game, by
the ``facilitator.games`` entry points (``registry.rediscover()``).

Nothing is installed into the virtual environment: the folder is this test process's own, so
the other test processes (xdist) and servers never see the game, and taking the folder off
``sys.path`` uninstalls it.
"""

import contextlib
import importlib
import shutil
import sys
import tomllib
from pathlib import Path

from facilitator.rules import registry

SOURCE = Path(__file__).resolve().parents[1] / "plugin_game"
PACKAGE = "facilitator_tally"
KEY = "tally"


def project():
    """The ``[project]`` table of the game's ``pyproject.toml``."""
    return tomllib.loads((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def build_site(folder):
    """Lay the game out in ``folder`` as an installed distribution; returns ``folder``."""
    meta = project()
    folder = Path(folder)
    shutil.copytree(SOURCE / PACKAGE, folder / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    dist = folder / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n"
                                   f"Summary: {meta['description']}\n", encoding="utf-8")
    groups = "".join(f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items()) + "\n"
                     for group, points in meta["entry-points"].items())
    (dist / "entry_points.txt").write_text(groups, encoding="utf-8")
    (dist / "INSTALLER").write_text("tests\n", encoding="utf-8")
    return folder


def install(site):
    """Put the game of ``site`` (``build_site``) on ``sys.path`` and find the games again."""
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()  # importlib.metadata looks at sys.path again
    registry.rediscover()


def uninstall(site):
    """Take it off ``sys.path`` and find the games again, without it. (Its modules, once
    imported, stay in ``sys.modules``, as an uninstalled package's do in a running process.)"""
    sys.path.remove(str(site))
    importlib.invalidate_caches()
    registry.rediscover()


@contextlib.contextmanager
def installed(site):
    """The game of ``site`` installed for the ``with`` block."""
    install(site)
    try:
        yield
    finally:
        uninstall(site)

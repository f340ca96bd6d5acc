"""Fixtures of the tests every game shares (``test_table_life.py``) and of the game installed
from a package of its own (``test_plugin_game.py``, ``plugin.py``).

While a test module of this folder runs, the test game is installed (``tally``, module scope),
and the app these tests use is one made with it installed: its blueprints include the game's
screens. That app is kept apart from the one of every other test (``conftest.app_on``), so no
other test ever sees a game it does not know; the game is uninstalled when the module ends.
The database is SQLite's (``db_url``), to keep these tests quick.
"""

import conftest as root  # tests/conftest.py: how an app is made on a test's fresh database
import pytest

from . import plugin

#: the app made while the test game is installed, one per test process
_SHARED = {}


@pytest.fixture(scope="session")
def tally_site(tmp_path_factory):
    """The test game laid out as an installed distribution (once per test process)."""
    return plugin.build_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module", autouse=True)
def tally(tally_site):
    """The test game installed while this folder's module runs: its ``GamePackage``."""
    from facilitator import games
    with plugin.installed(tally_site):
        yield games.get(plugin.KEY)


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: what these tests check is the same on both backends, and the services they
    go through run on PostgreSQL too in the tests of each game and of the events."""
    import shutil
    shutil.copyfile(root._sqlite_template(tmp_path_factory), tmp_path / "test.db")
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def app(db_url, tmp_path, monkeypatch, tally):
    """The app of ``tests/conftest.py`` made while the test game is installed."""
    yield from root.app_on(db_url, tmp_path, monkeypatch, _SHARED)

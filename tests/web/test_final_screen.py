"""The final screen (issue 3, item 4; RULES.md 4): final XP, the bonus for each declared future
image checked skill by skill, places with ties, the winner(s). Before finish the same screen
shows provisional results."""

import re

import pytest

from facilitator.rules.lyceum import Move

from .helpers import get, pass_until, record, submit

import conftest as root  # tests/conftest.py: how a fresh database is made

pytestmark = pytest.mark.db


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the final screen drawn)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def rows(page):
    """The results table: ``{player: (place, xp, bonus, final XP)}``."""
    out = {}
    for chunk in page.html.split("<tr")[1:]:
        match = re.search(r'data-player="([^"]+)"', chunk)
        if not match:
            continue
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", chunk, re.S)]
        out[match.group(1)] = (int(cells[0]), int(cells[2]), int(cells[4]), int(cells[5]))
    return out


@pytest.fixture
def finished(host, table):
    """Аня (500 XP) meets her future image of 35 (+300); Борис has 800 XP; Вика 600 XP."""
    app = host.application
    record(app, table,
           Move("adjust", player="Аня", xp=500, sp={"health": 4, "creativity": 5, "communication": 5, "energy": 1},
                reason="проверка"),
           Move("allocate", player="Аня", sp={"intellect": 4}),
           Move("adjust", player="Борис", xp=800, reason="проверка"),
           Move("allocate", player="Борис", sp={"intellect": 6}),
           Move("adjust", player="Вика", xp=600, reason="проверка"),
           Move("allocate", player="Вика", sp={"intellect": 4}))
    pass_until(app, table, lambda g: g.next()["expects"] == "finish")
    return table


def test_provisional_results_before_finish(host, table):
    page = get(host, f"/table/{table}/final")
    assert page.status == 200
    assert "Provisional results" in page
    assert "The game is not finished: these results are provisional." in page
    assert "Winner" not in page


def test_the_final_screen_shows_places_with_ties_bonuses_and_the_winners(host, finished):
    confirm = get(host, f"/table/{finished}/finish")  # finishing asks first, showing the final bonuses
    done = submit(host, confirm.form("/move/finish"), follow=True)
    assert done.status == 200 and done.response.request.path == f"/table/{finished}/final"
    page = get(host, f"/table/{finished}/final")
    assert page.status == 200
    assert "Final results" in page
    assert rows(page) == {"Аня": (1, 500, 300, 800), "Борис": (1, 800, 0, 800), "Вика": (3, 600, 0, 600)}
    assert "Winners: Аня, Борис" in page
    assert "health 7/7 ✓" in page and "creativity 7/7 ✓" in page
    assert "Table total (average 733.3)" in page
    assert not [f for f in page.forms if "/move/" in f.action]


def test_a_declared_image_not_met_gives_no_bonus_and_says_which_skill(host, table):
    pass_until(host.application, table, lambda g: g.next()["expects"] == "finish")
    record(host.application, table, Move("finish"))
    page = get(host, f"/table/{table}/final")
    assert rows(page)["Аня"] == (1, 0, 0, 0)
    assert "health 3/7 ✗" in page and "intellect 8/7 ✓" in page
    assert "Winners: Аня, Борис, Вика" in page  # nobody scored: all share the first place

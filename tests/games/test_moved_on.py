"""A screen drawn for a position the table has left says so, the same way for every game
(``web.table.bound`` and ``templates/table/moved_on.html``, issue 19): 409, what was recorded
since in the game's own words, that nothing was recorded from it, what the game waits for now,
and the way back to the table, in the game's layout. One page of each game that leads to a
move, opened with the ``after`` it was drawn for once the table has moved on."""

import pytest

from facilitator import services
from tests.pages import db, english, get

from .drivers import DRIVERS
from .test_table_life import seated

#: a page of each game bound to the position it was drawn for, what the move recorded since
#: reads as on it (in English), what the game waits for then, and a mark of the game's layout
BOUND = {
    "lyceum-16-25": ("/draw?color=green&after=0&player={player}", "pass · {player}", "Now: turn of", "<strong>Table 1</strong>"),
    "alter-ego-3": ("/adjust?after=0", "#1 {player} draws 2 cards", "Now: {player} plays", 'class="ae-table"'),
    "new-angeles": ("/finish?after=0", "capital change · {player}", "Now: deal 1 of 3", 'class="na-table-name"'),
}
FIRST_MOVE = {"lyceum-16-25": "pass", "alter-ego-3": "draw", "new-angeles": "capital"}


@pytest.mark.parametrize("key", sorted(BOUND))
def test_a_page_drawn_before_the_table_moved_on_says_what_happened_in_the_games_words(app, client, key):
    driver = DRIVERS[key]
    host = english(client)
    table_id = seated(app, host, driver)
    with db(app) as s:
        loaded = services.load(s, table_id)
        player = loaded.game.next().get("player") or "Boris"
        data = {"type": FIRST_MOVE[key], "player": player}
        if key == "new-angeles":
            data.update(amount=2, reason="contract")
        services.record_move(s, table_id, loaded.ruleset.read_move(data), 0)
    tail, move, now, layout = (part.format(player=player) for part in BOUND[key])
    page = get(host, driver.url(table_id, tail))
    assert page.status == 409, (page.status, page.text[:1000])
    assert 'data-status="moved-on"' in page.html and layout in page.html
    assert f"Move #1 was recorded since this screen was drawn: {move}." in page.text, page.text[:1500]
    assert "Nothing was recorded from this screen." in page.text and now in page.text
    assert f'href="{driver.url(table_id)}"' in page.html  # the way back: the table's main screen
    # drawn for the position now (and, in «16/25», for no other player), the page is the game's own again
    assert get(host, driver.url(table_id, tail.replace("after=0", "after=1").split("&player=")[0])).status != 409

"""A whole game through the screens only: a host taps what each page offers until the 4th
season card ends the game; the final screen says what the replay of the table's record says."""

import json
import re

from facilitator.rules import registry

from .driver import Host
from .helpers import THREE, TWO, get, new_table, seat


def final_rows(page):
    return {name: (int(place), int(influence)) for name, place, influence in re.findall(
        r'data-player="(\w+)">\s*<td class="num place">(\d+)</td>.*?'
        r'<td class="num influence" data-influence>(\d+)</td>',
        page.html, re.S)}


def play_out(app, host, players, seed):
    table = seat(host, new_table(app, f"Pöytä {seed}"), players, first=players[0]["name"])
    counts = Host(host, table, seed=seed, season_every=5, plays_per_turn=3).play()
    record = json.loads(host.get(f"/table/{table}/record.json").get_data(as_text=True))
    rules = registry.get("alter-ego-3")
    game = rules.replay(rules.read_record(record))
    assert game.finished and game.ended_by == "season" and game.season == 4
    expected = {p["name"]: (p["place"], p["influence"]) for p in rules.table_standing(game)["players"]}
    page = get(host, f"/ae/table/{table}/final")
    assert final_rows(page) == expected
    return counts, record


def test_three_players_play_four_seasons_on_the_screens(app, host):
    counts, record = play_out(app, host, THREE, seed=7)
    for kind in ("draw", "season", "play_activity", "play_event", "ability", "react", "end_turn"):
        assert counts.get(kind), (kind, counts)
    assert sum(1 for m in record["moves"] if m["type"] == "season") == 4


def test_two_players_too(app, host):
    play_out(app, host, TWO, seed=11)

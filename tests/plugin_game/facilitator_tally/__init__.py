"""Tally, a fourth game from a package of its own (issue 19, item 8): what a game installed from
another distribution brings, and nothing more. Its entry point (``pyproject.toml``,
``facilitator.games``) names ``GAME``; the app finds it there and asks it everything: its
engine (``engine.RULESET``), its screens under ``/tally`` (``screens``), its protocol
(``reports``) and its templates, the dashboard's and the projector's parts included.

This module stays light (no Flask, no database), as the app asks of every game's.
"""

from pathlib import Path

from facilitator.games import GamePackage

from facilitator_tally.engine import RULESET


class Tally(GamePackage):
    ruleset = RULESET
    folder = Path(__file__).parent
    screens = "facilitator_tally.screens"
    turn, setup, final = "tally.turn", "tally.setup", "tally.final"
    layout = "tally/_layout.html"
    reports = "facilitator_tally.reports"

    def narrate(self, loaded, result):
        from facilitator_tally.screens import result_line
        return [result_line(result, loaded.pack)]

    def move_names(self):
        return {"add": "add points", "pass": "pass"}

    def standings_text(self, result):
        lines = []
        for table in result["tables"]:
            lines.append(table["table"])
            lines += [f"  {p['place']}. {p['name']} {p['score']}" for p in table["players"]]
        return "\n".join(lines)


GAME = Tally()

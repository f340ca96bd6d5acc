"""How the shared table tests (``test_table_life.py``) drive each game: where its screens are,
the setup form that seats a table, and three moves of the first turn as its turn screen's form
posts them: one the rules take, one they refuse (422), one that is not a move (400). Everything
a game does its own way is here; the assertions are the same for every game.

A game registered without a driver fails ``test_every_registered_game_has_a_driver``: a new game
gets the table's tests by adding its driver here.
"""

from dataclasses import dataclass, field

from facilitator import services
from tests.games import plugin
from tests.pages import db
from tests.web import helpers as lyceum
from tests.alterego_web import helpers as alterego
from tests.newangeles_web import helpers as newangeles


@dataclass(frozen=True)
class Move:
    """A move form of the turn screen (``/move/<kind>``) with the fields changed from what the
    screen drew (the player on turn, the defaults)."""

    kind: str
    changes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Driver:
    key: str  # the game's ruleset key
    prefix: str  # where its screens are: ``{prefix}/table/<id>``
    setup: dict  # the setup form's fields that seat a table
    legal: Move  # a move of the first turn the rules take
    illegal: Move  # one they refuse (the table's next player is not the one named, too many points, …)
    malformed: Move  # one that is not a move of the format
    #: another move of the first turn the rules take (a second tablet's, entered meanwhile), and
    #: one they take once ``legal`` is recorded (what the table waits for then); the browser's
    #: stale-tablet test needs them for every game the server registers
    rival: Move | None = None
    then: Move | None = None
    #: a page of the game that leads to a move, bound to the position it was drawn for
    #: (``?after=``), opened as every screen is (``web.table.opening``); None: the game has none
    bound: str | None = None

    def url(self, table_id, tail=""):
        return f"{self.prefix}/table/{table_id}{tail}"


DRIVERS = {d.key: d for d in [
    Driver("lyceum-16-25", "", lyceum.setup_data(lyceum.THREE),
           legal=Move("pass"), illegal=Move("pass", {"player": "Борис"}), malformed=Move("pass", {"player": ""}),
           rival=Move("rest"), then=Move("pass"), bound="/finish"),
    Driver(alterego.RULESET, "/ae", alterego.setup_fields(alterego.THREE, first="Aino"),
           legal=Move("draw"), illegal=Move("draw", {"player": "Bertta"}), malformed=Move("draw", {"player": ""}),
           rival=Move("season"), then=Move("end_turn"), bound="/adjust"),
    Driver("new-angeles", "/na", newangeles.setup_form(),
           legal=Move("capital", {"player": "Boris", "amount": 2, "reason": "contract"}),
           illegal=Move("capital", {"player": "Anna", "amount": -11, "reason": "event"}),
           malformed=Move("capital", {"player": "Anna", "amount": "", "reason": "event"}),
           rival=Move("capital", {"player": "Vera", "amount": 3, "reason": "contract"}),
           then=Move("capital", {"player": "Boris", "amount": 2, "reason": "contract"}), bound="/finish"),
    Driver(plugin.KEY, "/tally", {"player-0": "Ann", "player-1": "Ben", "player-2": "Cleo"},
           legal=Move("add", {"points": 2}), illegal=Move("add", {"points": 5}),
           malformed=Move("add", {"points": "many"})),
]}


def new_table(app, key, name="Table 1", event_id=None):
    """A table of the game ``key`` with its shipped pack and no players, as the start page or an
    event makes one; its id."""
    with db(app) as s:
        row = services.packs.ensure_sample(s, key)
        return services.create_table(s, name, row, event_id=event_id, access=True).id


__all__ = ["DRIVERS", "Driver", "Move", "new_table"]

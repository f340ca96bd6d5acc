"""The rules engine of Alter Ego, 3rd edition (ruleset ``alter-ego-3``): pure Python, standard
library only.

RULES.md and RECORD.md of ``games/alter-ego`` are the contract; everything they say is
enforced here. The modules:

* ``pack``: `alterego-pack/1` decks (``read_pack``, ``default_pack``);
* ``setup``: the table (``read_setup``, ``propose_first``);
* ``moves``: moves as records carry them (``read_move``);
* ``state``: the state and what is read from it (N, U, in force, P, A, influence);
* ``checks``: whether a move is legal now (the rule-reference scheme is documented there);
* ``effects``: what a legal move does (gains, losses, seasons, reactions as modifiers);
* ``game``: ``Game`` (check, apply, offers and legal moves, options, copy);
* ``record`` and ``standings``: `alterego-record/1` and `alterego-standings/1`;
* ``simulate``: random legal games for property tests and benchmarks.

**Rule references** of ``IllegalMoveError.rule``: ``P1``–``P9`` (RULES.md 3.2), ``§<section>``
(``§1.1`` … ``§7``), ``§6.<n>`` for decision n; the message starts with it (``"P6: …"``).
Refusals that RECORD.md calls malformed but that only the pack or the table can tell
(unknown key or id, a card of the wrong type, a card field missing or extra) are
``MalformedError`` with ``path`` ``move.<field>``, ``rule`` ``"§7"`` and a ``code``.

**Decisions beyond RULES.md 6** (each tested in ``tests/alterego``):

1. A pack's, an active's or a card's unknown keys are kept and written back; active keys are
   ``[a-z0-9_]+``, card keys any non-empty ASCII; ``cancels`` is a non-empty list.
2. ``play_activity`` of an event breaks P1 (``p1_not_activity``, P1 says "C is a hobby or
   chore"); ``play_event`` of an activity and ``react`` of a non-reaction are malformed.
3. An ``adjust`` without a reason (missing or blank) is illegal (§7 lists it, decision 45),
   not malformed; an ``adjust`` adds at most one activity (its id is ``a<move number>``:
   two would clash), else malformed; a Seurustelu added by ``adjust`` cannot date its own
   holder (``adjust_partner_self``); ``changes`` is a non-empty list. ``finish`` may carry
   no ``reason`` at all.
4. Nakkikone: one gain per in-force Nakkikone (as separate gains, so Imaami's reduction and
   Taktinen teko treat each alike).
5. A pending choice left without options by an ``adjust`` stays in the queue (decision 42);
   the host adds an option back or ends the game with ``finish``.
6. Gains and losses of an away active do nothing (an event ``unaffected_away`` records it),
   so a Lopputyö completed by an away holder at the end of season 4 relieves nothing.
7. The season discards (seasons 2 and 3) count every hobby held, in force or not (only the
   athletic protection asks for in force, decision 39); ``discard_hobby`` options are all
   hobbies held. After step 2d no activity is paused.
8. Mun kaverit chained on one trigger: the last one decides where the couple or the mover
   ends (each must differ from where the trigger sends them so far).
9. ``standings`` refuses two tables of one name (decision 49) with a ``MalformedError``.
10. ``propose_first``: players without ``born`` come after those with one.
11. ``offers`` lists every card of the pack (hands are hidden, RULES.md intro), each with
    ``legal`` and its reason (``Game.offer``); ``legal_moves`` drops only the types none of
    whose options is legal. A Seurustelu onto the player's own active is refused (P9) before
    a partner is named; an Uusi aktiivi with an empty active deck before an active is.
"""

from ..errors import IllegalMoveError, MalformedError, PackError, Problem, RulesError, SetupError
from ..errors import ReplayError
from .game import Game, MoveResult
from .moves import MOVE_TYPES, Move, read_move, write_move
from .pack import PACK_FORMAT, RULESET, ActiveCard, Card, Pack, default_pack, pack_problems, read_pack, write_pack
from .record import RECORD_FORMAT, Record, read_record, replay, write_record
from .setup import PlayerSetup, Setup, propose_first, read_setup
from .standings import STANDINGS_FORMAT, standings, table_ranking, table_standing

__all__ = [
    "RULESET", "PACK_FORMAT", "RECORD_FORMAT", "STANDINGS_FORMAT",
    "IllegalMoveError", "MalformedError", "PackError", "Problem", "RulesError", "SetupError", "ReplayError",
    "Game", "MoveResult", "MOVE_TYPES", "Move", "read_move", "write_move",
    "ActiveCard", "Card", "Pack", "default_pack", "pack_problems", "read_pack", "write_pack",
    "Record", "read_record", "replay", "write_record",
    "PlayerSetup", "Setup", "propose_first", "read_setup",
    "table_ranking", "standings", "table_standing",
]

"""The protocol (протокол) of one table, as data: what the host used to write on paper.

``build_protocol(game)`` reads the engine's replay (``Game.history``, one ``MoveResult`` per
move) and returns a ``Protocol``: the setup rows, the round-by-round grid, the move log,
the deferred cards and how long they were held, and the final block with the declaration
check. The workbook and the PDFs both render this one object, so they always agree.

The engine keeps no per-round snapshots; they are derived here from ``MoveResult.after``
(every player's XP and level after each move): a player's XP "after round r" is their XP
after the last move made in round r.

Texts in the protocol (what a move did, the status line...) are translated when the
protocol is built, in the current locale (``facilitator.i18n.use_locale``).
"""

from dataclasses import dataclass, field
from datetime import date, datetime

from facilitator.games.lyceum import words
from facilitator.i18n import gettext as _
from facilitator.rules.lyceum import ROUNDS, SKILLS, Move, read_move, table_standing, turn_order_reason
from facilitator.rules.lyceum.setup import start_skills

FINAL = "final"
PROVISIONAL = "provisional"


# ----- undone moves -------------------------------------------------------------------------
@dataclass
class UndoneMove:
    """A move taken back. The replay leaves it out; the protocol shows it, marked.

    ``kind`` says how it was taken back, as the move log's "take back" row says it:
    ``"undo"`` (the host undid it), ``"void"`` (the organizer voided a move that does not
    replay, from a repair screen) or ``"reopen"`` (the organizer reopened a finished table,
    taking back its ``finish``); each is worded its own way (``words.take_back_text``).

    ``after`` is how many moves in force came before it in the log (it is shown right after
    that move). When ``after`` is None, it is placed by its ``at`` time among the moves in
    force, or at the end of the log when there is no time to go by.
    """

    move: Move
    undone_at: str | None = None
    undone_by: str | None = None
    after: int | None = None
    kind: str = "undo"


def read_undone(entries):
    """``UndoneMove`` objects from what a caller has at hand. Each entry may be:

    * an ``UndoneMove``;
    * a dict ``{"move": move, "undone_at": ..., "undone_by": ..., "after": ..., "kind": ...}``;
    * a tuple ``(move, undone_at, undone_by)``, ``(move, undone_at, undone_by, after)`` or
      ``(move, undone_at, undone_by, after, kind)``;
    * a pair ``(move, row)`` where ``row`` is the storage's "take back" row, as
      ``LoadedTable.undone_moves()`` returns it: ``created_at``, ``author`` and ``kind``
      (``"undo"`` | ``"void"`` | ``"reopen"``; a row without one is an undo).

    ``move`` is a ``Move`` or its record dict (RECORD.md 2); ``undone_at`` an ISO text or a
    ``datetime``. A kind the protocol does not know is shown as an undo (a protocol must
    still print).
    """
    out = []
    for entry in entries or ():
        if isinstance(entry, UndoneMove):
            item = entry
        elif isinstance(entry, dict):
            item = UndoneMove(entry["move"], entry.get("undone_at"), entry.get("undone_by"), entry.get("after"),
                              entry.get("kind") or "undo")
        elif len(entry) == 2:
            move, row = entry
            item = UndoneMove(move, getattr(row, "created_at", None), getattr(row, "author", None),
                              kind=getattr(row, "kind", None) or "undo")
        else:
            item = UndoneMove(*entry)
        move = item.move if isinstance(item.move, Move) else read_move(item.move, "undone.move", strict=False)
        undone_at = item.undone_at
        if isinstance(undone_at, datetime):
            undone_at = undone_at.isoformat()
        kind = item.kind if item.kind in words.TAKE_BACK_KINDS else "undo"
        out.append(UndoneMove(move, undone_at, item.undone_by, item.after, kind))
    return out


def undone_as_json(entries):
    """The moves taken back (any form ``read_undone`` accepts, e.g. ``LoadedTable.undone_moves()``)
    as plain JSON-able dicts ``{"move", "undone_at", "undone_by", "after", "kind"}``: what
    ``pdf.render_protocol_pdf_from_record`` takes in another process."""
    return [{"move": item.move.to_dict(), "undone_at": item.undone_at, "undone_by": item.undone_by,
             "after": item.after, "kind": item.kind} for item in read_undone(entries)]


# ----- the rows of a protocol ---------------------------------------------------------------
@dataclass
class PlayerRow:
    """One player's setup, in seating order."""

    seat: int  # 1-based, clockwise
    name: str
    born: object  # a date (or the text as given)
    character: str
    character_name: str
    direction: str
    base: dict
    extra: dict
    start: dict
    declaration: dict | None
    declared: int | None
    turn: int  # 1-based position in the turn order


@dataclass
class RoundCell:
    """A player's XP and level after one round, and what they did in it."""

    xp: int
    level: int
    gained: int  # XP gained in this round (negative after a correction)
    moves: list = field(default_factory=list)  # short labels, in order

    @property
    def label(self):
        return "; ".join(self.moves)


@dataclass
class GridRow:
    name: str
    cells: list  # ROUNDS entries: RoundCell, or None for a round not reached yet


@dataclass
class LogRow:
    """One line of the move log. ``number`` is the move's 1-based place in the record (None for
    lines that are not moves in force: an expired deferred card, an undone move)."""

    number: int | None
    round: int
    kind: str  # the move type, or "expired" / "undone"
    what: str
    player: str | None = None
    color: str | None = None
    card_code: str | None = None
    card_title: str | None = None
    xp: int | None = None  # the player's XP change
    skills: dict = field(default_factory=dict)  # the player's skill changes
    free_sp: int | None = None  # change of the player's pending free SP
    levels: list = field(default_factory=list)  # levels reached for the first time
    xp_after: int | None = None
    level_after: int | None = None
    deferred_until: int | None = None
    special: str = ""
    details: list = field(default_factory=list)  # others' gains, redistribution, reason, note
    at: str | None = None
    undone: bool = False
    taken_back: str | None = None  # for an undone line: "undo" / "void" / "reopen"

    @property
    def skills_text(self):
        return words.skill_changes(self.skills)

    @property
    def levels_text(self):
        return ", ".join(str(v) for v in self.levels)

    @property
    def details_text(self):
        return "; ".join(self.details)

    @property
    def card_label(self):
        return self.card_code or self.card_title or ""


@dataclass
class DeferralRow:
    """A deferred card: who held it, from when, until when it could be played, and its fate."""

    player: str
    card_code: str | None
    card_title: str
    color: str
    round: int
    until: int
    outcome: str = "held"  # played / expired / finish / held
    outcome_round: int | None = None

    @property
    def held_rounds(self):
        """How many rounds the card was held (to the round it was played or dropped)."""
        return None if self.outcome_round is None else self.outcome_round - self.round

    @property
    def outcome_text(self):
        if self.outcome == "played":
            return _("played in round {round}", round=self.outcome_round)
        if self.outcome == "expired":
            return _("expired after round {round}", round=self.outcome_round)
        if self.outcome == "finish":
            return _("discarded at the end of the game")
        return _("held; may be played until round {round}", round=self.until)


@dataclass
class SkillCheck:
    skill: str
    have: int
    target: int

    @property
    def met(self):
        return self.have >= self.target


@dataclass
class ResultRow:
    """One player's line of the final block (turn order), as the standings compute it."""

    place: int
    name: str
    character: str
    xp: int
    level: int
    skills: dict
    declared: int | None
    checks: list  # SkillCheck per skill when a future image was declared, else []
    met: bool
    bonus: int
    final_xp: int


@dataclass
class Protocol:
    """Everything one table's protocol shows. ``final`` is False while the game goes on."""

    game: object
    table: str
    event: str | None
    event_date: str | None  # the event's day, ISO "YYYY-MM-DD" (None: no date printed)
    pack_title: str
    generated_at: datetime
    final: bool
    round: int
    era: str
    players: list  # PlayerRow, seating order
    order: list  # names, turn order
    order_reason: str
    grid: list  # GridRow, turn order
    log: list  # LogRow
    deferrals: list  # DeferralRow
    results: list  # ResultRow, turn order
    total_xp: int
    average_xp: float
    levels: tuple  # the pack's level thresholds

    @property
    def status(self):
        return FINAL if self.final else PROVISIONAL

    @property
    def status_text(self):
        if self.final:
            return _("Final: the game is finished.")
        return _("Provisional: the game is in round {round} ({era}); the results are not final.",
                 round=self.round, era=words.era_name(self.era))

    @property
    def results_by_place(self):
        return sorted(self.results, key=lambda r: r.place)

    @property
    def winners(self):
        return [r for r in self.results if r.place == 1]

    @property
    def rounds_reached(self):
        return max((i + 1 for row in self.grid for i, c in enumerate(row.cells) if c is not None), default=0)

    @property
    def specials(self):
        """The log lines of red cards played with a special ability."""
        return [r for r in self.log if r.special and not r.undone]

    @property
    def adjustments(self):
        return [r for r in self.log if r.kind == "adjust" and not r.undone]


# ----- building -----------------------------------------------------------------------------
def _player_rows(game):
    pack = game.pack
    turn_of = {name: i + 1 for i, name in enumerate(game.order)}
    rows = []
    for seat, p in enumerate(game.setup):
        char = pack.characters_by_code[p.character]
        rows.append(PlayerRow(
            seat=seat + 1, name=p.name, born=words.as_date(p.born), character=p.character,
            character_name=char.name, direction=char.direction,
            base={s: char.skills.get(s, 0) for s in SKILLS},
            extra={s: p.extra.get(s, 0) for s in SKILLS},
            start=start_skills(pack, p),
            declaration={s: p.declaration.get(s, 0) for s in SKILLS} if p.declaration else None,
            declared=p.declared, turn=turn_of[p.name]))
    return rows


def _order_reason(game):
    return words.turn_order_text(*turn_order_reason(game.pack, game.setup), sentence=True)


def _card_fields(card):
    if card is None:
        return {}
    return {"color": card.color, "card_code": card.code, "card_title": card.title}


#: what a move is, in words (kept under its old name for callers of the protocol module)
describe = words.move_name


def _log_row(result, number):
    move = result.move
    row = LogRow(number=number, round=result.round, kind=move.type, what=words.move_name(move),
                 player=move.player, at=move.at, **_card_fields(result.card))
    change = result.changes.get(move.player, {}) if move.player else {}
    row.xp = change.get("xp")
    row.skills = dict(change.get("skills", {}))
    row.free_sp = change.get("pending")
    row.levels = list(change.get("levels", []))
    if move.player:
        row.xp_after, row.level_after = result.after[move.player]
    # the engine's number: the last round the card can really be played in (never past round 10)
    row.deferred_until = result.deferred_until
    if result.card is not None and result.card.special and (move.type == "play_deferred" or move.decision == "play"):
        row.special = result.card.special.text
    if move.redistribute:
        row.details.append(_("redistributed: {changes}", changes=words.skill_changes(move.redistribute)))
    if move.type == "share":
        row.details.append(_("every other player gets {xp} XP", xp=words.number(result.shared_xp)))
    for name, other in result.changes.items():
        if name == move.player or "xp" not in other:
            continue
        row.details.append(words.gain_text(name, other))
    if move.reason:
        row.details.append(_("reason: {reason}", reason=move.reason))
    if move.note:
        row.details.append(_("note: {note}", note=move.note))
    return row


def _undone_row(item, round_no):
    move = item.move
    card = move.card if move.card is not None and not isinstance(move.card, str) else None
    row = LogRow(number=None, round=round_no, kind="undone", what=words.move_name(move), player=move.player,
                 at=move.at, undone=True, taken_back=item.kind, **_card_fields(card))
    if isinstance(move.card, str):
        row.card_code = move.card
        row.color = move.color
    elif move.type == "adjust":
        row.xp = move.xp
        row.skills = dict(move.sp or {})
    elif move.type == "allocate":
        row.skills = dict(move.sp or {})
    when = words.format_time(item.undone_at) if item.undone_at else ""
    row.details.append(words.take_back_text(item.kind, when, item.undone_by or ""))
    if move.reason:
        row.details.append(_("reason: {reason}", reason=move.reason))
    return row


def _moment(text_value):
    """A move's ``at`` as something to compare: a ``datetime`` when it reads as one (so
    ``...Z`` and ``...+03:00`` compare right), else the text itself."""
    moment = words.parse_time(text_value)
    return (0, moment.timestamp(), "") if moment is not None and moment.tzinfo else (1, 0, text_value)


def _place_undone(undone, moves):
    """How many moves in force precede each undone move: ``[(after, UndoneMove)]``."""
    placed = []
    for item in undone:
        after = item.after
        if after is None:
            after = len(moves)
            if item.move.at:
                when = _moment(item.move.at)
                after = sum(1 for m in moves if m.at and _moment(m.at) <= when)
        placed.append((max(0, min(after, len(moves))), item))
    placed.sort(key=lambda pair: pair[0])
    return placed


def _walk(game, undone):
    """Log rows, deferrals and per-round snapshots from the game's history."""
    log, deferrals, held = [], [], {}
    snapshots = {}  # round -> {name: (xp, level)} after the round's last move so far
    labels = {}  # (name, round) -> [short labels]
    placed = _place_undone(undone, [r.move for r in game.history])
    pending_undone = list(placed)
    last_round = 1

    def flush_undone(count):
        while pending_undone and pending_undone[0][0] <= count:
            log.append(_undone_row(pending_undone.pop(0)[1], last_round))

    flush_undone(0)
    for i, result in enumerate(game.history):
        move = result.move
        for name, card in result.expired:
            deferral = held.pop(name, None)
            at_finish = move.type == "finish"
            expired_round = result.round if at_finish or deferral is None else deferral.until
            if deferral is not None:
                deferral.outcome = "finish" if at_finish else "expired"
                deferral.outcome_round = expired_round
            log.append(LogRow(
                number=None, round=expired_round, kind="expired", player=name,
                what=_("Deferred card discarded at the end of the game") if at_finish
                else _("Deferred card expired"), **_card_fields(card)))
            labels.setdefault((name, expired_round), []).append(words.expired_label(card))
        row = _log_row(result, i + 1)
        log.append(row)
        if move.type == "draw" and move.decision == "defer":
            deferral = DeferralRow(player=move.player, card_code=result.card.code, card_title=result.card.title,
                                   color=result.card.color, round=result.round, until=row.deferred_until)
            held[move.player] = deferral
            deferrals.append(deferral)
        elif move.type == "play_deferred":
            deferral = held.pop(move.player, None)
            if deferral is not None:
                deferral.outcome = "played"
                deferral.outcome_round = result.round
        if move.player and move.type not in ("allocate",):
            labels.setdefault((move.player, result.round), []).append(words.move_label(result))
        if move.type == "share":
            for name, other in result.changes.items():
                if name != move.player and other.get("xp"):
                    labels.setdefault((name, result.round), []).append(
                        f"{words.signed(other['xp'])} ← {move.player}")
        snapshots[result.round] = dict(result.after)
        last_round = result.round
        flush_undone(i + 1)
    flush_undone(len(game.history))
    return log, deferrals, snapshots, labels


def _grid(game, snapshots, labels):
    start = {name: (0, 1) for name in game.order}
    rows = []
    reached = max(snapshots, default=0)
    for name in game.order:
        cells, previous = [], start[name][0]
        current = start
        for r in range(1, ROUNDS + 1):
            if r > reached:
                cells.append(None)
                continue
            current = snapshots.get(r, current)
            xp, level = current[name]
            cells.append(RoundCell(xp=xp, level=level, gained=xp - previous, moves=labels.get((name, r), [])))
            previous = xp
        rows.append(GridRow(name=name, cells=cells))
    return rows


def _results(game):
    standing = table_standing(game)
    rows = []
    for entry in standing["players"]:
        p = game.players[entry["name"]]
        checks = [SkillCheck(s, p.skills[s], p.declaration.get(s, 0)) for s in SKILLS] if p.declaration else []
        rows.append(ResultRow(
            place=entry["place"], name=entry["name"], character=entry["character"], xp=entry["xp"],
            level=entry["level"], skills=dict(entry["skills"]), declared=entry["declared"], checks=checks,
            met=entry["declaration_met"], bonus=entry["bonus"], final_xp=entry["final_xp"]))
    return rows, standing["total_xp"], standing["average_xp"]


def build_protocol(game, undone=None, event=None, now=None, event_date=None):
    """The ``Protocol`` of a replayed ``Game`` (finished or not).

    ``undone``: moves taken back, to be shown marked in the log (see ``read_undone`` for the
    accepted forms). ``event``: the event's name for the headings; ``event_date``: its day as
    an ISO text ``YYYY-MM-DD`` (None: no date is printed). ``now``: the time the protocol is
    made (defaults to the current local time).
    """
    undone = read_undone(undone)
    log, deferrals, snapshots, labels = _walk(game, undone)
    results, total, average = _results(game)
    return Protocol(
        game=game, table=game.table, event=event, event_date=iso_date(event_date), pack_title=game.pack.title,
        generated_at=now or datetime.now().astimezone(), final=game.finished,
        round=game.round, era=game.era.key, players=_player_rows(game), order=list(game.order),
        order_reason=_order_reason(game), grid=_grid(game, snapshots, labels), log=log, deferrals=deferrals,
        results=results, total_xp=total, average_xp=average, levels=tuple(game.pack.levels))


def iso_date(value):
    """An event's date as ``YYYY-MM-DD`` text (a ``date`` is accepted too); None stays None."""
    if value is None or value == "":
        return None
    day = words.as_date(value)
    if not isinstance(day, date):
        raise ValueError(f"event_date must be an ISO date YYYY-MM-DD, got {value!r}")
    return day.isoformat()


def as_protocol(item, event=None, now=None, event_date=None):
    """A ``Protocol`` from a ``Protocol`` (kept) or a ``Game`` (built)."""
    if isinstance(item, Protocol):
        return item
    return build_protocol(item, event=event, now=now, event_date=event_date)

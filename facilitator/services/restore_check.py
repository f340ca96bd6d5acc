"""What an event backup must be before anything of it is stored: every field of the right type
and length (as strictly as the forms check them), every pack valid, every table's log complete
and replaying to the record the backup holds. Reads both backup formats the app has written
(``facilitator-event-backup/1`` with a pack and a record inline per table, and ``/2`` with each
pack version once)."""

import json
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from facilitator.rules import registry
from facilitator.rules.errors import PackError, RulesError



def _format_1_ruleset():
    """The game of every backup of format /1, which predates the other games (history, as the
    migrations keep theirs): the game that says it was the app's only one (``GamePackage.
    before_games``); format /2 names its game."""
    from facilitator import games
    return next((g.key for g in games.registered() if g.before_games), None)

from facilitator.services.tables import MAX_EVENT_TABLES, TAKE_BACK, replay_log

MAX_TABLES = MAX_EVENT_TABLES  # as many as an event holds
#: a table's log rows: a game record's moves (``MAX_MOVES``, an imported record), each taken back
#: at most once; a log the app writes holds far fewer (``tables.MAX_LOG_MOVES``)
MAX_LOG = 20000
MAX_PACKS = 100
NAME_MAX, HOST_MAX, AUTHOR_MAX = 100, 100, 100
EVENT_NAME_MAX = 200


class BackupProblem(ValueError):
    """One thing wrong with a backup: an English template and its parameters."""

    def __init__(self, template, /, **params):
        self.template = template
        self.params = params
        shown = {k: v for k, v in params.items() if k != "cause"}
        if "cause" in params:
            shown["error"] = str(params["cause"])
        super().__init__(template.format(**shown))


@dataclass
class TablePlan:
    name: str
    host_name: str | None
    timer_seconds: int | None
    deck_seed: int
    pack: int  # index into the plan's packs
    players: object  # the stored setup JSON, or None
    log: list = field(default_factory=list)


@dataclass
class RestorePlan:
    ruleset: str
    name: str
    date: str | None
    packs: list
    event_pack: int | None
    tables: list
    language: str | None = None  # the event's language (backups of before have none: its game's first)


def _error(template, **params):
    from facilitator.services.events import BackupError
    return BackupError(template, **params)


def _text(value, where, maximum, required=True):
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise _error("{where}: must be a non-empty text", where=where)
    if len(value) > maximum:
        raise _error("{where}: at most {max} characters, got {length}", where=where, max=maximum, length=len(value))
    if any(ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029" for ch in value):
        raise _error("{where}: control characters and line breaks are not allowed", where=where)
    return value.strip()


def _int(value, where, low, high, required=True):
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _error("{where}: must be a whole number from {low} to {high}", where=where, low=low, high=high)
    return value


def _pack(rules, data, where):
    try:
        return rules.read_pack(data)
    except PackError as err:
        raise _error("{where}: {error}", where=where, error=str(err.problems[0]) if err.problems else str(err)) \
            from None
    except (RulesError, ValueError, TypeError, AttributeError) as err:
        raise _error("{where}: not a content pack of {game}: {error}", where=where, game=rules.name,
                     error=str(err)) from None


def _created_at(value, where):
    if value is None:
        return datetime.now(timezone.utc)
    if not isinstance(value, str) or len(value) > 40:
        raise _error("{where}: not a date and time", where=where)
    try:
        moment = datetime.fromisoformat(value)
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise _error("{where}: not a date and time", where=where) from None
    if not 2000 <= moment.year <= 2100:
        raise _error("{where}: a move of a year this app cannot have recorded ({year})", where=where,
                     year=moment.year)
    return moment


def checked_backup(data, rename=None):
    """The ``RestorePlan`` of a backup, or ``BackupError`` naming the first problem."""
    return _Checker().plan(data, rename)


class _Row:
    """A log row as ``replay_log`` reads it."""

    def __init__(self, row):
        self.seq, self.kind, self.undoes = row["seq"], row["kind"], row["undoes"]
        self.data = json.dumps(row["data"], ensure_ascii=False) if row["data"] is not None else None


class _Checker:
    """Reads one backup: its packs (each distinct version once), then its tables."""

    def __init__(self):
        self.packs = []
        self._texts = {}

    def add_pack(self, pack):
        text = json.dumps(pack.to_dict(), sort_keys=True, ensure_ascii=False)
        if text not in self._texts:
            self._texts[text] = len(self.packs)
            self.packs.append(pack)
        return self._texts[text]

    def plan(self, data, rename):
        from facilitator.services.events import BACKUP_FORMATS
        if not isinstance(data, dict) or data.get("format") not in BACKUP_FORMATS:
            raise _error("not an event backup: the format must be {format!r}", format=BACKUP_FORMATS[-1])
        second = data["format"].endswith("/2")
        ruleset = data.get("ruleset") if second else _format_1_ruleset()
        try:
            self.rules = registry.get(ruleset)
        except (KeyError, TypeError):
            raise _error("the backup's game {ruleset!r} is not one this app hosts",
                         ruleset=str(ruleset)[:40]) from None
        info = data.get("event")
        if not isinstance(info, dict):
            raise _error("the backup names no event")
        name = _text(rename, "name", EVENT_NAME_MAX) if rename else _text(info.get("name"), "event.name",
                                                                           EVENT_NAME_MAX)
        day = info.get("date")
        if day is not None:
            if not isinstance(day, str) or len(day) != 10:
                raise _error("event.date: must look like 2026-11-29")
            try:
                date.fromisoformat(day)
            except ValueError:
                raise _error("event.date: must look like 2026-11-29") from None
        language = info.get("language")
        if language is not None and language not in self.rules.locales:
            raise _error("event.language: one of {known}", known=", ".join(self.rules.locales))
        raw_tables = data.get("tables")
        if not isinstance(raw_tables, list):
            raise _error("tables: must be a list")
        if len(raw_tables) > MAX_TABLES:
            raise _error("tables: at most {max} tables, got {count}", max=MAX_TABLES, count=len(raw_tables))
        if second:
            raw_packs = data.get("packs")
            if not isinstance(raw_packs, list) or len(raw_packs) > MAX_PACKS:
                raise _error("packs: must be a list of at most {max} packs", max=MAX_PACKS)
            index = [self.add_pack(_pack(self.rules, p, f"packs[{i}]")) for i, p in enumerate(raw_packs)]
            event_pack = info.get("pack")
            if event_pack is not None:
                if not index:
                    raise _error("event.pack: the backup has no packs")
                event_pack = index[_int(event_pack, "event.pack", 0, len(index) - 1)]
        else:
            index = None
            event_pack = self.add_pack(_pack(self.rules, info["pack"], "event.pack")) \
                if info.get("pack") is not None else None
        tables = []
        for n, t in enumerate(raw_tables, start=1):
            if not isinstance(t, dict):
                raise _error("table {n}: must be an object", n=n)
            try:
                tables.append(self.table(t, f"table {n}", index))
            except RulesError as err:
                raise _error("table {n} ({name!r}): {error}", n=n, name=str(t.get("name"))[:100],
                             cause=err) from None
        return RestorePlan(ruleset=self.rules.key, name=name, date=day, packs=self.packs, event_pack=event_pack,
                           tables=tables, language=language)

    def table(self, t, where, index):
        rules = self.rules
        name = _text(t.get("name"), f"{where}: name", NAME_MAX)
        where = f"{where} ({name!r})"
        if index is not None:
            if not index:
                raise _error("{where}: the backup has no packs", where=where)
            pack_index = index[_int(t.get("pack"), f"{where}: pack", 0, len(index) - 1)]
        else:
            pack_index = self.add_pack(_pack(rules, t.get("pack"), f"{where}: pack"))
        plan = TablePlan(name=name,
                         host_name=_text(t.get("host_name"), f"{where}: host_name", HOST_MAX, required=False),
                         timer_seconds=_int(t.get("timer_seconds"), f"{where}: timer_seconds", 10, 600,
                                            required=False),
                         deck_seed=_int(t.get("deck_seed", 0), f"{where}: deck_seed", 0, 2 ** 31 - 1),
                         pack=pack_index, players=t.get("players"))
        raw_log = t.get("log") or []
        if not isinstance(raw_log, list) or len(raw_log) > MAX_LOG:
            raise _error("{where}: log: must be a list of at most {max} rows", where=where, max=MAX_LOG)
        if raw_log and plan.players is None:
            raise _error("{where}: the log has moves but the table has no players", where=where)
        rows, moves = [], set()
        for i, row in enumerate(raw_log):
            at = f"{where}: log[{i}]"
            if not isinstance(row, dict):
                raise _error("{where}: must be an object", where=at)
            seq = row.get("seq")
            if seq != i + 1 or isinstance(seq, bool):
                raise _error("{where}: seq must be {expected}", where=at, expected=i + 1)
            kind = row.get("kind")
            if kind not in ("move",) + TAKE_BACK:
                raise _error("{where}: kind must be one of move, undo, void, reopen", where=at)
            data, undoes = row.get("data"), row.get("undoes")
            if kind == "move":
                if not isinstance(data, dict):
                    raise _error("{where}: a move needs its data", where=at)
                # MalformedError: named, nothing stored. Read as a record's move: a key an earlier
                # version kept on a move is ignored and not restored (issue 17)
                data = rules.read_move(data, f"log[{i}].data", strict=False).to_dict()
                if undoes is not None:
                    raise _error("{where}: a move takes nothing back", where=at)
                moves.add(seq)
            else:
                if undoes not in moves:
                    raise _error("{where}: takes back a move that is not before it", where=at)
                if data is not None:
                    raise _error("{where}: a {kind} row carries no data", where=at, kind=kind)
                moves.discard(undoes)
            rows.append({"seq": seq, "kind": kind, "data": data, "undoes": undoes,
                         "author": _text(row.get("author"), f"{at}.author", AUTHOR_MAX, required=False),
                         "created_at": _created_at(row.get("created_at"), f"{at}.created_at")})
        plan.log = rows
        if plan.players is not None:
            self.check_replay(plan, where, t.get("record"))
        return plan

    def _normal(self, move):
        """A record's move as the log keeps it (keys no move has left out), or as it came if
        it is not a move at all (it then does not match the log)."""
        try:
            return self.rules.read_move(move, strict=False).to_dict()
        except RulesError:
            return move

    def check_replay(self, plan, where, record):
        """The table's moves in force replay, and agree with the record the backup holds."""
        undone = {r["undoes"] for r in plan.log if r["kind"] in TAKE_BACK}
        active = [_Row(r) for r in plan.log if r["kind"] == "move" and r["seq"] not in undone]
        game, _last, problem, _moves = replay_log(self.rules, self.packs[plan.pack],
                                                  json.dumps(plan.players, ensure_ascii=False), plan.name, active)
        if problem is not None:
            raise _error("{where}: the log does not replay: {error}", where=where, cause=problem.error)
        if record is None:
            return game
        if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
            raise _error("{where}: record: must be a game record", where=where)
        strip = ("at", "note")

        def bare(moves):
            return [{k: v for k, v in self._normal(m).items() if k not in strip} if isinstance(m, dict) else m
                    for m in moves]
        if bare(record["moves"]) != bare([json.loads(r.data) for r in active]):
            raise _error("{where}: the record does not match the log", where=where)
        return game

"""How large an event backup can get, next to what a restore accepts (issue 17: "every backup the
app writes, it can restore").

    python3 benchmarks/bench_backup_bounds.py [--tables 500]

Prints, without a server or a database:

* the largest «16/25» move its reader allows that the rules also take (a hand-entered red card
  of the longest texts, drawn and discarded, with the longest time and note), as stored;
* a long game of each game (the longest of 30 random games) as a table's log keeps it, and the
  backup of an event of ``--tables`` such tables, written as the app writes it (compact JSON,
  ``organizer.backup``), beside ``MAX_BACKUP_LENGTH``;
* the most one table can add to a backup under the write limits (``MAX_LOG_BYTES`` of moves,
  kept twice — the log and the record —, ``MAX_LOG_MOVES`` rows and as many take-backs), and
  the largest event backup those limits allow (``MAX_EVENT_TABLES`` such tables): whether it
  fits, and if not how many full tables fit beside the honest event;
* what the write-side check of a table's log bytes costs when this process has not seen the
  table's last move (one indexed sum), on SQLite and, if one listens on 127.0.0.1:5432,
  PostgreSQL.
"""

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import registry  # noqa: E402
from facilitator.rules.alterego.simulate import random_game as alterego_game  # noqa: E402
from facilitator.rules.newangeles.simulate import random_game as newangeles_game  # noqa: E402
from facilitator.rules.lyceum.simulate import random_game as lyceum_game  # noqa: E402
from facilitator.services.restore_check import MAX_LOG, MAX_TABLES  # noqa: E402
from facilitator.services.tables import MAX_EVENT_TABLES, MAX_LOG_BYTES, MAX_LOG_MOVES  # noqa: E402

MB = 1024 * 1024
MAX_BACKUP_LENGTH = 64 * MB  # web/__init__.py (the app's config, read without building an app)
WIDE = "🂡"  # a 4-byte character
NOW = datetime.now(timezone.utc).isoformat()


def compact(data):
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def largest_lyceum_move():
    card = {"color": "red", "title": WIDE * 200, "text": "\x01" * 2000, "conditions": {}, "losses": {"health": 1},
            "gains": {"health": 1}, "free": 2, "special": {"text": "\x02" * 2000, "redistribute": 100}}
    move = {"type": "draw", "player": "Аня", "color": "red", "card": card, "decision": "discard", "at": "2" * 40,
            "note": WIDE * 500}
    rules = registry.get("lyceum-16-25")
    players = [{"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2}},
               {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}},
               {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}}]
    game = rules.new_game(sample_pack(), rules.read_setup(players))
    game.apply(rules.read_move(move))  # legal: the rules take it
    return len(compact(rules.read_move(move).to_dict()))


def long_games():
    """The longest of 30 random games of each game, as records."""
    out = {}
    out["lyceum-16-25"] = max((lyceum_game(sample_pack(), seed=s, players=4, adjust_rate=0.1)[0] for s in range(30)),
                              key=lambda r: len(r.moves))
    out["alter-ego-3"] = max((alterego_game(random.Random(s), players=3) for s in range(30)),
                             key=lambda r: len(r.moves))
    out["new-angeles"] = max((newangeles_game(random.Random(s), players=6) for s in range(30)),
                             key=lambda r: len(r.moves))
    return out


def backup_table(name, record, setup):
    """A table as ``services.events.backup`` writes it: its log (every move with its time) and its
    record (the moves in force), the pack left out (a backup holds each pack once)."""
    moves = [dict(m.to_dict(), at=NOW[:19] + "+00:00") for m in record.moves]
    log = [{"seq": i, "kind": "move", "data": m, "undoes": None, "author": "api", "created_at": NOW}
           for i, m in enumerate(moves, start=1)]
    return {"name": name, "host_name": None, "timer_seconds": None, "deck_seed": 2 ** 31 - 1, "pack": 0,
            "players": setup, "log": log, "record": {"format": "x-record/1", "table": name, "players": setup,
                                                     "moves": moves}}


def setup_of(record):
    data = record.to_dict()
    return data.get("players") if "players" in data and isinstance(data["players"], list) and "setup" not in data \
        else {k: data[k] for k in ("players", "first", "setup") if k in data}


def full_table_share():
    """The most one table adds to a backup under the write limits: its moves' bytes twice (the
    log and the record), and the rows of ``MAX_LOG_MOVES`` moves each taken back once."""
    row = {"seq": 2 * MAX_LOG_MOVES, "kind": "undo", "data": None, "undoes": 2 * MAX_LOG_MOVES - 1,
           "author": "organizer", "created_at": NOW}
    rows = 2 * MAX_LOG_MOVES * (len(compact(row)) + 1)
    return 2 * MAX_LOG_BYTES + rows + 4_000  # and its name, setup and record header


def query_cost(url):
    from sqlalchemy import create_engine, text
    engine = create_engine(url)
    data = json.dumps({"type": "pass", "player": "Аня", "at": NOW}, ensure_ascii=False)
    fn = "octet_length(data)" if url.startswith("postgresql") else "length(CAST(data AS BLOB))"
    out = {}
    with engine.begin() as c:
        c.execute(text("DROP TABLE IF EXISTS bench_log_bytes"))
        c.execute(text("CREATE TABLE bench_log_bytes (table_id integer, seq integer, data text, "
                       "PRIMARY KEY (table_id, seq))"))
        for table, rows in ((1, 300), (2, MAX_LOG_MOVES)):
            c.execute(text("INSERT INTO bench_log_bytes VALUES (:t, :s, :d)"),
                      [{"t": table, "s": i, "d": data} for i in range(rows)])
    try:
        with engine.connect() as c:
            for table, rows in ((1, 300), (2, MAX_LOG_MOVES)):
                times = []
                for _ in range(200):
                    start = time.perf_counter()
                    c.execute(text(f"SELECT coalesce(sum({fn}), 0) FROM bench_log_bytes WHERE table_id = :t "
                                   "AND seq <= :s"), {"t": table, "s": rows}).scalar()
                    times.append(time.perf_counter() - start)
                out[rows] = statistics.median(times) * 1e6
    finally:
        with engine.begin() as c:
            c.execute(text("DROP TABLE bench_log_bytes"))
        engine.dispose()
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=MAX_EVENT_TABLES)
    args = parser.parse_args()
    print(f"limits: {MAX_EVENT_TABLES} tables an event (restore: {MAX_TABLES}); a table's log: a move after at most "
          f"{MAX_LOG_MOVES} rows (restore: {MAX_LOG} rows), {MAX_LOG_BYTES // 1024} KiB of moves; "
          f"MAX_BACKUP_LENGTH {MAX_BACKUP_LENGTH // MB} MB")
    print(f"largest «16/25» move the reader and the rules take: {largest_lyceum_move():,} bytes")
    pack = {"format": "lyceum-pack/1"}  # the pack is kept once per backup; left out of the figures
    longest = 0
    for ruleset, record in long_games().items():
        table = backup_table("Стол 1", record, setup_of(record))
        stored = sum(len(compact(row["data"])) for row in table["log"])
        one = len(compact(table))
        longest = max(longest, one)
        event = {"format": "facilitator-event-backup/2", "ruleset": ruleset, "packs": [pack],
                 "event": {"name": "Кубок", "date": None, "pack": 0}, "tables": [table] * args.tables}
        size = len(compact(event))
        print(f"{ruleset}: a long game of {len(record.moves)} moves keeps {stored / 1024:.1f} KiB of moves; "
              f"its table adds {one / 1024:.1f} KiB to a backup; {args.tables} such tables: {size / MB:.1f} MB "
              f"({'fits' if size <= MAX_BACKUP_LENGTH else 'does NOT fit'} in {MAX_BACKUP_LENGTH // MB} MB)")
    share = full_table_share()
    worst = MAX_EVENT_TABLES * share
    print(f"a table filled to the write limits adds at most {share / MB:.2f} MB; {MAX_EVENT_TABLES} of them: "
          f"{worst / MB:,.0f} MB -> {'fits' if worst <= MAX_BACKUP_LENGTH else 'cannot hold in general'}")
    for tables in (MAX_EVENT_TABLES, 40):
        honest = tables * longest  # every table a long game of the game above whose table is largest
        print(f"beside {tables} tables of long games ({honest / MB:.1f} MB) a backup still takes "
              f"{max(0, MAX_BACKUP_LENGTH - honest) // share} tables filled to the limits")
    for name, url in (("SQLite", f"sqlite:///{tempfile.mkdtemp()}/bench.db"),
                      ("PostgreSQL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")):
        try:
            cost = query_cost(url)
        except Exception as err:  # no server listening
            print(f"{name}: not measured ({type(err).__name__})")
            continue
        print(f"{name}: the log-bytes check when this process has not seen the table's last move: "
              + ", ".join(f"{rows} rows {us:.0f} µs" for rows, us in cost.items()) + " (median of 200)")


if __name__ == "__main__":
    main()

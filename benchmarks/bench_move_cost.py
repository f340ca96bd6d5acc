"""What one move costs the server (issues 11 and 19): an API move, a host's form tap and the
tablet outbox's tap, each next to a bare Flask view that inserts one row into the same
database, measured in the same run and printed as ratios beside their targets.

    python3 benchmarks/bench_move_cost.py [--db sqlite|postgresql] [--moves 200] [--check]
    python3 benchmarks/bench_move_cost.py --instructions [--db …] [--moves 30]

Everything runs in one process through Flask's test client (no HTTP parsing on either side, so
the comparison is of the server's own work), set as ``facilitator serve`` sets its process (its
garbage collector: ``web.server.tune_collector``; both apps share it). A WSGI wrapper around
each app measures, for every request, the thread's CPU time inside the app (the test client's
own work of building the request and reading the answer is left out), the wall time, and the
SQL round trips the request sent (statements, ``BEGIN``, ``COMMIT`` and ``ROLLBACK``, counted on
the engine, and the plain reads, on its readers or in a transaction's own connection).
Measured, interleaved one of each in turn so that all see the same machine:

* **bare insert**: ``POST /bare`` — a Flask view that does one insert-or-ignore (``INSERT … ON
  CONFLICT DO NOTHING``) with SQLAlchemy Core through the app's own engine (so the same SQLite
  settings, or the same PostgreSQL server) and answers 201 with a small JSON body: the floor of
  any write;
* **API move**: ``POST /api/v1/tables/<id>/moves`` with the table's host token, a legal move of
  the engine's random player, answered with the table's new state;
* **form tap**: what a host's tablet without JavaScript sends: the move form's POST
  (``/table/<id>/move/<kind>``) and the GET of the turn screen it redirects to;
* **outbox tap**: what the tablet's outbox sends (``static/outbox.js``): the move form queued as
  the form would post it (its action and its fields), in the JSON batch POST of queued forms
  (``/api/v1/tables/<id>/queued``, ``flash: true``) with the browser's session cookie, then the
  GET of the turn screen at the answer's ``?done=<seq>``.

Each at tables whose games stand in round 1 and at tables in round 10 (a move's cost must not
grow with the game). The hosts are tablets that opened their table with its link (a session
grant), not the organizer. Every table is open before its first measured move, as in a room:
its host's tablet has shown the turn screen (the page a tap is made on: its form token is then
in the session) and the script has read the table's state (where it learns the ``seq`` its
move follows; the players' links are made then). What opening a table costs once is not a
move's cost. Every answer is checked (201, 303, 200 with nothing refused).

``--instructions`` counts instead the instructions of each kind's requests under callgrind
(``valgrind --tool=callgrind``, the app's own work on them alone; see ``instructions``): the same
on every run, where CPU time on a shared machine is not. ``BENCH_PROBE=module:function`` with
``--marked KIND`` under callgrind counts one function of those requests (where they go).

Targets: an API move at most 2.5× the bare insert's CPU, a tap (either kind) at most 5×; the
median of each kind over both rounds is what is judged. Exit status 1 with ``--check`` when a
target is missed.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.errors import IllegalMoveError  # noqa: E402
from facilitator.rules.lyceum import Game, Record  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move, random_game  # noqa: E402
from facilitator.rules.lyceum.skills import SKILLS  # noqa: E402
from benchmarks.rig import Counter, Meter, database  # noqa: E402

TARGETS = {"api": 2.5, "form": 5.0, "outbox": 5.0}
LABELS = {"api": "API move", "form": "form tap (POST + turn screen)", "outbox": "outbox tap (batch + turn screen)"}
#: moves one table takes in the run: its game stays in the round it was cut at (or the next)
MOVES_PER_TABLE = 5


def cut_game(pack, seed, round_no, players=4):
    """A random legal game stopped before a main move of ``round_no``: (record, game)."""
    full, _ = random_game(pack, seed=seed, players=players)
    game = Game(pack, full.players, table=full.table)
    for i, move in enumerate(full.moves):
        upcoming = game._next_turn()
        nxt = game.next()
        if nxt and nxt["expects"] == "main" and upcoming and upcoming[0] == round_no:
            return Record(table=full.table, pack=pack, players=full.players, moves=full.moves[:i]), game
        game.apply(move)
    raise ValueError(f"game {seed} never reached round {round_no}")


def legal(game, rng):
    """A legal move other than ``finish`` (a finished table takes no more moves), or None."""
    for _ in range(50):
        move = choose_move(game, rng)
        if move.type == "finish":
            return None
        try:
            game.check(move)
            return move
        except IllegalMoveError:
            continue
    return None


def form_of(move, after):
    """The move form a host's screen posts for ``move`` (``web/forms.py``)."""
    form = {"after": after, "player": move.player or "", "type": move.type}
    if move.type == "draw":
        form.update(color=move.color, card=move.card, decision=move.decision)
    for key, values in (("redistribute", move.redistribute), ("sp", move.sp)):
        for skill in SKILLS:
            if (values or {}).get(skill):
                form[f"{key}-{skill}"] = values[skill]
    return form


def bare_app(engine):
    """The floor: a Flask app whose one view does one insert-or-ignore and answers 201 JSON."""
    from flask import Flask, jsonify, request
    from sqlalchemy import Column, Integer, MetaData, Table, Text, UniqueConstraint
    from sqlalchemy.dialects import postgresql, sqlite

    from facilitator.storage.db import writing
    meta = MetaData()
    rows = Table("bench_bare", meta, Column("id", Integer, primary_key=True), Column("table_id", Integer),
                 Column("seq", Integer), Column("data", Text), UniqueConstraint("table_id", "seq"))
    with writing():
        meta.create_all(engine)
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(rows).on_conflict_do_nothing()
    app = Flask("bare")

    @app.post("/bare")
    def bare():
        body = request.get_json()
        with writing(), engine.begin() as conn:  # a write takes the lock first, as the app's do
            conn.execute(statement, {"table_id": body["table"], "seq": body["seq"], "data": body["data"]})
        return jsonify({"ok": True, "seq": body["seq"]}), 201
    return app


def percentile(values, q):
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--moves", type=int, default=200, help="measured requests of each kind and round")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--profile", choices=("bare", "api", "form", "outbox"),
                        help="also print where the CPU of this kind's requests goes (cProfile)")
    parser.add_argument("--instructions", action="store_true",
                        help="instead: count the instructions of --moves requests of each kind under callgrind")
    parser.add_argument("--marked", choices=("bare", "api", "form", "outbox"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.instructions:
        return instructions(args)

    with tempfile.TemporaryDirectory(prefix="bench-cost-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        with database(args.db, tmp, "bench_cost") as url:
            return run(url, args, tmp)


def profile(args, measure, bare_insert, next_table):
    """Where the CPU of one kind's requests goes: as many more of them under cProfile (the test
    client's work included), rounds 1 and 10 in turn."""
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    for i in range(args.moves):
        round_no = 1 if i % 2 == 0 else 10
        if args.profile == "bare":
            profiler.runcall(bare_insert)
            continue
        t, move = next_table(round_no)
        profiler.runcall(measure[args.profile], t, move)
        t.game.apply(move)
        t.moves += 1
    print(f"  where the CPU of {args.moves} more requests of {args.profile} goes (cProfile):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats(os.environ.get("BENCH_PROFILE_SORT", "cumulative")).print_stats(
        int(os.environ.get("BENCH_PROFILE_LINES", "60")))


def instructions(args):
    """Instruction counts per request (callgrind, deterministic where CPU time is not): for each
    kind a run of this script under ``valgrind --tool=callgrind`` that warms up, then sends
    ``--moves`` requests of that kind alone (rounds 1 and 10 in turn, ``gc.collect()`` before
    each, every table having taken one such request first, as an open table has) through a meter that marks them (``rig.Meter.marked``), so that only the app's own work
    on them is counted. Printed per request (a tap's two requests together), with the ratio to
    the bare insert's."""
    import re
    import shutil
    import subprocess
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed")
    python = sys.executable  # a venv's python (a link to the interpreter), not a shim script
    if Path(python).read_bytes()[:4] != b"\x7fELF":
        raise SystemExit(f"{python} is not the interpreter itself (a shim?): run with the real one")
    counts = {}
    with tempfile.TemporaryDirectory(prefix="bench-cost-cg-") as tmp:
        runs = {}
        for kinds in (("bare", "api"), ("form", "outbox")):  # two at a time
            for kind in kinds:
                runs[kind] = subprocess.Popen(
                    ["valgrind", "--tool=callgrind", f"--callgrind-out-file={Path(tmp) / kind}.out",
                     "--collect-atstart=no", "--toggle-collect=_operator_call*", python, __file__, "--db", args.db,
                     "--moves", str(args.moves), "--seed", str(args.seed), "--marked", kind],
                    env={**os.environ, "PYTHONHASHSEED": "0"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for kind in kinds:
                if runs[kind].wait() != 0:
                    raise SystemExit(f"the run of {kind} under callgrind failed")
                text = (Path(tmp) / f"{kind}.out").read_text()
                counts[kind] = int(re.search(r"^totals:\s*(\d+)", text, re.M).group(1)) / args.moves
    print(f"facilitator move cost · instructions per request (callgrind, {args.moves} requests of each kind, "
          f"{args.db}, the app's work only):")
    for kind in ("bare", "api", "form", "outbox"):
        label = "bare insert-or-ignore (the floor)" if kind == "bare" else LABELS[kind]
        ratio = "" if kind == "bare" else f"{counts[kind] / counts['bare']:.2f}×"
        print(f"  {label:<42} {counts[kind] / 1e6:7.2f} M  {ratio}")
    print("  (ratios of instruction counts, not the CPU ratios the targets judge: the kernel's work is left out,\n"
          "   and an instruction's time differs from one kind of work to another)")
    return 0


def marked_run(args, measure, bare_insert, next_table, app_meter, bare_meter):
    """One kind's requests alone, marked for callgrind (``instructions``). ``BENCH_PROBE=
    module:function`` marks that function alone instead (where a request's instructions go)."""
    import gc
    import importlib
    import operator
    meter = bare_meter if args.marked == "bare" else app_meter
    probe = os.environ.get("BENCH_PROBE")
    if probe:
        module_name, _, attribute = probe.partition(":")
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        inner = getattr(owner, name)
        setattr(owner, name, lambda *a, **k: operator.call(inner, *a, **k))
        meter = Meter(None)  # marks nothing
    meter.marked = True
    if os.environ.get("BENCH_NO_GC"):
        gc.disable()
    for i in range(args.moves):
        gc.collect()
        if args.marked == "bare":
            bare_insert()
            continue
        t, move = next_table(1 if i % 2 == 0 else 10)
        measure[args.marked](t, move)
        t.game.apply(move)
        t.moves += 1
    meter.marked = False
    return 0


class Table:
    """One table of the run: its id, host token, a tablet (a test client holding the host's
    grant) and the engine's copy of its game that picks the next legal move."""

    def __init__(self, table_id, token, game, tablet):
        self.id, self.token, self.game, self.tablet = table_id, token, game, tablet
        self.moves = 0


def run(url, args, tmp):
    from facilitator import services
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                      "WTF_CSRF_ENABLED": False, "PREPARE_PROTOCOLS": False})
    engine = app.extensions["facilitator.engine"]
    from facilitator.web.server import tune_collector
    tune_collector()  # the process as ``facilitator serve`` runs it (the bare app shares it)
    pack = sample_pack()
    rng = random.Random(args.seed)
    kinds = ("api", "form", "outbox")
    if args.marked:
        kinds = () if args.marked == "bare" else (args.marked,)
    per_round = -(-(len(kinds) * (args.moves + 10) + (args.moves if args.profile else 0)) // MOVES_PER_TABLE) + 8
    pools = {1: [], 10: []}
    with services.db.session_scope(engine) as s:
        for round_no in pools:
            for i in range(per_round):
                record, game = cut_game(pack, args.seed + 1000 * round_no + i, round_no)
                record.table = f"Стол {round_no}-{i}"
                table = services.import_record(s, record.to_dict())
                services.access.ensure_access(s, table)
                pools[round_no].append((table.id, table.token, game))
    tables = {}
    for round_no, made in pools.items():
        tables[round_no] = []
        for table_id, token, game in made:
            tablet = app.test_client()
            with tablet.session_transaction() as sess:  # the host opened the table with its link
                sess["tables"] = {str(table_id): services.access.fingerprint(token)}
            tables[round_no].append(Table(table_id, token, game, tablet))

    counter, bare = Counter(engine), bare_app(engine)
    app_meter = app.wsgi_app = Meter(app.wsgi_app, counter)
    bare_meter = bare.wsgi_app = Meter(bare.wsgi_app, counter)
    api, floor = app.test_client(), bare.test_client()
    bare_seq = iter(range(1, 10 ** 9))

    def bare_insert():
        r = floor.post("/bare", json={"table": 1, "seq": next(bare_seq), "data": "{}"})
        assert r.status_code == 201, r.status_code
        return [bare_meter.last]

    def next_table(round_no):
        pool = tables[round_no]
        while pool:
            t = pool.pop(0)
            move = legal(t.game, rng) if t.moves < MOVES_PER_TABLE else None
            if move is not None:
                pool.append(t)
                return t, move
        raise SystemExit(f"the tables in round {round_no} ran out of moves: raise MOVES_PER_TABLE")

    def api_move(t, move):
        body = {"after": len(t.game.history), "move": move.to_dict()}
        r = api.post(f"/api/v1/tables/{t.id}/moves", json=body, headers={"Authorization": f"Bearer {t.token}"})
        assert r.status_code == 201, r.get_data(as_text=True)[:300]
        return [app_meter.last]

    def form_tap(t, move):
        r = t.tablet.post(f"/table/{t.id}/move/{move.type}", data=form_of(move, len(t.game.history)))
        assert r.status_code == 303, (r.status_code, r.get_data(as_text=True)[:300])
        post = app_meter.last
        page = t.tablet.get(r.headers["Location"])
        assert page.status_code == 200, page.status_code
        return [post, app_meter.last]

    def outbox_tap(t, move):
        after = len(t.game.history)  # the form's fields as outbox.js sends them: "after" last
        fields = [[name, str(value)] for name, value in form_of(move, after).items() if name != "after"]
        queued = {"action": f"/table/{t.id}/move/{move.type}", "fields": fields + [["after", str(after)]],
                  "after": after, "client_id": f"{t.id}-{after}"}
        body = {"flash": True, "moves": [queued]}
        r = t.tablet.post(f"/api/v1/tables/{t.id}/queued", json=body)
        answer = r.get_json()
        assert r.status_code == 200 and answer["refused"] is None and answer["recorded"], answer
        post = app_meter.last
        page = t.tablet.get(f"/table/{t.id}?done={answer['done']}")  # where outbox.js goes next
        assert page.status_code == 200, page.status_code
        return [post, app_meter.last]

    measure = {"api": api_move, "form": form_tap, "outbox": outbox_tap}
    samples = {(kind, r): [] for kind in ("bare",) + kinds for r in pools}

    def one_round_of_each(round_no, keep=True):
        got = {"bare": bare_insert()}
        for kind in kinds:
            t, move = next_table(round_no)
            got[kind] = measure[kind](t, move)
            t.game.apply(move)
            t.moves += 1
        if keep:
            for kind, parts in got.items():
                samples[(kind, round_no)].append(parts)

    for round_no, pool in tables.items():  # every table open before its first move, as in a room:
        for t in pool:  # the host's tablet shows its turn screen, a script reads its state (its seq)
            assert t.tablet.get(f"/table/{t.id}").status_code == 200
            state = api.get(f"/api/v1/tables/{t.id}", headers={"Authorization": f"Bearer {t.token}"})
            assert state.status_code == 200 and state.get_json()["seq"] == len(t.game.history)
    for round_no in pools:  # warm up: templates, caches, pools
        for _ in range(5):
            one_round_of_each(round_no, keep=False)
    if args.marked:
        if args.marked != "bare":  # every tablet has tapped once: a tap of an open table, not its first
            for round_no, pool in tables.items():
                for _ in range(len(pool)):
                    t, move = next_table(round_no)
                    measure[args.marked](t, move)
                    t.game.apply(move)
                    t.moves += 1
        return marked_run(args, measure, bare_insert, next_table, app_meter, bare_meter)
    for i in range(args.moves * len(pools)):
        one_round_of_each(1 if i % 2 == 0 else 10)

    name = "SQLite" if url.startswith("sqlite") else "PostgreSQL"
    print(f"facilitator move cost · Python {sys.version.split()[0]} · {os.cpu_count()} CPUs · {name} · "
          f"in-process (Flask test client), server CPU per request measured inside the app · "
          f"{args.moves} of each kind per round")

    def cpu(parts_list):
        return [sum(p[1] for p in parts) * 1000 for parts in parts_list]

    floor_cpu = statistics.median(cpu(samples[("bare", 1)] + samples[("bare", 10)]))
    print(f"  {'':<42} {'CPU median':>10} {'p95':>7} {'wall median':>11}  {'SQL round trips':<15} ratio")
    for kind in ("bare",) + kinds:
        for round_no in pools:
            got = samples[(kind, round_no)]
            if kind == "bare":
                if round_no != 1:
                    continue
                got = samples[("bare", 1)] + samples[("bare", 10)]
            c = cpu(got)
            wall = [sum(p[0] for p in parts) * 1000 for parts in got]
            trips = [[p[2] for p in parts] for parts in got]
            split = "+".join(f"{statistics.median(x[i] for x in trips):.0f}" for i in range(len(trips[0])))
            label = "bare insert-or-ignore (the floor)" if kind == "bare" else f"{LABELS[kind]}, round {round_no}"
            ratio = "" if kind == "bare" else f"{statistics.median(c) / floor_cpu:.2f}×"
            print(f"  {label:<42} {statistics.median(c):7.2f} ms {percentile(c, 95):7.2f} "
                  f"{statistics.median(wall):8.2f} ms  {split:<15} {ratio}")
    missed = []
    print(f"  ratios to the bare insert (CPU medians over rounds 1 and 10; floor {floor_cpu:.2f} ms):")
    for kind in kinds:
        both = cpu(samples[(kind, 1)] + samples[(kind, 10)])
        ratio = statistics.median(both) / floor_cpu
        growth = statistics.median(cpu(samples[(kind, 10)])) / statistics.median(cpu(samples[(kind, 1)]))
        ok = ratio <= TARGETS[kind]
        if not ok:
            missed.append(kind)
        print(f"    {LABELS[kind]:<34} {ratio:5.2f}× (target ≤ {TARGETS[kind]:g}×) -> {'meets' if ok else 'MISSES'}"
              f"   round 10 / round 1: {growth:.2f}×")
    if args.profile:
        profile(args, measure, bare_insert, next_table)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())

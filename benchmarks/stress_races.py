"""Stress test of concurrent writes (issue 10): setup changes, pack edits, moves and undos race on
many tables at once; afterwards every table's log must replay (0 broken tables) and every
table's kept head (seq, standing) must equal a fresh replay of its log.

    python3 benchmarks/stress_races.py [--db sqlite|postgresql|both] [--tables 30] [--seconds 20]

Writers (threads, each with its own database session, as the server's request threads have):

* **seaters** seat players again at tables that have no move yet (the setup form), with a
  revision read a moment earlier;
* **editors** edit the pack: store a version without one of its cards, or with it again, and
  move every table without a move to the new version (``adopt_version``), as the pack editor does;
* **players** make legal moves at random tables, drawing cards of the pack they read (sometimes
  the very card an editor removes), each move sent from a screen that may be stale;
* **undoers** undo the last move of random tables.

Every refusal must be one of the protocol's (stale, already recorded, setup locked, setup
changed, the rules refuse); anything else is counted as an error. Exit status 1 on any error or
broken table.
"""

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.lyceum.ruleset import sample_pack_data  # noqa: E402
from facilitator.rules.lyceum import read_pack  # noqa: E402
from facilitator.rules.errors import IllegalMoveError, SetupError  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move, random_setup  # noqa: E402
from benchmarks.rig import database  # noqa: E402


def run(url, tables, seconds, seed):
    from facilitator import services
    from facilitator.services.db import engine_for, new_session, startup
    from facilitator.storage.db import dispose_all
    engine = engine_for(url)
    startup(engine)
    with services.db.session_scope(engine) as s:
        base = services.packs.ensure_sample(s, "lyceum-16-25")
        ev = services.events.create_event(s, "Гонки", "2026-11-29", base)
        ids = [services.events.add_table(s, ev, f"Стол {i + 1}").id for i in range(tables)]
    full = sample_pack_data()
    first_green = next(c for c in full["cards"] if c["era"] == "lyceum" and c["color"] == "green")
    without = dict(full, cards=[c for c in full["cards"] if c["code"] != first_green["code"]])
    packs = [read_pack(without), read_pack(full)]
    outcomes, errors = Counter(), []
    stop = time.monotonic() + seconds

    def writer(name, act):
        rng = random.Random(f"{seed}-{name}")
        while time.monotonic() < stop:
            s = new_session(engine)
            try:
                outcome = act(s, rng)
                s.commit()
                outcomes[f"{name}: {outcome}"] += 1
            except (services.StaleMove, services.SetupLocked, services.StaleSetup, services.FinishedTable,
                    IllegalMoveError, SetupError, LookupError) as err:
                s.rollback()
                outcomes[f"{name}: refused ({type(err).__name__})"] += 1
            except Exception as err:  # noqa: BLE001 - anything else is a failure of the protocol
                s.rollback()
                errors.append(f"{name}: {type(err).__name__}: {err}")
            finally:
                s.close()

    def seat(s, rng):
        table_id = rng.choice(ids)
        loaded = services.load(s, table_id)
        if loaded.seq:
            return "table under way"
        rev = loaded.rev
        time.sleep(rng.random() * 0.002)  # a host filling the form while the table goes on
        services.set_players(s, table_id, random_setup(loaded.pack, rng, rng.choice((3, 4))), rev=rev)
        return "seated"

    def edit(s, rng):
        row = services.packs.store_pack(s, packs[rng.randrange(2)], "lyceum-16-25")
        return f"moved {services.packs.adopt_version(s, row)} tables"

    def play(s, rng):
        table_id = rng.choice(ids)
        loaded = services.load(s, table_id)
        if loaded.game is None or loaded.game.finished:
            return "nothing to play"
        after = loaded.seq
        move = choose_move(loaded.game, rng)
        if move.type == "draw" and rng.random() < 0.3 and loaded.game.round <= 3:
            # the very card an editor may be removing right now
            from facilitator.rules.lyceum import Move
            move = Move("draw", player=move.player, color="green", card=first_green["code"], decision="discard")
        time.sleep(rng.random() * 0.002)  # the screen was drawn a moment ago
        services.record_move(s, table_id, move, after)
        return "moved"

    def undo(s, rng):
        table_id = rng.choice(ids)
        loaded = services.load(s, table_id)
        services.undo(s, table_id, loaded.seq)
        return "undone"

    workers = [threading.Thread(target=writer, args=(name, act)) for name, act, count in (
        ("seat", seat, 2), ("edit", edit, 1), ("play", play, 4), ("undo", undo, 1)) for _ in range(count)]
    t0 = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - t0

    broken, drifted = [], []
    s = new_session(engine)
    try:
        for table_id in ids:
            loaded = services.load(s, table_id, fresh=True)
            if loaded.broken:
                broken.append(f"table {table_id}: {loaded.problem.error}")
            table = loaded.table
            full_log = services.tables.read_log(s, table_id)
            if (full_log[-1].seq if full_log else 0) != table.seq:
                drifted.append(f"table {table_id}: kept seq {table.seq}, log ends at "
                               f"{full_log[-1].seq if full_log else 0}")
            elif loaded.game is not None and not loaded.broken:
                kept = services.tables._decoded(table.standing) if table.standing else None
                if kept != loaded.ruleset.table_standing(loaded.game):
                    drifted.append(f"table {table_id}: kept standing differs from the replay")
    finally:
        s.close()
        dispose_all()
    return elapsed, outcomes, errors, broken, drifted


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args(argv)
    ok = True
    for kind in (("sqlite", "postgresql") if args.db == "both" else (args.db,)):
        with tempfile.TemporaryDirectory(prefix="stress-") as tmp:
            os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
            with database(kind, tmp, "stress") as url:
                elapsed, outcomes, errors, broken, drifted = run(url, args.tables, args.seconds, args.seed)
        writes = sum(n for k, n in outcomes.items() if "refused" not in k)
        refused = sum(n for k, n in outcomes.items() if "refused" in k)
        print(f"{kind}: {args.tables} tables, {elapsed:.0f} s: {writes} writes done, {refused} refused by the "
              f"protocol, {len(errors)} errors; tables whose log fails to replay: {len(broken)}; "
              f"kept heads differing from a replay: {len(drifted)}")
        for key, n in sorted(outcomes.items()):
            print(f"    {key}: {n}")
        for line in (errors + broken + drifted)[:10]:
            print(f"  ! {line}")
        ok &= not errors and not broken and not drifted
    print("RESULT:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

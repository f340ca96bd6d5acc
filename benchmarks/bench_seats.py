"""What a room of phones and projectors costs the server (issue 21, item 6): 200 players' own pages
polling every 10 s (``web.seats.POLL_SECONDS``) and 10 projectors polling every 3 s, at a 60-table «16/25» event where moves
come at ``--rate`` per second event-wide.

    python3 benchmarks/bench_seats.py [--tables 60] [--pages 200] [--projectors 10] [--rate 2]
                                      [--seconds 30] [--check]

The app runs in-process (Flask's test client); the tables are random legal games of the sample
pack (4 players) cut mid-game. The run is a simulated event of ``--seconds`` seconds: each second
``--rate`` moves are recorded at random tables (through the services, as a tablet's POST does),
then the polls of that second are made, each with the ETag its poller holds: a player's page
answers 304 from its table's row unless its table moved, a projector 304 unless the event did
(its standings and chart recomputed once per change, PROJECTOR_FRESH_SECONDS = 0 here: the
worst case). CPU is the process's (``time.process_time``), split into moves and polls.

Figures: the polls' CPU per second of event as a share of one core, the polls' CPU per move,
and the polls' CPU as a share of the whole (moves + polls). Target (--check): the polls add less
than 5 % of one core's time.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 0.05


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--projectors", type=int, default=10)
    parser.add_argument("--rate", type=float, default=2.0, help="moves per second, event-wide")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-seats-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        return run(f"sqlite:///{Path(tmp) / 'seats.db'}", args, tmp)


def run(url, args, tmp):
    from facilitator import games, services
    from facilitator.rules.lyceum import Record
    from facilitator.rules.lyceum.ruleset import sample_pack
    from facilitator.rules.lyceum.simulate import choose_move, random_game
    from facilitator.web import create_app
    from facilitator.web.seats import POLL_SECONDS
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                      "PROJECTOR_FRESH_SECONDS": 0})
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    rng = random.Random(21)
    with services.db.session_scope(engine) as s:
        ev = services.events.create_event(s, "Кубок", "2026-12-20", services.packs.ensure_sample(s, "lyceum-16-25"))
        event_id = ev.id
        ids = []
        for i in range(args.tables):
            full, _ = random_game(pack, seed=i, players=4)
            keep = rng.randrange(8, max(9, len(full.moves) // 2))
            record = Record(table=f"Стол {i + 1}", pack=pack, players=full.players, moves=full.moves[:keep])
            ids.append(services.import_record(s, record.to_dict(), name=f"Стол {i + 1}", event_id=event_id).id)
    # every player's seat; the first --pages of them are polled
    polled = []
    with app.test_request_context():
        with services.db.session_scope(engine) as s:
            for table_id in ids:
                loaded = services.load(s, table_id)
                names = games.of_table(loaded.table).player_names(loaded)
                for name, seat in services.seats.ensure_seats(s, table_id, names).items():
                    polled.append({"table": table_id, "path": f"/p/{seat.token}", "etag": None})
    polled = polled[:args.pages]
    client = app.test_client()
    projectors = [{"path": f"/e/{event_id}/standings.json", "etag": None} for _ in range(args.projectors)]

    def poll(poller):
        headers = {"If-None-Match": poller["etag"]} if poller["etag"] else {}
        response = client.get(poller["path"], headers=headers)
        assert response.status_code in (200, 304), (poller["path"], response.status_code)
        if response.status_code == 200:
            poller["etag"] = response.headers["ETag"]
        return response.status_code

    for p in polled + projectors:  # every phone and projector opened once: they hold an ETag
        poll(p)

    def cpu(fn, repeat=30):
        samples = []
        for _ in range(repeat):
            t = time.process_time()
            fn()
            samples.append(time.process_time() - t)
        return statistics.median(samples) * 1000

    first = polled[0]
    unit = {
        "player page, nothing changed (304)": cpu(lambda: client.get(first["path"], headers={"If-None-Match": first["etag"]})),
        "player page drawn": cpu(lambda: client.get(first["path"])),
        "projector, nothing changed (304)": cpu(lambda: client.get(projectors[0]["path"],
                                                                    headers={"If-None-Match": projectors[0]["etag"]})),
    }

    def projector_recomputed():
        app.extensions.get("facilitator.projector_cache", {}).clear()
        client.get(projectors[0]["path"])
    unit["projector recomputed (standings and chart)"] = cpu(projector_recomputed, 5)

    def one_move():
        table_id = rng.choice(ids)
        with services.db.session_scope(engine) as s:
            loaded = services.load(s, table_id)
            if loaded.game.finished:
                return
            move = choose_move(loaded.game, rng)
            try:
                services.record_move(s, table_id, move, loaded.seq)
            except Exception:  # noqa: BLE001 - a random redistribution the rules refuse: no move this time
                pass

    move_cpu = poll_cpu = 0.0
    moves = 0
    statuses = {200: 0, 304: 0}
    page_every, projector_every = POLL_SECONDS, 3
    owed = 0.0
    per_second = []
    for second in range(args.seconds):
        owed += args.rate
        t = time.process_time()
        while owed >= 1:
            one_move()
            moves += 1
            owed -= 1
        move_cpu += time.process_time() - t
        t = time.process_time()
        for i, p in enumerate(polled):
            if i % page_every == second % page_every:
                statuses[poll(p)] += 1
        for i, p in enumerate(projectors):
            if i % projector_every == second % projector_every:
                statuses[poll(p)] += 1
        spent = time.process_time() - t
        poll_cpu += spent
        per_second.append(spent)
    share = poll_cpu / args.seconds
    print(f"facilitator seats · {args.tables} tables, {len(polled)} player pages every {page_every} s, "
          f"{args.projectors} projectors every {projector_every} s, {args.rate:g} moves/s · SQLite · in-process")
    for label, ms in unit.items():
        print(f"  {label}: {ms:.2f} ms CPU")
    print(f"  {moves} moves in {args.seconds} simulated s: {move_cpu / max(moves, 1) * 1000:.1f} ms CPU per move")
    print(f"  polls: {statuses[304]} answered 304, {statuses[200]} drawn again (their table or event moved)")
    print(f"  polls' CPU: {share * 100:.2f} % of one core (median second {statistics.median(per_second) * 1000:.1f} ms, "
          f"worst {max(per_second) * 1000:.1f} ms), {poll_cpu / max(moves, 1) * 1000:.1f} ms per move")
    print(f"  polls' share of the CPU spent on moves and polls: {poll_cpu / (poll_cpu + move_cpu) * 100:.1f} %")
    ok = share < TARGET
    print(f"  target: polls under {TARGET * 100:.0f} % of one core: {'met' if ok else 'NOT met'}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())

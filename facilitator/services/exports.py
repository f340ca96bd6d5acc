"""Printed protocols, made once per position of the game and kept until the log changes.

A protocol PDF takes WeasyPrint most of a second of CPU. It is made once for each position of a
table (its game, ``seq`` and ``rev``) and language, kept in a small file cache under the
instance folder (shared by every server process of one machine), and made again only when the
table has moved on. A finished game's protocol is made right after the game ends, in the
background, so the host's download is ready when asked for. Every game goes this way: the
worker replays the record with the game's own ruleset and prints it with the game's own
reports module (``reports.games``).

Rendering runs in a separate worker process (at a lower priority): a PDF being laid out never
holds the server's interpreter lock, so moves at the other tables do not wait for it. A download
waits a moment for a PDF being made, but at most ``WAITERS`` requests wait at once: the others
show the progress page straight away, so many games finishing together never take the
server's threads from the tablets still playing.

The worker process is looked after:

* a worker that died (killed, out of memory) leaves a broken pool; the next request that needs
  it drops the pool, makes a new one and tries once more (``BrokenProcessPool``);
* ``shutdown()`` stops the worker when the server stops: ``facilitator serve`` calls it on
  SIGTERM and at exit (``stop_with_server``), in each ``--workers`` process as in one;
* and a worker whose server is gone however it ended (even SIGKILL) leaves by itself within
  half a second: it watches its parent process.
"""

import hashlib
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from facilitator.i18n import get_locale
from facilitator.services.db import instance_path

_pool = None
_pool_lock = threading.Lock()
WORKERS = 1
#: how much lower the worker process's scheduling priority is than the server's (``os.nice``);
#: ``FACILITATOR_PDF_NICENESS`` sets another (0: a machine that only prints, or the tests, whose
#: busy test processes would otherwise leave the worker a tenth of a core)
WORKER_NICENESS = int(os.environ.get("FACILITATOR_PDF_NICENESS") or 10)
#: how often a worker process looks whether its server is still there (seconds)
PARENT_CHECK_SECONDS = 0.5


def _worker_started(parent):
    """In the worker process, first thing: Ctrl+C in the server's terminal is the server's to
    handle (it stops this process itself), the server's threads come first for the CPU, and the
    worker leaves when its server is gone."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:  # the tablets' moves come first: on a two-core laptop a PDF gets the CPU they leave
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True, name="parent-watch").start()


def _exit_with_parent(parent):
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent:  # the server ended: this process was handed to another parent
            os._exit(0)


def _new_pool():
    import multiprocessing
    return ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_started, initargs=(os.getpid(),))


def _executor():
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _new_pool()
        return _pool


def _replace(broken):
    """Forget a pool whose worker died, so that the next ``_executor()`` makes a new one."""
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    try:
        broken.shutdown(wait=False, cancel_futures=True)
    except Exception:  # noqa: BLE001 - a broken pool may refuse anything; it is forgotten anyway
        pass


def _submit(fn, *args):
    """``fn(*args)`` sent to the worker process; a pool whose worker died is replaced once."""
    pool = _executor()
    try:
        return pool.submit(fn, *args)
    except BrokenProcessPool:
        _replace(pool)
        return _executor().submit(fn, *args)


def _reset_pool_after_fork():
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_pool_after_fork)


def cache_folder():
    folder = instance_path() / "cache" / "protocols"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def cache_key(loaded, locale, event_name, event_date):
    """One position of one table (its game, id, creation, ``seq`` and ``rev``) in one language,
    for one event name and date: a move, an undo or a correction makes a new key."""
    table = loaded.table
    raw = (f"{table.ruleset}|{table.id}|{table.created_at}|{table.seq}|{table.rev}|{locale}|{event_name}|"
           f"{event_date}")
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


def _render(record, undone, event_name, event_date, locale):
    """In the worker process: the protocol PDF of any game's record (plain JSON-able inputs)."""
    from facilitator.reports.games import protocol_pdf_from_record
    return protocol_pdf_from_record(record, undone=undone, event=event_name, event_date=event_date, locale=locale)


_running = {}  # cache file -> the future making it, in this process
_running_lock = threading.Lock()


def _path(loaded, event_name, event_date, locale):
    return cache_folder() / f"{cache_key(loaded, locale, event_name, event_date)}.pdf"


def _keep(path, future):
    """Write a finished render into the cache file (atomically) and forget the future."""
    try:
        data = future.result()
    except Exception:  # noqa: BLE001 - a failed render is made again on the next request
        data = None
    if data is not None:
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    with _running_lock:
        if _running.get(path) is future:
            del _running[path]


def _lost_with_its_worker(future):
    return future.done() and not future.cancelled() and isinstance(future.exception(), BrokenProcessPool)


def _failed(future):
    """A render that ended without a PDF: its worker died, or it raised."""
    if not future.done():
        return False
    return future.cancelled() or future.exception() is not None


def start_protocol(loaded, event_name, event_date=None, locale=None):
    """Start making the table's protocol PDF (any game's) in the worker process unless it is
    cached or on its way; returns the cache file's path. Called when a game finishes, so the
    host's download is ready when asked for. A render that failed (its worker died) is started
    again."""
    locale = locale or get_locale()
    path = _path(loaded, event_name, event_date, locale)
    if path.exists() or _on_its_way(path):
        return path
    from facilitator.reports.games import undone_as_plain
    # the record is read before taking the lock: forty games finishing at once do not queue here
    record, undone = loaded.record().to_dict(), undone_as_plain(loaded.undone_moves())
    with _running_lock:
        if _on_its_way(path, locked=True):
            return path
        future = _submit(_render, record, undone, event_name, event_date, locale)
        _running[path] = future
    future.add_done_callback(lambda f: _keep(path, f))
    return path


def _on_its_way(path, locked=False):
    if not locked:
        with _running_lock:
            return _on_its_way(path, locked=True)
    running = _running.get(path)
    return running is not None and not _failed(running)


#: at most this many request threads wait at once for a protocol being made; the others answer
#: with the progress page at once: a waiting thread serves nobody else, and forty games finishing
#: together must not leave the server no thread for the moves at the other tables
WAITERS = 2
_waiters = threading.BoundedSemaphore(WAITERS)


def protocol_pdf_ready(loaded, event_name, event_date=None, locale=None, wait=0.0):
    """The protocol PDF's bytes if it is made (waiting up to ``wait`` seconds for it when few
    requests wait already), else None (it is being made: the screen shows its progress and asks
    again). A render lost with its worker process is made again at once, in a new one."""
    deadline = time.monotonic() + wait
    for attempt in range(2):
        path = start_protocol(loaded, event_name, event_date, locale)
        with _running_lock:
            future = _running.get(path)
        if future is None or not wait:
            break
        if not future.done():
            if not _waiters.acquire(blocking=False):
                break
            try:
                future.result(timeout=max(0.0, deadline - time.monotonic()))
            except Exception:  # noqa: BLE001 - a timeout, or a failed render: asked again later
                pass
            finally:
                _waiters.release()
        if not _lost_with_its_worker(future):
            break
        # the worker died: start_protocol sees the failed render and starts it anew
    if future is not None and not path.exists():
        until = time.monotonic() + 1.0  # the callback writing the file may still be at it
        while future.done() and not _failed(future) and not path.exists() and time.monotonic() < until:
            time.sleep(0.01)
    return path.read_bytes() if path.exists() else None


def queue_place(loaded, event_name, event_date=None, locale=None):
    """How many protocols of this instance are to be made before this table's (0: it is being
    made now, or is not on its way): a progress page asks again the later, the longer the queue
    (forty hosts asking every second would cost the server more than the PDFs do)."""
    path = _path(loaded, event_name, event_date, locale or get_locale())
    ahead = 0
    with _running_lock:
        for other, future in _running.items():
            if other == path:
                return ahead
            if other.parent == path.parent and not future.done():
                ahead += 1
    return 0


def protocol_pdf(session, loaded, event_name, event_date=None, locale=None, timeout=120):
    """The table's protocol PDF: from the cache when this position was printed before, else
    made in the worker process (and kept), waited for up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        data = protocol_pdf_ready(loaded, event_name, event_date, locale, wait=max(0.0, deadline - time.monotonic()))
        if data is not None:
            return data
        if time.monotonic() >= deadline:
            raise TimeoutError("the protocol could not be made")
        time.sleep(0.1)


def _call(module, name, args, kwargs):
    """In the worker process: ``module.name(*args, **kwargs)``."""
    from importlib import import_module
    return getattr(import_module(module), name)(*args, **kwargs)


def in_worker(module, name, *args, timeout=120, inline=False, **kwargs):
    """Run a printing function (plain arguments in, bytes out) in the worker process, so its
    layout never holds the server's interpreter lock while tablets are recording moves
    (``inline``: here, in this thread, as a test that looks inside it asks). A worker that died
    before or during the call is replaced and the call made once more."""
    if inline:
        return _call(module, name, args, kwargs)
    for attempt in range(2):
        pool = _executor()
        try:
            return pool.submit(_call, module, name, args, kwargs).result(timeout=timeout)
        except BrokenProcessPool:
            _replace(pool)
            if attempt:
                raise


def shutdown():
    """Stop the worker processes now (the server is stopping): work queued is dropped and a
    render in progress ends with its process (nobody is left to receive it)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    # the pool's processes: there is no public accessor before Python 3.14's terminate_workers()
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(2)


def stop_with_server():
    """Make the worker processes stop with this server process: at exit, and on SIGTERM, whose
    default action would end the server at once and leave them behind; SIGTERM then stops the
    server as Ctrl+C does (``facilitator serve`` with waitress; call from the main thread)."""
    import atexit
    import signal
    atexit.register(shutdown)
    if threading.current_thread() is not threading.main_thread():
        return

    def on_sigterm(signum, frame):
        shutdown()
        raise SystemExit(0)  # waitress closes its sockets and returns from serve()

    signal.signal(signal.SIGTERM, on_sigterm)


__all__ = ["protocol_pdf", "protocol_pdf_ready", "start_protocol", "queue_place", "in_worker", "shutdown",
           "stop_with_server", "cache_folder", "Path"]

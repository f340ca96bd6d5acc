"""Printed protocols, made once per position of the game and kept until the log changes.

A protocol PDF takes WeasyPrint most of a second of CPU. It is made once for each position of a
table (its ``seq`` and ``rev``) and language, kept in a small file cache under the instance
folder (shared by every server process of one machine), and made again only when the table
has moved on. A finished game's protocol is made right after ``finish``, in the background, so
the host's download is ready when asked for.

Rendering runs in a separate worker process: a PDF being laid out never holds the server's
interpreter lock, so moves at the other tables do not wait for it.
"""

import hashlib
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..i18n import get_locale
from .db import instance_path

_pool = None
_pool_lock = threading.Lock()
WORKERS = 1


def _executor():
    global _pool
    with _pool_lock:
        if _pool is None:
            import multiprocessing
            _pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"))
        return _pool


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
    table = loaded.table
    raw = f"{table.id}|{table.created_at}|{table.seq}|{table.rev}|{locale}|{event_name}|{event_date}"
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


def _render(record, undone, event_name, event_date, locale):
    """In the worker process: the protocol PDF of a game record (plain JSON-able inputs)."""
    from ..reports.pdf import render_protocol_pdf_from_record
    return render_protocol_pdf_from_record(record, undone=undone, event=event_name, locale=locale,
                                           event_date=event_date)


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
        _running.pop(path, None)


def start_protocol(loaded, event_name, event_date=None, locale=None):
    """Start making the table's protocol PDF in the worker process unless it is cached or on
    its way; returns the cache file's path. Called when a game finishes, so the host's download
    is ready when asked for."""
    locale = locale or get_locale()
    path = _path(loaded, event_name, event_date, locale)
    if path.exists():
        return path
    with _running_lock:
        if path in _running:
            return path
        from ..reports.protocol import undone_as_json
        record = loaded.record().to_dict()
        future = _executor().submit(_render, record, undone_as_json(loaded.undone_moves()), event_name, event_date,
                                    locale)
        _running[path] = future
    future.add_done_callback(lambda f: _keep(path, f))
    return path


def protocol_pdf_ready(loaded, event_name, event_date=None, locale=None, wait=0.0):
    """The protocol PDF's bytes if it is made (waiting up to ``wait`` seconds for it), else None
    (it is being made: the screen shows its progress and asks again)."""
    path = start_protocol(loaded, event_name, event_date, locale)
    with _running_lock:
        future = _running.get(path)
    if future is not None:
        try:
            future.result(timeout=wait) if wait else None
        except Exception:  # noqa: BLE001 - a timeout, or a failed render: asked again later
            pass
        if not path.exists():
            import time
            deadline = time.monotonic() + 1.0  # the callback writing the file may still be at it
            while future.done() and not path.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
    return path.read_bytes() if path.exists() else None


def protocol_pdf(session, loaded, event_name, event_date=None, locale=None):
    """The table's protocol PDF: from the cache when this position was printed before, else
    made in the worker process (and kept)."""
    data = protocol_pdf_ready(loaded, event_name, event_date, locale, wait=120)
    if data is None:
        raise TimeoutError("the protocol could not be made")
    return data


def _call(module, name, args, kwargs):
    """In the worker process: ``module.name(*args, **kwargs)``."""
    from importlib import import_module
    return getattr(import_module(module), name)(*args, **kwargs)


def in_worker(module, name, *args, timeout=120, inline=False, **kwargs):
    """Run a printing function (plain arguments in, bytes out) in the worker process, so its
    layout never holds the server's interpreter lock while tablets are recording moves
    (``inline``: here, in this thread, as a test that looks inside it asks)."""
    if inline:
        return _call(module, name, args, kwargs)
    return _executor().submit(_call, module, name, args, kwargs).result(timeout=timeout)


def shutdown():
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


__all__ = ["protocol_pdf", "shutdown", "cache_folder", "Path"]

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


def _undone_plain(loaded):
    return [{"move": move, "kind": row.kind, "author": row.author, "seq": row.seq, "undoes": row.undoes,
             "created_at": row.created_at.isoformat() if row.created_at else None}
            for move, row in loaded.undone_moves()]


def protocol_pdf(session, loaded, event_name, event_date=None, locale=None):
    """The table's protocol PDF: from the cache when this position was printed before, else
    made in the worker process (and kept)."""
    locale = locale or get_locale()
    path = cache_folder() / f"{cache_key(loaded, locale, event_name, event_date)}.pdf"
    if path.exists():
        return path.read_bytes()
    record = loaded.record().to_dict()
    future = _executor().submit(_render, record, _undone_plain(loaded), event_name, event_date, locale)
    data = future.result(timeout=120)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return data


def shutdown():
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


__all__ = ["protocol_pdf", "shutdown", "cache_folder", "Path"]

"""Where exported files go and what they are called: ``exports/<event>/<event>_<table>_<kind>_<time>.<ext>``.

One folder per event; each name says the event, the table (for a table's files), what the
file is and when it was made, so a folder of protocols sorts and reads well:
``exports/Турнир-лицея/Турнир-лицея_Стол-3_протокол_2025-05-17_1432.pdf``.
Names keep Cyrillic letters (every current system handles them) but drop the characters
Windows, macOS or a zip file refuse, and never start with a dot.
"""

import os
import re
import tempfile
import unicodedata
from datetime import datetime
from pathlib import Path

from facilitator.i18n import pgettext

#: the catalogs' context (msgctxt) of the words of a file's name: a game's own «event» or
#: «results» may be worded otherwise on its screens (New Angeles' «event» is an event card)
FILE_NAME = "file name"
#: what a file is, as its name says it (translated in FILE_NAME's context): kind key -> message id;
#: "event" is also the name of an event without one
KINDS = {
    "protocol": "protocol",
    "blank": "blank-protocol",
    "results": "results",
    "certificates": "certificates",
    "event": "event",
}
MAX_PART = 60


def slug(text, fallback="export"):
    """A file-name-safe form of ``text``: letters and digits of any script kept, spaces and
    punctuation turned into single dashes, at most ``MAX_PART`` characters."""
    text = unicodedata.normalize("NFC", str(text or ""))
    text = re.sub(r"[^\w.\-]+", "-", text, flags=re.UNICODE)
    text = re.sub(r"-{2,}", "-", text).strip("-._")
    return text[:MAX_PART].rstrip("-._") or fallback


def export_name(kind, ext, event=None, table=None, when=None):
    """``<event>_<table>_<kind>_<YYYY-MM-DD_HHMM>.<ext>``; the table part only for a table's files."""
    when = when or datetime.now()
    parts = [slug(event or pgettext(FILE_NAME, "event"))]
    if table is not None:
        parts.append(slug(table, "table"))
    parts.append(slug(pgettext(FILE_NAME, KINDS[kind]) if kind in KINDS else kind))
    parts.append(f"{when:%Y-%m-%d_%H%M}")
    return "_".join(parts) + "." + ext.lstrip(".")


def export_folder(base, event=None):
    """The event's folder under ``base`` (usually ``exports/``)."""
    return Path(base) / slug(event or pgettext(FILE_NAME, "event"))


def write_export(data, base, kind, ext, event=None, table=None, when=None):
    """Write ``data`` (bytes) to the event's folder under ``base`` and return its path.

    The folder is created as needed. The file is written to a temporary name first and then
    renamed, so a reader never sees half a file; an existing file of the same name (made in
    the same minute) is kept and the new one gets a ``-2``, ``-3``... suffix.
    """
    folder = export_folder(base, event)
    folder.mkdir(parents=True, exist_ok=True)
    name = export_name(kind, ext, event=event, table=table, when=when)
    stem, dot, suffix = name.rpartition(".")
    path = folder / name
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{dot}{suffix}"
        n += 1
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix="." + suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path

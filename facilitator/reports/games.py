"""Each game's protocol files, found through its game package (``GamePackage.reports``), and
the protocol PDF of any game made from plain JSON-able inputs (what a worker process is given).

Every game's reports module makes ``table_protocol_xlsx`` and ``table_protocol_pdf`` of a
replayed game, with the keywords ``undone=``, ``event=``, ``event_date=`` and ``now=``.
``protocol_pdf_from_record`` replays a game record with its own ruleset (found in the registry
by the record's ``format``) and prints it with its own module, so the worker process that lays
the PDFs out knows no game by name.
"""

from datetime import datetime

def protocol_module(ruleset_key):
    """The reports module of a game (``KeyError`` for a game with no protocol)."""
    from facilitator import games
    module = games.get(ruleset_key).reports_module()
    if module is None:
        raise KeyError(f"{ruleset_key}: no protocol")
    return module


def has_protocol(ruleset_key):
    """True when the game of ``ruleset_key`` prints a protocol."""
    from facilitator import games
    try:
        return games.get(ruleset_key).reports is not None
    except KeyError:
        return False


def undone_as_plain(entries):
    """The moves taken back as ``LoadedTable.undone_moves()`` gives them (``(move dict, row)``
    pairs) as plain dicts ``{"move", "undone_at", "undone_by", "after", "kind"}``, which every
    game's protocol reads, in this process or another."""
    out = []
    for move, row in entries or ():
        at = getattr(row, "created_at", None)
        out.append({"move": move.to_dict() if hasattr(move, "to_dict") else move,
                    "undone_at": at.isoformat() if isinstance(at, datetime) else at,
                    "undone_by": getattr(row, "author", None), "after": None,
                    "kind": getattr(row, "kind", None) or "undo"})
    return out


def protocol_pdf_from_record(record, undone=(), event=None, event_date=None, locale=None, now=None):
    """Any game's protocol as PDF bytes from plain values, a pure function of its arguments (it
    runs in the worker process): ``record`` is the table's game record (``LoadedTable.record()
    .to_dict()``, any game's format), ``undone`` as ``undone_as_plain`` gives it, ``event`` the
    event's name, ``event_date`` ISO ``YYYY-MM-DD``, ``locale`` the sheet's language (None: the
    app's default), ``now`` the "made at" time as ISO text (None: now)."""
    from facilitator.i18n import use_locale
    from facilitator.rules import registry
    rules = registry.of_record(record)
    moment = datetime.fromisoformat(now) if isinstance(now, str) else now
    with use_locale(locale):
        game = rules.replay(rules.read_record(record))
        return protocol_module(rules.key).table_protocol_pdf(game, undone=list(undone or ()), event=event,
                                                             event_date=event_date, now=moment)


__all__ = ["has_protocol", "protocol_module", "undone_as_plain", "protocol_pdf_from_record"]

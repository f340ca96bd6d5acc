"""Protocol and results files as downloads: built by ``facilitator.reports`` (bytes), also
written under the exports folder (one folder per event), then sent to the browser."""

import re
import unicodedata
from io import BytesIO

from flask import abort, current_app, make_response, render_template, send_file

from facilitator import reports, services
from facilitator.i18n import gettext as _
from facilitator.reports.games import has_protocol, protocol_module

#: the longest a progress page waits before it asks for its protocol again (seconds)
MAX_REFRESH_SECONDS = 10

MIMETYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "json": "application/json",
}


def safe_filename(name, fallback="download"):
    """A download name every browser takes: no control characters, slashes or quotes, at most
    120 characters (Flask adds the UTF-8 form for names beyond ASCII)."""
    name = unicodedata.normalize("NFC", str(name))
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = re.sub(r'[\\/:*?"<>|\s]+', "_", name).strip("._") or fallback
    if len(name) > 120:
        stem, dot, ext = name.rpartition(".")
        name = (stem[:110] + dot + ext) if dot and len(ext) <= 8 else name[:120]
    return name


def _speak_the_games_language(loaded):
    """A table's files are in its game's languages, as its pages are (the one chosen on this
    browser if the game speaks it, else the game's first): the same protocol, and the same kept
    PDF, whichever address it is asked at, or the finish that started it."""
    from facilitator.web import use_locales
    use_locales(loaded.ruleset.locales, loaded.table.ruleset)


def _send(data, kind, ext, event_name, table_name=None):
    path = reports.write_export(data, current_app.config["EXPORTS_DIR"], kind, ext, event=event_name,
                                table=table_name)
    return send_file(BytesIO(data), mimetype=MIMETYPES[ext], as_attachment=True,
                     download_name=safe_filename(path.name))


def table_download(session, table_id, kind):
    """One table's protocol (``protocol.xlsx``, ``protocol.pdf``) or blank paper protocol
    (``blank.pdf``): provisional mid-game, final after finish."""
    loaded = services.load(session, table_id)
    _speak_the_games_language(loaded)
    event = services.events.get_event(session, loaded.table.event_id) if loaded.table.event_id else None
    event_name = event.name if event else _("Game")
    event_date = event.date if event else None
    if kind == "blank.pdf":
        from facilitator import games
        data = games.of_table(loaded.table).blank_protocol(loaded.table.name, loaded.players, loaded.pack,
                                                           event=event_name, event_date=event_date)
        if data is None:
            abort(404)
        return _send(data, "blank", "pdf", event_name, loaded.table.name)
    if loaded.game is None or loaded.broken or not has_protocol(loaded.table.ruleset):
        abort(404)
    if kind == "protocol.xlsx":  # the game's own workbook, made here (a fraction of the PDF's time)
        data = protocol_module(loaded.table.ruleset).table_protocol_xlsx(
            loaded.game, undone=loaded.undone_moves(), event=event_name, event_date=event_date)
        return _send(data, "protocol", "xlsx", event_name, loaded.table.name)
    if kind == "protocol.pdf":
        # every game's: made once per position, in a worker process; a long render shows its progress
        data = services.exports.protocol_pdf_ready(loaded, event_name, event_date,
                                                   wait=current_app.config["PROTOCOL_WAIT_SECONDS"])
        if data is None:
            # asked again in a second, or later when other protocols are to be made before it
            ahead = services.exports.queue_place(loaded, event_name, event_date)
            refresh = str(min(MAX_REFRESH_SECONDS, 1 + ahead))
            response = make_response(render_template("host/preparing.html", loaded=loaded, refresh=refresh), 202)
            response.headers["Refresh"] = refresh
            response.headers["Cache-Control"] = "no-store"
            return response
        return _send(data, "protocol", "pdf", event_name, loaded.table.name)
    abort(404)


#: the event-wide files by kind: what the exported file is called and its extension
EVENT_FILES = {"workbook": ("event", "xlsx"), "results": ("results", "pdf"), "certificates": ("certificates", "pdf")}


def event_download(session, event, kind):
    """One of the event-wide files the event's game prints (``GamePackage.event_files``: the
    event workbook, the results, the certificates), from every table that has players and
    replays."""
    from facilitator import games
    game = games.get(event.ruleset)
    if kind not in EVENT_FILES or kind not in game.event_files:
        abort(404)
    tables = [loaded for loaded in services.load_many(session, services.events.tables_of(session, event.id)).values()
              if loaded.game is not None and not loaded.broken]
    if not tables:
        abort(404)
    name, ext = EVENT_FILES[kind]
    # the certificates are handed to the players: in the event's language; the organizer's own
    # files in the page's, if the game speaks it (else the event's too)
    from facilitator.i18n import event_locale, get_locale, use_locale
    locale = get_locale() if kind != "certificates" and get_locale() in game.locales else event_locale(event)
    with use_locale(locale):
        data = game.event_file(kind, tables, event)
    return _send(data, name, ext, event.name)


def start_protocol(session, table_id):
    """Start making a finished table's protocol PDF (any game's) in the background, in the
    language of this screen, so that it is ready when the host or the organizer downloads it."""
    if not current_app.config["PREPARE_PROTOCOLS"]:
        return
    loaded = services.load(session, table_id)
    if not has_protocol(loaded.table.ruleset) or loaded.game is None or loaded.broken:
        return
    _speak_the_games_language(loaded)
    event = services.events.get_event(session, loaded.table.event_id) if loaded.table.event_id else None
    services.exports.start_protocol(loaded, event.name if event else _("Game"), event.date if event else None)

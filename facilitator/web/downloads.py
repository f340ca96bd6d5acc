"""Protocol and results files as downloads: built by ``facilitator.reports`` (bytes), also
written under the exports folder (one folder per event), then sent to the browser."""

from io import BytesIO

from flask import abort, current_app, send_file

from .. import events, reports, services
from ..i18n import gettext as _
from ..storage.models import Event

MIMETYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


def _send(data, kind, ext, event_name, table_name=None):
    path = reports.write_export(data, current_app.config["EXPORTS_DIR"], kind, ext, event=event_name,
                                table=table_name)
    return send_file(BytesIO(data), mimetype=MIMETYPES[ext], as_attachment=True, download_name=path.name)


def event_name_of(session, table):
    event = session.get(Event, table.event_id) if table.event_id else None
    return event.name if event else _("Game")


def table_download(session, table_id, kind):
    """One table's protocol (``protocol.xlsx``, ``protocol.pdf``) or blank paper protocol
    (``blank.pdf``): provisional mid-game, final after finish."""
    loaded = services.load(session, table_id)
    event_name = event_name_of(session, loaded.table)
    if kind == "blank.pdf":
        data = reports.blank_protocol_pdf(loaded.table.name, loaded.players, pack=loaded.pack, event=event_name)
        return _send(data, "blank", "pdf", event_name, loaded.table.name)
    if loaded.game is None:
        abort(404)
    undone = loaded.undone_moves()
    if kind == "protocol.xlsx":
        data = reports.table_protocol_xlsx(loaded.game, undone=undone, event=event_name)
        return _send(data, "protocol", "xlsx", event_name, loaded.table.name)
    if kind == "protocol.pdf":
        data = reports.table_protocol_pdf(loaded.game, undone=undone, event=event_name)
        return _send(data, "protocol", "pdf", event_name, loaded.table.name)
    abort(404)


def event_download(session, event, kind):
    """The event workbook (summary + every table's protocol), the results PDF or the
    certificates PDF, from every table that has players."""
    protocols = []
    for table in events.tables_of(session, event.id):
        loaded = services.load(session, table.id)
        if loaded.game is not None:
            protocols.append(reports.build_protocol(loaded.game, undone=loaded.undone_moves(), event=event.name))
    if not protocols:
        abort(404)
    if kind == "workbook":
        return _send(reports.event_workbook_xlsx(protocols, event=event.name), "event", "xlsx", event.name)
    if kind == "results":
        return _send(reports.event_results_pdf(protocols, event=event.name), "results", "pdf", event.name)
    if kind == "certificates":
        return _send(reports.certificates_pdf(protocols, event=event.name), "certificates", "pdf", event.name)
    abort(404)

"""The organizer's pages: sign in, events, tables and their access codes, the live dashboard,
downloads, record import, backups and the projector's announcement mode."""

import json
from io import BytesIO
from urllib.parse import urlparse

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, send_file, url_for

from .. import events, services
from ..content.library import list_packs
from ..i18n import describe_error
from ..i18n import gettext as _
from ..rules import ReplayError, RulesError
from ..storage.models import ContentPackRow, Event, GameTable
from . import db_session
from .public import table_cache
from .auth import (check_password, client_key, is_organizer, organizer_required, password_hash, session,
                   throttle)

bp = Blueprint("organizer", __name__, url_prefix="/organizer")


def _safe_next(target):
    """Only a path on this site: never redirect a signed-in organizer elsewhere."""
    if not target:
        return url_for("organizer.home")
    # browsers read a backslash as a slash and drop tabs and newlines: "/\\evil" is "//evil"
    if "\\" in target or any(ord(ch) < 32 or ch == "\x7f" for ch in target):
        return url_for("organizer.home")
    parsed = urlparse(target)
    if parsed.scheme or parsed.netloc or not target.startswith("/"):
        return url_for("organizer.home")
    return target


@bp.route("/login", methods=["GET", "POST"])
def login():
    from flask_wtf import FlaskForm
    with db_session() as s:
        configured = password_hash(s) is not None
    form = FlaskForm()
    status = 200
    if request.method == "POST":
        if not form.validate():
            flash(_("The form expired or was not sent from this page; try again"), "error")
            return render_template("organizer/login.html", configured=configured), 400
        gate = throttle("password")
        wait = gate.wait_left(client_key())
        if wait:
            flash(_("Too many wrong passwords. Try again in {seconds} s.", seconds=wait), "error")
            return render_template("organizer/login.html", configured=configured), 429
        with db_session() as s:
            ok = check_password(s, request.form.get("password", ""))
        if ok:
            gate.succeeded(client_key())
            session.clear()
            session["organizer"] = True
            session.permanent = True
            return redirect(_safe_next(request.args.get("next")), 303)
        gate.failed(client_key())
        flash(_("Wrong password"), "error")
        status = 401
    return render_template("organizer/login.html", configured=configured), status


@bp.post("/logout")
def logout():
    from flask_wtf import FlaskForm
    if FlaskForm().validate():
        session.pop("organizer", None)
    return redirect(url_for("host.index"), 303)


@bp.get("/")
@organizer_required
def home():
    with db_session() as s:
        rows = events.events(s)
        packs = list_packs(s)
    return render_template("organizer/home.html", events=rows, packs=packs)


@bp.post("/events")
@organizer_required
def create_event():
    name = (request.form.get("name") or "").strip()
    date = (request.form.get("date") or "").strip() or None
    if not name or len(name) > 200:
        flash(_("The event needs a name (up to 200 characters)"), "error")
        return redirect(url_for("organizer.home"), 303)
    if date:
        from datetime import date as _date
        try:
            _date.fromisoformat(date)
        except ValueError:
            flash(_("The date must look like 2026-11-29"), "error")
            return redirect(url_for("organizer.home"), 303)
    with db_session() as s:
        pack_row = None
        if request.form.get("pack"):
            try:
                pack_row = s.get(ContentPackRow, int(request.form["pack"]))
            except ValueError:
                pack_row = None
            if pack_row is None:
                flash(_("Unknown content pack"), "error")
                return redirect(url_for("organizer.home"), 303)
        event = events.create_event(s, name, date, pack_row)
        tables = request.form.get("tables", "")
        count = int(tables) if tables.isdigit() else 0
        for i in range(min(count, 100)):
            events.add_table(s, event, _("Table {n}", n=i + 1))
        event_id = event.id
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _event_or_404(s, event_id):
    event = s.get(Event, event_id)
    if event is None:
        abort(404)
    return event


@bp.get("/events/<int:event_id>")
@organizer_required
def event(event_id):
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        tables = events.progress(s, event_id, table_cache())
        result = events.event_standings(s, event_id, tables)
        pack = s.get(ContentPackRow, ev.pack_id) if ev.pack_id else None
    return render_template("organizer/event.html", event=ev, tables=tables, result=result, pack=pack,
                           stalled_after=events.STALLED_SECONDS)


@bp.get("/events/<int:event_id>/status.json")
@organizer_required
def status(event_id):
    with db_session() as s:
        _event_or_404(s, event_id)
        tables = events.progress(s, event_id, table_cache())
        result = events.event_standings(s, event_id, tables)
    return jsonify({"tables": [{"id": t.table.id, "name": t.table.name, "moves": t.moves,
                                "seconds_since_last_move": t.seconds_since_last_move, "stalled": t.stalled,
                                "round": t.standing["round"] if t.standing else None,
                                "finished": t.standing["finished"] if t.standing else False}
                               for t in tables],
                    "teams": result["teams"], "individuals": result["individuals"][:20]})


@bp.post("/events/<int:event_id>/tables")
@organizer_required
def add_table(event_id):
    name = (request.form.get("name") or "").strip()
    if not name or len(name) > 100:
        flash(_("The table needs a name (up to 100 characters)"), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        events.add_table(s, ev, name, (request.form.get("host_name") or "").strip()[:100])
    flash(_("Table «{name}» added", name=name), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _table_of(s, event_id, table_id):
    table = s.get(GameTable, table_id)
    if table is None or table.event_id != event_id:
        abort(404)
    return table


@bp.post("/events/<int:event_id>/tables/<int:table_id>/rename")
@organizer_required
def rename_table(event_id, table_id):
    name = (request.form.get("name") or "").strip()
    if not name or len(name) > 100:
        flash(_("The table needs a name (up to 100 characters)"), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    with db_session() as s:
        table = _table_of(s, event_id, table_id)
        table.name = name
        table.host_name = (request.form.get("host_name") or "").strip()[:100] or table.host_name
        s.add(table)
    flash(_("Table renamed: «{name}»", name=name), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


@bp.post("/events/<int:event_id>/tables/<int:table_id>/reissue")
@organizer_required
def reissue(event_id, table_id):
    with db_session() as s:
        table = events.reissue_access(s, _table_of(s, event_id, table_id))
        name, pin = table.name, table.pin
    flash(_("New link and PIN for «{name}»: {pin}. The old ones no longer work.", name=name, pin=pin), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _host_url(table):
    return url_for("public.host_link", token=table.token, _external=True)


@bp.get("/events/<int:event_id>/access.pdf")
@organizer_required
def access_sheet(event_id):
    import segno
    from weasyprint import HTML
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        tables = events.tables_of(s, event_id)
        cards = []
        for table in tables:
            events.ensure_access(s, table)
            link = _host_url(table)
            cards.append({"name": table.name, "host": table.host_name, "pin": table.pin, "url": link,
                          "qr": segno.make(link, error="m").svg_inline(scale=4, border=2)})
    from ..reports.pdf import FONTS
    html = render_template("organizer/access_sheet.html", event=ev, cards=cards, fonts=FONTS,
                           pin_url=url_for("public.pin", _external=True))
    pdf = HTML(string=html, base_url=request.host_url).write_pdf()
    return send_file(BytesIO(pdf), mimetype="application/pdf", as_attachment=True,
                     download_name=f"access-{ev.id}.pdf")


@bp.post("/events/<int:event_id>/import")
@organizer_required
def import_record(event_id):
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        flash(_("Choose a game record file (.json) to import"), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    try:
        data = json.loads(upload.read().decode("utf-8"))
        with db_session() as s:
            ev = _event_or_404(s, event_id)
            table = services.import_record(s, data, name=(request.form.get("name") or "").strip() or None,
                                           event_id=ev.id)
            events.ensure_access(s, table)
            name = table.name
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        flash(_("Not a game record: the file is not valid JSON ({error})", error=str(err)), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    except (RulesError, ReplayError) as err:  # malformed or breaking the rules: nothing was written
        flash(_("The game record was not imported: {error}", error=describe_error(err)), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    flash(_("Game record imported as table «{name}»", name=name), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


@bp.get("/events/<int:event_id>/backup.json")
@organizer_required
def backup(event_id):
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        data = events.backup(s, event_id)
    body = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    return send_file(BytesIO(body), mimetype="application/json", as_attachment=True,
                     download_name=f"event-{ev.id}-backup.json")


@bp.post("/restore")
@organizer_required
def restore():
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        flash(_("Choose an event backup file to restore"), "error")
        return redirect(url_for("organizer.home"), 303)
    try:
        data = json.loads(upload.read().decode("utf-8"))
        with db_session() as s:
            ev = events.restore(s, data, rename=(request.form.get("name") or "").strip() or None)
            event_id = ev.id
    except events.EventExists as err:
        flash(_("An event «{name}» of that date already exists; nothing was restored. Give the restored "
                "event another name to keep both.", name=err.name), "error")
        return redirect(url_for("organizer.home"), 303)
    except (UnicodeDecodeError, json.JSONDecodeError, events.BackupError, KeyError, TypeError) as err:
        flash(_("The backup was not restored: {error}", error=describe_error(err)), "error")
        return redirect(url_for("organizer.home"), 303)
    flash(_("Event restored"), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


@bp.post("/events/<int:event_id>/announce")
@organizer_required
def announce(event_id):
    action = request.form.get("action")
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        count = len([t for t in events.tables_of(s, event_id) if t.players])
        if action == "start":
            ev.announce_step = 1
        elif action == "next":
            ev.announce_step = min(ev.announce_step + 1, max(count, 1))
        elif action == "back":
            ev.announce_step = max(ev.announce_step - 1, 1)
        elif action == "stop":
            ev.announce_step = 0
        else:
            abort(400)
        s.add(ev)
    return redirect(url_for("organizer.event", event_id=event_id) + "#announce", 303)


@bp.get("/events/<int:event_id>/download/<kind>")
@organizer_required
def download(event_id, kind):
    """The event workbook or the results PDF, built by the reports package and also written
    under the exports folder."""
    from .downloads import event_download
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        return event_download(s, ev, kind)


__all__ = ["bp", "is_organizer"]

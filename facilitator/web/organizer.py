"""The organizer's pages: sign in, events, tables and their access codes, the live dashboard,
downloads, record import, backups, repairs of a table that needs checking, reopening a finished
table, and the projector's announcement mode."""

from io import BytesIO
from urllib.parse import urlparse

from flask import (Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, send_file,
                   url_for)

from facilitator import games as game_packages
from facilitator import services
from facilitator.i18n import describe_error, event_locale
from facilitator.i18n import gettext as _
from facilitator.rules import ReplayError, RulesError
from facilitator.rules.registry import UnknownFormat
from facilitator.safejson import JSONInputError, loads as safe_loads
from facilitator.web.games import screen_url
from facilitator.web import db_session, games
from facilitator.web.auth import client_key, is_organizer, organizer_required, sign_in, sign_out, throttle
from facilitator.web.forms import AfterForm, EventForm, TableForm

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
        configured = services.access.password_hash(s) is not None
    form = FlaskForm()
    status = 200
    if request.method == "POST":
        if not form.validate():
            flash(_("The form expired or was not sent from this page; try again"), "error")
            return render_template("organizer/login.html", configured=configured), 400
        with db_session() as s:
            gate = throttle("password")
            wait = gate.wait_left(client_key())
            if wait:
                flash(_("Too many wrong passwords. Try again in {seconds} s.", seconds=wait), "error")
                response = current_app.make_response((render_template("organizer/login.html", configured=configured),
                                                      429))
                response.headers["Retry-After"] = str(wait)
                return response
            if services.access.check_password(s, request.form.get("password", "")[:1000]):
                sign_in(s)  # the wrong passwords before it still count (Throttle)
                return redirect(_safe_next(request.args.get("next")), 303)
            gate.failed(client_key())
        flash(_("Wrong password"), "error")
        status = 401
    return render_template("organizer/login.html", configured=configured), status


@bp.post("/logout")
def logout():
    from flask_wtf import FlaskForm
    if FlaskForm().validate():
        with db_session() as s:
            sign_out(s)
    return redirect(url_for("host.index"), 303)


@bp.get("/")
@organizer_required
def home():
    """The events, a new event (its game the first choice: ``?game=<key>``, then its pack and
    language) and a restore."""
    from facilitator.web.host import game_choice
    with db_session() as s:
        rows = services.events.events(s)
        choice = game_choice(s, request.args.get("game"))
    return render_template("organizer/home.html", events=rows, choice=choice)


def _pack_choices(packs):
    from wtforms import SelectChoice
    return [SelectChoice("", "")] + [SelectChoice(str(p.id), p.title) for p in packs]


def prepare_event_form(s, form):
    """A new event's form with every stored pack to choose from, each known by its game."""
    packs = services.packs.list_packs(s)
    form.pack.choices = _pack_choices(packs)
    form.pack_rulesets = {str(p.id): p.ruleset for p in packs}
    return form


def event_from_form(s, form):
    """The event a checked ``EventForm`` describes, with its first tables named in the event's
    language («Pöytä 1», «Bord 1», «Table 1», «Стол 1»). The organizer's page and the API both
    create events here."""
    from facilitator.i18n import event_language
    pack_row = services.packs.row_by_id(s, int(form.pack.data)) if form.pack.data else None
    event = services.events.create_event(s, form.name.data.strip(),
                                         form.date.data.isoformat() if form.date.data else None, pack_row,
                                         ruleset=form.game.data or None, language=form.language.data or None)
    with event_language(event):
        names = [_("Table {n}", n=i + 1) for i in range(form.tables.data or 0)]
    services.events.add_tables(s, event, names)
    return event


@bp.post("/events")
@organizer_required
def create_event():
    with db_session() as s:
        form = prepare_event_form(s, EventForm())
        if not form.validate():
            for message in form.messages():
                flash(message, "error")
            chosen = form.ruleset() if form.ruleset() in {g.key for g in game_packages.registered()} else None
            return redirect(url_for("organizer.home", game=chosen), 303)
        event_id = event_from_form(s, form).id
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _event_or_404(s, event_id):
    event = services.events.get_event(s, event_id)
    if event is None:
        abort(404)
    return event


def _on_localhost():
    """Whether the links and QR codes made for the tablets would name this machine's own address,
    which no tablet can open, and why: "page" (the dashboard opened through it, no public address
    set), "public" (the public address set is itself one: ``serve --host 127.0.0.1``, or no
    network found at start), else None. A public address that tablets can open is never warned
    about, whatever address the dashboard is open at."""
    from urllib.parse import urlsplit
    if (urlsplit(public_base()).hostname or "") not in ("127.0.0.1", "localhost", "::1"):
        return None
    return "public" if current_app.config.get("PUBLIC_URL") else "page"


@bp.get("/events/<int:event_id>")
@organizer_required
def event(event_id):
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        tables = services.events.progress(s, event_id)
        result = services.events.event_standings(s, event_id, tables)
        pack = services.packs.row_by_id(s, ev.pack_id)
    return render_template("organizer/event.html", event=ev, tables=tables, result=result, pack=pack,
                           stalled_after=services.events.STALLED_SECONDS, on_localhost=_on_localhost(),
                           public_url=public_base())


@bp.get("/events/<int:event_id>/status.json")
@organizer_required
def status(event_id):
    with db_session() as s:
        _event_or_404(s, event_id)
        tables = services.events.progress(s, event_id)
        result = services.events.event_standings(s, event_id, tables)
    return jsonify({"tables": [{"id": t.table.id, "name": t.table.name, "moves": t.moves,
                                "seconds_since_last_move": t.seconds_since_last_move, "stalled": t.stalled,
                                "round": t.standing.get("round") if t.standing else None,
                                "season": t.standing.get("season") if t.standing else None,
                                "turn": t.standing.get("turn") if t.standing else None,
                                "finished": t.standing["finished"] if t.standing else False,
                                "needs_checking": t.broken}
                               for t in tables],
                    "teams": result["teams"], "individuals": result["individuals"],
                    "left_out": result["left_out"]})


@bp.post("/events/<int:event_id>/tables")
@organizer_required
def add_table(event_id):
    form = TableForm()
    if not form.validate():
        for message in form.messages():
            flash(message, "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    try:
        with db_session() as s:
            ev = _event_or_404(s, event_id)
            services.events.add_table(s, ev, form.name.data.strip(), (form.host_name.data or "").strip() or None)
    except services.tables.EventFull as err:
        flash(describe_error(err), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    flash(_("Table «{name}» added", name=form.name.data.strip()), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _table_of(s, event_id, table_id):
    try:
        table = services.get_table(s, table_id)
    except services.TableNotFound:
        abort(404)
    if table.event_id != event_id:
        abort(404)
    return table


@bp.get("/events/<int:event_id>/tables/<int:table_id>")
@organizer_required
def table(event_id, table_id):
    """One table of the event: rename it, reissue its access, record a tablet's waiting moves,
    reopen it (the dashboard lists many tables and keeps a row per table light)."""
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        row = _table_of(s, event_id, table_id)
        services.access.ensure_access(s, row)
        link = public_url_for("public.host_link", token=row.token)
    return render_template("organizer/table.html", event=ev, table=row, link=link)


@bp.post("/events/<int:event_id>/tables/<int:table_id>/rename")
@organizer_required
def rename_table(event_id, table_id):
    form = TableForm()
    if not form.validate():
        for message in form.messages():
            flash(message, "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    with db_session() as s:
        services.rename(s, _table_of(s, event_id, table_id), form.name.data.strip(),
                        (form.host_name.data or "").strip() or None)
    flash(_("Table renamed: «{name}»", name=form.name.data.strip()), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


@bp.post("/events/<int:event_id>/tables/<int:table_id>/reissue")
@organizer_required
def reissue(event_id, table_id):
    with db_session() as s:
        table = services.access.reissue_access(s, _table_of(s, event_id, table_id))
        name, pin = table.name, table.pin
    flash(_("New link and PIN for «{name}»: {pin}. The old ones no longer work.", name=name, pin=pin), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


# ----- repairing a table that needs checking, reopening a finished one ---------------------------
@bp.get("/events/<int:event_id>/tables/<int:table_id>/repair")
@organizer_required
def repair(event_id, table_id):
    """A table whose log does not replay: the first move that fails, why, and a button to void it."""
    with db_session() as s:
        table = services.get_table(s, table_id) if not event_id else _table_of(s, event_id, table_id)
        loaded = services.load(s, table.id)
        if not loaded.broken:
            flash(_("Table «{name}» replays: nothing to repair.", name=loaded.table.name), "ok")
            return redirect(_back(event_id, table_id), 303)
        return render_template("organizer/repair.html", loaded=loaded, problem=loaded.problem,
                               error_text=describe_error(loaded.problem.error), event_id=event_id, seq=loaded.seq)


@bp.post("/events/<int:event_id>/tables/<int:table_id>/void")
@organizer_required
def void(event_id, table_id):
    form = AfterForm()
    voided = request.form.get("seq", type=int)
    if not form.validate() or voided is None:
        abort(400)
    try:
        with db_session() as s:
            table = services.get_table(s, table_id) if not event_id else _table_of(s, event_id, table_id)
            loaded = services.void(s, table.id, voided, form.after.data, author="organizer")
            still = loaded.broken
    except services.StaleMove:
        flash(_("The table changed meanwhile; nothing was voided. Check it again."), "error")
        return redirect(url_for("organizer.repair", event_id=event_id, table_id=table_id), 303)
    except LookupError:
        flash(_("Only the first move that fails can be voided."), "error")
        return redirect(url_for("organizer.repair", event_id=event_id, table_id=table_id), 303)
    flash(_("Move #{seq} was voided; it stays in the log and the protocol.", seq=voided), "ok")
    if still:
        return redirect(url_for("organizer.repair", event_id=event_id, table_id=table_id), 303)
    return redirect(_back(event_id, table_id), 303)


@bp.post("/events/<int:event_id>/tables/<int:table_id>/reopen")
@organizer_required
def reopen(event_id, table_id):
    """Reopen a finished table for a forgotten correction (a log row of its own)."""
    form = AfterForm()
    if not form.validate():
        abort(400)
    try:
        with db_session() as s:
            table = services.get_table(s, table_id) if not event_id else _table_of(s, event_id, table_id)
            services.reopen(s, table.id, form.after.data, author="organizer")
            name, turn = table.name, screen_url(table, "turn")
    except services.StaleMove:
        flash(_("The table changed meanwhile; it was not reopened."), "error")
        return redirect(_back(event_id, table_id), 303)
    except services.NotFinished:
        flash(_("Only a finished game can be reopened."), "error")
        return redirect(_back(event_id, table_id), 303)
    except services.TableBroken:
        flash(_("This table needs checking first: its log does not replay."), "error")
        return redirect(url_for("organizer.repair", event_id=event_id, table_id=table_id), 303)
    flash(_("Table «{name}» is reopened: enter the correction, then finish the game again.", name=name), "ok")
    return redirect(turn, 303)


OUTBOX_FORMAT = "facilitator-outbox/1"
#: a tablet's outbox since it queues forms: each move as its form would have posted it
OUTBOX_FORMS = "facilitator-outbox/2"


@bp.post("/events/<int:event_id>/tables/<int:table_id>/outbox")
@organizer_required
def import_outbox(event_id, table_id):
    """Moves a tablet could not send (its downloaded outbox file), recorded into the table in
    order: the longest valid run, and the first refused with why."""
    upload = request.files.get("outbox")
    if upload is None or not upload.filename:
        flash(_("Choose the file of waiting moves (.json) a tablet downloaded"), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    try:
        data = safe_loads(upload.read(), what="outbox")
    except JSONInputError as err:
        flash(_("Not a file of waiting moves: {error}", error=describe_error(err)), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    if not isinstance(data, dict) or data.get("format") not in (OUTBOX_FORMAT, OUTBOX_FORMS) \
            or not isinstance(data.get("moves"), list):
        flash(_("Not a file of waiting moves: its format must be {format}", format=OUTBOX_FORMS), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    with db_session() as s:
        table = _table_of(s, event_id, table_id)
        rules = services.load(s, table.id).ruleset
        items, malformed = [], None
        from facilitator.games import of_table
        from facilitator.web.table import queued_forms
        for i, item in enumerate(data["moves"][:500]):
            if data["format"] == OUTBOX_FORMS and isinstance(item, dict) and "action" in item:
                # a form, read as the table's screens read it (an entry without an action is a
                # record move an earlier tablet script queued)
                read, stop = queued_forms(of_table(table), table.id, [item], start=i)
                items += read
                if stop is not None:
                    malformed = (i, stop[2])
                    break
                continue
            try:
                after = item.get("after") if isinstance(item, dict) else None
                if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < 2 ** 31:
                    raise RulesError("moves[{i}]: needs its sequence number", i=i)
                client_id = item.get("client_id") if isinstance(item.get("client_id"), str) else None
                if item.get("undo") is True:
                    items.append({"after": item["after"], "undo": True, "client_id": client_id})
                else:
                    items.append({"after": item["after"], "move": rules.read_move(item.get("move"), f"moves[{i}].move"),
                                  "client_id": (client_id or "")[:64] or None})
            except RulesError as err:
                malformed = (i, err)
                break
        recorded, refused = services.record_batch(s, table.id, items, author="organizer")
        name = table.name
    fresh = sum(1 for r in recorded if not r["already"])
    flash(_("Waiting moves of «{name}»: {recorded} recorded, {already} were already there.", name=name,
            recorded=fresh, already=len(recorded) - fresh), "ok")
    stop = refused or ({"index": malformed[0], "error": malformed[1]} if malformed else None)
    if stop is not None:
        err = stop["error"]
        why = games.stale_text(err, undo=bool(items[stop["index"]].get("undo"))) \
            if isinstance(err, services.StaleMove) else describe_error(err)
        flash(_("Move {n} of the file was not recorded, nor any after it: {error}", n=stop["index"] + 1,
                error=why), "error")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


def _back(event_id, table_id):
    return url_for("organizer.event", event_id=event_id) if event_id else url_for("host.open_table", table_id=table_id)


# ----- the access sheet -------------------------------------------------------------------------
def public_base():
    """The address tablets open: ``--public-url``/``FACILITATOR_PUBLIC_URL``, else the one the
    server printed at start (its LAN address), else the address of this request."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def public_url_for(endpoint, **values):
    return public_base() + url_for(endpoint, **values)


@bp.get("/events/<int:event_id>/access.pdf")
@organizer_required
def access_sheet(event_id):
    """The access sheet: a card per table for its host; with ``?players=1`` also a card per
    player of every seated table, their page's QR code and their name, to hand out."""
    from facilitator.web.downloads import safe_filename
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        cards = []
        for table in services.events.tables_of(s, event_id):
            services.access.ensure_access(s, table)
            cards.append({"name": table.name, "host": table.host_name, "pin": table.pin,
                          "url": public_url_for("public.host_link", token=table.token)})
            if request.args.get("players") == "1":
                cards[-1]["players"] = _seat_cards(s, table, ev)
    # laid out in the worker process: 60 tables' QR codes and cards never stall the tablets' moves
    pdf = services.exports.in_worker("facilitator.reports.access", "access_sheet_pdf", ev.name, ev.date, cards,
                                     public_url_for("public.pin"), locale=event_locale(ev),
                                     inline=current_app.config.get("PRINT_INLINE", False))
    return send_file(BytesIO(pdf), mimetype="application/pdf", as_attachment=True,
                     download_name=safe_filename(f"access-{ev.id}.pdf"))


def _seat_cards(s, table, event):
    """``[{"name", "url"}]``: each player of a seated table with the link of their page, in the
    language the event's players are given (``seats.seat_locale``); [] for a table not seated."""
    from facilitator import games as game_packages
    from facilitator.web.seats import player_pages, seat_locale
    game = game_packages.of_table(table)
    loaded = services.load(s, table.id)
    pages = player_pages(loaded, game, lang=seat_locale(game, event))
    return [{"name": name, "url": pages[name]} for name in game.player_names(loaded) if name in pages] if pages else []


# ----- records and backups -----------------------------------------------------------------------
@bp.post("/events/<int:event_id>/import")
@organizer_required
def import_record(event_id):
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        flash(_("Choose a game record file (.json) to import"), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    try:
        data = safe_loads(upload.read(), what="record")
        with db_session() as s:
            ev = _event_or_404(s, event_id)
            name = (request.form.get("name") or "").strip()[:100] or None
            table = services.import_record(s, data, name=name, event_id=ev.id, ruleset=ev.ruleset)
            services.access.ensure_access(s, table)
            name = table.name
    except JSONInputError as err:
        flash(_("Not a game record: the file is not valid JSON ({error})", error=describe_error(err)), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    except (RulesError, ReplayError, UnknownFormat, services.WrongGame, services.tables.EventFull) as err:
        flash(_("The game record was not imported: {error}", error=describe_error(err)), "error")
        return redirect(url_for("organizer.event", event_id=event_id), 303)
    flash(_("Game record imported as table «{name}»", name=name), "ok")
    return redirect(url_for("organizer.event", event_id=event_id), 303)


@bp.get("/events/<int:event_id>/backup.json")
@organizer_required
def backup(event_id):
    from facilitator.safejson import dumps_safe
    from facilitator.web.downloads import safe_filename
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        data = services.events.backup(s, event_id)
    body = dumps_safe(data, separators=(",", ":")).encode("utf-8")  # compact: a quarter smaller than indented
    return send_file(BytesIO(body), mimetype="application/json", as_attachment=True,
                     download_name=safe_filename(f"event-{ev.id}-backup.json"))


@bp.post("/restore")
@organizer_required
def restore():
    request.max_content_length = current_app.config["MAX_BACKUP_LENGTH"]
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        flash(_("Choose an event backup file to restore"), "error")
        return redirect(url_for("organizer.home"), 303)
    try:
        data = safe_loads(upload.read(), what="backup", max_bytes=current_app.config["MAX_BACKUP_LENGTH"])
        with db_session() as s:
            ev = services.events.restore(s, data, rename=(request.form.get("name") or "").strip() or None)
            event_id = ev.id
    except services.events.EventExists as err:
        flash(_("An event «{name}» of that date already exists; nothing was restored. Give the restored "
                "event another name to keep both.", name=err.name), "error")
        return redirect(url_for("organizer.home"), 303)
    except (JSONInputError, services.events.BackupError, RulesError, KeyError, TypeError, ValueError) as err:
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
        try:
            services.events.announce(s, ev, action)
        except ValueError:
            abort(400)
    return redirect(url_for("organizer.event", event_id=event_id) + "#announce", 303)


@bp.get("/events/<int:event_id>/download/<kind>")
@organizer_required
def download(event_id, kind):
    """The event workbook or the results PDF, built by the reports package and also written
    under the exports folder."""
    from facilitator.web.downloads import event_download
    with db_session() as s:
        ev = _event_or_404(s, event_id)
        return event_download(s, ev, kind)


__all__ = ["bp", "is_organizer"]

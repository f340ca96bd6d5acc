"""The start page every game shares: the tables this tablet runs, a new table of any game (a
lone host: a class, a club evening), a game record imported, and a table's record and
protocol files by their generic addresses."""

import math
from io import BytesIO

from flask import abort, Blueprint, flash, make_response, redirect, render_template, request, send_file, url_for

from facilitator import games, services
from facilitator.i18n import describe_error, ngettext
from facilitator.i18n import gettext as _
from facilitator.rules import ReplayError, RulesError
from facilitator.rules.registry import UnknownFormat
from facilitator.safejson import JSONInputError, dumps_safe, loads as safe_loads
from facilitator.web import db, db_session, table
from facilitator.web.auth import client_key, grant_table, granted_table_ids, is_organizer, lone_tables, may_host, require_table
from facilitator.web.forms import NewTableForm
from facilitator.web.games import screen_url

bp = Blueprint("host", __name__)


@bp.before_request
def _check_access():
    """A table's files open only for its host or the organizer; importing a record is the organizer's."""
    table_id = (request.view_args or {}).get("table_id")
    if table_id is not None:
        try:  # read in the request's transaction: the view goes on in it (one transaction, not two)
            row = services.get_table(db(), table_id)
        except services.TableNotFound:
            abort(404)
        require_table(row)
    elif request.endpoint == "host.import_table" and not is_organizer():
        abort(403)


def _load(s, table_id):
    return table.load(s, table_id)


@bp.get("/tables/<int:table_id>")
def open_table(table_id):
    """A table by its generic address (a link of a page that lists tables of any game): its
    own game's screen, which is the setup, the turn or the final results as the game stands."""
    return redirect(screen_url(table.load(db(), table_id).table, "turn"))


# ----- tables -------------------------------------------------------------------------
@bp.get("/")
def index():
    with db_session() as s:
        return _index_page(s, NewTableForm())


def _index_page(s, form, status=200):
    """The tables this tablet runs and the new-table form: its game first (``?game=<key>``),
    then that game's pack."""
    ids = None if is_organizer() else granted_table_ids()
    tables = [t for t in services.list_tables(s, ids) if may_host(t)]
    standings = services.heads(s, tables)
    rows = [(t, standings.get(t.id)) for t in tables]
    form.pack.choices = _pack_choices(s)
    return render_template("host/index.html", rows=rows, form=form,
                           choice=game_choice(s, request.args.get("game"))), status


def _pack_choices(s):
    """Every game's packs: a lone host may run any game the app hosts."""
    from wtforms import SelectChoice
    return [SelectChoice(p.id, pack_label(p)) for p in services.packs.list_packs(s)]


def pack_label(row):
    """A pack in a select: its name in the page's language, and its version past the first."""
    from facilitator.games import pack_title
    title = pack_title(row)
    return _("{pack} (version {n})", pack=title, n=row.version) if row.version > 1 else title


class GameChoice:
    """The first choice of a new table or event: the games by their names (as their players
    know them), the one chosen (``key``, or None), and that game's packs and languages."""

    def __init__(self, s, key):
        from facilitator import games
        from facilitator.i18n import LANGUAGE_NAMES
        self.games = sorted(games.registered(), key=lambda g: g.name.casefold())
        self.game = next((g for g in self.games if g.key == key), None)
        if self.game is None and len(self.games) == 1:
            self.game = self.games[0]
        self.packs = [(p.id, pack_label(p)) for p in services.packs.list_packs(s, self.game.key)] if self.game else []
        self.languages = [(code, LANGUAGE_NAMES.get(code, code)) for code in self.game.locales] if self.game else []


def game_choice(s, key):
    return GameChoice(s, key)


@bp.post("/tables")
def new_table():
    """A new table, by the organizer or by a lone host (a class, a club evening): the tablet
    that creates it gets it, with a link and a PIN to open it on a second device. Without
    signing in, one address creates at most so many tables an hour (``auth.lone_tables``):
    each comes with a PIN, and a server is not to be filled with tables."""
    with db_session() as s:
        form = NewTableForm()
        form.pack.choices = _pack_choices(s)
        quota = None if is_organizer() else lone_tables()
        wait = quota.wait_left(client_key()) if quota else 0
        if wait:
            flash(ngettext("Without signing in, one device may create {n} table in {window} min. Try again in "
                           "{minutes} min, or ask the organizer to create it.",
                           "Without signing in, one device may create {n} tables in {window} min. Try again in "
                           "{minutes} min, or ask the organizer to create them.",
                           quota.limit, window=math.ceil(quota.window / 60), minutes=math.ceil(wait / 60)), "error")
            response = make_response(_index_page(s, form, 429))
            response.headers["Retry-After"] = str(wait)
            return response
        if not form.validate():
            for field, errors in form.errors.items():
                flash(f"{_(field)}: {'; '.join(errors)}", "error")
            chosen = request.form.get("game")
            return redirect(url_for("host.index", game=chosen if chosen in {g.key for g in games.registered()}
                                    else None), 303)
        pack_row = services.packs.row_by_id(s, form.pack.data)
        created = services.create_table(s, form.name.data, pack_row, access=True)
        if quota:
            quota.used(client_key())
        grant_table(created)
        pin = created.pin
    flash(_("Table created. Its PIN is {pin}: with it, the table opens on another device too.", pin=pin), "ok")
    return redirect(screen_url(created, "setup"), 303)


@bp.post("/tables/import")
def import_table():
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        flash(_("Choose a game record file (.json) to import"), "error")
        return redirect(url_for("host.index"), 303)
    try:
        data = safe_loads(upload.read(), what="record")
    except JSONInputError as err:
        flash(_("Not a game record: the file is not valid JSON ({error})", error=describe_error(err)), "error")
        return redirect(url_for("host.index"), 303)
    try:
        with db_session() as s:
            imported = services.import_record(s, data, ruleset=request.form.get("ruleset") or None)
            services.access.ensure_access(s, imported)
            turn_url = screen_url(imported, "turn")
    except (RulesError, ReplayError, UnknownFormat, services.WrongGame) as err:  # malformed, or breaking the rules
        flash(_("The game record was not imported: {error}", error=describe_error(err)), "error")
        return redirect(url_for("host.index"), 303)
    flash(_("Game record imported"), "ok")
    return redirect(turn_url, 303)


@bp.get("/table/<int:table_id>/record.json")
def export_record(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.game is None:
            abort(404)
        if loaded.broken:  # its log does not make a record the rules accept: repaired first
            return table.needs_check(loaded)
        data = loaded.public_record()
    body = dumps_safe(data, indent=2).encode("utf-8")
    from facilitator.web.downloads import safe_filename
    return send_file(BytesIO(body), mimetype="application/json", as_attachment=True,
                     download_name=safe_filename(f"record-{loaded.table.name}.json"))


@bp.get("/table/<int:table_id>/<any('protocol.xlsx', 'protocol.pdf', 'blank.pdf'):kind>")
def protocol(table_id, kind):
    """The table's protocol as Excel or PDF, or a blank paper protocol with the names filled."""
    from facilitator.web.downloads import table_download
    with db_session() as s:
        return table_download(s, table_id, kind)



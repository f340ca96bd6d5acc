"""The organizer's pack editor: list, search, add, edit and delete characters and cards, edit
level thresholds; upload and download packs. Every change is validated by the engine exactly
as an import is, with each problem shown next to its field, and stored as a new version (a
game that started with an older version keeps replaying with it)."""

import json
from io import BytesIO

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for

from facilitator.services.packs import adopt_version, get_row, list_packs, pack_of, store_pack
from facilitator.games.lyceum.search import find_cards
from facilitator.games.lyceum.summary import pack_summary
from facilitator.i18n import gettext as _
from facilitator.rules.lyceum.ruleset import RULESET
from facilitator.rules.lyceum import ERA_KEYS, pack_problems
from facilitator.rules.lyceum.cards import COLORS
from facilitator.web import db_session
from facilitator.web.auth import organizer_required
from facilitator.games.lyceum.forms import CardForm, CharacterForm, LevelsForm

bp = Blueprint("packs", __name__, url_prefix="/organizer/packs")


def problem_text(problem):
    """A pack problem in the current language, worded as the import words it (the eras and
    colours a problem lists by their names, as the editor's drop-down lists show them)."""
    from facilitator.games.lyceum.importing import color_name, era_name, problem_template
    from facilitator.games.lyceum.importing import problem_text as fill
    params = dict(problem.params)
    if problem.key == "unknown_era":
        params["allowed"] = ", ".join(era_name(e) for e in ERA_KEYS)
    elif problem.key == "unknown_color":
        params["allowed"] = ", ".join(color_name(c) for c in COLORS)
    return fill(problem_template(problem), params)


def _row_or_404(s, key, version=None):
    row = get_row(s, key, version, ruleset=RULESET.key)
    if row is None:
        abort(404)
    return row


@bp.get("/")
@organizer_required
def index():
    with db_session() as s:
        rows = list_packs(s, RULESET.key)
        packs = [(row, pack_of(row)) for row in rows]
    return render_template("packs/index.html", packs=packs)


@bp.get("/<key>")
@organizer_required
def show(key):
    q = (request.args.get("q") or "").strip()
    era = request.args.get("era") or ""
    color = request.args.get("color") or ""
    with db_session() as s:
        row = _row_or_404(s, key)
        pack = pack_of(row)
    cards = [c for c in pack.cards if (not era or c.era == era) and (not color or c.color == color)]
    if q:
        found = find_cards(pack, era or None, color or None, q)
        cards = [c for c in found if c in cards]
    summary = pack_summary(pack)
    return render_template("packs/show.html", row=row, pack=pack, cards=cards, q=q, era=era, color=color,
                           summary=summary, ERA_KEYS=ERA_KEYS, COLORS=COLORS)


# ----- editing ----------------------------------------------------------------------------
def _card_from_form(errors):
    """The card the editor's form holds (the same card form as the host's hand-entered card);
    a number that is not a whole number is said next to its group of fields."""
    form = CardForm(meta={"csrf": False})  # the app checks the form's CSRF token before the view
    form.validate()
    errors.update(form.errors_by_group())
    return form.card_data()


def _character_from_form(errors):
    form = CharacterForm(meta={"csrf": False})
    form.validate()
    errors.update(form.errors_by_group())
    return form.character_data()


def _field_of(problem):
    """The form field a problem belongs to: ``gains.health`` -> ``gains``."""
    return (problem.field or "").split(".")[0].split("[")[0] or "general"


def _took_code_of(problem, data, item, index):
    """Whether ``problem`` is the engine's duplicate-code problem reported on *another* item
    because the edited one (listed before it) took that item's code: it belongs next to the
    edited item's code field."""
    return (problem.key == "duplicate_code" and problem.item == item and index is not None
            and problem.index != index and problem.code == data[item + "s"][index].get("code"))


def _code_taken_text(problem):
    """The duplicate-code sentence naming the other item (the engine names the first one,
    which here is the edited item itself)."""
    from facilitator.games.lyceum.importing import problem_template
    from facilitator.games.lyceum.importing import problem_text as fill
    return fill(problem_template(problem), dict(problem.params, first=problem.index + 1))


def _save(s, row, data, item, index, errors):
    """Validate the whole edited pack; store it as a new version when it has no problem.
    Returns the new row or None (``errors`` filled, by field, for the edited item)."""
    if errors:
        return None
    _pack, problems = pack_problems(data)
    if problems:
        from facilitator.games.lyceum.importing import from_pack_problem
        for p in problems:
            if p.item == item and (index is None or p.index == index):
                errors.setdefault(_field_of(p), []).append(problem_text(p))
            elif _took_code_of(p, data, item, index):
                errors.setdefault("code", []).append(_code_taken_text(p))
            elif item == "levels" and p.item in ("levels", "pack"):
                errors.setdefault("levels", []).append(problem_text(p))
            else:
                errors.setdefault("general", []).append(str(from_pack_problem(p)))
        return None
    from facilitator.rules.lyceum import read_pack
    new = store_pack(s, read_pack(data))
    moved = adopt_version(s, new)
    flash(_("Saved as version {v}. Tables that have not started play with it ({n}); games already "
            "under way keep their version.", v=new.version, n=moved), "ok")
    return new


def _edit(key, code, item, read_form, blank, template, done_args=lambda values: {}):
    """The add/edit/delete page of one card or character (``item``): the pack is validated as
    a whole after the change and stored as a new version, or the form comes back with every
    problem next to its field (400)."""
    plural = item + "s"
    with db_session() as s:
        row = _row_or_404(s, key)
        data = json.loads(row.data)
        index = next((i for i, c in enumerate(data[plural]) if c["code"] == code), None)
        if code is not None and index is None:
            abort(404)
        errors = {}
        values = data[plural][index] if index is not None else blank
        if request.method == "POST":
            if request.form.get("delete"):
                if index is None:  # nothing to delete on the "new" form
                    abort(404)
                del data[plural][index]
                if _save(s, row, data, item, None, errors):
                    return redirect(url_for("packs.show", key=key), 303)
            else:
                values = read_form(errors)
                if index is None:
                    data[plural].append(values)
                    index = len(data[plural]) - 1
                else:
                    data[plural][index] = values
                if _save(s, row, data, item, index, errors):
                    return redirect(url_for("packs.show", key=key, **done_args(values)), 303)
        return render_template(template, row=row, code=code, errors=errors, ERA_KEYS=ERA_KEYS, COLORS=COLORS,
                               **{item: values}), (400 if errors else 200)


@bp.route("/<key>/cards/new", methods=["GET", "POST"], defaults={"code": None})
@bp.route("/<key>/cards/<code>", methods=["GET", "POST"])
@organizer_required
def card(key, code):
    blank = {"era": request.args.get("era", "lyceum"), "color": request.args.get("color", "green")}
    return _edit(key, code, "card", _card_from_form, blank, "packs/card.html",
                 done_args=lambda values: {"era": values["era"], "color": values["color"]})


@bp.route("/<key>/characters/new", methods=["GET", "POST"], defaults={"code": None})
@bp.route("/<key>/characters/<code>", methods=["GET", "POST"])
@organizer_required
def character(key, code):
    return _edit(key, code, "character", _character_from_form, {"skills": {}}, "packs/character.html")


@bp.post("/<key>/levels")
@organizer_required
def levels(key):
    with db_session() as s:
        row = _row_or_404(s, key)
        data = json.loads(row.data)
        errors = {}
        values, problems = LevelsForm(meta={"csrf": False}).values()
        if problems:
            errors["levels"] = problems
        data["levels"] = values
        if _save(s, row, data, "levels", None, errors):
            return redirect(url_for("packs.show", key=key), 303)
        for message in errors.get("levels", []) + errors.get("general", []):
            flash(_("Levels not saved: {error}", error=message), "error")
    return redirect(url_for("packs.show", key=key), 303)


# ----- files ------------------------------------------------------------------------------
@bp.get("/<key>/export.<fmt>")
@organizer_required
def export(key, fmt):
    version = request.args.get("version", type=int)
    with db_session() as s:
        row = _row_or_404(s, key, version)
        pack = pack_of(row)
    name = f"pack-{row.key}-v{row.version}"
    if fmt == "json":
        body = json.dumps(pack.to_dict(), ensure_ascii=False, indent=2).encode("utf-8")
        return send_file(BytesIO(body), mimetype="application/json", as_attachment=True, download_name=name + ".json")
    if fmt == "xlsx":
        from facilitator.games.lyceum.excel import pack_to_workbook
        return send_file(BytesIO(pack_to_workbook(pack)), as_attachment=True, download_name=name + ".xlsx",
                         mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    abort(404)


@bp.get("/template.xlsx")
@organizer_required
def template():
    from facilitator.games.lyceum.excel import template_workbook
    return send_file(BytesIO(template_workbook()), as_attachment=True, download_name="lyceum-pack-template.xlsx",
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@bp.post("/upload")
@organizer_required
def upload():
    from facilitator.games.lyceum import importing
    upload = request.files.get("pack")
    if upload is None or not upload.filename:
        flash(_("Choose a pack file (.xlsx or .json) to upload"), "error")
        return redirect(url_for("packs.index"), 303)
    body = upload.read()
    try:
        pack = importing.load_pack_bytes(body, upload.filename)
    except importing.PackImportError as err:
        for line in err.lines()[:50]:
            flash(line, "error")
        return redirect(url_for("packs.index"), 303)
    with db_session() as s:
        row = store_pack(s, pack)
        adopt_version(s, row)
        key = row.key
    flash(_("Pack «{title}» imported (version {v})", title=pack.title, v=row.version), "ok")
    return redirect(url_for("packs.show", key=key), 303)

"""Alter Ego's forms: the setup screen (WTForms) and the move forms, read by the field names of
the move JSON of RECORD.md (the tablet's offline queue sends the same names).

The forms check only the shape (a date is a date, a number is a number); every rule is the
engine's (``read_setup``, ``Game.check``)."""

from wtforms import DateField, FieldList, FormField, IntegerField, SelectField, StringField
from wtforms.validators import Length, Optional

from facilitator.i18n import gettext as _
from facilitator.rules.alterego.moves import MOVE_FIELDS
from facilitator.rules.alterego.checks import card_fields
from facilitator.rules.alterego.setup import ACTIVES_EACH, MIN_PLAYERS
from facilitator.rules.errors import MalformedError
from facilitator.safejson import loads as safe_loads
from facilitator.web.forms import BaseForm, NestedForm, NumberRange

#: the most seats a setup form offers (a pack of 18 actives seats 6)
MAX_SEATS = 6
MAX_NAME = 40
MAX_REASON = 300


class SeatForm(NestedForm):
    name = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    born = DateField(validators=[Optional()])
    actives = FieldList(SelectField(validate_choice=False), min_entries=ACTIVES_EACH, max_entries=ACTIVES_EACH)

    def is_empty(self):
        return not (self.name.data or "").strip()


class SetupForm(BaseForm):
    """The players in clockwise seating order, each with the 3 actives dealt; ``first`` is the
    seat (0-based) of the first player, empty for the engine's proposal."""

    players = FieldList(FormField(SeatForm), min_entries=MIN_PLAYERS, max_entries=MAX_SEATS)
    first = StringField(validators=[Optional()])
    rev = IntegerField(validators=[Optional(), NumberRange(min=0, max=2 ** 31 - 1)])

    def fill(self, setup):
        for entry, p in zip(self.players, setup.players):
            entry.form.name.data = p.name
            if p.born:
                from datetime import date
                entry.form.born.data = date.fromisoformat(p.born)
            for field, key in zip(entry.form.actives, p.actives):
                field.data = key
        self.first.data = str(setup.names.index(setup.first))

    def seats(self):
        """``[(seat index, SeatForm)]`` of the filled seats."""
        return [(i, e.form) for i, e in enumerate(self.players) if not e.form.is_empty()]

    def setup_data(self):
        """The record's setup keys of the filled seats; ``first`` is None when not chosen."""
        players = []
        for _i, seat in self.seats():
            row = {"name": seat.name.data.strip()}
            if seat.born.data:
                row["born"] = seat.born.data.isoformat()
            row["actives"] = [f.data or "" for f in seat.actives]
            players.append(row)
        first = None
        raw = (self.first.data or "").strip()
        if raw.isdigit():
            index = int(raw)
            filled = [i for i, _s in self.seats()]
            if index in filled:
                first = players[filled.index(index)]["name"]
        return {"players": players, "first": first}

    def first_seat(self):
        raw = (self.first.data or "").strip()
        return int(raw) if raw.isdigit() else None


# ----- moves ---------------------------------------------------------------------------------
_LISTS = ("participants", "targets")


def _listed(kind, name, form, pack):
    """Whether a list field goes into the move even when empty: a Bile's participants are its
    card's field (an empty party is a party)."""
    if kind != "play_event" or pack is None:
        return False
    return name in card_fields(pack, {"type": kind, "card": form.get("card") or ""})


def move_data(kind, form, pack=None):
    """The move JSON a move form posts: every field named as RECORD.md names it (``target``,
    ``participants[]`` repeated, ``to`` a number, ``changes`` a JSON text). Empty fields are
    left out (the engine says which one is missing). Raises ``MalformedError`` for a number or
    a JSON text that cannot be read."""
    data = {"type": kind}
    for name in MOVE_FIELDS[kind]:
        if name in _LISTS:
            values = [v.strip() for v in form.getlist(name + "[]") if v and v.strip()]
            if values or _listed(kind, name, form, pack):
                data[name] = values
        elif name == "to":
            raw = (form.get("to") or "").strip()
            if raw:
                try:
                    data["to"] = int(raw)
                except ValueError:
                    raise MalformedError("move.to", "must be a move number (1 or more), got {value!r}",
                                         value=raw[:20]) from None
        elif name == "changes":
            raw = (form.get("changes") or "").strip()
            if raw:
                data["changes"] = safe_loads(raw, what="changes", max_bytes=20_000)
        elif name == "reason":
            raw = form.get("reason")
            if raw is not None and (raw.strip() or kind == "adjust"):
                data["reason"] = raw.strip()[:MAX_REASON] if raw.strip() else raw
        else:
            raw = (form.get(name) or "").strip()
            if raw:
                data[name] = raw
    return data


def seat_errors(form, pack):
    """Per-seat problems a form can see before the engine: a name without actives chosen."""
    errors = {}
    for i, seat in form.seats():
        mine = []
        chosen = [f.data for f in seat.actives if f.data]
        if len(chosen) < ACTIVES_EACH:
            mine.append(_("choose the {n} actives dealt to this player", n=ACTIVES_EACH))
        unknown = [k for k in chosen if k not in pack.actives_by_key]
        if unknown:
            mine.append(_("unknown active {active}", active=unknown[0]))
        if mine:
            errors[i] = mine
    return errors

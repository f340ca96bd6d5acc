"""The host's forms (WTForms through Flask-WTF): they check the form's shape (numbers are
numbers, nothing negative where it cannot be) and build the engine's objects; the rules
themselves are checked by the engine, never here."""

from flask_wtf import FlaskForm
from wtforms import (DateField, FieldList, FormField, HiddenField, IntegerField, SelectField, StringField,
                     TextAreaField)
from wtforms import Form as PlainForm
from wtforms import i18n as wtforms_i18n
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..i18n import gettext as _
from ..i18n import get_locale
from ..rules import SKILLS, Move, PlayerSetup
from ..rules.cards import COLORS

RANDOM = "__random__"


class BaseForm(FlaskForm):
    class Meta:
        def get_translations(self, form):
            # WTForms' own messages ("Not a valid integer value") in the current language
            return wtforms_i18n.get_translations([get_locale()])


class NestedForm(PlainForm):
    """A form inside a form (FormField, FieldList): WTForms gives it a Meta of its own, so it
    needs the same translations as ``BaseForm`` or its messages stay English."""

    class Meta:
        def get_translations(self, form):
            return wtforms_i18n.get_translations([get_locale()])


class SkillInputs(NestedForm):
    """Five whole-number inputs, one per skill."""

    health = IntegerField(validators=[Optional()])
    intellect = IntegerField(validators=[Optional()])
    creativity = IntegerField(validators=[Optional()])
    communication = IntegerField(validators=[Optional()])
    energy = IntegerField(validators=[Optional()])

    def values(self):
        return {s: self[s].data or 0 for s in SKILLS if self[s].data}


def _non_negative(form, field):
    for s in SKILLS:
        value = field[s].data
        if value is not None and value < 0:
            raise ValidationError(_("SP cannot be negative ({skill}: {value})", skill=_(s), value=value))


class PlayerForm(NestedForm):
    name = StringField(validators=[Optional(), Length(max=40)])
    born = DateField(validators=[Optional()])
    character = SelectField(validate_choice=False)
    extra = FormField(SkillInputs)
    declaration = FormField(SkillInputs)

    def is_empty(self):
        return not (self.name.data or "").strip()


def _seats_beyond(field):
    """Filled seats past the form's last one (a hand-made post): WTForms would drop them
    silently, so they are counted and the setup refused instead."""
    from flask import has_request_context, request
    if not has_request_context():
        return 0
    prefix = field.name + "-"
    seats = set()
    for key, value in request.form.items():
        if key.startswith(prefix) and key.endswith("-name") and value.strip():
            index = key[len(prefix):-len("-name")]
            if index.isdigit() and int(index) >= len(field.entries):
                seats.add(index)
    return len(seats)


class SetupForm(BaseForm):
    players = FieldList(FormField(PlayerForm), min_entries=4, max_entries=4)

    def validate_players(self, field):
        filled = [p for p in field if not p.form.is_empty()]
        count = len(filled) + _seats_beyond(field)
        if not 3 <= count <= 4:
            raise ValidationError(_("A table has 3 or 4 players; fill in {count}", count=count))

    def player_errors(self):
        """Per-player problems the rules would refuse anyway, said next to the field."""
        errors = {}
        for i, entry in enumerate(self.players):
            p = entry.form
            if p.is_empty():
                continue
            mine = []
            if p.born.data is None:
                mine.append(_("birth date is required (it breaks ties in turn order)"))
            if not p.character.data:
                mine.append(_("choose a character"))
            for group, label in ((p.extra, _("extra SP")), (p.declaration, _("future image"))):
                for s in SKILLS:
                    if group[s].data is not None and group[s].data < 0:
                        mine.append(_("{what}: {skill} cannot be negative", what=label, skill=_(s)))
            extra = sum(p.extra.form.values().values())
            if extra != 5:
                mine.append(_("the extra SP must sum to exactly 5, now {sum}", sum=extra))
            declared = sum(p.declaration.form.values().values())
            if declared and declared not in (35, 40, 45):
                mine.append(_("a future image sums to 35, 40 or 45, now {sum}", sum=declared))
            if mine:
                errors[i] = mine
        return errors

    def setups(self, pick_random):
        """The filled rows as ``PlayerSetup``; "random" characters drawn by ``pick_random``."""
        rows = [e.form for e in self.players if not e.form.is_empty()]
        taken = {r.character.data for r in rows if r.character.data and r.character.data != RANDOM}
        out = []
        for r in rows:
            code = r.character.data
            if code == RANDOM:
                code = pick_random(taken)
                taken.add(code)
            declaration = r.declaration.form.values() or None
            out.append(PlayerSetup(name=r.name.data.strip(), born=r.born.data.isoformat(), character=code,
                                   extra=r.extra.form.values(), declaration=declaration))
        return out


class AfterForm(BaseForm):
    """Every move form names the sequence number it follows (safe to repeat)."""

    after = IntegerField(validators=[InputRequired(), NumberRange(min=0)])


class SimpleMoveForm(AfterForm):
    """share, pass, play_deferred, finish: no fields besides the player."""

    type = SelectField(choices=["share", "pass", "play_deferred", "finish"])
    player = StringField(validators=[Optional()])

    def move(self):
        player = self.player.data or None
        return Move(self.type.data, player=None if self.type.data == "finish" else player)


def _signed_map(form):
    return {s: form[s].data for s in SKILLS if form[s].data}


class RestForm(AfterForm):
    player = StringField(validators=[InputRequired()])
    redistribute = FormField(SkillInputs)

    def move(self):
        return Move("rest", player=self.player.data, redistribute=_signed_map(self.redistribute.form) or None)


class DrawForm(AfterForm):
    player = StringField(validators=[InputRequired()])
    color = SelectField(choices=list(COLORS))
    card = StringField(validators=[Optional()])  # a pack code; or the hand-entered card below
    decision = SelectField(choices=["play", "defer", "discard"])
    redistribute = FormField(SkillInputs)
    manual = HiddenField()  # JSON of a hand-entered card
    source = HiddenField()  # "deck" when the app's own deck drew the card

    def move(self, card_object=None):
        extra = {"source": "app-deck"} if self.source.data == "deck" else {}
        return Move("draw", player=self.player.data, color=self.color.data,
                    card=card_object if card_object is not None else self.card.data,
                    decision=self.decision.data,
                    redistribute=_signed_map(self.redistribute.form) or None, extra=extra)


class PlayDeferredForm(AfterForm):
    player = StringField(validators=[InputRequired()])
    redistribute = FormField(SkillInputs)

    def move(self):
        return Move("play_deferred", player=self.player.data,
                    redistribute=_signed_map(self.redistribute.form) or None)


class AllocateForm(AfterForm):
    player = StringField(validators=[InputRequired()])
    sp = FormField(SkillInputs)

    def validate(self, extra_validators=None):
        # WTForms refuses in-line validators on a FormField (``validate_sp`` raised TypeError),
        # so the non-negative check runs here, its message put on the skill's own field
        ok = super().validate(extra_validators)
        try:
            _non_negative(self, self.sp)
        except ValidationError as err:
            bad = next(s for s in SKILLS if self.sp[s].data is not None and self.sp[s].data < 0)
            self.sp[bad].errors.append(str(err))
            ok = False
        return ok

    def move(self):
        return Move("allocate", player=self.player.data, sp=self.sp.form.values())


class AdjustForm(AfterForm):
    player = SelectField(validate_choice=False, validators=[InputRequired()])
    xp = IntegerField(validators=[Optional()])
    sp = FormField(SkillInputs)
    reason = TextAreaField(validators=[InputRequired(), Length(min=2, max=300)])

    def move(self):
        return Move("adjust", player=self.player.data, xp=self.xp.data or None,
                    sp=_signed_map(self.sp.form) or None, reason=self.reason.data.strip())


class TimerForm(BaseForm):
    seconds = IntegerField(validators=[Optional(), NumberRange(min=10, max=600)])


class NewTableForm(BaseForm):
    name = StringField(validators=[InputRequired(), Length(min=1, max=60)])
    pack = SelectField(coerce=int)

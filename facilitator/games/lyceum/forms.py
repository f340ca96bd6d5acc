"""«16/25»'s forms (WTForms through Flask-WTF): they check the form's shape (numbers are
numbers, nothing negative where it cannot be) and build the engine's objects; the rules
themselves are checked by the engine, never here."""

from datetime import date

from wtforms import (DateField, FieldList, FormField, HiddenField, IntegerField, SelectField, StringField,
                     TextAreaField)
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from facilitator.games.lyceum.words import or_list
from facilitator.i18n import gettext as _
from facilitator.i18n import skill_name, translate_error
from facilitator.rules.lyceum import SKILLS, Move, PlayerSetup
from facilitator.rules.lyceum.cards import COLORS, allows_special
from facilitator.rules.lyceum.fields import MAX_CODE, MAX_NAME, MAX_SP, MAX_TEXT, MAX_TITLE, MAX_XP_CHANGE
from facilitator.rules.lyceum.setup import DECLARATION_BONUS, EXTRA_SP, MAX_PLAYERS, MIN_PLAYERS
from facilitator.web.forms import AfterForm, BaseForm, NestedForm, NumberRange, WholeNumber, _one_line  # noqa: F401

RANDOM = "__random__"


_SKILL_RANGE = [Optional(), NumberRange(min=-MAX_SP, max=MAX_SP)]


class SkillInputs(NestedForm):
    """Five whole-number inputs, one per skill (within ±100 SP: nothing in the game is bigger)."""

    health = IntegerField(validators=_SKILL_RANGE)
    intellect = IntegerField(validators=_SKILL_RANGE)
    creativity = IntegerField(validators=_SKILL_RANGE)
    communication = IntegerField(validators=_SKILL_RANGE)
    energy = IntegerField(validators=_SKILL_RANGE)

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
    players = FieldList(FormField(PlayerForm), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    rev = IntegerField(validators=[Optional(), NumberRange(min=0, max=2 ** 31 - 1)])  # the setup it was drawn for

    def fill(self, players):
        """The form as the seated players fill it (editing a setup before the first move)."""
        for entry, p in zip(self.players, players):
            entry.form.name.data = p.name
            entry.form.born.data = date.fromisoformat(p.born)
            entry.form.character.data = p.character
            for sk, v in p.extra.items():
                entry.form.extra[sk].data = v
            for sk, v in (p.declaration or {}).items():
                entry.form.declaration[sk].data = v

    def validate_players(self, field):
        filled = [p for p in field if not p.form.is_empty()]
        count = len(filled) + _seats_beyond(field)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise ValidationError(_("A table has {low} or {high} players; fill in {count}", low=MIN_PLAYERS,
                                    high=MAX_PLAYERS, count=count))

    def player_errors(self, pack=None):
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
                    if group[s].data is not None and group[s].data > MAX_SP:
                        mine.append(_("{what}: {skill} can be at most {max}", what=label, skill=_(s), max=MAX_SP))
            extra = sum(p.extra.form.values().values())
            if extra != EXTRA_SP:
                mine.append(_("the extra SP must sum to exactly {n}, now {sum}", n=EXTRA_SP, sum=extra))
            declared = sum(p.declaration.form.values().values())
            if declared and declared not in DECLARATION_BONUS:
                mine.append(_("a future image sums to {allowed}, now {sum}",
                              allowed=or_list(sorted(DECLARATION_BONUS)), sum=declared))
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


class SimpleMoveForm(AfterForm):
    """share, pass, play_deferred, finish: no fields besides the player."""

    type = SelectField(choices=["share", "pass", "play_deferred", "finish"])
    player = StringField(validators=[Optional()])

    def move(self):
        """The move as the engine reads it from a tablet's outbox or the API: a pass without
        its player is malformed (400) here too, not a turn of nobody's (422)."""
        from facilitator.rules.lyceum import read_move
        data = {"type": self.type.data}
        if self.type.data != "finish":
            data["player"] = self.player.data or None
        return read_move(data)


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
        return Move("draw", player=self.player.data, color=self.color.data,
                    card=card_object if card_object is not None else self.card.data,
                    decision=self.decision.data, redistribute=_signed_map(self.redistribute.form) or None,
                    source="app-deck" if self.source.data == "deck" else None)


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
    xp = IntegerField(validators=[Optional(), NumberRange(min=-MAX_XP_CHANGE, max=MAX_XP_CHANGE)])
    sp = FormField(SkillInputs)
    reason = TextAreaField(validators=[InputRequired(), Length(min=2, max=300)])

    def move(self):
        return Move("adjust", player=self.player.data, xp=self.xp.data or None,
                    sp=_signed_map(self.sp.form) or None, reason=self.reason.data.strip())


class TimerForm(BaseForm):
    seconds = IntegerField(validators=[Optional(), NumberRange(min=10, max=600)])


def _card_number(form, field):
    if field.data is None:
        return
    if field.data < 0:
        raise ValidationError(_("cannot be negative"))
    if field.data > MAX_SP:
        raise ValidationError(_("can be at most {max}", max=MAX_SP))


class CardForm(BaseForm):
    """A card as the host (a card the pack does not hold) and the organizer (a card of the pack,
    in the pack editor) type it: ``code``, ``title``, ``text``, ``conditions_<skill>``,
    ``losses_<skill>``, ``gains_<skill>``, ``free``, the special's text and redistribution, and
    in the pack editor its ``era`` and ``color``. Numbers are whole numbers (text is refused
    quoting what was typed); ``card_data()`` is the card's JSON object, which the engine checks
    against RULES.md 1 (``read_inline_card``, ``pack_problems``)."""

    code = StringField(validators=[Optional(), Length(max=MAX_CODE)])
    title = StringField(validators=[Optional(), Length(max=MAX_TITLE)])
    text = StringField(validators=[Optional(), Length(max=MAX_TEXT)])
    era = StringField()
    color = StringField()
    free = WholeNumber()
    special_text = StringField(validators=[Optional(), Length(max=MAX_TEXT)])
    special_redistribute = WholeNumber()

    #: the field a card's group of numbers is shown next to (``conditions_health`` -> ``conditions``)
    GROUPS = {"special_text": "special", "special_redistribute": "special"}

    def number_fields(self):
        return [f for f in self if isinstance(f, WholeNumber)]

    def label_of(self, name):
        """``conditions_health`` -> ``Conditions: health`` in the current language."""
        group, _sep, skill = name.partition("_")
        names = {"conditions": _("Conditions"), "losses": _("Losses"), "gains": _("Gains"), "free": _("Free SP"),
                 "special": _("Redistribute up to")}
        if group == "special" and skill == "text":
            return _("Special")
        if group == "special":
            return names["special"]
        return f"{names.get(group, _(group))}: {skill_name(skill)}" if skill else names.get(group, _(group))

    def group_of(self, name):
        return self.GROUPS.get(name, name.split("_")[0])

    def skill_map(self, group):
        return {s: self[f"{group}_{s}"].data for s in SKILLS if self[f"{group}_{s}"].data}

    def card_data(self, color=None, special_if_allowed=False):
        """The card's JSON object. ``special_if_allowed``: a special typed on a card whose colour
        takes none (the engine's ``allows_special``) is left out (the host's form offers it only
        where it is allowed); the pack editor keeps it, for the engine to refuse with its reason."""
        color = color or (self.color.data or "").strip()
        data = {"code": (self.code.data or "").strip(), "title": (self.title.data or "").strip(),
                "text": (self.text.data or "").strip(), "color": color,
                "conditions": self.skill_map("conditions"), "losses": self.skill_map("losses"),
                "gains": self.skill_map("gains"), "free": self.free.data or 0, "special": None}
        if self.era.data is not None:
            data = {"code": data["code"], "era": self.era.data, **{k: v for k, v in data.items() if k != "code"}}
        special_text = (self.special_text.data or "").strip()
        redistribute = self.special_redistribute.data
        if (special_text or redistribute) and not (special_if_allowed and not allows_special(color)):
            data["special"] = {"text": special_text}
            if redistribute:
                data["special"]["redistribute"] = redistribute
        return data

    def first_error(self):
        """The first problem as ``label: message``, in the order the fields are shown."""
        for field in self:
            if field.errors:
                return f"{self.label_of(field.name)}: {field.errors[0]}"
        return None

    def errors_by_group(self):
        """``{group: [message]}``: each number's problem next to its group of fields."""
        out = {}
        for field in self.number_fields():
            for error in field.errors:
                out.setdefault(self.group_of(field.name), []).append(str(error))
        return out


for _group in ("conditions", "losses", "gains"):
    for _skill in SKILLS:
        setattr(CardForm, f"{_group}_{_skill}", WholeNumber())


class ManualCardForm(CardForm):
    """A card the pack does not hold, typed in by the host for a draw: whole numbers from 0 to
    100 (checked here, next to the number), the card's rules by the engine."""

    def __init__(self, *args, color=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixed_color = color
        self.engine_problem = None

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        for field in self.number_fields():
            if not field.errors:
                try:
                    _card_number(self, field)
                except ValidationError as err:
                    field.errors = list(field.errors) + [str(err)]
                    ok = False
        return ok

    def card_data(self, color=None):
        data = super().card_data(color or self.fixed_color, special_if_allowed=True)
        data.pop("era", None)  # a hand-entered card is not held to an era (RULES.md: any era)
        if not data["code"]:
            del data["code"]
        return data

    def engine_error(self, err):
        """A problem the engine found in the card (its path names the field)."""
        where = err.path.split(".", 1)[1] if "." in (err.path or "") else ""
        text = translate_error(err)
        self.engine_problem = f"{_(where)}: {text}" if where else text

    def error_text(self):
        return self.first_error() or self.engine_problem or ""


class CharacterForm(BaseForm):
    """A character of the pack editor: code, name, direction and a whole number per skill."""

    code = StringField(validators=[Optional(), Length(max=MAX_CODE)])
    name = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    direction = StringField(validators=[Optional(), Length(max=MAX_TITLE)])

    def character_data(self):
        return {"code": (self.code.data or "").strip(), "name": (self.name.data or "").strip(),
                "direction": (self.direction.data or "").strip(),
                "skills": {s: self[f"skills_{s}"].data or 0 for s in SKILLS}}

    def errors_by_group(self):
        return {"skills": [str(e) for s in SKILLS for e in self[f"skills_{s}"].errors]} \
            if any(self[f"skills_{s}"].errors for s in SKILLS) else {}


for _skill in SKILLS:
    setattr(CharacterForm, f"skills_{_skill}", WholeNumber())


class LevelsForm(BaseForm):
    """The pack's level thresholds, typed as whole numbers separated by commas."""

    levels = StringField()

    def values(self):
        """``(thresholds, [problems])``: every part that is not a whole number is named."""
        raw = [part.strip() for part in (self.levels.data or "").replace(";", ",").split(",") if part.strip()]
        values, problems = [], []
        for part in raw:
            try:
                values.append(int(part))
            except ValueError:
                problems.append(_("“{value}” is not a whole number", value=part[:20]))
        return values, problems

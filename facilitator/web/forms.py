"""The forms every game's screens share (WTForms through Flask-WTF): the base form that speaks
the page's language, the position a write follows (``after``), a new table, an event and its
tables. Each game's own forms are in its package (``games/<game>/forms.py``); the rules
themselves are checked by the engines, never here."""

from datetime import date
from functools import lru_cache

from flask_wtf import FlaskForm
from wtforms import (DateField, IntegerField, SelectField, StringField)
from wtforms import Form as PlainForm
from wtforms import i18n as wtforms_i18n
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.validators import NumberRange as _NumberRange

from facilitator.i18n import gettext as _
from facilitator.i18n import get_locale
from facilitator.rules.bounds import MAX_NAME


class NumberRange(_NumberRange):
    """WTForms' ``NumberRange`` for whole numbers of any length. Its own check converts the
    number to a float, which overflows past 308 digits: a 400-digit XP typed into a form was a
    server error instead of "Number must be between …". A whole number is compared as it is."""

    def __call__(self, form, field):
        data = field.data
        if isinstance(data, int) and not isinstance(data, bool):
            low, high = self._resolve(self.min), self._resolve(self.max)
            if (low is None or data >= low) and (high is None or data <= high):
                return
            # out of range: the parent words the refusal (it refuses None, never converting it)
            return super().__call__(form, _Refused(field))
        return super().__call__(form, field)


class _Refused:
    """A field stand-in whose value is out of any range, for ``NumberRange``'s own message."""

    def __init__(self, field):
        self.data = None
        self.gettext = field.gettext
        self.ngettext = field.ngettext


@lru_cache(maxsize=None)
def _wtforms_translations(locale):
    """WTForms' own messages ("Not a valid integer value") in ``locale``: its catalog found and
    read once per language, not on every form a request builds (a move form builds two)."""
    return wtforms_i18n.get_translations([locale])


class BaseForm(FlaskForm):
    class Meta:
        def get_translations(self, form):
            # WTForms' own messages ("Not a valid integer value") in the current language
            return _wtforms_translations(get_locale())


class NestedForm(PlainForm):
    """A form inside a form (FormField, FieldList): WTForms gives it a Meta of its own, so it
    needs the same translations as ``BaseForm`` or its messages stay English."""

    class Meta:
        def get_translations(self, form):
            return _wtforms_translations(get_locale())


class AfterForm(BaseForm):
    """Every move form names the sequence number it follows (safe to repeat)."""

    after = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2 ** 31 - 1)])


def _one_line(form, field):
    if field.data and any(ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029" for ch in field.data):
        raise ValidationError(_("a name is one line, without control characters"))


class NewTableForm(BaseForm):
    name = StringField(validators=[InputRequired(), Length(min=1, max=MAX_NAME), _one_line])
    pack = SelectField(coerce=int)


# ----- a card typed in by hand (and, in the pack editor, a card of the pack) ----------------------
class WholeNumber(IntegerField):
    """A whole number as typed: empty is nothing, text is refused quoting what was typed."""

    def process_formdata(self, valuelist):
        self.raw = (valuelist[0] if valuelist else "").strip()
        if not self.raw:
            self.data = None
            return
        try:
            self.data = int(self.raw)
        except ValueError:
            self.data = None
            raise ValueError(_("“{value}” is not a whole number", value=self.raw[:20])) from None


# ----- the organizer's forms ------------------------------------------------------------------------
class _Messages:
    """One message per refused field, in the order the form shows them."""

    def messages(self):
        out = []
        for field in self:
            for error in field.errors:
                if isinstance(error, dict):
                    continue
                out.append(str(error))
        return out


def _name_check(maximum, message):
    def check(form, field):
        value = (field.data or "").strip()
        if not value or len(value) > maximum or any(ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029"
                                                   for ch in value):
            raise ValidationError(message())
    return check


#: tables an event may open at once, when it is created (more are added one by one)
MAX_NEW_TABLES = 100


class EventForm(_Messages, BaseForm):
    """A new event: its name, date, content pack and how many tables to open at once."""

    name = StringField(validators=[_name_check(200, lambda: _("The event needs a name (up to 200 characters)"))])
    date = DateField(validators=[Optional()])
    pack = SelectField(validate_choice=False)
    game = StringField(validators=[Optional()])  # the game's ruleset key, when no pack is chosen
    language = StringField(validators=[Optional()])  # one of the game's languages (default: its first)
    tables = IntegerField(validators=[Optional()])
    #: pack id (as text) -> its game's ruleset key, for the pack's game and the language's check
    pack_rulesets = {}

    def ruleset(self):
        """The event's game: the one chosen, else its pack's."""
        return self.game.data or self.pack_rulesets.get(str(self.pack.data or "")) or None

    def validate_game(self, field):
        from facilitator import games
        if field.data and field.data not in {g.key for g in games.registered()}:
            raise ValidationError(_("Unknown game {game!r} (known: {known})", game=field.data[:40],
                                    known=", ".join(g.key for g in games.registered())))

    def validate_date(self, field):
        if field.raw_data and field.raw_data[0].strip() and field.data is None:
            raise ValidationError(_("The date must look like 2026-11-29"))

    def validate_pack(self, field):
        if field.data and str(field.data) not in {str(c.value) for c in field.choices}:
            raise ValidationError(_("Unknown content pack"))

    def validate_tables(self, field):
        if field.data is None or not 0 <= field.data <= MAX_NEW_TABLES:
            raise ValidationError(_("Tables to create now: a whole number from 0 to {max}", max=MAX_NEW_TABLES))

    def validate(self, extra_validators=None):
        if self.date.raw_data and self.date.raw_data[0].strip():
            try:
                date.fromisoformat(self.date.raw_data[0].strip())
            except ValueError:
                self.date.process_errors = []
        ok = super().validate(extra_validators)
        # a date that DateField cannot read is said in the form's own words, once; so is a count
        # of tables that is not a whole number (never opened as some other count)
        if self.date.errors:
            self.date.errors = [_("The date must look like 2026-11-29")]
        if self.tables.errors:
            self.tables.errors = [_("Tables to create now: a whole number from 0 to {max}", max=MAX_NEW_TABLES)]
        if not self.game.data and not self.pack.data:  # no game is the default
            self.game.errors = list(self.game.errors) + [_("Choose the game: its content pack, or the game itself")]
            ok = False
        pack_game = self.pack_rulesets.get(str(self.pack.data or ""))
        if ok and self.game.data and pack_game and pack_game != self.game.data:
            self.pack.errors = list(self.pack.errors) + [_("This content pack is not of the game chosen")]
            ok = False
        if ok and self.language.data:
            from facilitator.i18n import game_locales
            locales = game_locales(self.ruleset())
            if self.language.data not in locales:
                self.language.errors = list(self.language.errors) + [
                    _("The event's language is one of its game's: {languages}", languages=", ".join(locales))]
                ok = False
        return ok


class TableForm(_Messages, BaseForm):
    """A table of an event: its name and, optionally, its host's name."""

    name = StringField(validators=[_name_check(100, lambda: _("The table needs a name (up to 100 characters)"))])
    host_name = StringField(validators=[Optional(), Length(max=100)])

"""The translation layer: Babel message catalogs in Russian, English, Finnish and Swedish.

A page speaks the language chosen on the browser (its switch), else the one its Accept-Language
reads best (``negotiate``), among the languages the page offers: every one on the shared pages,
a game's own on its screens. An event's outputs speak the event's language (``event_locale``).

Message ids are English; ``facilitator/translations/<locale>/*.po`` hold the translations,
one catalog file per part of the app (rules, web, reports, content) so each part keeps its
own. The ``.po`` files are read directly with Babel at first use, so no compiled ``.mo``
file is generated or committed. The same layer serves the web app (per request), the
printed sheets and the CLI (per call), through a context variable holding the locale.

Messages with parameters use ``str.format`` names (``{player}``), like the rules engine's
error templates, so an engine message is translated by its template and then filled in.
"""

import contextlib
import contextvars
from functools import lru_cache
from importlib import resources

from io import BytesIO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from facilitator.rules import registry

LOCALES = ("ru", "en")  # the languages of «16/25»'s screens and sheets
#: every language the app speaks: each game offers its own (``Ruleset.locales``): Alter Ego adds
#: Finnish, New Angeles Swedish
ALL_LOCALES = ("ru", "en", "fi", "sv")
DEFAULT_LOCALE = "ru"
#: each language by its own name (the language switch and the event's language select): a
#: language is offered to those who read it, so its name is never translated
LANGUAGE_NAMES = {"ru": "Русский", "en": "English", "fi": "Suomi", "sv": "Svenska"}
#: the language a page falls back to when the browser asks only for languages it does not speak
FALLBACK_LOCALE = "en"

_current = contextvars.ContextVar("facilitator_locale", default=DEFAULT_LOCALE)


def normalize(locale):
    """A supported locale for a requested one (``ru_RU`` -> ``ru``), else the default."""
    if not locale:
        return DEFAULT_LOCALE
    short = str(locale).replace("-", "_").split("_")[0].lower()
    return short if short in ALL_LOCALES else DEFAULT_LOCALE


def negotiate(accepted, offered, default=None):
    """The language of ``offered`` a browser reads best: ``accepted`` is its Accept-Language,
    as ``(language, quality)`` pairs (werkzeug's ``request.accept_languages``) or a header's
    text. Nothing asked (a script, a test client): ``default``, else the first offered. Only
    languages the page does not speak asked for: English if offered (the second language of
    most who read none of them), else the first offered."""
    offered = tuple(offered)
    if isinstance(accepted, str):
        accepted = _parse_accept(accepted)
    asked = [(str(lang), q) for lang, q in (accepted or ()) if q > 0]
    if not asked:
        return default if default in offered else offered[0]
    best, best_q = None, 0
    for lang, q in asked:
        short = lang.replace("_", "-").split("-")[0].lower()
        if short in offered and q > best_q:
            best, best_q = short, q
    if best is not None:
        return best
    return FALLBACK_LOCALE if FALLBACK_LOCALE in offered else offered[0]


def _parse_accept(header):
    out = []
    for part in header.split(","):
        lang, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0
        if lang.strip() and lang.strip() != "*":
            out.append((lang.strip(), q))
    return out


def game_locales(ruleset):
    """The languages of a game (its ruleset key), its players' own first; every language of the
    app for a ruleset not installed."""
    try:
        return tuple(registry.get(ruleset).locales)
    except KeyError:
        return ALL_LOCALES


def spoken(locale, locales):
    """``locale`` when ``locales`` (a game's languages) has it, else their first: a game's pages
    and files speak only the game's own languages."""
    return locale if locale in locales else locales[0]


def event_locale(event):
    """The language of an event's shared outputs: its projector, access sheet, certificates,
    workbook and the names of its new tables. The one chosen when it was created, if its game
    still speaks it, else its game's first language (events created before events had one)."""
    return spoken(getattr(event, "language", None), game_locales(event.ruleset))


def event_language(event):
    """``use_locale`` for an event's own language (``event_locale``): ``with event_language(ev): …``."""
    return use_locale(event_locale(event))


def _catalogs(locale):
    """The ``.po`` files of a locale: the app's own (``facilitator/translations/<locale>/``), then
    every registered game's (``games/<game>/translations/<locale>/``), each folder in name order."""
    from facilitator import games
    folders = [resources.files("facilitator").joinpath("translations", locale)]
    folders += [game.translations / locale for game in games.registered() if game.translations]
    for folder in folders:
        if folder.is_dir():
            yield from sorted((e for e in folder.iterdir() if e.name.endswith(".po")), key=lambda e: e.name)


@lru_cache(maxsize=None)
def translations(locale):
    """All catalogs of a locale merged into one ``Translations`` (empty for English)."""
    merged = Translations()
    for entry in _catalogs(locale):
        with entry.open("rb") as fh:
            catalog = read_po(fh, locale=locale, domain="messages")
        buf = BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        buf.seek(0)
        loaded = Translations(fp=buf)
        merged.merge(loaded)
        merged.plural = loaded.plural  # the language's plural rule (Russian has three forms)
    return merged


registry.on_change(translations.cache_clear)  # a game installed or removed: its catalogs with it


def get_locale():
    return _current.get()


def set_locale(locale):
    """Set the locale of the current context (a request, a CLI call); returns a reset token."""
    return _current.set(normalize(locale))


def reset_locale(token):
    """Undo ``set_locale`` (at the end of a request)."""
    _current.reset(token)


@contextlib.contextmanager
def use_locale(locale):
    token = set_locale(locale)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message, **params):
    """``message`` in the current locale, filled with ``params`` when given."""
    text = translations(get_locale()).ugettext(message)
    return text.format(**params) if params else text


def pgettext(context, message, **params):
    """``message`` in the current locale as meant in ``context`` (a catalog's ``msgctxt``): one
    English word with two senses, e.g. a file name's «event» beside a game's «event» card."""
    text = translations(get_locale()).upgettext(context, message)
    return text.format(**params) if params else text


def ngettext(singular, plural, n, **params):
    text = translations(get_locale()).ungettext(singular, plural, n)
    return text.format(n=n, **params)


_ = gettext


def plural_forms(singular, plural):
    """A counted message's forms in the current locale, unfilled, for a page's script to pick
    from by CLDR's plural category (``Intl.PluralRules``): one (1), few (2), many (5), other."""
    catalog = translations(get_locale())
    return {"one": catalog.ungettext(singular, plural, 1), "few": catalog.ungettext(singular, plural, 2),
            "many": catalog.ungettext(singular, plural, 5), "other": catalog.ungettext(singular, plural, 2)}


def translate_error(err):
    """A rules error (``RulesError``) in the current locale: its template translated, then filled
    with its numbers (skill keys shown by their names)."""
    params = _localized(err.params)
    missing = params.pop("missing", None)
    if missing is not None:
        params["shortfalls"] = ", ".join(
            gettext("{skill} {have} < {need}", skill=skill_name(m["skill"]), have=m["have"], need=m["need"])
            for m in missing)
    broken = params.pop("colour_break", None)
    if broken is not None:  # a colour rule inside another message: worded in the same language
        params["problem"] = gettext(broken["template"], **_localized(broken["params"]))
    return gettext(err.template, **params)


def describe_error(err):
    """Any refusal the screens show, in the current locale: rules errors by their template
    (with the path of a malformed field), a record's illegal move with its number, an event
    backup's problem with the table it concerns; anything else as it is."""
    from facilitator.rules import ReplayError, RulesError
    if isinstance(err, ReplayError):
        move = gettext("{type} by {player}", type=gettext(err.move.type), player=err.move.player) \
            if err.move.player is not None else gettext(err.move.type)
        return gettext("move {number} ({move}): {error}", number=err.number, move=move,
                       error=describe_error(err.error))
    if isinstance(err, RulesError):
        text = translate_error(err)
        path = getattr(err, "path", None)
        return f"{path}: {text}" if path else text
    template = getattr(err, "template", None)
    if template is not None and isinstance(getattr(err, "params", None), dict):
        params = dict(err.params)
        cause = params.pop("cause", None)
        if cause is not None:
            params["error"] = describe_error(cause)
        return gettext(template, **params)
    return str(err)


def _localized(params):
    """Message parameters with the game's keys (skills, eras, colours) as names. Only a text
    is looked up: a refusal may quote whatever was sent (a list where a colour belongs)."""
    out = dict(params)
    for keys, name in ((("skill",), skill_name), (("era", "card_era"), era_name),
                       (("color", "card_color"), color_name)):
        for key in keys:
            if isinstance(out.get(key), str):
                out[key] = name(out[key])
    return out


def skill_name(key):
    """A skill's name in the current locale (``intellect`` -> ``интеллект``)."""
    return gettext(SKILL_LABELS.get(key, key))


ERA_LABELS = {"lyceum": "Lyceum", "university": "University", "adult": "Adult life"}
COLOR_LABELS = {"green": "green", "yellow": "yellow", "red": "red"}


def era_name(key):
    """An era's name in the current locale (``lyceum`` -> ``Лицей``)."""
    return gettext(ERA_LABELS.get(key, key))


def color_name(key):
    return gettext(COLOR_LABELS.get(key, key))


SKILL_LABELS = {"health": "health", "intellect": "intellect", "creativity": "creativity",
                "communication": "communication", "energy": "energy"}


def install_jinja(env):
    """Give a Jinja environment ``_``/``gettext``/``ngettext`` and ``{% trans %}`` that follow
    the current locale."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(
        lambda s, **kw: gettext(s, **kw) if kw else gettext(s),
        lambda s, p, n, **kw: ngettext(s, p, n, **kw),
        newstyle=False,
    )
    env.globals.update(_=gettext, get_locale=get_locale, plural_forms=plural_forms, skill_name=skill_name, era_name=era_name,
                       color_name=color_name)
    return env

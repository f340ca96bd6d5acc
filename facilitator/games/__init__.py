"""Every game the app hosts, one package each (ARCHITECTURE.md decision 12).

A game is a ``GamePackage``: its engine's ruleset (``facilitator.rules.<game>``) and everything
of it above the engine, in its own folder (``facilitator/games/<game>/`` for the games that
ship with the app): its screens (a Flask blueprint), forms, words, protocol workbook and PDF,
templates and translations. The app asks the game; no module outside a game's folders names a
game's key or constant, and no game is the default.

Games are found through the entry-point group ``facilitator.games`` (``pyproject.toml``), as
pytest finds its plugins, so a game can also come from another installed package: its entry
point names a ``GamePackage`` object. The object's module is imported when the app, the CLI or
the rules registry first asks which games there are; it must stay light (no Flask, no
database: the engine's registry reads its ``ruleset`` without loading the web app), its
screens and reports are imported on first use.

Required of a game: ``ruleset`` (a ``facilitator.rules.registry.Ruleset``), ``folder`` (where
its ``templates/`` and ``translations/`` are), ``screens`` (the dotted name of the module whose
``bp`` is its blueprint) and its ``turn``/``setup``/``final`` endpoints; ``reports`` (the
module making ``table_protocol_xlsx`` and ``table_protocol_pdf``); and the templates of its
part of the shared event pages (``event_templates``: a table's progress on the organizer's
dashboard, the event's ranking there, the projector's standings), checked when the web app
registers the game (``check_templates``). The other hooks have defaults a game overrides where
it has something to say, as python-chess's variants override a few questions of ``Board``; the
players' own pages and the projector's chart are answered by the functions of its ``seat``
module when it names one (imported on first use, as its screens are).
"""

from importlib import import_module
from pathlib import Path

from facilitator.rules import registry
from facilitator.rules.errors import MalformedError

GROUP = registry.GAMES_GROUP


class FormError(MalformedError):
    """A move form's field that is not of the form's shape (a number past the form's bound, a
    required field empty, text where a number belongs), found before the engine sees a move:
    ``path`` is the field's name, ``text`` the refusal already in the screen's language (the
    field as the host reads it, then what is wrong), ``form`` the form object read, when there
    is one (for the screen to show it again as typed). A ``MalformedError``, so every path that
    records a move refuses it as malformed (400), the same with or without JavaScript."""

    def __init__(self, path, text, form=None):
        super().__init__(path, "{text}", text=text)
        self.text = text
        self.form = form


class MissingTemplates(LookupError):
    """A game registered without a template the shared pages draw it with (``event_templates``)."""


#: the hooks a game's ``seat`` module answers (``GamePackage.seat``)
_SEAT_HOOKS = frozenset({"player_view", "player_state", "player_sheet", "projector_chart"})


class GamePackage:
    """What the app asks of one game, above its engine (see the module's docstring)."""

    #: the engine's ruleset (key, name, formats, locales, players)
    ruleset = None
    #: the folder holding the game's ``templates/``, ``translations/`` and ``static/``
    folder = None
    #: the module whose ``bp`` is the game's blueprint (its host screens)
    screens = None
    #: the endpoints of a table's main screen, its setup and its final results (take ``table_id``)
    turn = setup = final = None
    #: True for the one game the app played before it hosted several: files of that time (an
    #: event backup of format /1) are this game's
    before_games = False
    #: the game's own subcommands of ``facilitator`` (name -> the module whose ``register(subparsers)``
    #: adds it), loaded only when asked for
    commands = {}
    #: the template every screen of the game extends (its top bar, styles and scripts)
    layout = "base.html"
    #: the module making the game's protocol: ``table_protocol_xlsx(game, undone=, event=,
    #: event_date=, now=)`` and ``table_protocol_pdf(...)`` (a paper protocol to fill in is the
    #: ``blank_protocol`` hook below)
    reports = None
    #: the module of the players' own pages and the projector's chart: its functions
    #: ``player_view``, ``player_state``, ``player_sheet`` and ``projector_chart`` answer the
    #: hooks of those names (a hook the module lacks, or a game without one, answers None); a game
    #: may override a hook itself instead
    seat = None

    # ----- what the game is ---------------------------------------------------------------
    @property
    def key(self):
        return self.ruleset.key

    @property
    def name(self):
        return self.ruleset.name

    @property
    def locales(self):
        return self.ruleset.locales

    @property
    def templates(self):
        """The folder of the game's templates (searched by the web app and the print toolkit)."""
        path = Path(self.folder) / "templates" if self.folder else None
        return path if path and path.is_dir() else None

    @property
    def translations(self):
        """The folder of the game's catalogs, ``<locale>/*.po``."""
        path = Path(self.folder) / "translations" if self.folder else None
        return path if path and path.is_dir() else None

    #: the name of the pack the game ships, as an English message id its catalogs translate:
    #: shown for that pack as long as its title is the shipped one (a pack the organizer
    #: renamed, or one of their own, shows the title it was given)
    shipped_pack_name = None

    def pack_title(self, key, title):
        """A stored pack's name on a page (``key``/``title`` of its row), in the page's language."""
        if self.shipped_pack_name and (key, title) == _shipped_pack(self.ruleset):
            from facilitator.i18n import gettext
            return gettext(self.shipped_pack_name)
        return title

    # ----- the shared event pages: the template contract -------------------------------------
    #: the game's part of the shared event pages, as template names in its ``templates/`` folder
    #: (``{key}``: the game's key): ``progress_template`` the two cells of a table's dashboard row
    #: (Round, Whose turn; context: ``t`` the row, ``st`` its standing or None), ``ranking_template``
    #: the event's ranking panel on the dashboard (``result``: ``services.events.event_standings``,
    #: ``event``), ``public_template`` the projector's standings (``data``: the projector's data)
    progress_template = "organizer/games/{key}_progress.html"
    ranking_template = "organizer/games/{key}_ranking.html"
    public_template = "public/games/{key}.html"

    def event_templates(self):
        """``{"progress"|"ranking"|"public": template name}``: what the shared organizer and public
        pages include for an event of this game."""
        return {role: getattr(self, f"{role}_template").format(key=self.key)
                for role in ("progress", "ranking", "public")}

    def check_templates(self):
        """Raise ``MissingTemplates`` naming every template of ``event_templates`` the game's
        ``templates/`` folder lacks (called when the web app registers the game)."""
        folder = self.templates
        missing = [name for name in self.event_templates().values() if folder is None or not (folder / name).is_file()]
        if missing:
            raise MissingTemplates(
                f"the game {self.key!r} lacks the templates the shared event pages draw it with: {', '.join(missing)} "
                f"(looked in {folder or Path(self.folder or '.') / 'templates'}); see GamePackage.event_templates")

    # ----- the web app --------------------------------------------------------------------
    def blueprints(self):
        """The game's blueprints (its screens, and any page of its own such as a deck editor),
        registered by the app factory; the first carries the game's templates folder."""
        return [import_module(self.screens).bp]

    def narrate(self, loaded, result):
        """What a recorded move changed, as lines for the host (the current language)."""
        return []

    def undone_line(self, loaded, row):
        """The host's line for an undone move ``row``; by default it names the move's type."""
        import json

        from facilitator.i18n import gettext as _
        kind = json.loads(row.data).get("type", "")
        return _("Move #{seq} ({type}) was undone; it stays in the history, marked undone.", seq=row.seq,
                 type=self.move_names().get(kind, kind))

    def move_names(self):
        """``{move type: its name}`` in the current language, for the tablet's outbox."""
        return {}

    def moved_on_context(self, loaded, happened):
        """The game's words on the page that says a screen is out of date (``web.table.bound``),
        and what its ``layout`` needs: ``happened`` is the log row of the move recorded since the
        screen was drawn (``services.log_row``), or None. Keys the shared page reads:
        ``happened_move`` (that move in a few words), ``happened_line`` (a whole sentence
        instead), ``now_text`` (what the game waits for now), ``back_label`` (the way back to the
        table's main screen). By default the move by its name (``move_names``) and its player."""
        move = (happened or {}).get("move") or {}
        kind = move.get("type")
        if not kind:
            return {}
        name = self.move_names().get(kind, kind)
        who = move.get("player")
        return {"happened_move": f"{name} · {who}" if who else name}

    def read_move_form(self, kind, formdata, loaded):
        """The engine's move that a move form of ``kind`` posts (``formdata``: the form's fields
        as the browser sends them, a ``MultiDict``, its ``after`` among them), read as the table
        ``loaded`` stands. The one reading of a form (ARCHITECTURE.md decision 13): the screen's
        POST and the tablet's queued forms (``POST /api/v1/tables/<id>/queued``) both call it,
        so both accept and refuse exactly the same things, with the form's own bounds. Raises
        the engine's ``MalformedError``, or a ``FormError`` naming the field."""
        raise NotImplementedError(f"{self.key}: no move forms")

    @property
    def move_endpoint(self):
        """The endpoint of the game's move POST (``<blueprint>.move``, taking ``table_id`` and
        ``kind``): a queued form is read only when its action is this endpoint for its table."""
        return self.turn.split(".")[0] + ".move"

    @property
    def undo_endpoint(self):
        """The endpoint of the game's undo POST (``<blueprint>.undo``, taking ``table_id``)."""
        return self.turn.split(".")[0] + ".undo"

    def error_text(self, err, pack=None):
        """An engine error (illegal or malformed) in the host's words, naming things by their
        names (``pack`` the table's pack, for the names of its cards)."""
        from facilitator.i18n import describe_error
        return describe_error(err)

    # ----- the players' own pages and the projector's chart (issue 21) ----------------------
    def player_extras(self, loaded):
        """``{player name: {field: value}}`` added to each player of the API's table state (the
        table ``loaded`` has players and replays): «16/25»'s ``playable`` odds."""
        return {}

    def player_names(self, loaded):
        """The players of a table with players, in the order its pages list them."""
        return [p["name"] for p in loaded.table_standing().get("players", [])]

    def player_view(self, loaded, name):
        """A player's own read-only page (their phone, opened by the seat's secret link):
        ``(template, context)`` from the game's templates, or None when the game has none. Shows
        only what every player may know (no sealed card, no other player's secret)."""
        return self._seat("player_view", loaded, name)

    def player_state(self, loaded, name):
        """Everything of the game a player's own page (``player_view``) shows, as plain data in
        no language (numbers, strings, lists, dicts; no sets), worked out from the engine without
        drawing anything: while it stays the same, whatever the other players do, the page's
        poll is answered "nothing new" (304) and the page is not drawn again. It is compared
        only between two positions of one game going on — the later one's moves in force are
        the earlier one's and more (no move taken back, no new setup in between; the app sees
        to that) — so what only grows along a game, such as the moves that concern the player,
        may be counted instead of spelled out. Never anything the player may not know. None
        (the default): the page is drawn again whenever the table moves."""
        return self._seat("player_state", loaded, name)

    def player_sheet(self, loaded, name):
        """A player's one-page sheet of their game: the HTML of its print page (a game's
        ``templates/print/``, ``facilitator.reports.pdf.render_html``), which the app lays out
        into a PDF in its printing worker process (a second of layout never holds the server
        while tablets record moves); None when the game prints none."""
        return self._seat("player_sheet", loaded, name)

    def projector_chart(self, tables):
        """The projector's chart of an event (``tables``: its loaded tables that have players and
        replay): a ``facilitator.reports.svgchart`` figure, or None."""
        return self._seat("projector_chart", tables)

    def _seat(self, hook, *args):
        """The ``seat`` module's answer to ``hook``, or None where it has none."""
        answer = getattr(import_module(self.seat), hook, None) if self.seat else None
        return answer(*args) if answer is not None else None

    def offers(self, hook):
        """Whether the game answers the optional hook ``hook`` (``player_view``: its players have
        pages of their own): its class overrides it, or its ``seat`` module has it."""
        if getattr(type(self), hook) is not getattr(GamePackage, hook):
            return True
        return hook in _SEAT_HOOKS and self.seat is not None and hasattr(import_module(self.seat), hook)

    # ----- printing -----------------------------------------------------------------------
    def reports_module(self):
        """The module making the game's protocol workbook and PDF (None: the game prints none)."""
        return import_module(self.reports) if self.reports else None

    #: the event-wide files the game prints (``event_file``): some of "workbook" (every table's
    #: protocol and a summary, Excel), "results" and "certificates" (PDF)
    event_files = ()

    def event_file(self, kind, tables, event):
        """The bytes of one of ``event_files`` for an event (``tables``: its loaded tables that
        have players and replay; ``event``: its row, for the name and date)."""
        raise KeyError(kind)

    def blank_protocol(self, table_name, players, pack, event=None, event_date=None):
        """A paper protocol to fill in by hand (PDF bytes) with the table's players, or None
        when the game prints none."""
        return None

    def print_globals(self):
        """Filters and globals the game's print templates use: ``{"filters": {}, "globals": {}}``."""
        return {}

    #: what the projector's announcement mode reveals at each step: "places" (one place of the
    #: event's ranking, from the last to the first) or "tables" (one table's result)
    announces = "places"

    def announced(self, result):
        """What the projector's announcement mode reveals, one item per step, in the order they
        are revealed (``result``: the event's standings, ``services.events.event_standings``).
        By default the team ranking, from the last place to the first."""
        return list(reversed(sorted(result["teams"], key=lambda t: t["place"])))

    def standings_text(self, result):
        """Standings of one or more tables as plain text (``facilitator replay``)."""
        raise NotImplementedError(f"{self.key}: no text standings")

    def __repr__(self):
        return f"<GamePackage {self.ruleset.key if self.ruleset else '?'}>"


_shipped = {}


def _shipped_pack(ruleset):
    """``(id, title)`` of the pack a ruleset ships, read once."""
    if ruleset.key not in _shipped:
        data = ruleset.default_pack_data()
        _shipped[ruleset.key] = (data.get("id"), data.get("title"))
    return _shipped[ruleset.key]


def pack_title(row):
    """A stored pack's name (its row) in the page's language: its game's ``pack_title``."""
    try:
        return get(row.ruleset).pack_title(row.key, row.title)
    except KeyError:
        return row.title


def registered():
    """Every game found through the ``facilitator.games`` entry points, in the order found."""
    return registry.games()


def get(key):
    """The game of a ruleset key (``KeyError`` naming the known ones)."""
    for game in registered():
        if game.key == key:
            return game
    raise KeyError(f"unknown game {key!r} (known: {', '.join(g.key for g in registered())})")


def of_table(table):
    """The game a stored table plays (its ``ruleset`` column)."""
    return get(table.ruleset)


__all__ = ["GROUP", "FormError", "GamePackage", "MissingTemplates", "registered", "get", "of_table", "pack_title"]

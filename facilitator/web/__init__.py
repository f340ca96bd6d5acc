"""The Flask app (ARCHITECTURE.md decision 7): an app factory, extensions bound in init_app,
templates in ``facilitator/templates/`` (shipped inside the package, so an installed wheel serves
pages too), one blueprint per role.

Views parse a request, call ``facilitator.services``, render: they never import storage or
SQLAlchemy. A request has one database session (``db()``), opened on first use and closed when
the request ends; ``db_session()`` is that session as a unit of work, committed at the end of
its ``with`` block (before the response is sent) or rolled back on an error.
"""

import contextlib
import os
import re
import time
from datetime import timedelta
from pathlib import Path
from types import FunctionType

from flask import Flask, current_app, g, render_template, request, session
from flask.globals import _cv_request
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException

from facilitator import i18n, services
from facilitator.web import templating
from facilitator.web.json_answers import JSONAnswers

PACKAGE = Path(__file__).resolve().parent.parent  # facilitator/: templates, static files, fonts
csrf = CSRFProtect()

#: the pages' Content-Security-Policy: scripts and styles only from this server (no inline script)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")


class TrustedProxyFix:
    """The reverse proxy's ``X-Forwarded-*`` headers believed only when the request comes from
    the proxy itself (a comma-separated list of addresses): a tablet that reaches the server
    directly cannot claim another address with each wrong PIN, nor HTTPS."""

    HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
               "HTTP_X_FORWARDED_PREFIX")

    def __init__(self, wsgi_app, proxies):
        from werkzeug.middleware.proxy_fix import ProxyFix
        self.plain = wsgi_app
        self.fixed = ProxyFix(wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1)
        self.proxies = {p.strip() for p in str(proxies).split(",") if p.strip()}

    def __call__(self, environ, start_response):
        if environ.get("REMOTE_ADDR") in self.proxies:
            return self.fixed(environ, start_response)
        for name in self.HEADERS:
            environ.pop(name, None)
        return self.plain(environ, start_response)


class _Tagged(TaggedJSONSerializer):
    """Flask's tagged JSON of the session cookie, its plain values tagged without asking each
    of Flask's eight tags in turn whether it is theirs (texts, numbers and None are nobody's;
    a dict, a list or a tuple is tagged as Flask tags it): the same JSON. Another value, or a
    serializer given tags of its own, is tagged by Flask."""

    __slots__ = ("_plain",)
    DEFAULT_TAGS = tuple(TaggedJSONSerializer.default_tags)

    def __init__(self):
        super().__init__()
        self._plain = tuple(type(tag) for tag in self.order) == self.DEFAULT_TAGS

    def register(self, *args, **kwargs):
        self._plain = False
        return super().register(*args, **kwargs)

    def tag(self, value):
        if not self._plain:
            return super().tag(value)
        kind = type(value)
        if kind is str or kind is int or kind is bool or kind is float or value is None:
            return value
        if kind is dict and not (len(value) == 1 and next(iter(value)) in self.tags):
            return {key: self.tag(item) for key, item in value.items()}
        if kind is list:
            return [self.tag(item) for item in value]
        if kind is tuple:
            return {" t": [self.tag(item) for item in value]}
        return super().tag(value)


class _KeptSigner(TimestampSigner):
    """itsdangerous' timestamp signer, each key it derives from a secret derived once."""

    def derive_key(self, secret_key=None):
        derived = self.__dict__.setdefault("_derived", {})
        key = derived.get(secret_key)
        if key is None:
            key = derived[secret_key] = super().derive_key(secret_key)
        return key


class _KeptSerializer(URLSafeTimedSerializer):
    """itsdangerous' serializer of Flask's session cookie, its signer made once per salt."""

    def make_signer(self, salt=None):
        signers = self.__dict__.setdefault("_signers", {})
        signer = signers.get(salt)
        if signer is None:
            signer = signers[salt] = super().make_signer(salt)
        return signer


def _copied(value):
    """A session's values as fresh containers (dicts, lists, tuples of them), the rest as they
    are: what a request changes in its session never reaches the one kept (``open_session``)."""
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    return value


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies are Secure whenever the page itself came over HTTPS. The cookie's signing
    serializer is Flask's, made once per secret key (Flask made one, and a signer per use, on
    every request, and derived the signing key from the secret on every signature): the same
    cookies, signed and checked the same way.

    A cookie is read once: a tablet sends the same cookie on every tap until its session
    changes, and checking its signature and reading its JSON was a tenth of a tap. What a
    cookie whose signature held says is kept by the cookie's exact text (and the serializer
    of the keys it was checked with) with the time it was signed; sent again, it is as
    young as Flask asks (``PERMANENT_SESSION_LIFETIME``) or refused as Flask refuses it, and
    the request gets a copy of what it says. A cookie not signed with the app's keys is never
    kept."""

    serializer = _Tagged()
    #: the most cookies kept read (then it starts again)
    OPENED_KEPT = 10_000

    def __init__(self):
        self._serializers = {}
        self._opened = {}

    def open_session(self, app, request):
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        kept = self._opened.get(cookie)
        if kept is not None and kept[0] is serializer and 0 <= time.time() - kept[2] <= max_age:
            return self.session_class(_copied(kept[1]))
        try:
            data, signed_at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if len(self._opened) >= self.OPENED_KEPT:
            self._opened.clear()
        self._opened[cookie] = (serializer, _copied(data), signed_at.timestamp())
        return self.session_class(data)

    def get_cookie_secure(self, app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))

    def get_signing_serializer(self, app):
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)  # the current key last
        serializer = self._serializers.get(keys)
        if serializer is None:
            if len(self._serializers) > 16:
                self._serializers.clear()
            serializer = self._serializers[keys] = _KeptSerializer(
                list(keys), salt=self.salt, serializer=self.serializer, signer=_KeptSigner,
                signer_kwargs={"key_derivation": self.key_derivation, "digest_method": self.digest_method})
        return serializer


#: what every answer says unless its view says otherwise
SECURITY_HEADERS = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"),
                    ("X-Frame-Options", "DENY"), ("Content-Security-Policy", CSP))

#: requests that may write: their transactions take the database's write lock before they read
WRITING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class App(Flask):
    """The app, with one rule for its database writes (ARCHITECTURE.md decision 15): a request
    that may write (POST, PUT, PATCH, DELETE) takes the write lock before it reads, so two
    tablets writing at once wait for each other and never fail. A page that only reads may still
    find something to write on its way (a table found not to replay is marked at once): if that
    write meets another, the page is drawn once more from the top, this time with the lock
    taken first, unless it had already committed something.

    Its templates are compiled once per language, their fixed texts translated then
    (``templating.Environment``)."""

    jinja_environment = templating.Environment
    json_provider_class = JSONAnswers
    #: compiled templates kept: every screen, mail and print template in each of the languages
    jinja_options = {"cache_size": 2000}

    #: the most URLs ``url_for`` keeps (then it starts again)
    URLS_KEPT = 20_000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._urls = {}
        self._synced = {}

    def url_for(self, endpoint, /, **values):
        """Flask's ``url_for``, each URL built once per process: a turn screen names the same two
        dozen addresses (its forms', its links', the static files') on every tap. A URL is kept
        by its endpoint, its values (in their order and with their types) and the request's
        script root; a relative endpoint, an ``_external`` URL (or any ``_`` option), a call
        outside a request and the debug server (a static file's hash changes as it is edited)
        build it each time (``flask.url_for``'s options left as they are, all None, count as
        not given). What it builds from is fixed while the process runs: the routes,
        and the one ``url_defaults`` (``static_files``: a static file's hash).

        An address whose query changes with the position (``after=<seq>``: a draw's, the
        offline positions') is not kept: its path is (built from its route's values alone), and
        the query is put after it as the route itself writes it (``Rule._encode_query_vars``)."""
        ctx = _cv_request.get(None)
        if ctx is None or self.debug or endpoint[:1] == ".":
            return super().url_for(endpoint, **values)
        if "_external" in values and all(values.get(k) is None for k in _URL_OPTIONS):
            # ``flask.url_for`` (the views' redirects) names each of Flask's options, all None
            values = {k: v for k, v in values.items() if k not in _URL_OPTIONS}
        try:
            key = (ctx.request.script_root, endpoint, tuple(values.items()), tuple(map(type, values.values())))
            url = self._urls.get(key)
        except TypeError:  # a value that is not hashable (a list of values)
            return super().url_for(endpoint, **values)
        if url is None:
            if any(k[:1] == "_" for k in values):
                return super().url_for(endpoint, **values)
            url = self._with_query(endpoint, values)
            if url is not None:
                return url
            url = super().url_for(endpoint, **values)
            if len(self._urls) >= self.URLS_KEPT:
                self._urls.clear()
            self._urls[key] = url
        return url

    def _with_query(self, endpoint, values):
        """The address of an endpoint of one route given all of its route's values and some
        more (its query): the kept path with the query the route puts after it; None when the
        route takes defaults, lacks a value, or its path carries a query of its own."""
        rules = self.url_map._rules_by_endpoint.get(endpoint)
        if not rules or len(rules) != 1 or rules[0].defaults or rules[0].websocket:
            return None
        rule = rules[0]
        path_values = {k: v for k, v in values.items() if k in rule.arguments}
        if len(path_values) == len(values) or len(path_values) != len(rule.arguments) or None in path_values.values():
            return None
        path = self.url_for(endpoint, **path_values)
        if "?" in path or "#" in path:
            return None
        query_values = {k: v for k, v in values.items() if k not in rule.arguments and v is not None}
        if not self.url_map.sort_parameters and all(type(v) is int and _PLAIN_NAME.match(k) for k, v in query_values.items()):
            query = "&".join(f"{k}={v}" for k, v in query_values.items())  # what the route writes: nothing to quote
        else:
            query = rule._encode_query_vars(query_values)
        return f"{path}?{query}" if query else path

    def ensure_sync(self, func):
        """Flask's ``ensure_sync``, its answer kept per function (Flask asked ``inspect`` whether
        each hook is a coroutine function on every request)."""
        if type(func) is not FunctionType:
            return super().ensure_sync(func)
        synced = self._synced.get(func)
        if synced is None:
            synced = self._synced[func] = super().ensure_sync(func)
        return synced

    def dispatch_request(self):
        changed_before = services.db.writes_committed()
        try:
            return super().dispatch_request()
        except Exception as err:
            if (services.db.is_writing() or not services.db.lock_conflict(err)
                    or services.db.writes_committed() != changed_before):
                raise
        close_db()
        with services.db.writing():
            return super().dispatch_request()


#: Flask's options of ``url_for`` that ``flask.url_for`` passes on (None: as Flask's default)
_URL_OPTIONS = ("_anchor", "_method", "_scheme", "_external")

#: a query's name that quoting leaves as it is (``after``, ``done``): its whole numbers are written as they are
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.~-]+\Z")


def create_app(test_config=None):
    folder = Path((test_config or {}).get("INSTANCE_PATH") or services.db.instance_path())
    folder.mkdir(parents=True, exist_ok=True)
    app = App(__name__, instance_path=str(folder), template_folder=str(PACKAGE / "templates"),
              static_folder=str(PACKAGE / "static"))
    app.config.from_mapping(
        SECRET_KEY=None,
        DATABASE_URL=os.environ.get("DATABASE_URL"),
        # a tablet may sit idle for an hour between rounds: CSRF tokens live as long as the session
        WTF_CSRF_TIME_LIMIT=None,
        WTF_I18N_ENABLED=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=7),
        SESSION_REFRESH_EACH_REQUEST=False,  # see _headers: the cookie changes only with the session
        # generated files go under the working directory, never inside an installed package
        EXPORTS_DIR=os.environ.get("FACILITATOR_EXPORTS") or str(Path.cwd() / "exports"),
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,
        MAX_BACKUP_LENGTH=64 * 1024 * 1024,  # an event backup the app wrote itself always fits
        # while the games go on, a projector's drawing stands this long after it was made, however
        # the event moves on meanwhile (the final rankings and an announcement are drawn at once;
        # 0: at every change): a hall's screen follows the room within these seconds
        PROJECTOR_FRESH_SECONDS=5.0,
        PROTOCOL_WAIT_SECONDS=2.0,  # a protocol PDF still being made after this shows its progress
        PREPARE_PROTOCOLS=True,  # a finished game's protocol PDF is made at once, in the background
        PUBLIC_URL=os.environ.get("FACILITATOR_PUBLIC_URL") or None,  # what printed sheets and QR codes link to
    )
    if test_config:
        app.config.update(test_config)
    if app.config["DATABASE_URL"] is None:
        app.config["DATABASE_URL"] = f"sqlite:///{folder / 'facilitator.db'}"

    engine = services.db.engine_for(app.config["DATABASE_URL"])
    services.db.startup(engine)
    if not app.config["SECRET_KEY"]:
        # SECRET_KEY, else the one every server on a shared database reads from it (so a
        # tablet keeps its session whichever machine a proxy sends it to), else the instance's
        app.config["SECRET_KEY"] = services.keys.app_key(engine, folder)
    app.extensions["facilitator.engine"] = engine
    from facilitator.web.polls import Polls
    app.wsgi_app = Polls(app.wsgi_app, app)  # a poll with nothing new is answered before the app

    if os.environ.get("FACILITATOR_BEHIND_PROXY") or app.config.get("BEHIND_PROXY"):
        # behind an HTTPS reverse proxy: trust its X-Forwarded-Proto/-Host/-For (one hop), from
        # the proxy's own address only. Under ``facilitator serve`` (any number of workers)
        # waitress does this itself (its trusted-proxy options).
        if not app.config.get("PROXY_HANDLED_BY_SERVER"):
            proxies = app.config.get("TRUSTED_PROXIES") or os.environ.get("FACILITATOR_PROXY") or "127.0.0.1"
            app.wsgi_app = TrustedProxyFix(app.wsgi_app, proxies)
    app.session_interface = SessionInterface()

    @app.before_request
    def _writes_lock_first():
        if request.method in WRITING_METHODS:
            g.writing_token = services.db.set_writing(True)

    @app.before_request
    def _upload_limits():
        # before the CSRF check reads the form: an event backup the app wrote always fits
        if request.endpoint == "organizer.restore":
            request.max_content_length = app.config["MAX_BACKUP_LENGTH"]

    csrf.init_app(app)
    i18n.install_jinja(app.jinja_env)
    from facilitator import formatting
    app.jinja_env.globals.update(LOCALES=i18n.LOCALES)
    app.jinja_env.filters.update(signed=formatting.signed, number=formatting.number, date=formatting.format_date)
    from facilitator import games
    from facilitator.web.games import screen_url
    app.jinja_env.globals.update(game_name=game_name, game_of=games.get, table_url=screen_url, pack_title=games.pack_title,
                                 language_name=lambda code: i18n.LANGUAGE_NAMES.get(code, code),
                                 event_locale=i18n.event_locale)

    from facilitator.web import static_files
    static_files.install(app)

    @app.get("/favicon.ico")
    def _favicon():
        from flask import redirect, url_for
        return redirect(url_for("static", filename="favicon.svg"), 301)

    csrf_token = templating.csrf_token_of(app)
    app.jinja_env.globals["csrf_token"] = csrf_token  # macros imported without the page's context
    app.jinja_env.globals.update(once=templating.once, move_names_of=templating.move_names,
                                 get_flashed_messages=templating.page_messages)

    @app.context_processor
    def _roles():
        from facilitator.web.auth import is_organizer
        return {"is_organizer": is_organizer(), "csrf_token": csrf_token}

    @app.before_request
    def _locale():
        wanted = request.args.get("lang")
        if wanted in i18n.ALL_LOCALES and session.get("lang") != wanted:
            # written only when it changes: a page polled with its ``?lang=`` (a player's page)
            # never sends its cookie again
            session["lang"] = wanted
        # the shared pages speak every language of the app; a game's screens narrow it (use_locales)
        g.locale_token = i18n.set_locale(page_locale(i18n.ALL_LOCALES))
        g.page_locales = i18n.ALL_LOCALES

    @app.context_processor
    def _languages():
        return {"page_locales": g.get("page_locales", i18n.ALL_LOCALES), "page_game": g.get("page_game"),
                "page_ruleset": g.get("page_ruleset")}

    @app.teardown_request
    def _end_request(_exc=None):
        close_db()
        writing = g.pop("writing_token", None)
        if writing is not None:
            services.db.reset_writing(writing)
        token = g.pop("locale_token", None)
        if token is not None:
            i18n.reset_locale(token)

    @app.after_request
    def _headers(response):
        if session and not session.permanent:  # a browser that holds something (a language, a table,
            session.permanent = True  # a form token) keeps it a week; set once, so the cookie is sent
            # only when the session changes: an answer to a request made before a language switch
            # never carries the old language back
        headers = response.headers
        for name, value in SECURITY_HEADERS:  # each unless the view set its own
            if name not in headers:
                headers.add(name, value)
        if "Cache-Control" not in headers and (headers.get("Content-Type") or "").partition(";")[0].strip().lower() \
                == "text/html":
            # a screen is always asked for again (a table moves on between two looks), never kept
            # by a proxy; not no-store: Back on an offline tablet still shows the page it left,
            # and outbox.js redraws a page restored from history once the tablet is online
            headers.add("Cache-Control", "no-cache, private")
        return response

    from facilitator.web import api, errors, host, organizer, public
    app.register_blueprint(host.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(organizer.bp)
    app.register_blueprint(public.bp)
    from facilitator.web import seats
    app.register_blueprint(seats.bp)
    csrf.exempt(api.bp)
    from facilitator.web import games
    games.register_blueprints(app)
    errors.register(app)
    from facilitator.web.filters import register_filters
    register_filters(app)
    return app


def game_name(ruleset):
    """A game's name as its players know it (``16/25``, ``Alter Ego``, ``New Angeles``)."""
    from facilitator.rules import registry
    try:
        return registry.get(ruleset).name
    except KeyError:
        return ruleset


def use_locales(locales, ruleset=None):
    """This page speaks ``locales`` (its game's, its players' own first): the language chosen
    on this browser if it is one of them, else as ``page_locale`` negotiates; the switch offers
    only these. The top bar names the page's game (``ruleset``)."""
    g.page_locales = tuple(locales)
    if ruleset:
        g.page_game = game_name(ruleset)
        g.page_ruleset = ruleset
    i18n.set_locale(page_locale(locales))


def page_locale(locales):
    """The language of this request's page among ``locales``: the one chosen on this browser
    (its switch), else the one its Accept-Language reads best, else the first of ``locales``. A
    choice the page does not speak counts as the browser's first wish (a Swedish choice on a
    game without Swedish: its English, if it has English)."""
    chosen = session.get("lang")
    if chosen in locales:
        return chosen
    asked = list(request.accept_languages)
    if chosen in i18n.ALL_LOCALES:
        asked.insert(0, (chosen, 2.0))
    return i18n.negotiate(asked, locales)


def db():
    """The request's one database session, opened on first use."""
    s = g.get("db")
    if s is None:
        s = g.db = services.db.new_session(current_app.extensions["facilitator.engine"])
    return s


def close_db():
    s = g.pop("db", None)
    if s is not None:
        try:
            s.rollback()
        finally:
            s.close()


@contextlib.contextmanager
def db_session():
    """The request's session as a unit of work: committed when the block ends (before the
    response is sent), rolled back when it raises. A block that began no transaction (a screen
    drawn from what the process keeps) has nothing to commit: the ORM's commit would begin one
    only to end it."""
    s = db()
    try:
        yield s
        if s.in_transaction():
            s.commit()
    except BaseException:
        s.rollback()
        raise


__all__ = ["create_app", "db", "db_session", "csrf", "HTTPException", "render_template"]

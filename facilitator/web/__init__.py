"""The Flask app (ARCHITECTURE.md decision 7): an app factory, extensions bound in init_app,
templates in ``facilitator/templates/`` (shipped inside the package, so an installed wheel serves
pages too), one blueprint per role."""

import os
import secrets
from datetime import timedelta
from pathlib import Path

from flask import Flask, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from .. import i18n
from ..storage import get_engine, init_db, session_scope
from ..storage.db import instance_path

PACKAGE = Path(__file__).resolve().parent.parent  # facilitator/: templates, static files, fonts
csrf = CSRFProtect()


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies are Secure whenever the page itself came over HTTPS."""

    def get_cookie_secure(self, app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))


def _secret_key(folder):
    """The configured secret key, or one generated once and kept in the instance folder."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(folder) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path.write_text(key)
    os.chmod(path, 0o600)
    return key


def create_app(test_config=None):
    folder = Path((test_config or {}).get("INSTANCE_PATH") or instance_path())
    folder.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__, instance_path=str(folder), template_folder=str(PACKAGE / "templates"),
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
        # generated files go under the working directory, never inside an installed package
        EXPORTS_DIR=os.environ.get("FACILITATOR_EXPORTS") or str(Path.cwd() / "exports"),
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,
        PROJECTOR_FRESH_SECONDS=1.0,  # projectors' standings are recomputed at most this often
    )
    if test_config:
        app.config.update(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(folder)
    if app.config["DATABASE_URL"] is None:
        app.config["DATABASE_URL"] = f"sqlite:///{folder / 'facilitator.db'}"

    engine = get_engine(app.config["DATABASE_URL"])
    init_db(engine)
    app.extensions["facilitator.engine"] = engine
    with session_scope(engine) as s:
        from ..content.library import ensure_sample
        from .auth import ensure_password_from_env
        ensure_sample(s)
        ensure_password_from_env(s)

    if os.environ.get("FACILITATOR_BEHIND_PROXY") or app.config.get("BEHIND_PROXY"):
        # behind an HTTPS reverse proxy: trust its X-Forwarded-Proto/-Host/-For (one hop)
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.session_interface = SessionInterface()
    csrf.init_app(app)
    i18n.install_jinja(app.jinja_env)
    app.jinja_env.globals.update(LOCALES=i18n.LOCALES)

    @app.context_processor
    def _roles():
        from .auth import is_organizer
        return {"is_organizer": is_organizer()}

    @app.before_request
    def _locale():
        wanted = request.args.get("lang")
        if wanted in i18n.LOCALES:
            session["lang"] = wanted
        session.permanent = True
        g.locale_token = i18n.set_locale(session.get("lang") or i18n.DEFAULT_LOCALE)

    @app.teardown_request
    def _locale_reset(_exc=None):
        token = g.pop("locale_token", None)
        if token is not None:
            i18n.reset_locale(token)

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    from . import api, host, organizer, packs, public
    app.register_blueprint(host.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(organizer.bp)
    app.register_blueprint(public.bp)
    app.register_blueprint(packs.bp)
    csrf.exempt(api.bp)
    from .filters import register_filters
    register_filters(app)
    return app


def db_session():
    """A session for this request, committed by the view's ``with`` block."""
    from flask import current_app
    return session_scope(current_app.extensions["facilitator.engine"])

"""``facilitator serve``: the app on the venue's network with a production WSGI server.

waitress (one process, many threads) is the default and runs everywhere. For a big event on
Linux, ``--workers N`` (2–4) runs N processes under gunicorn: the one-time start-up work is done
once, under a lock, and every worker opens its own database connections.

Behind an HTTPS reverse proxy (``FACILITATOR_BEHIND_PROXY=1`` or ``--behind-proxy``) the server
trusts the proxy's ``X-Forwarded-For``/``-Proto``/``-Host`` from the proxy's address only
(``--proxy`` or ``FACILITATOR_PROXY``, 127.0.0.1 by default): each tablet is then seen by its own
address (the PIN throttle counts per tablet) and session cookies are Secure.
"""

import getpass
import os
import secrets
import socket
import sys


def lan_address():
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks the outgoing interface
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def public_url(args):
    """What printed sheets and QR codes link to: ``--public-url``, ``FACILITATOR_PUBLIC_URL``,
    else the LAN address the server listens on (never 127.0.0.1 when another is known)."""
    given = args.public_url or os.environ.get("FACILITATOR_PUBLIC_URL")
    if given:
        return given.rstrip("/")
    host = lan_address() if args.host in ("0.0.0.0", "", "::") else args.host
    return f"http://{host}:{args.port}"


def proxy_options(args):
    """waitress's trusted-proxy settings when the server sits behind a reverse proxy, else {}."""
    if not (args.behind_proxy or os.environ.get("FACILITATOR_BEHIND_PROXY")):
        return {}
    return {"trusted_proxy": args.proxy or os.environ.get("FACILITATOR_PROXY") or "127.0.0.1",
            "trusted_proxy_count": 1,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
                                      "x-forwarded-port"},
            "clear_untrusted_proxy_headers": True}


def _first_password(app):
    from .. import services
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        if services.access.password_hash(s) is None:
            generated = secrets.token_urlsafe(9)
            services.access.set_password(s, generated)
            print(f"facilitator: organizer password (shown once; change it with "
                  f"'facilitator organizer-password'): {generated}", flush=True)


def make_app(args):
    from . import create_app
    behind = bool(args.behind_proxy or os.environ.get("FACILITATOR_BEHIND_PROXY"))
    return create_app({"PUBLIC_URL": public_url(args), "BEHIND_PROXY": behind,
                       # waitress applies the proxy's headers itself; gunicorn workers get ProxyFix
                       "PROXY_HANDLED_BY_SERVER": behind and args.workers <= 1})


def cmd_serve(args):
    app = make_app(args)
    _first_password(app)
    print(f"facilitator: open {app.config['PUBLIC_URL']}/ on the tablets "
          f"(database: {app.config['DATABASE_URL'].split('@')[-1]})", flush=True)
    if app.config["PUBLIC_URL"].split("//", 1)[-1].startswith(("127.", "localhost", "[::1]")):
        print("facilitator: that address is this computer's own, no tablet can open it: connect to the "
              "venue's network, or give the address tablets use with --public-url", file=sys.stderr, flush=True)
    if args.workers > 1:
        return _serve_gunicorn(app, args)
    from waitress import serve
    # every tablet and projector keeps its connection open: waitress's default limit of 100
    # open connections would leave later clients waiting at a big event
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="facilitator",
          connection_limit=args.connection_limit, channel_timeout=120, **proxy_options(args))
    return 0


def _serve_gunicorn(app, args):
    """N worker processes under gunicorn (Linux). The app is built once in the parent (start-up
    work done, no connection left open) and forked into the workers."""
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError:
        print("serve: --workers needs gunicorn (pip install gunicorn), or use one process", file=sys.stderr)
        return 2

    class Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("threads", args.threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("timeout", 120)
            self.cfg.set("preload_app", True)
            if args.behind_proxy or os.environ.get("FACILITATOR_BEHIND_PROXY"):
                self.cfg.set("forwarded_allow_ips", args.proxy or os.environ.get("FACILITATOR_PROXY") or "127.0.0.1")

        def load(self):
            return app

    app.extensions["facilitator.engine"].dispose()  # no connection is shared across the fork
    Server().run()
    return 0


def cmd_organizer_password(args):
    """Set the organizer's password (stored hashed): from --password, the environment
    variable FACILITATOR_ORGANIZER_PASSWORD, or typed twice at the prompt. Every organizer
    session signed in with the old password ends."""
    from .. import services
    password = args.password or os.environ.get("FACILITATOR_ORGANIZER_PASSWORD")
    if not password:
        if not sys.stdin.isatty():
            print("organizer-password: give --password or set FACILITATOR_ORGANIZER_PASSWORD", file=sys.stderr)
            return 2
        password = getpass.getpass("New organizer password: ")
        if password != getpass.getpass("Again: "):
            print("organizer-password: the two passwords differ; nothing changed", file=sys.stderr)
            return 2
    engine = services.db.engine_for()
    services.db.startup(engine)
    try:
        with services.db.session_scope(engine) as s:
            services.access.set_password(s, password)
    except ValueError as err:
        print(f"organizer-password: {err}; nothing changed", file=sys.stderr)
        return 2
    print("organizer-password: the organizer password is set")
    return 0


def register(sub):
    p = sub.add_parser("serve", help="run the app for the tablets on this network (waitress, or gunicorn workers)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--workers", type=int, default=1,
                   help="processes (gunicorn, Linux); 2–4 for a big event. Default 1: waitress")
    p.add_argument("--connection-limit", type=int, default=1000,
                   help="open connections served at once (tablets, projectors, browsers)")
    p.add_argument("--public-url", help="the address tablets open, printed on the access sheet and in its QR "
                                        "codes (default: FACILITATOR_PUBLIC_URL, else this machine's LAN address)")
    p.add_argument("--behind-proxy", action="store_true",
                   help="trust X-Forwarded-* from the reverse proxy (also FACILITATOR_BEHIND_PROXY=1)")
    p.add_argument("--proxy", help="the reverse proxy's address (default 127.0.0.1; also FACILITATOR_PROXY)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("organizer-password", help="set the organizer's password (stored hashed)")
    p.add_argument("--password", help="the new password (else FACILITATOR_ORGANIZER_PASSWORD, else a prompt)")
    p.set_defaults(func=cmd_organizer_password)

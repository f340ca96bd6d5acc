"""``facilitator serve``: the app on the venue's network with a production WSGI server.

waitress (one process, many threads) is the default and runs everywhere; server.py hardens it
against idle and half-sent connections (deadlines, a cap per client address). For a big event on
Linux or macOS, ``--workers N`` (2–4) runs N processes of that same server sharing one listening
socket (prefork.py): the one-time start-up work is done once, before they are forked, and every
worker opens its own database connections.

Behind an HTTPS reverse proxy (``FACILITATOR_BEHIND_PROXY=1`` or ``--behind-proxy``) the server
trusts the proxy's ``X-Forwarded-For``/``-Proto``/``-Host`` from the proxy's address only
(``--proxy`` or ``FACILITATOR_PROXY``, 127.0.0.1 by default): each tablet is then seen by its own
address (the PIN throttle counts per tablet) and session cookies are Secure.
"""

import gc
import getpass
import os
import secrets
import socket
import sys

from facilitator.web import prefork, server


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
    from facilitator import services
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        if services.access.password_hash(s) is None:
            generated = secrets.token_urlsafe(9)
            services.access.set_password(s, generated)
            print(f"facilitator: organizer password (shown once; change it with "
                  f"'facilitator organizer-password'): {generated}", flush=True)


def make_app(args):
    from facilitator.web import create_app
    behind = bool(args.behind_proxy or os.environ.get("FACILITATOR_BEHIND_PROXY"))
    # waitress applies the proxy's headers itself (proxy_options), in every worker process
    return create_app({"PUBLIC_URL": public_url(args), "BEHIND_PROXY": behind, "PROXY_HANDLED_BY_SERVER": behind})


def cmd_serve(args):
    app = make_app(args)
    _first_password(app)
    print(f"facilitator: open {app.config['PUBLIC_URL']}/ on the tablets "
          f"(database: {app.config['DATABASE_URL'].split('@')[-1]})", flush=True)
    if app.config["PUBLIC_URL"].split("//", 1)[-1].startswith(("127.", "localhost", "[::1]")):
        print("facilitator: that address is this computer's own, no tablet can open it: connect to the "
              "venue's network, or give the address tablets use with --public-url", file=sys.stderr, flush=True)
    # what start-up made (modules, routes, the app) lives as long as the server: out of the
    # garbage collector's sight, its full collections no longer walk it (nor touch the pages
    # forked workers share with this process)
    gc.collect()
    gc.freeze()
    if args.workers > 1:
        return _serve_workers(app, args)
    return _serve(app, args, host=args.host, port=args.port)


def _serve(app, args, **where):
    """The hardened waitress server (server.py) in this process until SIGTERM or Ctrl+C;
    ``where``: host and port, or ``sockets`` already listening (a forked worker's)."""
    # every tablet and projector keeps its connection open: waitress's default limit of 100
    # open connections would leave later clients waiting at a big event; server.py guards the
    # limit against idle and half-sent connections
    from facilitator.services import exports
    exports.stop_with_server()  # SIGTERM stops the PDF worker process with the server
    try:
        server.serve(app, threads=args.threads, ident="facilitator", connection_limit=args.connection_limit,
                     head_timeout=args.head_timeout, per_client_limit=args.per_client_limit,
                     **where, **proxy_options(args))
    finally:
        exports.shutdown()
    return 0


def _serve_workers(app, args):
    """``--workers N``: N processes of the same server on one listening socket (prefork.py). The
    app is built once here (start-up work done, no database connection left open) and forked."""
    if not prefork.can_fork():
        print("serve: --workers needs a system that can fork processes (Linux, macOS); on this one serve "
              "with one process (the default)", file=sys.stderr)
        return 2
    try:
        sockets = prefork.listening_sockets(args.host, args.port)
    except OSError as err:
        print(f"serve: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    app.extensions["facilitator.engine"].dispose()  # no connection is shared across the fork
    # each worker is one of several writers: none answers a poll from what it remembers of its
    # own writes (storage.changes), every poll reads its row
    from facilitator import services
    services.db.answer_from_memory(False)
    print(f"facilitator: {args.workers} worker processes of {args.threads} threads each; the limits "
          "(--connection-limit, --per-client-limit) apply to each", flush=True)
    try:
        return prefork.Supervisor(args.workers, lambda: _serve(app, args, sockets=sockets)).run()
    finally:
        for sock in sockets:
            sock.close()


def has_terminal():
    """Whether a terminal can be asked (``getpass`` asks on ``/dev/tty``, the controlling
    terminal, even when the standard input is a pipe: ``ssh host facilitator …``, ``make``)."""
    if sys.stdin is not None and sys.stdin.isatty():
        return True
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
    except OSError:
        return False
    return True


def cmd_organizer_password(args):
    """Set the organizer's password (stored hashed): from --password, the environment
    variable FACILITATOR_ORGANIZER_PASSWORD, or typed twice at the prompt. Every organizer
    session signed in with the old password ends."""
    from facilitator import services
    password = args.password or os.environ.get("FACILITATOR_ORGANIZER_PASSWORD")
    if not password:
        if not has_terminal():
            print("organizer-password: no terminal to ask on: give --password or set "
                  "FACILITATOR_ORGANIZER_PASSWORD", file=sys.stderr)
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


def cmd_secret_key(args):
    """Show where the secret key (it signs every browser's session and form tokens) is kept,
    or with --rotate put a new one there. A new key ends every browser session and form
    token: tablets open their table again (QR code or PIN), organizers sign in again, and
    every app server must be restarted to sign with it."""
    from facilitator import services
    engine = services.db.engine_for()
    services.db.startup(engine)  # a shared database's key is made here on a first start
    folder = services.db.instance_path()
    where = ("the database (every app server on it shares it)" if services.keys.shared(engine)
             else f"{folder / services.keys.FILE} (this instance's own)")
    if services.keys.from_environment():
        print(f"secret-key: SECRET_KEY is set here and overrides the key kept in {where}; to change the key, "
              "give every app server the same new SECRET_KEY and restart them", file=sys.stderr)
        return 2 if args.rotate else 0
    if not args.rotate:
        made = services.keys.shared(engine) or (folder / services.keys.FILE).exists()
        print(f"secret-key: {'kept' if made else 'to be made at the first start'} in {where}; "
              "'facilitator secret-key --rotate' makes a new one")
        return 0
    services.keys.rotate(engine, folder)
    print(f"secret-key: a new secret key is kept in {where}. Every browser session and form token made with "
          "the old key has ended: tablets open their table again (QR code or PIN), organizers sign in again. "
          "Restart every app server now: each signs with the key it read when it started.")
    return 0


def register(sub):
    p = sub.add_parser("serve", help="run the app for the tablets on this network (waitress: one process, or "
                                     "--workers of it)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--workers", type=int, default=1,
                   help="server processes sharing the port (Linux, macOS); 2–4 for a big event, each with "
                        "--threads threads and its own --connection-limit and --per-client-limit. Default 1")
    p.add_argument("--connection-limit", type=int, default=1000,
                   help="open connections served at once (tablets, projectors, browsers); when full, "
                        "idle and half-sent ones are closed to make room")
    p.add_argument("--head-timeout", type=float, default=server.HEAD_TIMEOUT,
                   help="seconds a request's headers may take to arrive in full before the connection "
                        "is closed (default %(default)s)")
    p.add_argument("--per-client-limit", type=int, default=server.PER_CLIENT_LIMIT,
                   help="open connections per client address (default %(default)s; a browser opens about 6); "
                        "raise it when tablets share one address through a router, 0: no cap")
    p.add_argument("--public-url", help="the address tablets open, printed on the access sheet and in its QR "
                                        "codes (default: FACILITATOR_PUBLIC_URL, else this machine's LAN address)")
    p.add_argument("--behind-proxy", action="store_true",
                   help="trust X-Forwarded-* from the reverse proxy (also FACILITATOR_BEHIND_PROXY=1)")
    p.add_argument("--proxy", help="the reverse proxy's address (default 127.0.0.1; also FACILITATOR_PROXY)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("organizer-password", help="set the organizer's password (stored hashed)")
    p.add_argument("--password", help="the new password (else FACILITATOR_ORGANIZER_PASSWORD, else a prompt)")
    p.set_defaults(func=cmd_organizer_password)

    p = sub.add_parser("secret-key", help="where the key signing browser sessions and forms is kept; --rotate "
                                          "makes a new one (ends every session: all sign in again)")
    p.add_argument("--rotate", action="store_true",
                   help="put a new key in place of the old one: every browser session and form token ends "
                        "(tablets open their table again, organizers sign in again); restart every app server")
    p.set_defaults(func=cmd_secret_key)

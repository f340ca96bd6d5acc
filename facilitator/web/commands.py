"""``facilitator serve``: the app on the venue's network with a production WSGI server."""

import getpass
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


def cmd_serve(args):
    from waitress import serve

    from ..storage import session_scope
    from . import create_app
    from .auth import password_hash, set_password
    app = create_app()
    with session_scope(app.extensions["facilitator.engine"]) as s:
        if password_hash(s) is None:
            generated = secrets.token_urlsafe(9)
            set_password(s, generated)
            print(f"facilitator: organizer password (shown once; change it with "
                  f"'facilitator organizer-password'): {generated}", flush=True)
    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    print(f"facilitator: open http://{address}:{args.port}/ on the tablets "
          f"(database: {app.config['DATABASE_URL'].split('@')[-1]})", flush=True)
    # every tablet and projector keeps its connection open: waitress's default limit of 100
    # open connections would leave later clients waiting at a big event
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="facilitator",
          connection_limit=args.connection_limit, channel_timeout=120)
    return 0


def cmd_organizer_password(args):
    """Set the organizer's password (stored hashed): from --password, the environment
    variable FACILITATOR_ORGANIZER_PASSWORD, or typed twice at the prompt."""
    import os

    from ..storage import get_engine, init_db, session_scope
    from .auth import set_password
    password = args.password or os.environ.get("FACILITATOR_ORGANIZER_PASSWORD")
    if not password:
        if not sys.stdin.isatty():
            print("organizer-password: give --password or set FACILITATOR_ORGANIZER_PASSWORD", file=sys.stderr)
            return 2
        password = getpass.getpass("New organizer password: ")
        if password != getpass.getpass("Again: "):
            print("organizer-password: the two passwords differ; nothing changed", file=sys.stderr)
            return 2
    engine = get_engine()
    init_db(engine)
    try:
        with session_scope(engine) as s:
            set_password(s, password)
    except ValueError as err:
        print(f"organizer-password: {err}; nothing changed", file=sys.stderr)
        return 2
    print("organizer-password: the organizer password is set")
    return 0


def register(sub):
    p = sub.add_parser("serve", help="run the app for the tablets on this network (waitress)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--connection-limit", type=int, default=1000,
                   help="open connections served at once (tablets, projectors, browsers)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("organizer-password", help="set the organizer's password (stored hashed)")
    p.add_argument("--password", help="the new password (else FACILITATOR_ORGANIZER_PASSWORD, else a prompt)")
    p.set_defaults(func=cmd_organizer_password)

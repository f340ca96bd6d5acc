"""``facilitator serve``: the app on the venue's network with a production WSGI server."""

import socket


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

    from . import create_app
    app = create_app()
    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    print(f"facilitator: open http://{address}:{args.port}/ on the tablets "
          f"(database: {app.config['DATABASE_URL'].split('@')[-1]})", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="facilitator")
    return 0


def register(sub):
    p = sub.add_parser("serve", help="run the app for the tablets on this network (waitress)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8)
    p.set_defaults(func=cmd_serve)

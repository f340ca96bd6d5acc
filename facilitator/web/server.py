"""The default server (``facilitator serve``): waitress, hardened so that idle and half-sent
connections cannot starve it (issue 17).

waitress reads requests in one event loop and hands only complete ones to its threads, so a
slow client costs a connection, never a thread. What it lacks on a crowded venue Wi-Fi:

* a deadline for a request's head. Its ``channel_timeout`` closes only connections silent for
  that long, so a client trickling a byte every few seconds keeps a half-sent request forever.
  Here the request line and headers must all arrive within ``head_timeout`` (10 s) of their
  first byte;
* a floor under a body's pace, against the same trick after the headers: a body gets
  ``head_timeout`` plus one second per ``BODY_MIN_RATE`` bytes received (mod_reqtimeout's rule),
  which a 64 MB backup over a poor Wi-Fi meets many times over;
* a cap of open connections per client address (``per_client_limit``, 64; a browser opens about
  6): one machine cannot take the whole connection limit. A reverse proxy's address is exempt,
  since every connection then comes from it, and so is this machine's own (127.0.0.1, ::1: a
  local proxy, a script on the laptop);
* room for a newcomer at the connection limit. waitress then stops accepting, and every tablet
  waits until some connection ends (2 minutes for a silent one). Here the connections waiting
  longest on a half-sent head are closed to make room, else the ones idle longest, else the
  slowest bodies; a request being answered is never touched.

It also watches sockets with poll() (select() cannot see descriptors numbered past 1024) and
raises the process's soft limit of open files so the connection limit fits under it.
"""

import gc
import heapq
import logging
import time
from collections import Counter
from dataclasses import dataclass, replace

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

log = logging.getLogger("facilitator.server")

HEAD_TIMEOUT = 10.0  # seconds from a request's first byte to the end of its headers
PER_CLIENT_LIMIT = 64  # open connections per client address (0: no cap)
BODY_MIN_RATE = 500  # bytes per second a request body must average, after a head_timeout of grace
IDLE_TIMEOUT = 120  # seconds a connection may stay silent between requests (waitress's channel_timeout)
SPARE_FILES = 64  # open files kept for the database, logs and uploads besides the connections
SHED_SHARE = 8  # an eighth of the connection limit is closed at once to make room
ACCEPT_BATCH = 64  # connections accepted per wake-up of the listening socket
SELECT_LIMIT = 500  # sockets select() can watch where poll() is missing (Windows: 512)


@dataclass(frozen=True)
class Guard:
    """The limits a client must keep; ``exempt``: addresses without the per-address cap."""
    head_timeout: float = HEAD_TIMEOUT
    per_client_limit: int = PER_CLIENT_LIMIT
    body_min_rate: int = BODY_MIN_RATE
    exempt: frozenset = frozenset({"127.0.0.1", "::1"})

    def capped(self, host):
        return self.per_client_limit > 0 and host not in self.exempt and "*" not in self.exempt


class GuardedChannel(HTTPChannel):
    """One client connection, with the clock of the request it is sending."""

    head_since = None  # monotonic time of the current request's first byte, while its head is incomplete
    body_since = None  # when its head was complete, while its body is incomplete
    body_bytes = 0  # body bytes received since then
    _current = None  # the request those refer to
    _counted = None  # the address counted in the server's per-address tally

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self._counted = addr[0]
        server.clients[self._counted] += 1

    def del_channel(self, map=None):
        super().del_channel(map)
        if self._counted is not None:
            clients = self.server.clients
            clients[self._counted] -= 1
            if clients[self._counted] <= 0:
                del clients[self._counted]
            self._counted = None

    def received(self, data):
        now = time.monotonic()
        result = super().received(data)
        request = self.request
        if request is None:  # nothing, or only complete requests, in what came
            self.head_since = self.body_since = self._current = None
        elif request is not self._current:  # a new request began in this data
            self._current, self.body_bytes = request, 0
            self.head_since = None if request.headers_finished else now
            self.body_since = now if request.headers_finished else None
        elif request.headers_finished:
            if self.body_since is None:
                self.body_since = now  # its head is complete: the body's clock starts
            else:
                self.body_bytes += len(data)
            self.head_since = None
        return result

    def waiting_on_client(self):
        """True while the server is only waiting for this client to send (nothing being answered)."""
        return not (self.requests or self.total_outbufs_len or self.will_close or self.close_when_flushed)

    def overdue(self, now, guard):
        """True if the request being sent is late: its head past the deadline, or its body slower
        than the minimum pace."""
        if self.request is None or not self.waiting_on_client():
            return False
        if self.head_since is not None:
            return now - self.head_since > guard.head_timeout
        if self.body_since is not None:
            return now - self.body_since > guard.head_timeout + self.body_bytes / guard.body_min_rate
        return False

    def shed_order(self, now):
        """Where this connection stands when room must be made (lowest first), None if it stays."""
        if not self.waiting_on_client():
            return None
        if self.head_since is not None:
            return (0, self.head_since)  # a half-sent head, oldest first
        if self.request is None:
            return (1, self.last_activity)  # idle between requests, longest idle first
        if self.body_since is not None:
            return (2, self.body_bytes / max(now - self.body_since, 1e-3))  # a body, slowest first
        return None


class GuardedServer(TcpWSGIServer):
    """waitress's TCP server with the deadlines, the per-address cap and the room-making."""

    channel_class = GuardedChannel

    def __init__(self, application, guard, clients, **kw):
        self.guard = guard
        self.clients = clients  # open connections per address, shared by all listening sockets
        self.shedding = []
        self._said = {}
        super().__init__(application, **kw)

    def readable(self):
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        if not self.accepting:
            return False
        if len(self._map) >= self.adj.connection_limit:
            self.make_room()
            return False
        return True

    def maintenance(self, now):
        super().maintenance(now)  # idle connections past channel_timeout
        clock, late = time.monotonic(), 0
        for channel in list(self.active_channels.values()):
            if channel.overdue(clock, self.guard):
                channel.will_close = True
                late += 1
        if late:
            self.say("late", logging.INFO, "closed %d connection(s) whose request did not arrive in time", late)
            self.pull_trigger()

    def make_room(self):
        """At the connection limit: close the connections that matter least (see shed_order)."""
        self.shedding = [c for c in self.shedding if c._fileno is not None]
        if self.shedding:
            return  # the last ones are still closing
        clock = time.monotonic()
        ranked = ((order, id(c), c) for c in list(self.active_channels.values())
                  if (order := c.shed_order(clock)) is not None)
        batch = max(1, self.adj.connection_limit // SHED_SHARE)
        self.shedding = [c for _order, _id, c in heapq.nsmallest(batch, ranked)]
        for channel in self.shedding:
            channel.will_close = True
        if self.shedding:
            self.pull_trigger()
        self.say("full", logging.WARNING, "%d open connections (the limit, --connection-limit): closing "
                 "idle and half-sent ones to make room", len(self._map))

    def handle_accept(self):
        for _ in range(ACCEPT_BATCH):
            if len(self._map) >= self.adj.connection_limit:
                return
            try:
                pair = self.accept()
                if pair is None:
                    return
                conn, addr = pair
            except OSError:
                if self.adj.log_socket_errors:
                    self.logger.warning("server accept() threw an exception", exc_info=True)
                return
            try:
                self.set_socket_options(conn)
            except OSError:  # the client already left
                conn.close()
                continue
            addr = self.fix_addr(addr)
            if self.guard.capped(addr[0]) and self.clients[addr[0]] >= self.guard.per_client_limit:
                conn.close()
                self.say(("cap", addr[0]), logging.WARNING, "%s has %d connections open (--per-client-limit): "
                         "closing its new ones", addr[0], self.clients[addr[0]])
                continue
            self.channel_class(self, conn, addr, self.adj, map=self._map)

    def say(self, key, level, message, *args):
        """Log a message at most once a minute per ``key``: a flood must not flood the log too."""
        now = time.monotonic()
        if now - self._said.get(key, -60.0) >= 60.0:
            self._said[key] = now
            log.log(level, message, *args)


def fit_open_files(connections):
    """Raise this process's soft limit of open files (never past the hard one) so ``connections``
    fit beside SPARE_FILES; returns how many connections fit."""
    try:
        import resource
    except ImportError:  # Windows: waitress watches sockets with select()
        return min(connections, SELECT_LIMIT)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < need:
        wanted = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - SPARE_FILES))


def create_server(app, guard=Guard(), **kw):
    """waitress's ``create_server`` with GuardedServer, one per listening address; ``kw`` are
    waitress's settings (host and port, or ``sockets``: listening sockets bound already, as a
    pre-forked worker inherits them; threads, connection_limit, trusted_proxy...)."""
    kw.setdefault("asyncore_use_poll", True)
    kw.setdefault("cleanup_interval", 1)  # the deadlines are checked every second
    kw.setdefault("channel_timeout", IDLE_TIMEOUT)
    if kw.get("trusted_proxy"):
        guard = replace(guard, exempt=guard.exempt | {kw["trusted_proxy"]})
    adj = Adjustments(**kw)
    sockets, dispatcher, clients = {}, ThreadedTaskDispatcher(), Counter()
    dispatcher.set_thread_count(adj.threads)
    where = ([{"_sock": s, "bind_socket": False, "sockinfo": (s.family, s.type, s.proto, s.getsockname())}
              for s in adj.sockets] or [{"sockinfo": info} for info in adj.listen])
    servers = [GuardedServer(app, guard, clients, map=sockets, dispatcher=dispatcher, adj=adj, **one)
               for one in where]
    if len(servers) == 1:
        return servers[0]
    return MultiSocketServer(sockets, adj, [(s.effective_host, s.effective_port) for s in servers],
                             dispatcher, servers[-1].log_info)


#: Python's cyclic garbage collector starts a collection each time this many more objects were
#: made than freed (700 by default). A move's request makes thousands, so at 700 several
#: collections ran during each, and those that reach the older generations look over what
#: outlives requests too: with the collector off an API move cost 2.77× the bare insert instead of
#: 2.55× (benchmarks/bench_move_cost.py; under callgrind, with a full collection before every
#: request, only 0.4% apart). Every object it frees is still freed, a little later.
COLLECT_AFTER = 10_000


def tune_collector():
    """The server process's garbage collector, set for serving requests (``COLLECT_AFTER``)."""
    young, middle, old = gc.get_threshold()
    if young and young < COLLECT_AFTER:  # 0: the collector is off, and stays so
        gc.set_threshold(COLLECT_AFTER, middle, old)


def serve(app, *, connection_limit=1000, head_timeout=HEAD_TIMEOUT, per_client_limit=PER_CLIENT_LIMIT, **kw):
    """Serve ``app`` until interrupted (what ``waitress.serve`` does, with the guarded server)."""
    logging.basicConfig()  # no-op when logging is set up already
    tune_collector()
    fitting = fit_open_files(connection_limit)
    if fitting < connection_limit:
        log.warning("only %d connections fit this process's limit of open files (asked: %d); raise it "
                    "with 'ulimit -n'", fitting, connection_limit)
    guard = Guard(head_timeout=head_timeout, per_client_limit=per_client_limit)
    server = create_server(app, guard=guard, connection_limit=fitting, **kw)
    server.print_listen("Serving on http://{}:{}")
    server.run()

"""``facilitator serve --workers N``: N copies of the hardened waitress server (server.py), each in
a process of its own, sharing one listening socket (pre-fork), so that a big event's pages use
every core while every process keeps the guards against idle and half-sent connections.

The caller builds the app once (the start-up work done under the start-up lock) and closes its
database connections (none may cross a fork); ``listening_sockets`` binds the sockets once,
here, and ``Supervisor`` forks the workers, each serving on the sockets it inherits: the kernel
hands a new connection to whichever worker accepts it first. The parent serves nothing; it
looks after the workers:

* a worker that dies (killed, out of memory, a crash) is replaced at once; one that dies within
  ``QUICK`` seconds of its start is replaced after a growing pause (1, 2, 4 … ``MAX_PAUSE`` s),
  so a worker that cannot start never makes a tight loop of forks;
* SIGTERM or SIGINT (Ctrl+C) stops every worker with SIGTERM (each stops its own PDF worker
  process, as one ``facilitator serve`` process does), kills one still running after ``GRACE``
  seconds, and the parent returns 0;
* a worker whose parent is gone however it ended (even SIGKILL) stops as on SIGTERM within
  ``PARENT_CHECK`` seconds, so no worker is left holding the port.

Each worker has its own guards: its own connection limit and its own count per client address,
so N workers hold up to N times ``--connection-limit`` connections, and one address up to N
times ``--per-client-limit``. POSIX only (``os.fork``).
"""

import os
import signal
import socket
import sys
import threading
import time
import traceback

from waitress.adjustments import Adjustments
from waitress.compat import IPPROTO_IPV6, IPV6_V6ONLY

GRACE = 20.0  # seconds a worker has to finish its requests after SIGTERM before it is killed
QUICK = 10.0  # a worker dying sooner than this after its start counts as a failed start
MAX_PAUSE = 30.0  # the longest pause before replacing a worker that keeps failing to start
POLL = 0.2  # seconds between the parent's looks at its workers
PARENT_CHECK = 0.5  # seconds between a worker's looks whether its parent is still there
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def can_fork():
    return hasattr(os, "fork")


def listening_sockets(host, port):
    """The sockets waitress would listen on for ``host`` and ``port`` (one per address the name
    resolves to), bound and listening, non-blocking: every worker accepts from them."""
    adj = Adjustments(host=host, port=port)
    sockets = []
    try:
        for family, socktype, proto, sockaddr in adj.listen:
            sock = socket.socket(family, socktype, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(IPPROTO_IPV6, IPV6_V6ONLY, 1)
            sock.bind(sockaddr)
            sock.listen(adj.backlog)
            sock.setblocking(False)  # a worker woken for a connection another took must not wait
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class Supervisor:
    """Keeps ``count`` forked processes running ``work()`` until SIGTERM or SIGINT."""

    def __init__(self, count, work, say=None):
        self.count = count
        self.work = work
        self.say = say or (lambda message: print(f"facilitator: {message}", file=sys.stderr, flush=True))
        self.children = {}  # pid -> monotonic time it started
        self.stopping = False
        self.failed_starts = 0  # workers in a row that died soon after they started
        self.next_start = 0.0  # no worker is started before this (monotonic)

    def run(self):
        """Start the workers, replace those that die, stop them all on SIGTERM/SIGINT; returns 0."""
        previous = {sig: signal.signal(sig, self._on_stop_signal) for sig in STOP_SIGNALS}
        try:
            while not self.stopping:
                self._reap()
                if len(self.children) < self.count and time.monotonic() >= self.next_start:
                    self._start()
                else:
                    time.sleep(POLL)
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return 0

    def _on_stop_signal(self, signum, frame):
        self.stopping = True

    def _start(self):
        sys.stdout.flush()  # else what the parent printed is printed again by every worker
        sys.stderr.flush()
        # a stop signal arriving between the fork and the worker's own handlers waits for them
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        parent = os.getpid()
        try:
            pid = os.fork()
            if pid == 0:
                self._be_worker(parent)  # never returns
            self.children[pid] = time.monotonic()
        except OSError as err:  # no memory or process left for another: try again later
            self._failed_start(f"could not start a worker ({err})")
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)

    def _failed_start(self, what):
        self.failed_starts += 1
        pause = min(MAX_PAUSE, 2.0 ** (self.failed_starts - 1))
        self.next_start = max(self.next_start, time.monotonic() + pause)
        self.say(f"{what}; another starts in {pause:.0f} s")

    def _be_worker(self, parent):
        code = 1
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
            threading.Thread(target=_stop_when_orphaned, args=(parent,), daemon=True,
                             name="parent-watch").start()
            code = self.work() or 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except KeyboardInterrupt:
            code = 0
        except BaseException:  # noqa: BLE001 - reported, and the parent starts another worker
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)  # never back into the parent's code (its finally blocks, atexit)

    def _reap(self):
        for pid, started in list(self.children.items()):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 0
            if not done:
                continue
            del self.children[pid]
            if self.stopping:
                continue
            lived = time.monotonic() - started
            if lived < QUICK:
                self._failed_start(f"worker {pid} {ended(status)} after {lived:.0f} s")
            else:
                self.failed_starts = 0
                self.say(f"worker {pid} {ended(status)} after {lived:.0f} s; another starts now")

    def _stop_all(self):
        self.stopping = True
        for pid in self.children:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        while self.children and time.monotonic() < deadline:
            self._reap()
            if self.children:
                time.sleep(0.05)
        for pid in list(self.children):
            self.say(f"worker {pid} still running {GRACE:.0f} s after SIGTERM: killed")
            _signal(pid, signal.SIGKILL)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
            del self.children[pid]


def _stop_when_orphaned(parent):
    """In a worker: once its parent is gone (the process was handed to another), stop as the
    parent would have stopped it."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os.kill(os.getpid(), signal.SIGTERM)


def _signal(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def ended(status):
    """How a worker ended, from its wait status."""
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"

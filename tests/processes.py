"""What a server's processes are doing, read from Linux's /proc: its live descendants, and which
of them holds each connection it accepted (to see that every worker really serves)."""

import os


def _parents():
    """pid -> parent pid of every live (not zombie) process."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    return parents


def alive(pid):
    """True while process ``pid`` runs (a zombie, ended but not yet waited for, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid):
    """The live processes whose parent is ``pid``."""
    return sorted(child for child, parent in _parents().items() if parent == pid)


def descendants(pid):
    """Every live process below ``pid`` (children, theirs, ...)."""
    below = {}
    for child, parent in _parents().items():
        below.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in below.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return sorted(found)


def _accepted_sockets(port):
    """Inodes of the server's side of the established TCP connections to local ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:  # 01: ESTABLISHED
                inodes.add(inode)
    return inodes


def connection_holders(port, pids):
    """pid -> how many of the connections accepted on ``port`` it holds, for each of ``pids``."""
    inodes = _accepted_sockets(port)
    held = {}
    for pid in pids:
        count = 0
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in inodes:
                count += 1
        held[pid] = count
    return held

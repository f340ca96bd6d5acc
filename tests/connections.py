"""What a client sees of a server's connection handling: whether the server closed a socket."""


def closed_by_server(sock, within):
    """True if the server closes ``sock`` within ``within`` seconds (reading what it may send)."""
    sock.settimeout(within)
    try:
        while sock.recv(4096):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False

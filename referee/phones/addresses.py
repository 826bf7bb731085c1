"""Where a server listens: the players' view (`referee serve`, the app's `V`) and the
players' own pages. Free of Textual, so `referee links` loads none."""

from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class ServeError(Exception):
    """The view cannot be served (port in use, host that cannot be bound)."""


def check_bindable(host: str, port: int) -> None:
    """Refuse, in one sentence, an address the server could not listen on."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise ServeError(f"cannot listen on host {host!r}: {error.strerror}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise ServeError(f"port {port} on {host} is in use: pick another "
                                     "with --port") from None
                raise ServeError(f"cannot listen on {host}:{port}: "
                                 f"{error.strerror or error}") from None


def with_token(address: str, token: str | None) -> str:
    return f"{address}/?token={token}" if token else address


def local_addresses(host: str, port: int) -> list[str]:
    """The addresses to open: the host itself, or (all interfaces) this machine's."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}"]
    found = ["127.0.0.1"]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks a route
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    return [f"http://{address}:{port}" for address in dict.fromkeys(found)]


def loopback(host: str) -> bool:
    return host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")


def free_port(host: str = DEFAULT_HOST, first: int = DEFAULT_PORT, tries: int = 50) -> int:
    for port in range(first, first + tries):
        try:
            check_bindable(host, port)
        except ServeError:
            continue
        return port
    raise ServeError(f"no free port from {first} to {first + tries - 1}")

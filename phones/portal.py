"""The phones' HTTP side: the page's files, answered in the WebSocket
handshake's hook, and the captive portal, which sends a phone's "is
there internet here" probe to the page.

A request is answered only for a Host that is one of the box's own names
or addresses (DNS rebinding), only for GET and HEAD, and the socket's
handshake only from the page's own origin; the page may load nothing
from elsewhere (a strict Content-Security-Policy, no inline script).

Its own module because it is all that is said over plain HTTP, before a
socket is a phone's: it knows nothing of the seats, the messages, the
seals or the games (`.importlinter` holds it to that), only the box's
names, the port and the addresses it listens on.
"""

from __future__ import annotations

import gzip
import socket as sockets
from collections.abc import Callable, Collection
from http import HTTPStatus
from importlib import resources
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .bounded import Bounded
from .gate import METHODS

PAGE_FILES = {"/": ("index.html", "text/html; charset=utf-8"),
              "/app.js": ("app.js", "text/javascript; charset=utf-8"),
              "/app.css": ("app.css", "text/css; charset=utf-8"),
              "/night.js": ("night.js", "text/javascript; charset=utf-8"),
              "/night.css": ("night.css", "text/css; charset=utf-8"),
              "/nacl-fast.min.js": ("nacl-fast.min.js", "text/javascript; charset=utf-8")}
SOCKET_PATH = "/ws"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
# The names phones ask, over plain HTTP, whether a Wi-Fi reaches the
# internet (Android and ChromeOS; iOS and macOS; Windows; GNOME, Firefox).
# Where the box's own network answers every name with the box, each is
# sent to the page (302): the phone's "sign in to network" sheet opens it.
CAPTIVE_PROBES = frozenset({
    "connectivitycheck.gstatic.com", "connectivitycheck.android.com", "clients1.google.com",
    "clients3.google.com", "captive.apple.com", "www.apple.com", "www.appleiphonecell.com",
    "www.msftconnecttest.com", "www.msftncsi.com", "ipv6.msftconnecttest.com",
    "nmcheck.gnome.org", "detectportal.firefox.com"})


def page_file(name: str) -> tuple[bytes, bytes]:
    """A file of the page, as it is and gzipped (read once, at the start)."""
    body = resources.files(__package__).joinpath("page", name).read_bytes()
    return body, gzip.compress(body, mtime=0)


def page_url(address: str, port: int) -> str:
    """The page's address on `address` (an IPv6 one in brackets)."""
    return f"http://{f'[{address}]' if ':' in address else address}:{port}/"


class Portal:
    """The answer to every request before a socket is a phone's (`answer`
    is `serve`'s `process_request`). `port` and `listening` are asked at
    each request: the port is known once the first address listens, and
    the addresses follow the box's network."""

    def __init__(self, said: Bounded, port: Callable[[], int],
                 listening: Callable[[], Collection[str]], names: tuple[str, ...] = ()) -> None:
        self.said, self.port, self.listening = said, port, listening
        self.files = {path: page_file(name) for path, (name, _kind) in PAGE_FILES.items()}
        # The names a phone may reach the box by (besides its addresses):
        # its host name, on the network and by mDNS, and `names` (the own
        # network's captive names). Any other Host is a page elsewhere
        # whose name was pointed at the box (DNS rebinding).
        host = sockets.gethostname().lower()
        self.names = frozenset({host, f"{host}.local", *(n.lower() for n in names)})

    def own_host(self, host: str, port: int | None = None) -> bool:
        """Whether `host` (a request's Host header) names the box itself: one
        of its addresses or names, with `port` (the port it listens on)."""
        host = host.strip().lower()
        name, _colon, given = host.rpartition(":") if not host.endswith("]") else ("", "", "")
        if not _colon:
            name, given = host, "80"
        if not given.isdigit() or int(given) != (self.port() if port is None else port):
            return False
        name = name.removeprefix("[").removesuffix("]")
        return name in self.names or name in self.listening()

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The page's files, or the socket's handshake (None: the box's own
        Host, the same origin)."""
        path = urlsplit(request.path).path
        client = self.client(connection)
        hosts = request.headers.get_all("Host")
        host = hosts[0] if len(hosts) == 1 else ""
        if host.lower().partition(":")[0] in CAPTIVE_PROBES and request.method in METHODS:
            return self.captive(connection)
        if self.port() != 80 and self.own_host(host, 80) and request.method in METHODS:
            # The box's address typed as it is, no port: on its own Wi-Fi the
            # captive rule (systemd/captive.nft) brings port 80 here.
            return self.captive(connection)
        if not self.own_host(host):
            self.said.say("host", "refused a request for another host (%s): %s",
                          client, host[:80])
            return connection.respond(HTTPStatus.MISDIRECTED_REQUEST, "Misdirected Request\n")
        if request.method not in METHODS:
            self.said.say("method", "refused a %s request (%s)", request.method[:10], client)
            response = connection.respond(HTTPStatus.METHOD_NOT_ALLOWED, "Method Not Allowed\n")
            response.headers["Allow"] = ", ".join(METHODS)
            return response
        if path == SOCKET_PATH:
            origins = request.headers.get_all("Origin")
            if len(origins) > 1 or any(origin != f"http://{host}" for origin in origins):
                origin = " ".join(origins)
                self.said.say("origin", "refused a phone socket from another origin (%s): %s",
                              client, origin[:80])
                return connection.respond(HTTPStatus.FORBIDDEN, "Forbidden\n")
            return None
        if path == "/favicon.ico":                # asked by every browser: there is none
            return Response(HTTPStatus.NO_CONTENT, "No Content", Headers(SECURITY_HEADERS))
        if path not in self.files:
            return connection.respond(HTTPStatus.NOT_FOUND, "Not found\n")
        body, zipped = self.files[path]
        headers = Headers({**SECURITY_HEADERS, "Content-Type": PAGE_FILES[path][1]})
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"], body = "gzip", zipped
        headers["Content-Length"] = str(len(body))
        return Response(HTTPStatus.OK, "OK", headers, body if request.method == "GET" else b"")

    def captive(self, connection: ServerConnection) -> Response:
        """A phone's captive-portal probe: not the answer it expects (204,
        "Success", "Microsoft Connect Test"), but the page, at the address
        the phone reached the box by."""
        local = connection.local_address
        address = str(local[0]) if local else ""
        listening = self.listening()
        if address not in listening:
            address = next(iter(listening), "")
        return Response(HTTPStatus.FOUND, "Found", Headers(
            {**SECURITY_HEADERS, "Location": page_url(address, self.port()),
             "Content-Length": "0"}), b"")

    @staticmethod
    def client(connection: ServerConnection) -> str:
        remote = connection.remote_address
        return str(remote[0])[:60] if remote else "?"

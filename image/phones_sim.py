"""Simulated phones for the twin's Wi-Fi check (issue 31): seats joined
as the page joins them, from wherever this runs (in the twin, the phone's
network namespace, on the box's own Wi-Fi or a "home" one).

Each phone opens the address the box's QR code holds, pins the box's key
from its fragment (`#k=...`), seals every message as the page does, says
hello, joins its seat with the PIN, and then waits for its card of the
deal. It prints one line a step, flushed, for the host to follow through
the twin's shell:

    joined 9            every seat taken (the host now presses START)
    dealt 3             seat 3's phone was shown a card
    OK: ...             the end (exit 0); FAIL: ... (exit 1)

Run with the box's own Python, whose venv holds the box's sealing and
protocol (`/opt/wolfbox/.venv/bin/python phones_sim.py URL PIN`); the
tests run it against the real server on loopback.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from nacl.public import PrivateKey
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from wolfbox.phones import protocol, seal

KEY = re.compile(r"k=([A-Za-z0-9_-]{43})")


class SimFailed(Exception):
    """A step did not happen: one line for the host."""


def pinned_key(url: str) -> str:
    """The box's key from the QR code's fragment, as the page reads it."""
    found = KEY.fullmatch(urlsplit(url).fragment)
    if not found:
        raise SimFailed(f"no box key in the address's fragment: {url}")
    return found[1]


class Phone:
    """One seat's phone: its socket read on a thread of its own, every
    message kept, its card (the first view with a secret) noted."""

    def __init__(self, url: str, seat: int, timeout: float) -> None:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        self.seat, self.timeout = seat, timeout
        self.got: list[dict] = []
        self.arrived = threading.Condition()
        self.socket: ClientConnection = connect(
            f"ws://{parts.netloc}/ws", origin=origin, open_timeout=timeout,
            proxy=None, legacy=True)
        hello = json.loads(self.socket.recv(timeout=timeout))
        if hello.get("t") != "key":
            raise SimFailed(f"seat {seat}: the box's first frame is not its key: {hello}")
        if hello["k"] != pinned_key(url):
            raise SimFailed(f"seat {seat}: the box's key is not the QR code's")
        mine = PrivateKey.generate()
        self.channel = seal.Channel(mine, seal.key_of(hello["k"]), box=False,
                                    challenge=seal.challenge_of(hello["c"]))
        self.socket.send(json.dumps({"t": "seal", "k": seal.text(bytes(mine.public_key))}))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for frame in self.socket:
                data = frame if isinstance(frame, bytes) else frame.encode()
                message = json.loads(self.channel.open(data).decode().rstrip(" "))
                with self.arrived:
                    self.got.append(message)
                    self.arrived.notify_all()
        except (ConnectionClosed, seal.Unsealable, ValueError):
            with self.arrived:
                self.arrived.notify_all()

    def send(self, **message: object) -> None:
        data = json.dumps(message).encode()
        self.socket.send(self.channel.seal(
            data + b" " * (protocol.PHONE_FRAME_BYTES - len(data))))

    def wait(self, what: str, fits: Callable[[dict], bool]) -> dict:
        """The first message that `fits`, once it has come."""
        deadline = time.monotonic() + self.timeout
        with self.arrived:
            while True:
                found = next((m for m in self.got if fits(m)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or not self.reader.is_alive():
                    raise SimFailed(f"seat {self.seat}: no {what} in {self.timeout:g} s"
                                    + ("" if self.reader.is_alive() else " (socket closed)"))
                self.arrived.wait(left)

    def close(self) -> None:
        self.socket.close()


def say(line: str) -> None:
    print(line, flush=True)


def play(url: str, pin: str, seats: int, timeout: float, deal: bool,
         tell: Callable[[str], None] = say) -> str:
    """Join `seats` seats; with `deal`, wait for each one's card. Each
    step is told as it happens (`tell`); the end is returned."""
    phones: list[Phone] = []
    try:
        for seat in range(1, seats + 1):
            phone = Phone(url, seat, timeout)
            phones.append(phone)
            phone.send(t="hello")
            phone.wait("lobby", lambda m: m.get("t") == "lobby")
            phone.send(t="join", pin=pin, seat=seat, name=f"P{seat}")
            joined = phone.wait("seat", lambda m: m.get("t") in ("joined", "refused"))
            if joined["t"] != "joined" or joined.get("seat") != seat:
                raise SimFailed(f"seat {seat} not joined: {joined}")
        tell(f"joined {seats}")
        if not deal:
            return f"{seats} seat(s) joined with the PIN, the box's key pinned from the QR code"
        cards: dict[int, str] = {}
        for phone in phones:
            view = phone.wait("card", lambda m: m.get("t") == "view" and bool(m.get("secret")))
            cards[phone.seat] = view["secret"][0]
            tell(f"dealt {phone.seat}")
        return (f"{seats} seats joined with the PIN, the box's key pinned from the QR code; "
                f"each phone shown a card ({len(set(cards.values()))} different ones)")
    finally:
        for phone in phones:
            phone.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the page's address as the QR code holds it (#k=... too)")
    parser.add_argument("pin")
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds each step may take (a twin under TCG is slow)")
    parser.add_argument("--deal", action="store_true", help="wait for each seat's card")
    args = parser.parse_args(argv)
    try:
        say("OK: " + play(args.url, args.pin, args.seats, args.timeout, args.deal))
        return 0
    except (SimFailed, OSError, TimeoutError, WebSocketException) as e:
        say(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())

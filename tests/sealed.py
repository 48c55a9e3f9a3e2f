"""A phone's socket as the page opens it (issue 31, item 3): the box's key
read in the clear (and checked against `pinned`, the QR code's, where
given), the phone's own key sent, and every message after sealed both
ways. `connect` stands where the tests called websockets' own: `send` and
`recv` take and give the JSON text the page would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from nacl.public import PrivateKey
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as plain_connect

from wolfbox.phones import protocol, seal


class KeyMismatch(AssertionError):
    """The box's key is not the one the phone pinned."""


class SealedPhone:
    """A websockets client connection that seals what it sends and opens
    what it receives; anything else is the connection's own."""

    def __init__(self, socket: ClientConnection, pinned: str = "") -> None:
        self.socket = socket
        key = json.loads(socket.recv(timeout=10))
        assert key["t"] == "key", key
        if pinned and key["k"] != pinned:
            socket.close()
            raise KeyMismatch(key["other"])
        self.box_key = key["k"]
        self.channel = seal.Channel(mine := PrivateKey.generate(), seal.key_of(key["k"]),
                                    box=False, challenge=seal.challenge_of(key["c"]))
        self.channel_key = bytes(mine.public_key)       # what travels in the clear
        socket.send(json.dumps({"t": "seal", "k": seal.text(self.channel_key)}))

    def sealed(self, message: str | bytes) -> bytes:
        """`message` as the page seals it: padded to PHONE_FRAME_BYTES."""
        data = message.encode() if isinstance(message, str) else message
        return self.channel.seal(data + b" " * (protocol.PHONE_FRAME_BYTES - len(data)))

    def send(self, message: str | bytes, text: bool | None = None) -> None:
        self.socket.send(self.sealed(message))

    def recv(self, timeout: float | None = None, decode: bool | None = None) -> str:
        return self.channel.open(self.socket.recv(timeout)).decode().rstrip(" ")

    def __iter__(self) -> Iterator[str]:
        for frame in self.socket:
            yield self.channel.open(frame if isinstance(frame, bytes) else frame.encode()
                                    ).decode().rstrip(" ")

    def __enter__(self) -> SealedPhone:
        return self

    def __exit__(self, *exc: object) -> None:
        self.socket.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.socket, name)


def connect(url: str, *args: Any, pinned: str = "", **kw: Any) -> SealedPhone:
    """A phone's socket to `url`, sealed (see SealedPhone)."""
    return SealedPhone(plain_connect(url, *args, legacy=True, **kw), pinned)

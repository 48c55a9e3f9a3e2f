"""Phones for bench/phones.py: COUNT phones join the box at URL with PIN,
print "ready", then send TAPS choices between them (each carrying its send
time on the system's monotonic clock), a few a second each, and stay
connected until stopped. Each phone seals as the page does
(phones/seal.py): the box's key read, its own sent, every message after
sealed and padded, so the box's cost is measured with its sealing.

    python bench/phone_clients.py URL PIN COUNT TAPS
"""

from __future__ import annotations

import json
import sys
import threading
import time

from nacl.public import PrivateKey
from websockets.sync.client import connect

from wolfbox.phones import protocol, seal


class Phone:
    """One phone's socket, sealed as the page seals it."""

    def __init__(self, socket_url: str) -> None:
        self.socket = connect(socket_url, open_timeout=30, legacy=True)
        key = json.loads(self.socket.recv(timeout=30))
        mine = PrivateKey.generate()
        self.channel = seal.Channel(mine, seal.key_of(key["k"]), box=False,
                                    challenge=seal.challenge_of(key["c"]))
        self.socket.send(json.dumps({"t": "seal", "k": seal.text(bytes(mine.public_key))}))

    def send(self, message: dict) -> None:
        data = json.dumps(message).encode()
        self.socket.send(self.channel.seal(
            data + b" " * (protocol.PHONE_FRAME_BYTES - len(data))))

    def recv(self) -> dict:
        return json.loads(self.channel.open(self.socket.recv(timeout=30)))


def main() -> int:
    url, pin, count, taps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    socket_url = url.replace("http://", "ws://") + "ws"
    phones = []
    for seat in range(1, count + 1):
        phone = Phone(socket_url)
        phone.send({"t": "hello"})
        phone.send({"t": "join", "pin": pin, "seat": seat, "name": f"P{seat}"})
        while (message := phone.recv())["t"] != "joined":
            if message["t"] == "refused":
                sys.exit(f"seat {seat}: {message['why']}")
        phones.append(phone)
    drains = [threading.Thread(target=_drain, args=(p,), daemon=True) for p in phones]
    for d in drains:
        d.start()
    print("ready", flush=True)
    for i in range(taps):
        phone = phones[i % len(phones)]
        phone.send({"t": "choose", "step": f"t{time.monotonic():.6f}", "choice": [1]})
        time.sleep(0.2 / len(phones))          # about five taps a second a phone
    if taps:
        return 0
    threading.Event().wait()                   # idle phones: stay until stopped
    return 0


def _drain(phone: Phone) -> None:
    try:
        for _message in phone.socket:          # read, not opened: the box's cost is measured
            pass
    except Exception:                          # closed at the end: nothing to report
        pass


if __name__ == "__main__":
    sys.exit(main())

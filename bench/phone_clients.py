"""Phones for bench/phones.py: COUNT phones join the box at URL with PIN,
print "ready", then send TAPS choices between them (each carrying its send
time on the system's monotonic clock), a few a second each, and stay
connected until stopped.

    python bench/phone_clients.py URL PIN COUNT TAPS
"""

from __future__ import annotations

import json
import sys
import threading
import time

from websockets.sync.client import connect


def main() -> int:
    url, pin, count, taps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    socket_url = url.replace("http://", "ws://") + "ws"
    phones = []
    for seat in range(1, count + 1):
        phone = connect(socket_url, open_timeout=30, legacy=True)
        phone.send(json.dumps({"t": "hello"}))
        phone.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": f"P{seat}"}))
        while (message := json.loads(phone.recv(timeout=30)))["t"] != "joined":
            if message["t"] == "refused":
                sys.exit(f"seat {seat}: {message['why']}")
        phones.append(phone)
    drains = [threading.Thread(target=_drain, args=(p,), daemon=True) for p in phones]
    for d in drains:
        d.start()
    print("ready", flush=True)
    for i in range(taps):
        phone = phones[i % len(phones)]
        phone.send(json.dumps({"t": "choose", "step": f"t{time.monotonic():.6f}",
                               "choice": [1]}))
        time.sleep(0.2 / len(phones))          # about five taps a second a phone
    if taps:
        return 0
    threading.Event().wait()                   # idle phones: stay until stopped
    return 0


def _drain(phone) -> None:
    try:
        for _message in phone:
            pass
    except Exception:                          # closed at the end: nothing to report
        pass


if __name__ == "__main__":
    sys.exit(main())

"""Phones turned off never leave a server half-closed: a listening server
that fails to stop, or hangs stopping, still has its tasks, loop and
thread ended, and the box's link ends up off, saying so once."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from typing import Any

import pytest
from sealed import connect

from helpers import phones_config
from wolfbox.device.phonelink import PhoneLink
from wolfbox.events import PhonesSeated
from wolfbox.games import Games
from wolfbox.onenight.flow import Flow
from wolfbox.phones import server as server_module
from wolfbox.phones.room import Room
from wolfbox.phones.server import PhoneServer

WAIT = 10.0


class _Stuck:
    """A listening server whose closing fails: it stops listening, then
    `wait_closed` raises (or never returns, `hang`)."""

    def __init__(self, real: Any, hang: bool) -> None:
        self.real, self.hang, self.sockets = real, hang, real.sockets

    def close(self) -> None:
        self.real.close()

    async def wait_closed(self) -> None:
        if self.hang:
            await asyncio.Event().wait()
        raise OSError("the listening socket would not close")


@pytest.fixture
def stuck(monkeypatch: pytest.MonkeyPatch):
    """Make every server the phones start fail to stop (`hang`: by never
    finishing, within a short START_SECONDS)."""
    def make(hang: bool = False) -> None:
        real_serve = server_module.serve

        async def serve(*args: Any, **kw: Any) -> _Stuck:
            return _Stuck(await real_serve(*args, **kw), hang)
        monkeypatch.setattr(server_module, "serve", serve)
        if hang:
            monkeypatch.setattr(server_module, "START_SECONDS", 0.5)
    return make


def _phone_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "phones")


def _with_a_phone(url: str) -> None:
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT) as p:
        p.send('{"t": "hello"}')
        p.recv(timeout=WAIT)


@pytest.mark.parametrize("hang", [False, True], ids=["fails", "hangs"])
def test_a_server_that_fails_to_stop_is_ended_all_the_same(stuck, hang, caplog):
    stuck(hang)
    before = _phone_threads()
    server = PhoneServer(Room(seats=3, pin="4821"), lambda e: None, lambda s: None,
                         ["127.0.0.1"], 0)
    (url,) = server.start()
    server.publish({}, {"title": "One Night"})
    _with_a_phone(url)
    assert _phone_threads() == before + 1
    with caplog.at_level(logging.WARNING, logger="wolfbox"), \
            pytest.raises(TimeoutError if hang else OSError):
        server.close()
    assert _phone_threads() == before                       # its thread is gone
    server.close()                                          # and closing again is quiet
    gc.collect()                                            # no task left pending
    assert not [r for r in caplog.records if "pending" in r.getMessage()]


@pytest.mark.parametrize("hang, why", [
    (False, "OSError: the listening socket would not close"), (True, "TimeoutError")],
    ids=["fails", "hangs"])
def test_phones_turned_off_are_off_though_their_server_failed_to_stop(
        stuck, hang, why, tmp_path, caplog):
    stuck(hang)
    config = phones_config(tmp_path)
    posted: list[object] = []
    game = Games({"one_night": lambda: Flow.from_config(config)}, "one_night", phones_on=True)
    link = PhoneLink(config.phones, lambda: game, lambda: 0.0, posted.append,
                     lambda: None, lambda text, lines: None, addresses=["127.0.0.1"], port=0)
    before = _phone_threads()
    link.turn(True)
    assert link.phones is not None and link.phones.urls
    with caplog.at_level(logging.WARNING, logger="wolfbox"):
        link.turn(False)
    assert link.phones is None and link.join_card() is None
    assert posted[-1] == PhonesSeated(frozenset())       # nobody holds a phone now
    assert _phone_threads() == before
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == [f"phones: off, though their server did not stop cleanly ({why})"]
    heard = len(posted)
    link.turn(False)                                        # off is off: said once
    assert len(posted) == heard and len(caplog.records) == len(said)


class _SlowPhones:
    """Phones whose server stops only when the test says (`release`)."""
    began = threading.Event()
    release = threading.Event()
    closed = threading.Event()

    def __init__(self, *args: Any, **kw: Any) -> None:
        self.urls = ["http://127.0.0.1:8080/"]
        self.seated = type("Seated", (), {"pin": "4821", "names": {}})()

    def start(self) -> list[str]:
        return self.urls

    def follow(self, game: object, now: float) -> None:
        pass

    def close(self) -> None:
        self.began.set()
        assert self.release.wait(WAIT)
        self.closed.set()


def test_phones_off_never_hold_the_boxs_loop_while_their_server_stops(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    """The server's close may take 3 x 10 s and the own Wi-Fi's 5 s: the
    box's loop, whose watchdog bites at 30 s, waits OFF_WAIT_S at most
    (here none) and is off at once; the close goes on on its own thread,
    and the box's own end waits for it."""
    from wolfbox.device import phonelink
    assert phonelink.OFF_WAIT_S <= 30 / 4
    for event in (_SlowPhones.began, _SlowPhones.release, _SlowPhones.closed):
        event.clear()
    monkeypatch.setattr(phonelink, "OFF_WAIT_S", 0.0)
    monkeypatch.setattr(PhoneLink, "_server", lambda self: _SlowPhones)
    config = phones_config(tmp_path)
    posted: list[object] = []
    game = Games({"one_night": lambda: Flow.from_config(config)}, "one_night", phones_on=True)
    link = PhoneLink(config.phones, lambda: game, lambda: 0.0, posted.append,
                     lambda: None, lambda text, lines: None)
    link.turn(True)
    assert link.phones is not None
    link.turn(False)                                    # returns while the server stops
    assert _SlowPhones.began.wait(WAIT) and not _SlowPhones.closed.is_set()
    assert link.phones is None and posted[-1] == PhonesSeated(frozenset())
    _SlowPhones.release.set()
    link.close()                                        # the box's end: the close done
    assert _SlowPhones.closed.is_set()

"""Terminal keys: releases scheduled on one thread, and which standard
inputs count as giving keys."""

from __future__ import annotations

import os
import threading

from wolfbox.buttons import Button
from wolfbox.device import keys as keys_module
from wolfbox.device.keys import QUEUED, TerminalKeys, terminal_chars

CHARS = terminal_chars({Button.START: ["s"], Button.NEXT: ["n"], Button.BACK: ["b"]})


class Pins:
    """Stands in for the buttons' mock pins: records every edge."""

    def __init__(self, releases_expected: int) -> None:
        self.edges: list[tuple[Button, bool]] = []
        self.lock = threading.Lock()
        self.expected = releases_expected
        self.all_released = threading.Event()

    def drive(self, button: Button, down: bool) -> None:
        with self.lock:
            self.edges.append((button, down))
            if sum(1 for _, d in self.edges if not d) == self.expected:
                self.all_released.set()


def test_a_burst_of_keys_takes_one_thread_not_one_each(monkeypatch):
    # Each key presses at once and QUEUED more wait their turn; the rest of
    # a paste is dropped. The threads counted are the ones the keys start
    # (not the process's, which other tests' threads come and go in).
    started: list[str] = []

    class Counted(threading.Thread):
        def start(self) -> None:
            started.append(self.name)
            super().start()
    monkeypatch.setattr(keys_module.threading, "Thread", Counted)
    pins = Pins(releases_expected=3 * (QUEUED + 1))
    keys = TerminalKeys(CHARS, pins.drive, hold_seconds=0.05, on_quit=lambda: None,
                        gap=0.01)
    for i in range(500):
        keys.key("snbS"[i % 4])                      # taps, and a hold every fourth
    assert started == ["wolfbox-key-release"]
    assert pins.all_released.wait(timeout=60)      # an upper bound, not a delay
    downs = [b for b, d in pins.edges if d]
    ups = [b for b, d in pins.edges if not d]
    assert len(downs) == 3 * (QUEUED + 1) and sorted(ups, key=str) == sorted(downs, key=str)
    keys.stop()


def test_the_same_key_typed_fast_presses_its_button_each_time():
    """"vvv" in one read: three taps, one after another (a Mayor counting hands)."""
    pins = Pins(releases_expected=3)
    keys = TerminalKeys(CHARS, pins.drive, hold_seconds=1.0, on_quit=lambda: None)
    for ch in "nnn":
        keys.key(ch)
    assert pins.all_released.wait(timeout=60)
    assert pins.edges == [(Button.NEXT, True), (Button.NEXT, False)] * 3
    keys.stop()


def test_a_hold_is_released_after_the_taps_that_came_with_it():
    pins = Pins(releases_expected=2)
    keys = TerminalKeys(CHARS, pins.drive, hold_seconds=0.5, on_quit=lambda: None)
    keys.key("B")                                   # held: released after 0.7 s
    keys.key("n")                                   # tapped: released after 0.08 s
    assert pins.all_released.wait(timeout=60)
    assert [e for e in pins.edges if not e[1]] == [(Button.NEXT, False), (Button.BACK, False)]
    keys.stop()


def test_a_starved_thread_keeps_each_keys_edges_apart_so_no_tap_reads_as_bounce():
    """On a busy machine the release thread may wake long after two edges of
    one key were due; driven back to back, the debounce took the second for
    contact bounce and a tap was lost. The clock is the test's: the thread
    wakes when it is moved on."""
    now = [0.0]
    edges: list[tuple[bool, float]] = []
    seen = threading.Condition()

    def drive(button: Button, down: bool) -> None:
        with seen:
            edges.append((down, now[0]))
            seen.notify_all()
    presses = keys_module.Presses(drive, clock=lambda: now[0], gap=0.25)

    def at(t: float, count: int) -> None:
        with presses._wake:
            now[0] = t
            presses._wake.notify()
        with seen:
            assert seen.wait_for(lambda: len(edges) >= count, timeout=60)  # a bound only

    presses.press(Button.NEXT, 0.5)                 # down now, up at 0.5
    presses.press(Button.NEXT, 0.5)                 # again: down at 0.75, up at 1.25
    at(10.0, 2)                                     # the thread wakes late, past all of them
    at(10.25, 3)
    at(10.5, 4)
    presses.stop()
    assert [down for down, _t in edges] == [True, False, True, False]
    times = [t for _down, t in edges]
    assert all(b - a >= 0.25 for a, b in zip(times, times[1:], strict=False)), times


def test_stopping_drops_pending_releases_and_its_thread():
    pins = Pins(releases_expected=1)
    keys = TerminalKeys(CHARS, pins.drive, hold_seconds=3600, on_quit=lambda: None)
    keys.key("B")
    release_thread = keys._presses._thread            # this box's, not another test's
    assert release_thread is not None and release_thread.is_alive()
    keys.stop()
    release_thread.join(timeout=60)                  # an upper bound, not a delay
    assert not release_thread.is_alive()
    assert pins.edges == [(Button.BACK, True)]


class Stream:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


def test_only_a_standard_input_that_can_give_keys_is_read():
    def start(fd: int) -> bool:
        keys = TerminalKeys(CHARS, lambda b, d: None, 1.0, lambda: None, stream=Stream(fd))
        try:
            return keys.start()
        finally:
            keys.stop()

    null = os.open(os.devnull, os.O_RDONLY)
    read, write = os.pipe()
    try:
        assert not start(null)                  # a service's standard input
        assert start(read)                      # keys typed into a pipe work
        closed = os.dup(read)
        os.close(closed)
        assert not start(closed)
    finally:
        for fd in (null, read, write):
            os.close(fd)

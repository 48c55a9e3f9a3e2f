"""`wolfbox replay`: a round played from a file of timed button events.

The pure flow runs on a clock that jumps from one deadline to the next, so
a ten-minute round replays in milliseconds and always the same way. Each
change of the screen, and everything said or sounded, comes out as one JSON
line: how a bug report reproduces a game and how golden tests read. It is
captions-only by nature: a line holds the flow for its caption time, as on
a box with no voice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from .buttons import Button, Hold, Release, Tap
from .effects import Effect, PlayCue, Say
from .errors import UserError
from .i18n import _
from .jsontext import loads
from .leds import lights
from .mode import Mode
from .schema import Misfit, convert
from .view import View

BUTTON_NAMES = tuple(b.value for b in Button)
KEYS = ("at", "tap", "hold", "release")
# The latest time an event may have: a day of game time. A round with every
# pause a table could want lasts hours, not days, and the start screen
# changes every few seconds forever, so a later "at" (1e300) would write
# records without end instead of replaying a game.
MAX_AT = 24 * 3600


@dataclass(frozen=True)
class TimedPress:
    """A button tapped or held at a time on the round's clock (seconds
    from the start screen), or just a time to run the round up to."""
    at: float
    button: Button | None = None
    hold: bool = False
    release: bool = False       # a held button let go (the timed game's cards)


class _EventIn(msgspec.Struct, forbid_unknown_fields=True):
    """A replay line's shape: a time, and at most one button by name."""
    at: float
    tap: object = msgspec.UNSET
    hold: object = msgspec.UNSET
    release: object = msgspec.UNSET


def _event_misfit(e: Misfit, where: str) -> str:
    if e.kind == "unknown":
        return _("{where}: unknown key '{key}' (allowed: {allowed})").format(
            where=where, key=e.key[:40], allowed=", ".join(KEYS))
    if e.path == ("at",) or e.kind == "missing":
        return _('{where}: "at" must be a time in seconds, 0 or more').format(where=where)
    return _('{where}: each line must be an object such as '
             '{{"at": 0, "tap": "start"}}').format(where=where)


def parse_events(lines: Iterable[str], source: str) -> list[TimedPress]:
    """The events of a JSON-lines file; UserError names the first bad line."""
    events: list[TimedPress] = []
    last = 0.0
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{source}:{number}"
        try:
            item = loads(text)
        except ValueError as e:
            raise UserError(_("{where}: not JSON ({why}); each line is an object such as "
                              '{{"at": 0, "tap": "start"}}').format(where=where, why=e)) from None
        try:
            event = convert(item, _EventIn)
        except Misfit as e:
            raise UserError(_event_misfit(e, where)) from None
        at = event.at
        if at < 0:
            raise UserError(_('{where}: "at" must be a time in seconds, 0 or more').format(
                where=where))
        if at > MAX_AT:
            raise UserError(_('{where}: "at" {at} is later than a replay goes: at most '
                              '{limit} seconds ({hours} hours of game time)').format(
                where=where, at=str(at)[:20], limit=MAX_AT, hours=MAX_AT // 3600))
        if at < last:
            raise UserError(_("{where}: at {at} comes before the line above ({last}); events "
                              "must be in time order").format(where=where, at=at, last=last))
        last = float(at)
        presses = [(k, v) for k, v in (("tap", event.tap), ("hold", event.hold),
                                         ("release", event.release)) if v is not msgspec.UNSET]
        if len(presses) > 1:
            raise UserError(_('{where}: a line taps, holds or releases one button, only one')
                            .format(where=where))
        button: Button | None = None
        if presses:
            name = presses[0][1]
            if name not in BUTTON_NAMES:
                raise UserError(_("{where}: no button '{name}' (buttons: {buttons})").format(
                    where=where, name=(name if isinstance(name, str) else json.dumps(name))[:40],
                    buttons=", ".join(BUTTON_NAMES)))
            button = Button(name)
        kinds = [k for k, _v in presses]
        events.append(TimedPress(float(at), button, kinds == ["hold"], kinds == ["release"]))
    return events


def _screen(view: View, phase: str) -> dict[str, Any]:
    return {"phase": phase, "title": view.title, "big": view.big,
            "caption": view.caption, "details": list(view.details), "paused": view.paused,
            "legend": {b.value: label for b, label in view.legend},
            "lights": {b.value: light.value for b, light in lights(view).items()}}


def replay(flow: Mode, events: Iterable[TimedPress],
           stage: Callable[[], str] | None = None) -> Iterator[dict[str, Any]]:
    """One record for the start screen, then one for each change: the time,
    what the screen shows, and what was said and sounded at that moment.

    A record's "phase" is the screen's (One Night's phases), or `stage()`:
    the Mayor's and the timed game's own stage ("setup", "dawn", "count"),
    which their screens' layouts share and would not tell apart."""
    last: dict[str, Any] | None = None

    def record(now: float, effects: list[Effect]) -> dict[str, Any] | None:
        nonlocal last
        view = flow.view(now)
        screen = _screen(view, stage() if stage else view.phase.value)
        said = [e.text for e in effects if isinstance(e, Say)]
        cues = [e.cue.value for e in effects if isinstance(e, PlayCue)]
        if screen == last and not said and not cues:
            return None
        last = screen
        return {"at": round(now, 3), **screen, "said": said, "cues": cues}

    now = 0.0
    first = record(now, [])
    assert first is not None
    yield first
    for event in events:
        while True:
            due = flow.next_change(now)
            if due is None or due > event.at:
                break
            now = max(now, due)
            out = record(now, flow.tick(now))
            if out is not None:
                yield out
            if due <= now and flow.next_change(now) == due:
                break           # nothing moved: never spin on one instant
        now = event.at
        effects = flow.tick(now)
        if event.button is not None:
            press: Tap | Hold | Release = Hold(event.button) if event.hold else \
                Release(event.button) if event.release else Tap(event.button)
            effects += flow.handle(press, now)
        out = record(now, effects)
        if out is not None:
            yield out

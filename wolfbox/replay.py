"""`wolfbox replay`: a round played from a file of timed button events,
and of phones taking seats and answering their tasks.

The pure flow runs on a clock that jumps from one deadline to the next, so
a ten-minute round replays in milliseconds and always the same way. Each
change of the screen, and everything said or sounded, comes out as one JSON
line: how a bug report reproduces a game and how golden tests read. With
phones seated, each seat's phone view (what its page shows: wolfbox.phone)
comes out as a record of its own whenever it changes. It is captions-only
by nature: a line holds the flow for its caption time, as on a box with
no voice.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from .buttons import Button, Hold, Release, Tap
from .effects import Effect, PlayCue, Say
from .errors import UserError
from .events import PhoneChoice, PhonesSeated
from .i18n import _
from .jsontext import loads
from .leds import lights
from .mode import Playable
from .phone import PhoneView, named
from .schema import Misfit, convert
from .view import View

BUTTON_NAMES = tuple(b.value for b in Button)
KEYS = ("at", "tap", "hold", "release", "seated", "names", "seat", "step", "choice")
# What a phone may send, as the phones' server lets it in (wolfbox.phones.
# protocol, which the core may not import; tests/test_replay.py holds the
# two equal): a replay takes no answer a real phone could not give.
MAX_SEAT = 99
MAX_NAME = 60
MAX_STEP = 40
MAX_OPTION = 999
MAX_PICKED = 4
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
    phone: PhoneChoice | PhonesSeated | None = None     # from the phones, instead of a button


class _EventIn(msgspec.Struct, forbid_unknown_fields=True):
    """A replay line's shape: a time, and at most one button by name, or
    who holds a phone, or a phone's answer (each checked below)."""
    at: float
    tap: object = msgspec.UNSET
    hold: object = msgspec.UNSET
    release: object = msgspec.UNSET
    seated: object = msgspec.UNSET
    names: object = msgspec.UNSET
    seat: object = msgspec.UNSET
    step: object = msgspec.UNSET
    choice: object = msgspec.UNSET


def _number(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _seated(event: _EventIn, where: str) -> PhonesSeated:
    """`{"seated": [2, 5], "names": {"2": "Ann"}}`: who holds a phone now."""
    seats = event.seated
    if not isinstance(seats, list) or len(seats) > MAX_SEAT or len(set(seats)) != len(seats) \
            or not all(_number(s, 1, MAX_SEAT) for s in seats):
        raise UserError(_('{where}: "seated" must be a list of seat numbers from 1 to {most}, '
                          'each once, such as {{"at": 0, "seated": [1, 2, 3]}}').format(
            where=where, most=MAX_SEAT))
    names = {} if event.names is msgspec.UNSET else event.names
    if not isinstance(names, dict) or not all(
            isinstance(k, str) and k.isdigit() and int(k) in seats and isinstance(v, str)
            and len(v) <= MAX_NAME for k, v in names.items()):
        raise UserError(_('{where}: "names" must give seated seats their names (at most '
                          '{most} characters), such as {{"2": "Ann"}}').format(
            where=where, most=MAX_NAME))
    return PhonesSeated(frozenset(seats), tuple(sorted((int(k), v) for k, v in names.items())))


def _answer(event: _EventIn, where: str) -> PhoneChoice:
    """`{"seat": 2, "step": "1.seer.0", "choice": [4]}`: a phone's answer."""
    choice = event.choice
    if not _number(event.seat, 1, MAX_SEAT) or not isinstance(event.step, str) \
            or len(event.step) > MAX_STEP or not isinstance(choice, list) \
            or len(choice) > MAX_PICKED or not all(_number(c, 0, MAX_OPTION) for c in choice):
        raise UserError(_('{where}: a phone\'s answer is "seat" (1 to {seats}), "step" (the '
                          'task\'s name, at most {step} characters) and "choice" (at most '
                          '{picked} option ids from 0 to {option}), such as {{"at": 30, '
                          '"seat": 2, "step": "1.seer.0", "choice": [4]}}').format(
            where=where, seats=MAX_SEAT, step=MAX_STEP, picked=MAX_PICKED,
            option=MAX_OPTION))
    assert isinstance(event.seat, int)
    return PhoneChoice(event.seat, event.step, tuple(choice))


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
        seating = event.seated is not msgspec.UNSET or event.names is not msgspec.UNSET
        answering = any(v is not msgspec.UNSET for v in (event.seat, event.step, event.choice))
        if presses and (seating or answering) or seating and answering:
            raise UserError(_("{where}: a line presses a button, seats the phones or gives a "
                              "phone's answer: only one of them").format(where=where))
        if seating or answering:
            events.append(TimedPress(float(at), phone=_seated(event, where) if seating
                                     else _answer(event, where)))
            continue
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
    out = {"phase": phase, "title": view.title, "big": view.big,
           "caption": view.caption, "details": list(view.details), "paused": view.paused,
           "legend": {b.value: label for b, label in view.legend},
           "lights": {b.value: light.value for b, light in lights(view).items()}}
    if view.picture is not None:
        out["picture"] = dataclasses.asdict(view.picture)
    return out


def _phone(view: PhoneView) -> dict[str, Any]:
    """A seat's phone view, compact: what its page shows, the empty parts
    left out (a task's options as [id, words])."""
    out: dict[str, Any] = {"title": view.title}
    if view.label:
        out["label"] = view.label
    if view.big:
        out["big"] = view.big
    if view.lines:
        out["lines"] = list(view.lines)
    if view.secret:
        out["secret"] = list(view.secret)
    if view.dim:
        out["dim"] = True
    task = view.task
    if task is not None:
        shown: dict[str, Any] = {"step": task.step, "prompt": task.prompt,
                                 "options": [list(o) for o in task.options]}
        if task.pick != 1:
            shown["pick"] = task.pick
        if task.chosen:
            shown["chosen"] = list(task.chosen)
        if task.actions:
            shown["actions"] = [list(a) for a in task.actions]
        out["task"] = shown
    if view.picture is not None:
        out["picture"] = dataclasses.asdict(view.picture)
    return out


def replay(flow: Playable, events: Iterable[TimedPress],
           stage: Callable[[], str] | None = None) -> Iterator[dict[str, Any]]:
    """One record for the start screen, then one for each change: the time,
    what the screen shows, and what was said and sounded at that moment.
    With phones seated, then a record for each seat whose phone view
    changed at that moment ({"at", "phone": seat, ...}), in seat order.

    A record's "phase" is the screen's (One Night's phases), or `stage()`:
    the Mayor's and the timed game's own stage ("setup", "dawn", "count"),
    which their screens' layouts share and would not tell apart."""
    last: dict[str, Any] | None = None
    seated: list[int] = []                      # the seats holding a phone, in order
    phones: dict[int, dict[str, Any]] = {}      # each seat's phone as last recorded
    names: dict[int, str] = {}                  # the names the phones gave, as the server has them

    def record(now: float, effects: list[Effect]) -> list[dict[str, Any]]:
        nonlocal last
        view = flow.view(now)
        screen = _screen(view, stage() if stage else view.phase.value)
        said = [e.text for e in effects if isinstance(e, Say)]
        cues = [e.cue.value for e in effects if isinstance(e, PlayCue)]
        out = []
        if screen != last or said or cues:
            last = screen
            out.append({"at": round(now, 3), **screen, "said": said, "cues": cues})
        for seat in seated:
            # Named as the phones' server names them (phones.link): "Ann · 3".
            shown = _phone(named(flow.phone_view(seat, now), names))
            if phones.get(seat) != shown:
                phones[seat] = shown
                out.append({"at": round(now, 3), "phone": seat, **shown})
        return out

    now = 0.0
    first = record(now, [])
    assert first
    yield from first
    for event in events:
        while True:
            due = flow.next_change(now)
            if due is None or due > event.at:
                break
            now = max(now, due)
            yield from record(now, flow.tick(now))
            if due <= now and flow.next_change(now) == due:
                break           # nothing moved: never spin on one instant
        now = event.at
        effects = flow.tick(now)
        if event.phone is not None:
            if isinstance(event.phone, PhonesSeated):
                seated[:] = sorted(event.phone.seats)
                names.clear()
                names.update(event.phone.names)
                for gone in set(phones) - event.phone.seats:
                    del phones[gone]            # a seat that comes back is shown afresh
            effects += flow.handle(event.phone, now)
        elif event.button is not None:
            press: Tap | Hold | Release = Hold(event.button) if event.hold else \
                Release(event.button) if event.release else Tap(event.button)
            effects += flow.handle(press, now)
        yield from record(now, effects)

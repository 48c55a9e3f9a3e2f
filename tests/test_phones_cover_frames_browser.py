"""Issue 41.3: the Wolves showed in the tap counts. Every box frame was
one size, but a phone that acted sent more sealed frames than a decoy
(in a timed night 11 against 3), and a phone whose window opened or
closed at another moment (a dead seat's, with no task) sent fewer: anyone
counting a phone's frames on the air could point at the Wolves.

Here whole games are captured as someone in radio range would count them:
every sealed frame each phone's socket sends and is sent, its size and its
time, before it is opened, from the box's START to the end screen on every
phone. Real Chromium pages play the whole timed game (nine seats, two
nights, three days, two deaths) and a whole One Night (nine seats, every
call tapped on every page), against the real box on its fake clock and the
real server on loopback; a Mayor's night with the cards on the phones is
captured too. Each phone's frames, both ways, must come in the same
number, in the same sizes, at the same times as every other phone's,
whatever its role, taps, life or death: in every secret window (a night,
a call, a vote behind the cover) every phone is sent a frame on the cover's
clock and answers it with one, a tap riding in it (publish.py `cover_clock`,
app.js `beat`)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from test_mayor_phones_browser import Console, console_seated, on_the_page, seated
from test_phones_box import box_hears, join_details
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    open_phone,
    playwright,
    pytestmark,
    seat_phones,
)
from websockets.asyncio.server import ServerConnection

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.phones import protocol, seal
from wolfbox.phones.server import COVER_SECONDS, PhoneServer

__all__ = ["CHROMIUM", "pytestmark"]

expect = playwright.expect
NAMES = {seat: f"P{seat}" for seat in range(1, 10)}          # as seat_phones joins them
PHONE_FRAME = protocol.PHONE_FRAME_BYTES + seal.OVERHEAD     # every frame a phone seals
BOX_FRAME = protocol.FRAME_BYTES + seal.OVERHEAD             # every frame the box seals
# A page answers a beat as it opens it, before drawing it: the delay is
# the page's and its machine's, not its role's (the same work for a tap
# as for a cover frame), and the order is exact: the i-th frame a phone
# sends answers the i-th beat. The bound on the delay (four beats) only
# catches a page that stopped answering: nine Chromium pages on two busy
# cores answered in up to 0.6 s here; what each capture measured is
# printed (`Measured`) and is in the README's figures.
ANSWER = 4 * COVER_SECONDS


@dataclass
class Air:
    """Every sealed frame each phone's socket sends and is sent, with its
    size and when (the real clock: the pages and the cover's beats run on
    it), as it crosses the socket; by the seat the socket holds. For the
    test's own checks (the air shows neither) it keeps too the kind of a
    phone's frame, and whether a box's frame is a beat of a secret window."""
    up: dict[ServerConnection, list[tuple[float, int, str]]] = field(default_factory=dict)
    down: dict[ServerConnection, list[tuple[float, int, bool]]] = field(default_factory=dict)
    seat_of: dict[ServerConnection, int] = field(default_factory=dict)
    beats: dict[ServerConnection, list[bool]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def listen(self, monkeypatch) -> Air:
        opened, deliver, send = PhoneServer._opened, PhoneServer._deliver, ServerConnection.send

        def heard(server, phone, raw):
            message = opened(server, phone, raw)
            if isinstance(raw, bytes):
                kind = type(message).__name__ if message is not None else "?"
                with self.lock:
                    self.up.setdefault(phone.socket, []).append(
                        (time.monotonic(), len(raw), kind))
                    if phone.seat is not None:
                        self.seat_of[phone.socket] = phone.seat
            return message

        async def delivered(server, phone, message):
            if phone.channel is not None:       # what the page opens: a beat to answer?
                with self.lock:
                    self.beats.setdefault(phone.socket, []).append(
                        json.loads(message).get("cover") is True)
                    if phone.seat is not None:
                        self.seat_of[phone.socket] = phone.seat
            return await deliver(server, phone, message)

        async def sent(socket, message, text=None):
            if isinstance(message, bytes) and not text:     # the key goes in the clear
                with self.lock:
                    beat = self.beats[socket].pop(0)
                    self.down.setdefault(socket, []).append(
                        (time.monotonic(), len(message), beat))
            return await send(socket, message, text=text)
        monkeypatch.setattr(PhoneServer, "_opened", heard)
        monkeypatch.setattr(PhoneServer, "_deliver", delivered)
        monkeypatch.setattr(ServerConnection, "send", sent)
        return self

    def between(self, start: float, end: float, seats) -> tuple[dict, dict]:
        """Each seat's frames both ways from `start` to `end`: (up, down)."""
        with self.lock:
            sockets = {seat: [s for s, held in self.seat_of.items() if held == seat]
                       for seat in seats}
            for seat, held in sockets.items():
                assert len(held) == 1, f"seat {seat} on {len(held)} sockets: a phone reconnected"
            up = {seat: [f for f in self.up.get(held[0], []) if start <= f[0] <= end]
                  for seat, held in sockets.items()}
            down = {seat: [f for f in self.down.get(held[0], []) if start <= f[0] <= end]
                    for seat, held in sockets.items()}
        return up, down


def quiet(pilot) -> float:
    """Now, once every frame the server has chosen is handed to its socket
    (a publish's frames leave in a turn of its loop, on its thread): a
    boundary no publish straddles."""
    server = pilot.parts.phones.phones.server

    async def drained() -> None:
        while server._tasks:
            await asyncio.gather(*list(server._tasks), return_exceptions=True)
    asyncio.run_coroutine_threadsafe(drained(), server._loop).result(10)
    return time.monotonic()


@dataclass
class Measured:
    """What a capture showed beyond its asserts, for the README's figures."""
    frames: tuple[int, int] = (0, 0)      # each phone's frames: sent, received
    beats: int = 0                        # of those received, the beats of a secret window
    burst: float = 0.0                    # the widest spread of one frame's copies, s
    answer: float = 0.0                   # the slowest answer to a beat, s


def same_on_the_air(up: dict[int, list], down: dict[int, list], who: dict[int, str]) -> Measured:
    """Every phone's frames, both ways, alike in count, size and time,
    whatever `who` sits there (for the messages). Time as the air orders
    it: the box's k-th frames to all phones leave together, every one
    before any phone's (k+1)-th (one publish, or one beat of the cover's
    clock, written in one turn of the server's loop); and every phone's
    i-th frame answers the box's i-th beat to it: never before it (a tap
    sent at once would be), and within ANSWER after it."""
    counts = {seat: (len(up[seat]), len(down[seat])) for seat in up}
    assert len(set(counts.values())) == 1, f"frames (sent, received) by seat: {counts} {who}"
    assert {size for fs in up.values() for _t, size, _k in fs} <= {PHONE_FRAME}
    sizes = {seat: [size for _t, size, _b in fs] for seat, fs in down.items()}
    assert len({tuple(s) for s in sizes.values()}) == 1, "the box's frames differ in size"
    assert set(sizes[next(iter(sizes))]) <= {BOX_FRAME, 2 * BOX_FRAME - seal.OVERHEAD}
    n_up, n_down = counts[next(iter(counts))]
    measured = Measured((n_up, n_down))
    for k in range(n_down):
        times = [fs[k][0] for fs in down.values()]
        measured.burst = max(measured.burst, max(times) - min(times))
        if k + 1 < n_down:
            assert max(times) <= min(fs[k + 1][0] for fs in down.values()), \
                f"the box's frame {k + 1} left for one phone before frame {k} for another"
    for seat in up:
        beats = [t for t, _size, beat in down[seat] if beat]
        assert len(beats) == n_up, f"seat {seat} ({who[seat]}): {n_up} frames sent, " \
            f"{len(beats)} beats"
        for i, (t, _size, _kind) in enumerate(up[seat]):
            assert beats[i] <= t < beats[i] + ANSWER, \
                f"seat {seat} ({who[seat]}) sent frame {i} off the cover's clock"
            measured.answer = max(measured.answer, t - beats[i])
    measured.beats = n_up
    print(f"\non the air: {measured}")
    return measured


def kinds(up: dict[int, list]) -> dict[int, Counter]:
    return {seat: Counter(k for _t, _s, k in fs) for seat, fs in up.items()}


# ======================================================= the timed game
TIMED = range(1, 10)


def test_a_whole_timed_game_looks_the_same_on_the_air_from_every_phone(
        tmp_path, pilots, browser, monkeypatch):  # noqa: F811
    """Nine pages play the timed game to the Town's win: every day's vote
    and every night (the Wolves' plot, their knife, the actions, the
    messages), the dead of night 1 and of day 2 still at the table."""
    from wolfbox.newd3 import said
    from wolfbox.newd3.game import Stage
    from wolfbox.newd3.roles import is_wolf_team
    from wolfbox.newd3.turns import Kind
    air = Air().listen(monkeypatch)
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    pilot.settle()
    pages = {seat: page for seat, (page, _p) in
             seat_phones(browser, pilot.view.join, TIMED).items()}
    game = pilot.box.flow.active
    box_hears(pilot, lambda: game.phones == frozenset(TIMED))
    game.rng = random.Random(7)                               # the same deal every run
    start = quiet(pilot)
    pilot.press(Button.START)
    wolves = [s for s in TIMED if is_wolf_team(game.seats[s - 1])]
    town = [s for s in TIMED if s not in wolves]
    actors = [s for s in town if game.seats[s - 1] not in ("sheep", "noble")]
    windows: list[tuple[str, float, float]] = []              # (what, from, to), real time
    tapped: Counter[int] = Counter()                          # each seat's taps

    def taps(chosen: dict[int, list[int]], done) -> None:
        """Each page taps its seats (in order) at once, as a table does:
        the taps wait for the cover's next beats, in every page together."""
        for seat, targets in chosen.items():
            page = pages[seat]
            expect(page.locator("#options")).to_have_attribute(
                "data-step", game.phone_view(seat, pilot.clock.now).task.step, timeout=WAIT_MS)
            for target in targets:
                page.locator("#options").get_by_role(
                    "button", name=f"P{target} · {target}", exact=True).click(timeout=WAIT_MS)
                tapped[seat] += 1
        box_hears(pilot, done)

    def living() -> list[int]:
        return [s for s in TIMED if s not in game.dead]

    def day(voters: list[int], out: int) -> None:
        pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=600, step=0.5)
        pilot.press(Button.VOTE, hold=2.1)                    # hold: vote now
        pilot.until(lambda: game.stage is Stage.VOTE, limit=10)
        opened = time.monotonic()
        taps({v: [out] for v in voters},
             lambda: all(game.phone_votes.get(v) == out for v in voters))
        windows.append(("vote", opened, time.monotonic()))
        pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
        pilot.press(Button.START)                             # the table checks: OK

    def night(victim: int) -> None:
        pilot.until(lambda: game.night_task() is Kind.PLOT, limit=120, step=0.5)
        alive = living()
        pack = [w for w in wolves if w in alive]
        opened = time.monotonic()
        # The Wolves: the victim, then the knife (the first Wolf); the
        # rest a decoy each, or nothing (the last living seat taps none).
        plot = {s: ([victim] if s in pack else [alive[0]]) for s in alive[:-1]}
        plot[pack[-1]] = [victim, pack[0]]
        taps(plot, lambda: all(game.victims[pack.index(w)] == victim for w in pack)
             and game.knives[len(pack) - 1] == pack[0]
             and all(game.marks.get(s) == alive[0] for s in plot if s not in pack))
        windows.append(("plot", opened, time.monotonic()))
        pilot.until(lambda: game.night_task() is Kind.ACT, limit=60, step=0.5)
        opened = time.monotonic()
        act = {s: [next(t for t in reversed(alive) if t not in (s, victim))] for s in alive}
        taps(act, lambda: all(game.marks.get(s) == t[0] for s, t in act.items()))
        windows.append(("act", opened, time.monotonic()))
        pilot.until(lambda: game.turns[game.turn_index].kind is Kind.READ
                    and game.turn_stage == "wait", limit=120, step=0.5)
        pilot.until(lambda: game.stage is Stage.DAWN, limit=120, step=0.5)

    pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
    day(town[:3], wolves[0])                                  # day 1: short of a majority
    victim = next(s for s in town if s not in actors)
    night(victim)
    day([s for s in living() if s != wolves[0]], wolves[0])   # day 2: a Wolf out
    night(next(s for s in town if s not in game.dead and s != victim))
    day([s for s in living() if s != wolves[1]], wolves[1])   # day 3: the other
    pilot.until(lambda: game.stage is Stage.END, limit=60, step=0.5)
    assert game.winner == "town" and game.night == 2 and len(game.dead) == 4
    for page in pages.values():                               # the end on every phone
        expect(page.locator("#title")).to_contain_text("The Town wins", timeout=WAIT_MS)
    end = quiet(pilot)

    up, down = air.between(start, end, TIMED)
    who = {seat: game.seats[seat - 1] + (" (dead)" if seat in game.dead else "")
           for seat in TIMED}
    same_on_the_air(up, down, who)
    # Not by luck of a quiet night: every window ran on the cover's clock
    # on every phone (a few beats each), the Wolves' taps rode in it and
    # every phone sent cover frames, the dead too.
    for what, opened, closed in windows:
        inside = {seat: len([f for f in fs if opened <= f[0] <= closed]) for seat, fs in up.items()}
        assert min(inside.values()) >= 1, (what, inside)
    # Each tap rode in a frame of its own; the taps differed from seat to
    # seat (the Wolves' most), the frames did not; the rest were covers.
    sent = kinds(up)
    assert {s: sent[s]["Choose"] for s in TIMED} == {s: tapped[s] for s in TIMED}, sent
    assert len(set(tapped.values())) > 2 and tapped[wolves[1]] == max(tapped.values()), tapped
    assert all(sent[s]["Cover"] > 0 for s in TIMED), sent


# ============================================================ One Night
NIGHT_DECK = ["werewolf", "werewolf", "minion", "mason", "mason", "seer", "robber",
              "troublemaker", "drunk", "insomniac", "villager", "hunter"]
NIGHT = range(1, 10)


def test_a_whole_one_night_looks_the_same_on_the_air_from_every_phone(
        tmp_path, pilots, browser, monkeypatch):  # noqa: F811
    """Nine pages: every call of the night answered on the pages that are
    asked (every seat, its role's or a decoy's), some pages silent in
    some calls, the vote, the verdict on every phone."""
    from wolfbox.view import Phase
    air = Air().listen(monkeypatch)
    config = phones_config(tmp_path)
    config.game.deck = list(NIGHT_DECK)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(4)                               # the same deal every run
    pages = {seat: page for seat, (page, _p) in
             seat_phones(browser, pilot.view.join, NIGHT).items()}
    box_hears(pilot, lambda: game.table is not None)
    table = game.table
    start = quiet(pilot)
    pilot.press(Button.START)
    calls: list[tuple[str, float, float]] = []
    silent = 0
    tapped: Counter[int] = Counter()                          # each seat's answers
    while True:
        pilot.until(lambda: game.phase is not Phase.NIGHT or table.open, step=1.0)
        if game.phase is not Phase.NIGHT:
            break
        call, opened = table.call, time.monotonic()
        # Every page answers but one (a different one each call): a page
        # that taps nothing must look like one that taps.
        quiet_seat = NIGHT[len(calls) % len(NIGHT)]
        while asked := [s for s in NIGHT if s != quiet_seat
                        and (t := table.task(s)) is not None and not t.chosen]:
            tasks = {s: table.task(s) for s in asked}
            for seat, task in tasks.items():
                page = pages[seat]
                expect(page.locator("#options")).to_have_attribute(
                    "data-step", task.step, timeout=WAIT_MS)
                buttons = page.locator("#options button")
                expect(buttons).to_have_text(
                    [on_the_page(NAMES, o, w) for o, w in task.options], timeout=WAIT_MS)
                for i in range(task.pick):                    # the first options shown
                    buttons.nth(i).click(timeout=WAIT_MS)
                tapped[seat] += 1
            box_hears(pilot, lambda ts=tasks: all(table.task(s) != t for s, t in ts.items()))
        silent += table.task(quiet_seat) is not None
        calls.append((call, opened, time.monotonic()))
        pilot.until(lambda c=call: table.call != c or not table.open, step=1.0)
    assert len(calls) == 8 and silent >= 4                    # every call of the deck
    pilot.until(lambda: game.phase is Phase.DISCUSSION)
    pilot.press(Button.VOTE)                                  # the table votes now
    pilot.until(lambda: table.voting)
    wolf = table.dealt.index("werewolf") + 1
    opened = time.monotonic()
    votes = {seat: wolf if seat != wolf else wolf % 9 + 1 for seat in NIGHT}
    for seat, vote in votes.items():
        pages[seat].locator("#options").get_by_role(
            "button", name=f"P{vote} · {vote}", exact=True).click(timeout=WAIT_MS)
        tapped[seat] += 1
    box_hears(pilot, lambda: table.votes == votes)
    calls.append(("vote", opened, time.monotonic()))
    pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
    for page in pages.values():
        expect(page.locator("#title")).to_have_text("Verdict", timeout=WAIT_MS)
    end = quiet(pilot)

    up, down = air.between(start, end, NIGHT)
    same_on_the_air(up, down, {seat: table.dealt[seat - 1] for seat in NIGHT})
    for what, opened, closed in calls:
        inside = {seat: len([f for f in fs if opened <= f[0] <= closed]) for seat, fs in up.items()}
        assert min(inside.values()) >= 1, (what, inside)
    sent = kinds(up)
    assert {s: sent[s]["Choose"] for s in NIGHT} == {s: tapped[s] for s in NIGHT}, sent
    assert len(set(tapped.values())) > 1, tapped              # the answers differed
    assert all(sent[s]["Cover"] > 0 for s in NIGHT), sent


# ====================================================== the Mayor's night
MAYOR_PLAYERS = range(1, 8)
MAYOR = 8


def test_a_mayors_night_with_the_cards_on_the_phones_looks_the_same_on_the_air(
        tmp_path, pilots, browser, monkeypatch):  # noqa: F811
    """Seven players' pages hold their cards through the night while the
    Mayor's console enters the Lovers: every player's phone, whatever its
    card, is sent the same frames at the same moments and sends none (no
    player is asked anything at night). The console, the Mayor's and no
    secret, opens no window: its taps go at once."""
    from wolfbox.darkarts import said as mayors_said
    from wolfbox.darkarts.game import Stage
    air = Air().listen(monkeypatch)
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    config.night.scale = 0.1
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    game = pilot.box.flow.active
    pages = {}
    for seat in MAYOR_PLAYERS:
        page, _problems = open_phone(browser, url)
        seated(page, pin, seat, f"P{seat}")
        pages[seat] = page
    box_hears(pilot, lambda: game.phones == frozenset(MAYOR_PLAYERS))
    game.rng = random.Random(1)
    pilot.press(Button.START)                                 # the deal; seat 8 opens
    mayor_page, _problems = open_phone(browser, url)
    console_seated(pilot, mayor_page, pin, "Mayor")
    box_hears(pilot, lambda: MAYOR in game.phones)
    mayor = Console(pilot, game, mayor_page, NAMES)
    pilot.until(lambda: game.stage is Stage.NIGHT, limit=120, step=0.5)
    start = quiet(pilot)
    pilot.until(lambda: game.stage is Stage.LOVERS, limit=600, step=0.5)
    for seat in (3, 5):                                       # on the console, at night
        mayor.tap(f"P{seat} · {seat}")
        mayor.tap("Lover")
    mayor.tap("Done")
    assert game.lovers == (3, 5)
    pilot.until(lambda: game.stage is Stage.DAWN, limit=600, step=0.5)
    for page in pages.values():                               # the day on every phone
        expect(page.locator("body")).not_to_have_class("dim", timeout=WAIT_MS)
    end = quiet(pilot)

    up, down = air.between(start, end, [*MAYOR_PLAYERS, MAYOR])
    console_up = up.pop(MAYOR)
    assert len(console_up) == 5 and len(down.pop(MAYOR)) == len(down[1])
    measured = same_on_the_air(up, down, {seat: game.dealt[seat - 1] for seat in MAYOR_PLAYERS})
    assert measured.frames[0] == 0 and measured.frames[1] > 5

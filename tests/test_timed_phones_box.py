"""The timed game on nine phones with the real box and the real server on
loopback (issue 22, item 5): a whole game to its end, the deal, the votes
and every night on the phones, one phone dropping and coming back in the
middle of a night. Every byte sent to every phone is recorded; no seat's
phone is sent another seat's secret (its card, the Wolves' marks, its
message) but the Wolves', each seeing its partner's marks."""

from __future__ import annotations

import json
import random
import threading

import pytest
from sealed import connect
from test_phones_box import box_hears, join_details, sent  # noqa: F401 (a fixture)
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.newd3 import said
from wolfbox.newd3.game import Stage
from wolfbox.newd3.roles import is_wolf_team, role_name
from wolfbox.newd3.turns import Kind

SEATS = range(1, 10)
WAIT = 10.0


class Phone:
    """One seat's phone: a socket read on a thread of its own (so the box
    never waits on it), every message it got kept in order."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://") + "ws"
        self.got: list[dict] = []
        self.token = ""
        self.arrived = threading.Condition()
        self._open()

    def _open(self) -> None:
        self.socket = connect(self.url, open_timeout=WAIT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                message = json.loads(text)
                if message["t"] == "joined":
                    self.token = message["token"]
                with self.arrived:
                    self.got.append(message)
                    self.arrived.notify_all()
        except ConnectionClosed:
            pass

    def send(self, **message) -> None:
        self.socket.send(json.dumps(message))

    def wait(self, where, since: int = 0) -> dict:
        """The latest message from the `since`-th on that fits, when it has come."""
        with self.arrived:
            for _ in range(1000):
                found = next((m for m in reversed(self.got[since:]) if where(m)), None)
                if found is not None:
                    return found
                assert self.arrived.wait(WAIT), "the phone heard nothing"
        raise AssertionError("never")

    def drop_and_return(self) -> int:
        """The Wi-Fi drops: the socket closes; the page comes back with its
        token. The index of the first message after the drop."""
        self.socket.close()
        self.reader.join(WAIT)
        since = len(self.got)
        self._open()
        self.send(t="hello", token=self.token)
        return since

    def close(self) -> None:
        self.socket.close()
        self.reader.join(WAIT)


def views(phone: Phone) -> list[dict]:
    return [m for m in phone.got if m["t"] == "view"]


def seat_streams(record: list[tuple[ServerConnection, bytes]]
                 ) -> tuple[dict[int, bytes], dict[int, list[dict]]]:
    """Every byte each seat's phones were sent, its sockets' together (a
    phone that reconnects is a second socket of the same seat), and the
    same as messages."""
    by_socket: dict[int, list[bytes]] = {}
    for socket, message in record:
        by_socket.setdefault(id(socket), []).append(message)
    data: dict[int, bytes] = {}
    messages: dict[int, list[dict]] = {}
    for sent_to in by_socket.values():
        parsed = [json.loads(m) for m in sent_to]
        for seat in {int(m["seat"]) for m in parsed if m.get("t") == "joined"}:
            data[seat] = data.get(seat, b"") + b"".join(sent_to)
            messages[seat] = messages.get(seat, []) + parsed
    return data, messages


def enc(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize("seed", [7, 12])
def test_a_whole_timed_game_on_nine_phones_tells_each_seat_only_its_own(
        tmp_path, pilots, sent, seed):  # noqa: F811 (the fixture)
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    url, pin = join_details(pilot)
    phones = {seat: Phone(url) for seat in SEATS}
    try:
        for seat, p in phones.items():
            p.send(t="hello")
            p.send(t="join", pin=pin, seat=seat, name=f"P{seat}")
            p.wait(lambda m: m["t"] == "joined")
        game = pilot.box.flow.active
        box_hears(pilot, lambda: game.phones == frozenset(SEATS))
        game.rng = random.Random(seed)                       # the deal of this seed
        pilot.press(Button.START)
        wolves = [s for s in SEATS if is_wolf_team(game.seats[s - 1])]
        town = [s for s in SEATS if s not in wolves]
        actors = [s for s in town + wolves
                  if game.seats[s - 1] not in ("sheep", "noble", "wolf")]

        def tap(seat: int, target: int) -> None:
            step = game.night_step() if game.night_task() else game.vote_step()
            phones[seat].send(t="choose", step=step, choice=[target])

        def day(out: int | None) -> None:
            """Talk cut short; everyone living votes `out` (or nobody)."""
            pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=600, step=0.5)
            pilot.press(Button.VOTE, hold=2.1)                  # hold: vote now
            pilot.until(lambda: game.stage is Stage.VOTE, limit=10)
            if out is not None:
                for voter in SEATS:
                    if voter not in game.dead and voter != out:
                        tap(voter, out)
                        box_hears(pilot, lambda v=voter: game.phone_votes.get(v) == out)
            pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
            pilot.press(Button.START)                            # the table checks: OK

        def night(victim: int, drop: int | None = None) -> None:
            pilot.until(lambda: game.night_task() is Kind.PLOT, limit=120, step=0.5)
            living = [s for s in SEATS if s not in game.dead]
            pack = [w for w in wolves if w in living]
            for seat in living:                              # the Wolves plot, the rest decoys
                tap(seat, victim if seat in pack else living[-1])
                box_hears(pilot, lambda s=seat: s in game.marks)
            tap(pack[-1], pack[0])                           # the knife: the first Wolf
            box_hears(pilot, lambda: game.knives[len(pack) - 1] == pack[0])
            if len(pack) == 2:                               # the partner sees it, live
                phones[pack[0]].wait(lambda m: m["t"] == "view" and any(
                    f"P{pack[1]} · {pack[1]}, your partner: victim: P{victim} · {victim} · "
                    f"knife: P{pack[0]} · {pack[0]}"
                    == line
                    for line in m["secret"]))
            pilot.until(lambda: game.night_task() is Kind.ACT, limit=60, step=0.5)
            for seat in living:                              # everyone answers
                target = next(s for s in reversed(living) if s != seat and s != victim)
                tap(seat, target)
                box_hears(pilot, lambda s=seat, t=target: game.marks.get(s) == t)
            if drop is not None:                             # a phone drops and comes back
                chosen = game.marks[drop]
                since = phones[drop].drop_and_return()
                back = phones[drop].wait(lambda m: m["t"] == "view" and m["task"] is not None
                                         and m["task"]["step"] == game.night_step(), since)
                assert back["task"]["chosen"] == [chosen] and back["secret"]
            pilot.until(lambda: game.turns[game.turn_index].kind is Kind.READ
                        and game.turn_stage == "wait", limit=120, step=0.5)
            for seat in living:                              # each its message, at once
                mine = list(game.message(seat))
                phones[seat].wait(lambda m, mine=mine: m["t"] == "view"
                                  and m["secret"][:2] == mine)       # then its card
            pilot.until(lambda: game.stage is Stage.DAWN, limit=120, step=0.5)
            told.append({seat: game.message(seat) for seat in living})

        told: list[dict[int, tuple[str, str]]] = []          # each night's messages
        pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
        for p in phones.values():                            # the deal: each its card
            p.wait(lambda m: m["t"] == "view" and bool(m["secret"]))
        pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
        day(None)                                            # day 1: nobody out
        victim = next(s for s in town if s not in actors)
        night(victim, drop=actors[0])
        day(wolves[0])
        night(next(s for s in town if s not in game.dead and s != victim))
        day(wolves[1])
        pilot.until(lambda: game.stage is Stage.END, limit=60, step=0.5)
        assert game.winner == "town" and game.night == 2
        for p in phones.values():                            # all sent has arrived
            since = len(p.got)
            p.send(t="hello", token=p.token)                 # (the game over, seats are free)
            p.wait(lambda m: m["t"] in ("view", "lobby"), since)
    finally:
        for p in phones.values():
            p.close()

    stream, parsed = seat_streams(sent)
    assert sorted(stream) == list(SEATS)
    got = {seat: [m for m in parsed[seat] if m["t"] == "view"] for seat in SEATS}
    secrets = {seat: {line for m in got[seat] for line in m["secret"]} for seat in SEATS}
    public = {t for seat in SEATS for m in got[seat]
              for t in (m["title"], m["big"], *m["lines"],
                        *([m["task"]["prompt"], *(w for _i, w in m["task"]["options"])]
                          if m["task"] else []))}
    pack_lines = [line for seat in wolves for line in secrets[seat] if "your partner:" in line]
    assert pack_lines                                        # the Wolves saw each other's marks
    messages = {seat: {tuple(m["secret"]) for m in got[seat]
                       if m["secret"] and m["title"].startswith("Night")} for seat in SEATS}
    for seat in SEATS:
        for other in SEATS:
            if other == seat or {seat, other} <= set(wolves):
                continue
            for line in secrets[other] - secrets[seat] - public:
                assert enc(line) not in stream[seat], (seat, other, line)
            for secret in messages[other] - messages[seat]:
                assert enc(list(secret)) not in stream[seat], (seat, other, secret)
    # What every phone is shown (a seat's name on a button, a title):
    # words a message may hold too (the Priest's "Seat 8") without a leak.
    public_words = {t for seat in SEATS for m in got[seat]
                    for t in (m["title"], m["big"],
                              *(w for _i, w in (m["task"] or {}).get("options", [])))}
    cards = {seat: next(tuple(m["secret"]) for m in got[seat]
                        if m["secret"] and m["title"].startswith("The deal")) for seat in SEATS}
    for seat in SEATS:
        assert cards[seat][0] == role_name(game.seats[seat - 1])     # its own card
        own = {line for tonight in told if seat in tonight for line in tonight[seat]}
        for tonight in told:                                  # its own message, no other
            if seat in tonight:
                assert enc(list(tonight[seat]))[:-1] in stream[seat]   # then its card
            for other, message in tonight.items():
                for line in set(message) - own - public_words:
                    assert enc(line) not in stream[seat], (seat, other, message)
        for other, card in cards.items():                     # its own card, no other
            if card != cards[seat]:
                assert enc(list(card)) not in stream[seat], (seat, other)
    for seat in town:                                        # no mark of the pack's
        assert not any("your partner: victim" in line for line in secrets[seat])
    dead_first = wolves[0]                                   # out on day 2: no task at night 2
    night2 = [m for m in got[dead_first] if m["title"].startswith("Night 2")]
    assert night2 and all(m["task"] is None and tuple(m["secret"]) == cards[dead_first]
                          for m in night2)                   # its card, turned up anyway

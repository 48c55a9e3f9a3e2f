"""The Mayor's game with a phone at every seat and the Mayor's console,
through the real box and the real server on loopback (issue 22), played
to its end: the Mayor makes every entry on the console, the hands go up
on the players' phones. Every byte sent to every phone is read: no seat
is sent another seat's card, and nothing of the console (its options, its
marks, the Lovers being entered) reaches any phone but the Mayor's except
as the box's own public screen shows it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from sealed import SealedPhone as ClientConnection
from sealed import connect
from test_phones_box import box_hears, enc, join_details, receive, sent  # noqa: F401

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts import console
from wolfbox.darkarts import said as mayors_said
from wolfbox.darkarts.game import Stage
from wolfbox.darkarts.roles import role_name
from wolfbox.view import View

PLAYERS = range(1, 8)
MAYOR = 8
NIGHT = "Night: keep your eyes closed until you are called."    # every phone, at night
OUT = "You are out of the game."           # on a dead seat's own phone


@contextmanager
def join(url: str, pin: str, seat: int, name: str) -> Iterator[ClientConnection]:
    """A phone at `seat` that keeps every frame it is sent until read (a
    whole game's worth: the test reads some phones only now and then)."""
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=10,
                 max_queue=None) as phone:
        phone.send('{"t": "hello"}')
        phone.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": name}))
        receive(phone, "joined")
        yield phone


@contextmanager
def take_console(pilot, url: str, pin: str, name: str = "Mia") -> Iterator[ClientConnection]:
    """The Mayor's phone takes the console: it asks for seat 8, its page
    shows a code, the box shows the same, and the Mayor accepts it there."""
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=10,
                 max_queue=None) as phone:
        phone.send('{"t": "hello"}')
        phone.send(json.dumps({"t": "join", "pin": pin, "seat": MAYOR, "name": name}))
        code = re.search(r"accept code (\d{4})", receive(phone, "asking")["why"])[1]
        box_hears(pilot, lambda: pilot.box.flow.view(pilot.clock.now).big == code)
        pilot.press(Button.START)                               # accepted on the box
        assert receive(phone, "joined")["seat"] == MAYOR
        yield phone


def messages_by_seat(record) -> dict[int, list[dict]]:
    """Every message each seat's phone was sent, decoded, by the seat its
    socket was given."""
    by_socket: dict[int, list[bytes]] = {}
    for socket, message in record:
        by_socket.setdefault(id(socket), []).append(message)
    out = {}
    for messages in by_socket.values():
        joined = [m for m in messages if re.search(rb'"t":"joined"', m)]
        if joined:
            out[json.loads(joined[0])["seat"]] = [json.loads(m) for m in messages]
    return out


class Mayor:
    """The Mayor's phone: taps an option of the console it was last sent."""

    def __init__(self, pilot, game, phone) -> None:
        self.pilot, self.game, self.phone = pilot, game, phone
        self.last: dict = {}

    def tap(self, words: str) -> None:
        now = console.step(self.game)
        shown = self.last
        if not shown or shown["task"]["step"] != now:
            shown = receive(self.phone, "view",
                            lambda m: m["task"] is not None and m["task"]["step"] == now)
        self.last = shown
        offered = shown["task"]["options"] + shown["task"]["actions"]
        ids = [i for i, w in offered if w == words]
        assert ids, f"{words!r} not on the console: {offered}"
        if ids[0] in shown["task"]["chosen"]:
            return                                  # marked already: a tap changes nothing
        self.phone.send(json.dumps({"t": "choose", "step": now, "choice": ids[:1]}))
        try:
            box_hears(self.pilot, lambda: console.step(self.game) != now)
        except AssertionError:
            raise AssertionError((words, now, console.step(self.game), self.game.stage,
                                  console.options(self.game))) from None


def quiet(pilot, game) -> None:
    """Let the box say what it has to say."""
    pilot.until(lambda: game.speech.line is None, limit=600, step=0.25)


def play_to_the_end(pilot, game, mayor, raise_hands, card_of,
                    counted=lambda voters: None) -> set[Stage]:
    """A table that lynches whoever it accuses, to the end: the Mayor on
    the console (`mayor.tap(words)`, on a socket or in a page), every hand
    up on the phones (`raise_hands()`; `counted(voters)` checks the box's
    count), each death's card read off the dead player's phone
    (`card_of(seat)`). The stages it went through."""
    seen: set[Stage] = set()
    for _ in range(400):
        stage = game.stage
        seen.add(stage)
        if stage is Stage.END:
            return seen
        if stage in (Stage.DEAL, Stage.NIGHT):
            pilot.until(lambda stage=stage: game.stage is not stage, limit=3000, step=5.0)
        elif stage is Stage.LOVERS:
            for seat in (3, 5):
                mayor.tap(f"P{seat} · {seat}")      # the seat by its name (joined as P<n>)
                mayor.tap("Lover")
            mayor.tap("Done")
        elif stage is Stage.DAWN:
            mayor.tap("No more deaths" if game.dawn_deaths else "Nobody died")
        elif stage in (Stage.CONFIRM, Stage.RESULT):
            mayor.tap("OK")
        elif stage is Stage.DISCUSSION:
            quiet(pilot, game)
            mayor.tap("Accuse")
        elif stage is Stage.ACCUSE:
            seat = next(s for s in game.ring.living() if s != game.previous_accused)
            mayor.tap(f"P{seat} · {seat}")
            mayor.tap("Accuse")
        elif stage is Stage.SECOND:
            quiet(pilot, game)
            mayor.tap("Seconded")
        elif stage is Stage.DEFENCE:
            quiet(pilot, game)
            mayor.tap("Vote")
        elif stage is Stage.HANDS:
            voters = console.voters(game)
            raise_hands()
            pilot.until(lambda: game.stage is Stage.RESULT, limit=600, step=0.5)
            counted(voters)
        elif stage is Stage.ROLE:
            mayor.tap(card_of(game.dying))
            mayor.tap("OK")
        elif stage is Stage.SHOT:
            mayor.tap(f"P{game.ring.living()[0]} · {game.ring.living()[0]}")
            mayor.tap("Shot")
    raise AssertionError(f"the game did not end: {game.stage}")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_on_phones_each_seat_sees_its_own_card_and_the_console_the_mayor(
        tmp_path, pilots, sent, seed):  # noqa: F811
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    config.night.scale = 0.1                                 # short nights: the day is tested
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    shown: list[View] = [pilot.view]                         # the screen the phones join on
    pilot.box.view_sinks.append(shown.append)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}"))
                  for seat in PLAYERS}
        game = pilot.box.flow.active
        box_hears(pilot, lambda: game.phones == frozenset(PLAYERS))
        game.rng = random.Random(seed)                       # a known deal
        pilot.press(Button.START)                            # the box deals to the phones
        assert game.dealt is not None
        phones[MAYOR] = stack.enter_context(take_console(pilot, url, pin))   # seat 8 opens
        box_hears(pilot, lambda: MAYOR in game.phones)
        def raise_hands() -> None:
            step = console.hands_step(game)
            for seat in sorted(console.voters(game)):
                task = receive(phones[seat], "view", lambda m, step=step: m["task"]
                               is not None and m["task"]["step"] == step)["task"]
                phones[seat].send(json.dumps({"t": "choose", "step": task["step"],
                                              "choice": [1]}))
                box_hears(pilot, lambda s=seat: game.hand_votes.get(s) is True)

        seen = play_to_the_end(pilot, game, Mayor(pilot, game, phones[MAYOR]), raise_hands,
                               lambda seat: role_name(game.dealt[seat - 1]))
        assert seen >= {Stage.LOVERS, Stage.DAWN, Stage.ROLE, Stage.HANDS, Stage.RESULT}
        assert game.winner is not None
        dealt = game.dealt
    cards = {seat: [role_name(dealt[seat - 1]),
                    "Your card for the whole game: keep it to yourself."] for seat in PLAYERS}
    got = messages_by_seat(sent)
    assert sorted(got) == [*PLAYERS, MAYOR]
    stream = {seat: b"".join(enc(m) for m in messages) for seat, messages in got.items()}
    for seat in PLAYERS:
        assert enc(cards[seat]) in stream[seat]                              # its own card
        first = next(m for m in got[seat] if m["t"] == "view" and m["secret"])
        assert first["title"] == "The deal", first                          # before the night
        for other in PLAYERS:
            if cards[other] != cards[seat]:
                assert enc(cards[other]) not in stream[seat], (seat, other)  # no other
        assert b'"step":"mayor.' not in stream[seat]                        # no console
        assert enc("The Mayor's console") not in stream[seat]
        assert enc("P3 · 3 · Lover") not in stream[seat]                    # nor the Lovers
    assert not any(enc(card) in stream[MAYOR] for card in cards.values())   # the Mayor: none
    assert all(m.get("secret") in (None, []) for m in got[MAYOR])
    assert b'"step":"mayor.' in stream[MAYOR] and enc("P3 · 3 · Lover") in stream[MAYOR]
    # Every word a player's phone was sent is on the box's public screen,
    # its own card and question, or the dead as the box turned them up.
    public = {t for v in shown if not v.private for t in (v.title, v.big, v.caption,
                                                            *v.details)}
    hands = {"Hand up: lynch", "Hand down"}
    for seat in PLAYERS:
        for m in got[seat]:
            if m["t"] != "view":
                continue
            if m["title"] in ("The village wins", "The werewolves win"):
                break           # the game is over: its whole book is public, on every phone
            assert m["secret"] in ([], cards[seat]), (seat, m["secret"])    # its own alone
            words = [m["title"], m["big"], *m["lines"]]
            if m["task"] is not None:
                assert m["task"]["step"].startswith("hands.")
                words += [w for _i, w in m["task"]["options"] + m["task"]["actions"]
                          if w not in hands]
                assert m["task"]["prompt"].startswith("Raise your hand to lynch P")
            for word in words:
                assert not word or word in public or word in (NIGHT, OUT) \
                    or word.startswith("Dead: ") \
                    or re.fullmatch(r"\d+:\d\d", word), (seat, word)    # the hands' clock

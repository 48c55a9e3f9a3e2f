"""A phone asking for a guarded seat (phones/asking.py), alone: a real
room, a fake clock and phones that are plain records; what the box is
told (`seated`) and what each phone is sent, in the order it happens.

The Mayor's console asked for through the whole server and box:
tests/test_mayor_phones.py and tests/test_mayor_phones_box.py."""

from __future__ import annotations

import json
from dataclasses import dataclass

from test_phones import FakeClock

from wolfbox.phones.asking import REFUSED_WAIT, Asking
from wolfbox.phones.bounded import Bounded
from wolfbox.phones.room import Room

PIN = "4821"
MAYOR = 1


@dataclass(eq=False)
class Phone:
    client: str
    seat: int | None = None
    last_sent: bytes = b"view"
    gone: bool = False


class Desk:
    """Asking over a room of five with seat 1 guarded: every step it takes
    (("seated",), or ("sent", phone's client, kind, frame)) in order."""

    def __init__(self) -> None:
        self.room, self.clock = Room(seats=5, pin=PIN), FakeClock()
        self.steps: list[tuple] = []
        self.asking: Asking[Phone] = Asking(
            self.room, self.clock, Bounded(self.clock), lambda: self.steps.append(("seated",)),
            self.sent, lambda phone: not phone.gone and phone.seat is None)
        self.asking.guard(frozenset({MAYOR}))
        self.steps.clear()

    def sent(self, phone: Phone, frame: bytes) -> None:
        message = json.loads(frame)
        self.steps.append(("sent", phone.client, message["t"], message))

    def ask(self, phone: Phone, name: str = "Mia", seat: int = MAYOR, pin: str = PIN) -> dict:
        return json.loads(self.asking.ask(phone, pin, seat, name, ""))

    def code(self, seat: int = MAYOR) -> str:
        return self.asking.asks[seat].code


def test_a_phone_asking_is_held_with_a_code_the_box_shows_too():
    desk, mia = Desk(), Phone("10.0.0.2")
    answer = desk.ask(mia, "Mia")
    code = desk.code()
    assert answer["t"] == "asking" and code in answer["why"]
    assert desk.asking.shown() == ((MAYOR, "Mia", code),)
    assert desk.steps == [("seated",)] and MAYOR not in desk.room.held
    assert desk.ask(mia, "Mia")["t"] == "asking" and desk.code() == code   # asked again: same
    assert desk.steps == [("seated",)]


def test_one_phone_asks_at_a_time():
    desk, mia, other = Desk(), Phone("10.0.0.2"), Phone("10.0.0.3")
    desk.ask(mia)
    refused = desk.ask(other, "Ola")
    assert refused["t"] == "refused" and "Another phone is asking for seat 1" in refused["why"]
    assert [seat for seat, *_ in desk.asking.shown()] == [MAYOR]
    assert desk.asking.asks[MAYOR].phone is mia


def test_accepted_the_phone_gets_its_token_before_the_box_tells_anyone():
    desk, mia = Desk(), Phone("10.0.0.2")
    desk.ask(mia)
    desk.steps.clear()
    desk.asking.answer(MAYOR, desk.code(), accept=True)
    assert [s[:3] for s in desk.steps] == [("sent", "10.0.0.2", "joined"), ("seated",)]
    token = desk.steps[0][3]["token"]
    assert desk.room.seat_of(token) == MAYOR and desk.room.names() == {MAYOR: "Mia"}
    assert (mia.seat, mia.last_sent) == (MAYOR, b"")       # its view is sent again, whole
    assert desk.asking.shown() == ()


def test_an_answer_with_another_code_answers_nobody():
    desk, mia = Desk(), Phone("10.0.0.2")
    desk.ask(mia)
    desk.steps.clear()
    desk.asking.answer(MAYOR, "0000" if desk.code() != "0000" else "0001", accept=True)
    assert desk.steps == [] and MAYOR not in desk.room.held and desk.asking.asks


def test_refused_on_the_box_the_address_waits_before_it_may_ask_again():
    desk, mia = Desk(), Phone("10.0.0.2")
    desk.ask(mia)
    desk.steps.clear()
    desk.asking.answer(MAYOR, desk.code(), accept=False)
    assert [s[:3] for s in desk.steps] == [("seated",), ("sent", "10.0.0.2", "refused")]
    assert MAYOR not in desk.room.held
    desk.clock.now += REFUSED_WAIT - 1.5
    again = desk.ask(Phone("10.0.0.2"))                       # a new socket, same address
    assert again["t"] == "refused" and "try again in 2 s" in again["why"]
    assert desk.ask(Phone("10.0.0.4"))["t"] == "asking"       # another address may ask
    desk.asking.answer(MAYOR, desk.code(), accept=False)
    desk.clock.now += REFUSED_WAIT
    assert desk.ask(mia)["t"] == "asking"
    desk.asking.new_game()                                    # another game forgets it all
    assert desk.asking.shown() == () and desk.asking.turned_away == {}


def test_a_phone_gone_or_seated_meanwhile_is_refused_though_accepted():
    desk, mia = Desk(), Phone("10.0.0.2")
    desk.ask(mia)
    mia.gone = True
    desk.steps.clear()
    desk.asking.answer(MAYOR, desk.code(), accept=True)
    assert [s[:3] for s in desk.steps] == [("seated",), ("sent", "10.0.0.2", "refused")]
    assert MAYOR not in desk.room.held and desk.asking.turned_away == {}


def test_a_name_taken_meanwhile_by_a_look_alike_is_refused_though_accepted():
    desk, mia = Desk(), Phone("10.0.0.2")
    desk.ask(mia, "Mia")
    desk.room.take(3, "MIA")
    desk.steps.clear()
    desk.asking.answer(MAYOR, desk.code(), accept=True)
    assert [s[:3] for s in desk.steps] == [("seated",), ("sent", "10.0.0.2", "refused")]
    assert MAYOR not in desk.room.held


def test_a_wrong_pin_is_counted_said_and_refused():
    desk, mia = Desk(), Phone("10.0.0.2")
    refused = desk.ask(mia, pin="0000" if PIN != "0000" else "1111")
    assert refused["t"] == "refused" and desk.room.wrong == 1
    assert desk.asking.said.counts == {"pin": 1} and desk.steps == [("seated",)]
    assert desk.asking.shown() == ()


def test_a_question_goes_with_its_phone_or_its_seat_s_guard():
    desk, mia, ola = Desk(), Phone("10.0.0.2"), Phone("10.0.0.3")
    desk.asking.guard(frozenset({MAYOR, 2}))
    desk.ask(mia)
    desk.ask(ola, "Ola", seat=2)
    desk.steps.clear()
    desk.asking.forget(mia)
    assert [seat for seat, *_ in desk.asking.shown()] == [2] and desk.steps == [("seated",)]
    desk.asking.forget(mia)                                   # gone already: nothing to say
    assert desk.steps == [("seated",)]
    desk.asking.guard(frozenset({MAYOR}))
    assert desk.asking.shown() == () and desk.steps == [("seated",), ("seated",)]

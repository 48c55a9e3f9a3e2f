"""Phones with the real box (issue 22): turned on in the config or on the
box, the page is served on loopback; a phone joins with the PIN the start
screen shows and follows the box's screen. Every byte the server sends is
recorded, and nothing meant for some eyes only ever reaches a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from pilot import Pilot
from sealed import SealedPhone as ClientConnection
from sealed import connect
from websockets.asyncio.server import ServerConnection

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.effects import ChangeSetting
from wolfbox.events import PhoneChoice
from wolfbox.newd3 import said as timed_said
from wolfbox.newd3.roles import is_wolf_team, role_name
from wolfbox.phones.server import PhoneServer
from wolfbox.view import View

WAIT = 10.0          # only a bound: each wait ends on a message from the server
SEATS = range(1, 10)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[ServerConnection, bytes]]:
    """Every message the phones' server sends, to whom, as it is before it
    is sealed (what the phone reads; test_phones_sealed.py looks at what
    travels)."""
    record: list[tuple[ServerConnection, bytes]] = []
    real = PhoneServer._deliver

    async def deliver(self, phone, message):
        if phone.channel is not None:
            record.append((phone.socket, message))
        return await real(self, phone, message)
    monkeypatch.setattr(PhoneServer, "_deliver", deliver)
    return record


def join_details(pilot: Pilot) -> tuple[str, str]:
    """The page's address and the PIN, as the screen between games shows them."""
    pilot.settle()
    card = pilot.view.join
    assert card is not None, "the screen says nothing of phones"
    assert re.fullmatch(r"\d{4}", card.pin)
    return card.url, card.pin


@contextmanager
def join(url: str, pin: str, seat: int, name: str) -> Iterator[ClientConnection]:
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT) as phone:
        phone.send('{"t": "hello"}')
        phone.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": name}))
        receive(phone, "joined")
        yield phone


def enc(value) -> bytes:
    """A value as the server writes it: compact UTF-8 JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def streams_by_seat(sent: list[tuple[ServerConnection, bytes]]) -> dict[int, bytes]:
    """Every byte each seat's phone was sent, in order, by the seat its
    socket was given ("joined")."""
    by_socket: dict[int, bytes] = {}
    for socket, message in sent:
        by_socket[id(socket)] = by_socket.get(id(socket), b"") + message
    return {int(m[1]): data for data in by_socket.values()
            if (m := re.search(rb'"t":"joined","seat":(\d+)', data))}


def box_hears(pilot: Pilot, done) -> None:
    """Let the box act on what the phones post until `done()`: each wait
    ends when something arrives in its inbox (60 s is only a bound)."""
    for _ in range(120):
        if done():
            return
        pilot.box.act(pilot.box.inbox.wait(0.5))
    raise AssertionError("the box never heard the phone")


def receive(phone: ClientConnection, kind: str, where=lambda m: True) -> dict:
    while True:
        message = json.loads(phone.recv(timeout=WAIT))
        if message["t"] == kind and where(message):
            return message


def test_a_phone_joins_with_the_pin_on_the_start_screen_and_follows_the_box(
        tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path))
    url, pin = join_details(pilot)
    assert url.startswith("http://127.0.0.1:")
    with join(url, pin, 2, "Ann") as ann:
        first = receive(ann, "view")
        assert first["title"] == pilot.view.title and first["seat_title"] == "Seat 2"
        pilot.settle()                                   # the box hears who joined
        assert pilot.view.join is not None and pilot.view.join.seated == ((2, "Ann"),)
        # The phone's own title then calls its seat by the name it gave.
        receive(ann, "view", lambda m: m["seat_title"] == "Ann · 2")
        pilot.press(Button.START)                        # the night falls
        night = receive(ann, "view", lambda m: m["title"] != first["title"])
        assert night["title"] == pilot.view.title and night["dim"]
        assert pilot.view.caption in night["lines"]
        # A choice no game asked for changes nothing, and crashes nothing.
        pilot.box.inbox.phoned(PhoneChoice(2, "n1.seer", (3,)))
        before = pilot.view
        pilot.settle()
        assert pilot.view.title == before.title


def test_phones_turned_on_and_off_on_the_box(tmp_path, pilots):
    pilot = pilots.start(phones_config(tmp_path, on=False))
    assert pilot.view.join is None
    pilot.box._apply([ChangeSetting("phones.enabled", True)])
    url, pin = join_details(pilot)
    with join(url, pin, 1, "Ann"):
        pass
    pilot.box._apply([ChangeSetting("phones.enabled", False)])
    pilot.settle()
    assert pilot.view.join is None
    with pytest.raises(OSError):
        connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT)


def test_no_screen_for_some_eyes_only_reaches_any_phone(tmp_path, pilots, sent):
    """The timed game's deal shows each seat its card on the box; with three
    phones joined, every byte sent to every phone through the deal is read
    for the words of those private screens: none is there."""
    pilot = pilots.start(phones_config(tmp_path, "newd3"), timed_said.all_lines(), warm=False)
    private: list[tuple[int, View]] = []          # (whose turn, the box's screen)
    public: list[str] = []                        # what the box's screens show everyone
    pilot.box.view_sinks.append(lambda v: private.append(
        (pilot.box.flow.active.current_turn().seat, v)) if v.private else public.extend(
        (v.title, v.big, v.caption, *v.details)))
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        phones = [stack.enter_context(join(url, pin, seat, f"P{seat}")) for seat in (1, 2, 3)]
        pilot.press(Button.START)                                    # the deal
        game = pilot.box.flow.active
        covered = lambda m: m["lines"] == [                           # noqa: E731
            "Night: keep your eyes closed until you are called."]
        for seat in SEATS:
            pilot.until(lambda s=seat: game.turns and game.current_turn().seat == s
                        and game.turn_stage == "wait", limit=900, step=0.5)
            pilot.press(Button.VOTE, hold=2.1)                       # the seat sees its card
            assert pilot.view.private                                # ... still, on the box
            for phone in phones if seat == 1 else ():                # and every phone is told
                receive(phone, "view", covered)                      # to keep its eyes closed
                # (and stays so: the same view for the whole deal, nothing new sent)
        pilot.until(lambda: pilot.box.flow.active.stage.value != "deal", limit=900)
        for phone in phones:                                         # all sent has arrived
            phone.send('{"t": "hello"}')
            receive(phone, "view", lambda m: not covered(m))
    assert len({v.big for _seat, v in private}) >= 2                 # cards were shown
    # A phone holds its own card behind its cover all game (the box's deal
    # shows it too); no phone is sent a word of another seat's screen.
    streams = streams_by_seat(sent)
    assert set(streams) == {1, 2, 3}
    cards = pilot.box.flow.active.seats
    role_words = {role_name(r) for r in cards}

    def partners(a: int, b: int) -> bool:
        """004: the Wolves' side know each other, and so do the Nobles."""
        x, y = cards[a - 1], cards[b - 1]
        return (is_wolf_team(x) and is_wolf_team(y)) or x == y == "noble"
    for seat, stream in streams.items():
        own = {t for s, v in private if s == seat or partners(s, seat)
               for t in (v.big, *v.details) if t}
        # The cards in play are public (the setup lists them): what is not
        # is whose screen a line was, its title, and what names a seat.
        others = {t for s, v in private if s != seat for t in (v.title, v.big, *v.details)
                  if t} - own
        others = {t for t in others if not any(t in shown for shown in public)
                  and (t.startswith("Seat ") or "Seat " in t or t not in role_words)}
        text = stream.decode()
        leaked = [w for w in others if json.dumps(w)[1:-1] in text]
        assert leaked == [], (seat, leaked)


def test_nine_phones_get_the_deal_each_its_own_card_and_no_other(tmp_path, pilots, sent):
    """Every seat holds a phone: the timed game deals on the phones in one
    step. Each phone is sent its own card behind the cover, and every byte
    sent to it holds no other seat's secret (its card's lines, its partner)."""
    from wolfbox.newd3.game import Stage
    pilot = pilots.start(phones_config(tmp_path, "newd3"), timed_said.all_lines(), warm=False)
    url, pin = join_details(pilot)
    received: dict[int, list[dict]] = {}
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}")) for seat in SEATS}
        pilot.settle()                                               # the game hears who joined
        pilot.press(Button.START)                                    # the deal, on the phones
        game = pilot.box.flow.active
        pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
        assert not pilot.view.private                                # nothing on the box
        for seat, phone in phones.items():
            received[seat] = [receive(phone, "view", lambda m: bool(m["secret"]))]
        pilot.until(lambda: game.stage is not Stage.DEAL, limit=120, step=0.5)
        for seat, phone in phones.items():                           # all sent has arrived
            phone.send('{"t": "hello"}')
            received[seat].append(receive(phone, "view", lambda m: not m["secret"]))
    cards = {seat: received[seat][0]["secret"] for seat in SEATS}
    assert {card[0] for card in cards.values()} >= {"Sheep"} and len(set(map(tuple,
                                                                        cards.values()))) > 1
    stream = streams_by_seat(sent)
    assert sorted(stream) == list(SEATS)
    from wolfbox.newd3.roles import role_name
    for seat in SEATS:
        assert cards[seat][0] == role_name(game.seats[seat - 1])     # its own card
        assert enc(cards[seat]) in stream[seat]
        for other in SEATS:
            if cards[other] != cards[seat]:                          # no other card
                assert enc(cards[other]) not in stream[seat], (seat, other)
            for line in cards[other]:
                if line.startswith("Your partner") and line not in cards[seat]:
                    assert enc(line) not in stream[seat], (seat, other)


def test_the_mayors_cards_go_each_to_its_own_phone_and_no_other(tmp_path, pilots, sent):
    """Seven phones at the Mayor's table: the box deals, and every byte sent
    to each phone holds its own card and no other seat's."""
    from wolfbox.darkarts import said as mayors_said
    from wolfbox.darkarts.roles import role_name
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}"))
                  for seat in range(1, 8)}
        pilot.settle()
        pilot.press(Button.START)                                    # the first night
        game = pilot.box.flow.active
        assert game.dealt is not None
        cards = {seat: receive(phone, "view", lambda m: bool(m["secret"]))["secret"]
                 for seat, phone in phones.items()}
    stream = streams_by_seat(sent)
    for seat, card in cards.items():
        assert card[0] == role_name(game.dealt[seat - 1])
        for other, theirs in cards.items():
            if theirs != card:
                assert enc(theirs) not in stream[seat], (seat, other)


def test_nine_phones_vote_a_player_out_and_each_sees_only_its_own_vote(tmp_path, pilots):
    """Day 1 of the timed game with a phone at every seat: each phone is
    asked the same question with the same choices but its own seat; five
    tap seat 3 and it is out once the table confirms the count."""
    from wolfbox.newd3.game import Stage
    pilot = pilots.start(phones_config(tmp_path, "newd3"), timed_said.all_lines(), warm=False)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        phones = {seat: stack.enter_context(join(url, pin, seat, f"P{seat}")) for seat in SEATS}
        pilot.settle()
        pilot.press(Button.START)
        game = pilot.box.flow.active
        pilot.until(lambda: game.stage is Stage.VOTE, limit=600, step=1.0)
        tasks = {seat: receive(phone, "view", lambda m: m["task"] is not None)["task"]
                 for seat, phone in phones.items()}
        assert {len(t["options"]) for t in tasks.values()} == {9}   # 8 others, a skip
        assert all(seat not in [o[0] for o in t["options"]] for seat, t in tasks.items())
        for voter in (1, 2, 4, 5, 6):
            phones[voter].send(json.dumps({"t": "choose", "step": tasks[voter]["step"],
                                           "choice": [3]}))
            box_hears(pilot, lambda v=voter: game.phone_votes.get(v) == 3)
            mine = receive(phones[voter], "view",
                           lambda m: m["task"] is not None and m["task"]["chosen"] == [3])
            assert mine["task"]["chosen"] == [3]                     # its own vote, marked
        pilot.settle()
        assert game.phone_view(7, pilot.clock.now).task.chosen == ()
        pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
        assert (game.tally, game.votes) == (3, 5)
        pilot.press(Button.START)                                    # the table confirms
        assert 3 in game.dead

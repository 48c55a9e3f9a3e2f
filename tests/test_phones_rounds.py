"""A table stays seated from round to round (issue 40, item 4): after a
game the phones keep their seats, names and tokens, and the next round
reaches them without a PIN; the PIN is for newcomers, a smaller table
frees exactly the seats past it, a power cut between rounds keeps the
seats, and the Mayor's console never carries over. Through the real box
and the real server on loopback, with simulated phones that never type a
PIN after their first."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

from sealed import connect
from test_onenight_phones_box import answer
from test_phones_box import box_hears, join_details, receive, sent  # noqa: F401

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.darkarts import said as mayors_said
from wolfbox.onenight.roles import role_name
from wolfbox.phones.room import Joined, Room
from wolfbox.view import Phase

WAIT = 10.0
DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "drunk", "villager",
        "insomniac"]
SEATS = range(1, 6)
NAMES = tuple((seat, f"P{seat}") for seat in SEATS)
WRONG_PIN = "That is not the PIN on the box's screen."
AGAIN = "Your seat is free again: type the PIN the box shows now."


def socket(url: str):
    return connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT, max_queue=None)


def seat(stack: ExitStack, url: str, pin: str, number: int, name: str = "") -> tuple:
    """A phone that joins `number` with `pin`: (its socket, its token)."""
    phone = stack.enter_context(socket(url))
    phone.send('{"t": "hello"}')
    phone.send(json.dumps({"t": "join", "pin": pin, "seat": number,
                           "name": name or f"P{number}"}))
    return phone, receive(phone, "joined")["token"]


def back(stack: ExitStack, url: str, token: str):
    """A phone's page opened again (a reload, a box come back): its token only."""
    phone = stack.enter_context(socket(url))
    phone.send(json.dumps({"t": "hello", "token": token}))
    return phone


def start_view(pilot, phones) -> None:
    """Every seated phone shows the start screen with the new deal's card,
    as the box has it for that seat now."""
    game = pilot.box.flow.active
    table = game.table
    assert game.phase is Phase.IDLE and table is not None and not table.started
    for number, phone in phones.items():
        shown = game.phone_view(number, pilot.clock.now)
        card = "Your card: " + role_name(table.dealt[number - 1])
        assert shown.secret[:1] == (card,)
        receive(phone, "view", lambda m, t=shown.title, c=card: m["title"] == t
                and m["secret"][:1] == [c] and m["task"] is None)


def a_round(pilot, phones) -> None:
    """One round on the phones, from the deal to the table's "Done" on
    the verdict: every call answered, every seat votes."""
    game = pilot.box.flow.active
    table = game.table
    chosen: dict = {}
    pilot.press(Button.START)
    while True:
        pilot.until(lambda: game.phase is not Phase.NIGHT or table.open, step=1.0)
        if game.phase is not Phase.NIGHT:
            break
        call = table.call
        for number, phone in phones.items():
            while table.task(number) is not None and not table.task(number).chosen:
                answer(pilot, phone, number, table, chosen)
        pilot.until(lambda c=call: table.call != c or not table.open, step=1.0)
    pilot.until(lambda: game.phase is Phase.DISCUSSION)
    pilot.press(Button.VOTE)
    pilot.until(lambda: table.voting)
    for number, phone in phones.items():
        answer(pilot, phone, number, table, chosen)
    pilot.until(lambda: game.phase is Phase.VERDICT, step=1.0)
    for phone in phones.values():
        receive(phone, "view", lambda m: bool(m.get("picture")))      # the night drawn
    pilot.press(Button.START)                                  # "Done": the next round
    pilot.until(lambda: game.phase is Phase.IDLE)
    assert not game.busy()


def sent_lobbies(sent, since: int) -> set[int]:  # noqa: F811
    """The seats whose phones (seated before message `since`) were sent
    the join form (a lobby) from then on."""
    by_socket: dict[int, list[tuple[int, dict]]] = {}
    for at, (connection, message) in enumerate(sent):
        by_socket.setdefault(id(connection), []).append((at, json.loads(message)))
    found = set()
    for messages in by_socket.values():
        seats = [m["seat"] for at, m in messages if m["t"] == "joined" and at < since]
        if seats and any(m["t"] == "lobby" for at, m in messages if at >= since):
            found.add(seats[0])
    return found


def one_night(tmp_path, pilots, seed: int = 1):
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    pilot = pilots.start(config)
    pilot.box.flow.active.rng = random.Random(seed)
    return pilot, config


def test_one_night_plays_three_rounds_and_no_phone_joins_again(
        tmp_path, pilots, sent):  # noqa: F811
    """Five phones join once; three rounds are played to their verdicts on
    them. Each round's deal reaches the same phones at the same seats,
    under the same names, with no PIN typed and no join form shown."""
    pilot, _config = one_night(tmp_path, pilots)
    url, pin = join_details(pilot)
    pins = [pin]
    with ExitStack() as stack:
        phones = {number: seat(stack, url, pin, number)[0] for number in SEATS}
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None)
        since = len(sent)
        for played in range(3):
            pilot.settle()
            assert pilot.view.join.seated == NAMES, played     # the box's card: who sits
            start_view(pilot, phones)
            a_round(pilot, phones)
            pins.append(next_pin(pilot, pins[-1]))      # a new PIN, for newcomers
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None)
        start_view(pilot, phones)                              # the fourth deal, too
        assert pilot.view.join.seated == NAMES
    assert sent_lobbies(sent, since) == set()


def end_round(pilot) -> None:
    """The table ends the round mid-night (hold BACK), back at the start."""
    pilot.press(Button.START)
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.NIGHT)
    pilot.press(Button.BACK, hold=2.0)
    pilot.until(lambda: not pilot.box.flow.busy())


def next_pin(pilot, old: str) -> str:
    """The PIN the start screen shows once the server has drawn the next
    game's (it answers the box on its own thread)."""
    box_hears(pilot, lambda: join_details(pilot)[1] != old)
    return join_details(pilot)[1]


def test_a_newcomer_needs_the_pin_and_a_smaller_table_frees_only_the_seats_past_it(
        tmp_path, pilots, sent):  # noqa: F811
    """After a round, the table grows by one: the newcomer needs the PIN
    the box shows now (the last round's is refused), and the five stay
    seated. Then the table shrinks to four: seats 5 and 6 go back to the
    list of seats, and seats 1 to 4 keep their phones and tokens."""
    pilot, _config = one_night(tmp_path, pilots)
    url, old_pin = join_details(pilot)
    with ExitStack() as stack:
        phones, tokens = {}, {}
        for number in SEATS:
            phones[number], tokens[number] = seat(stack, url, old_pin, number)
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None)
        since = len(sent)
        end_round(pilot)
        pin = next_pin(pilot, old_pin)
        pilot.press(Button.VOTE)                               # players +1: six seats
        assert pilot.view.join.seated == NAMES
        newcomer = stack.enter_context(socket(url))
        newcomer.send('{"t": "hello"}')
        lobby = receive(newcomer, "lobby", lambda m: m["seats"] == 6)
        assert set(lobby["taken"]) == {str(n) for n in SEATS}
        newcomer.send(json.dumps({"t": "join", "pin": old_pin, "seat": 6, "name": "Zoe"}))
        assert receive(newcomer, "refused")["why"] == WRONG_PIN
        newcomer.send(json.dumps({"t": "join", "pin": pin, "seat": 6, "name": "Zoe"}))
        assert receive(newcomer, "joined")["seat"] == 6
        phones[6] = newcomer
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None
                  and len(pilot.box.flow.active.table.dealt) == 9)
        start_view(pilot, phones)                              # six seats, six cards
        assert sent_lobbies(sent, since) == set()
        pilot.press(Button.BACK)                               # players −1, twice: four
        pilot.press(Button.BACK)
        box_hears(pilot, lambda: pilot.box.flow.active.phones == frozenset(range(1, 5)))
        pilot.settle()
        assert pilot.view.join.seated == NAMES[:4]
        for number in (5, 6):                                  # freed: the join form again
            receive(phones[number], "lobby", lambda m: m["seats"] == 4)
        start_view(pilot, {n: phones[n] for n in range(1, 5)})
        assert sent_lobbies(sent, since) == {5}                # and 6, the newcomer: no other
        for number in range(1, 5):                             # each token still its seat's
            again = back(stack, url, tokens[number])
            assert receive(again, "joined")["seat"] == number


def test_a_power_cut_between_rounds_keeps_the_table_seated(tmp_path, pilots):
    """A round ends, the power goes: the box comes back on its start
    screen with the same five seated under their names, each phone finds
    its seat by its token, and the new deal reaches it."""
    pilot, config = one_night(tmp_path, pilots)
    url, pin = join_details(pilot)
    tokens = {}
    with ExitStack() as stack:
        for number in SEATS:
            tokens[number] = seat(stack, url, pin, number)[1]
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None)
        end_round(pilot)
        pin = next_pin(pilot, pin)
        assert pilot.view.join.seated == NAMES
    pilots.close()                                             # the power goes
    again = pilots.start(config)
    url, kept_pin = join_details(again)
    assert kept_pin == pin and again.view.join.seated == NAMES
    with ExitStack() as stack:
        phones = {}
        for number in SEATS:
            phones[number] = back(stack, url, tokens[number])
            assert receive(phones[number], "joined")["seat"] == number
        box_hears(again, lambda: again.box.flow.active.table is not None)
        start_view(again, phones)


SEVEN = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "mason", "mason", "minion",
         "insomniac", "villager"]


def test_a_table_that_switches_games_stays_seated_across_a_power_cut(tmp_path, pilots):
    """Seven seated at One Night, the table picks the Mayor's game for
    seven: the seven stay, and a power cut there keeps them too."""
    config = phones_config(tmp_path)
    config.game.deck = list(SEVEN)
    config.mayor_players = 7
    pilot = pilots.start(config)
    url, pin = join_details(pilot)
    tokens = {}
    names = tuple((n, f"P{n}") for n in range(1, 8))
    with ExitStack() as stack:
        for number in range(1, 8):
            tokens[number] = seat(stack, url, pin, number)[1]
        box_hears(pilot, lambda: pilot.box.flow.active.table is not None)
        pilot.press(Button.VOTE, hold=2.0)                     # the next game: the Mayor's
        assert pilot.box.flow.name == "dark_arts" and pilot.box.flow.table_seats == 7
        pilot.settle()
        assert pilot.view.join.seated == names
    pilots.close()
    config.game.mode = "dark_arts"
    again = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, _pin = join_details(again)
    assert again.view.join.seated == names
    with ExitStack() as stack:
        for number in range(1, 8):
            assert receive(back(stack, url, tokens[number]), "joined")["seat"] == number


def test_the_mayors_console_does_not_carry_over_to_the_next_game(tmp_path, pilots):
    """Seven players and the Mayor's console: the game ends, and the next
    setup keeps the seven seated while the console's phone goes back to
    the list of seats; in the next game its token holds no seat, and the
    console must be asked for and accepted on the box again."""
    import re

    from test_mayor_phones_box import MAYOR
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    with ExitStack() as stack:
        tokens = {}
        for number in range(1, 8):
            tokens[number] = seat(stack, url, pin, number)[1]
        pilot.settle()
        pilot.press(Button.START)                              # the game: seat 8 opens
        console = stack.enter_context(socket(url))             # the Mayor's phone asks,
        console.send('{"t": "hello"}')
        console.send(json.dumps({"t": "join", "pin": pin, "seat": MAYOR, "name": "Mia"}))
        code = re.search(r"accept code (\d{4})", receive(console, "asking")["why"])[1]
        box_hears(pilot, lambda: pilot.box.flow.view(pilot.clock.now).big == code)
        pilot.press(Button.START)                              # and the box accepts it
        token = receive(console, "joined")["token"]
        pilot.press(Button.BACK, hold=2.0)                     # the game ended: asked,
        pilot.press(Button.BACK, hold=2.0)                     # and ended
        pilot.until(lambda: not pilot.box.flow.busy())
        receive(console, "lobby", lambda m: m["seats"] == 7)   # back to the list of seats
        _url, pin = join_details(pilot)
        assert pilot.view.join.seated == tuple((n, f"P{n}") for n in range(1, 8))
        pilot.press(Button.START)                              # the next game
        box_hears(pilot, lambda: MAYOR in pilot.box.flow.guarded_seats)
        again = back(stack, url, token)
        receive(again, "lobby", lambda m: m["seats"] == 8)     # the old console's token: no seat
        again.send(json.dumps({"t": "join", "pin": pin, "seat": MAYOR, "name": "Mia"}))
        assert "must accept this phone" in receive(again, "asking")["why"]
        for number in range(1, 8):
            assert receive(back(stack, url, tokens[number]), "joined")["seat"] == number


def test_the_next_round_keeps_the_seats_within_the_table_but_the_ones_freed():
    room = Room(seats=6, pin="4821")
    tokens = {}
    for number in range(1, 7):
        joined = room.join("a", "4821", number, f"P{number}", 0.0)
        assert isinstance(joined, Joined)
        tokens[number] = joined.token
    room.next_round(5, freed=frozenset({3}))
    assert room.names() == {1: "P1", 2: "P2", 4: "P4", 5: "P5"}
    assert {n: room.seat_of(t) for n, t in tokens.items()} == \
        {1: 1, 2: 2, 3: None, 4: 4, 5: 5, 6: None}
    assert room.seats == 5 and len(room.pin) == 4 and room.pin.isdigit()
    assert Room.restored(room.saved()).names() == room.names()     # the seats file too

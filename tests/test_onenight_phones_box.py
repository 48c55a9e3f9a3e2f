"""One Night on phones with the real box and the real server on loopback
(issue 22): five phones join, the box deals, every call gives every phone
a task and every phone answers, the phones vote, and the verdict and what
happened reach every phone. Every byte sent to every phone is recorded;
until the game is over no seat's stream holds another seat's secret (its
card, what it was told, what it learned) or another seat's choice."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from sealed import SealedPhone as ClientConnection
from sealed import connect
from test_phones_box import WAIT, box_hears, enc, join_details, receive, sent  # noqa: F401

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.onenight.phones import PhoneNight
from wolfbox.onenight.roles import role_name
from wolfbox.view import Phase

DECK = ["doppelganger", "werewolf", "werewolf", "seer", "robber", "troublemaker", "drunk",
        "insomniac"]
# Daybreak and the Bonus pack: a shield, the center werewolf card, the investigator, the
# witch, the idiot, the revealer, the curator, and the Doppelganger's later calls.
DAYBREAK = ["doppelganger", "sentinel", "alpha_wolf", "werewolf", "paranormal_investigator",
            "witch", "village_idiot", "revealer", "curator"]
SEATS = range(1, 6)


@contextmanager
def phone(url: str, hello: dict) -> Iterator[ClientConnection]:
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=WAIT) as socket:
        socket.send(json.dumps({"t": "hello", **hello}))
        yield socket


def join(stack: ExitStack, url: str, pin: str, seat: int) -> tuple[ClientConnection, str]:
    socket = stack.enter_context(phone(url, {}))
    socket.send(json.dumps({"t": "join", "pin": pin, "seat": seat, "name": f"P{seat}"}))
    return socket, receive(socket, "joined")["token"]


def frames_by_seat(sent) -> dict[int, list[bytes]]:  # noqa: F811
    """Every frame sent to each seat, over all its connections, in order."""
    by_socket: dict[int, list[bytes]] = {}
    for socket, message in sent:
        by_socket.setdefault(id(socket), []).append(message)
    out: dict[int, list[bytes]] = {}
    for frames in by_socket.values():
        seats = [json.loads(f)["seat"] for f in frames if b'"t":"joined"' in f]
        if seats:
            out.setdefault(seats[0], []).extend(frames)
    return out


TRYING: list[bool] = []


def usable(table, seat: int, step: str, ids: list[int], pick: int) -> list[list[int]]:
    """The first options, then the first ones the rules let the seat use
    (tried on a copy of the night): a refusal goes over the wire once, and
    the phone never taps faster than a person (the server's rate cap)."""
    tries = [ids[k:k + pick] for k in range(len(ids) - pick + 1)]
    TRYING.append(True)                       # what a trial tells is told to nobody
    try:
        for choice in tries[1:]:
            if copy.deepcopy(table).answer(seat, step, tuple(choice)):
                return tries[:1] + [choice]
        return tries[:1]
    finally:
        TRYING.pop()


def answer(pilot, socket: ClientConnection, seat: int, table, chosen: dict) -> None:
    """The seat's phone answers its task as it is shown: the first options,
    or, if the rules refuse them (a shielded card, a pick its role cannot
    use), ones they allow."""
    task = table.task(seat) if pilot.box.flow.active.phase is Phase.NIGHT \
        else table.vote_task(seat)
    shown = receive(socket, "view", lambda m: m["task"] is not None
                    and m["task"]["step"] == task.step)["task"]
    ids = [o for o, _w in shown["options"]]
    night = task.step.endswith(tuple("012"))
    for choice in (usable(table, seat, task.step, ids, shown["pick"]) if night
                   else [ids[:shown["pick"]]]):
        table.refused.pop(seat, None) if task.step.endswith(tuple("012")) else None
        socket.send(json.dumps({"t": "choose", "step": shown["step"], "choice": choice}))
        chosen[(seat, shown["step"])] = choice
        if not task.step.endswith(tuple("012")):
            box_hears(pilot, lambda c=choice: table.votes.get(seat) == c[0])
            return
        box_hears(pilot, lambda: table.task(seat) != task or seat in table.refused)
        if table.task(seat) != task:
            return
        # Refused: the phone shows why before it tries again, as a player
        # reads it before the next tap (in a call the box sends a phone its
        # view on the cover's beat, not at once).
        why = table.refused[seat]
        receive(socket, "view", lambda m, w=why: w in m["secret"])
    raise AssertionError(f"seat {seat}: every answer refused")


def told(monkeypatch) -> dict[int, set[str]]:
    """What the night tells each seat, as the game makes it (not as a view
    composes it): its role's instructions and what its actions showed."""
    own: dict[int, set[str]] = {}
    real_result, real_asked = PhoneNight._result, PhoneNight._asked
    real_answer, real_token = PhoneNight.answer, PhoneNight._token

    def answered(self, seat, step, choice):
        taken = real_answer(self, seat, step, choice)
        if seat in self.refused and not TRYING:       # why its answer was refused
            own.setdefault(seat, set()).add(self.refused[seat])
        return taken

    def token(self, seat):
        texts = real_token(self, seat)
        if not TRYING:
            own.setdefault(seat, set()).update(texts)
        return texts

    def result(self, seat, text):
        if not TRYING:
            own.setdefault(seat, set()).add(text)
        return real_result(self, seat, text)

    def asked(self, seat):
        text = real_asked(self, seat)
        if not text.startswith("Not your call") and not TRYING:   # everyone's decoy
            own.setdefault(seat, set()).add(text)
        return text
    monkeypatch.setattr(PhoneNight, "_result", result)
    monkeypatch.setattr(PhoneNight, "_asked", asked)
    monkeypatch.setattr(PhoneNight, "answer", answered)
    monkeypatch.setattr(PhoneNight, "_token", token)
    return own


def play(tmp_path, pilots, sent, monkeypatch, seed: int,  # noqa: F811
         drop: int | None = None, deck: list[str] = DECK) -> None:
    own = told(monkeypatch)
    config = phones_config(tmp_path)
    config.game.deck = list(deck)
    pilot = pilots.start(config)
    game = pilot.box.flow.active
    game.rng = random.Random(seed)
    url, pin = join_details(pilot)
    chosen: dict[tuple[int, str], list[int]] = {}
    with ExitStack() as stack:
        phones, tokens = {}, {}
        for seat in SEATS:
            phones[seat], tokens[seat] = join(stack, url, pin, seat)
        pilot.settle()
        table = game.table
        assert table is not None and sorted(table.dealt) == sorted(deck)
        for seat in SEATS:                               # its card, before the night
            receive(phones[seat], "view", lambda m, s=seat: m["secret"][:1] == [
                "Your card: " + role_name(table.dealt[s - 1])])
        pilot.press(Button.START)
        calls = 0
        while True:
            pilot.until(lambda: game.phase is not Phase.NIGHT or table.open, step=1.0)
            if game.phase is not Phase.NIGHT:
                break
            calls += 1
            call = table.call
            for seat in SEATS:
                while table.task(seat) is not None and not table.task(seat).chosen:
                    answer(pilot, phones[seat], seat, table, chosen)
            if drop is not None and calls == 3:           # a phone drops and comes back
                phones[drop].close()
                phones[drop] = stack.enter_context(phone(url, {"token": tokens[drop]}))
                back = receive(phones[drop], "view", lambda m: m["task"] is not None)
                assert back["task"]["chosen"] == chosen[(drop, back["task"]["step"])]
            pilot.until(lambda c=call: table.call != c or not table.open, step=1.0)
        tasks = [s for s in game.settings.night if s.id not in ("close_eyes", "wake_up")]
        assert calls == len(tasks) and table.moves       # every call of the deck was made
        pilot.until(lambda: game.phase is Phase.DISCUSSION)
        pilot.press(Button.VOTE)                         # the table votes now
        pilot.until(lambda: table.voting)
        for seat in SEATS:
            answer(pilot, phones[seat], seat, table, chosen)
        pilot.until(lambda: game.phase is Phase.VERDICT, step=1.0)
        assert game.busy() and not pilot.view.join       # the phones keep their seats
        for seat in SEATS:                               # the verdict and what happened
            shown = receive(phones[seat], "view", lambda m: m["picture"] is not None)
            assert shown["picture"]["list"] == table.happened()
    for seat in SEATS:
        own.setdefault(seat, set()).add("Your card: " + role_name(table.dealt[seat - 1]))
    check_privacy(frames_by_seat(sent), chosen, own)
    return table


def check_privacy(frames: dict[int, list[bytes]], chosen: dict,
                  own: dict[int, set[str]]) -> None:
    assert sorted(frames) == list(SEATS)
    before: dict[int, bytes] = {}
    lines: dict[int, set[str]] = {}
    for seat, sent_to in frames.items():
        played = []
        for frame in sent_to:
            if b'"title":"Verdict"' in frame:
                break                                    # the game is over: all is public
            played.append(frame)
            message = json.loads(frame)
            if message["t"] != "view":
                continue
            lines.setdefault(seat, set()).update(message["secret"])
            task = message["task"]
            if task is not None and task["chosen"]:      # only its own choice, marked
                assert task["chosen"] == chosen[(seat, task["step"])], (seat, task)
        before[seat] = b"".join(played)
    results = {line for mine in lines.values() for line in mine
               if line.startswith(("Seat", "Center card", "You took", "You swapped"))}
    assert results                                       # the night told seats things
    assert len({line for mine in lines.values() for line in mine
                if line.startswith("Your card:")}) >= 4
    for seat in SEATS:
        assert own[seat] <= lines[seat], seat               # each phone was told its own
        for other in SEATS:
            for line in own[other] - own[seat]:          # and never another seat's
                assert enc(line) not in before[seat], (seat, other, line)


@pytest.mark.parametrize("seed, drop", [(1, None), (2, 3)])
def test_a_whole_game_on_phones_sends_each_phone_only_its_own_secrets(
        tmp_path, pilots, sent, monkeypatch, seed, drop):  # noqa: F811
    play(tmp_path, pilots, sent, monkeypatch, seed, drop)


@pytest.mark.parametrize("seed, drop", [(3, None), (4, 2)])
def test_a_daybreak_game_on_phones_sends_each_phone_only_its_own_secrets(
        tmp_path, pilots, sent, monkeypatch, seed, drop):  # noqa: F811
    table = play(tmp_path, pilots, sent, monkeypatch, seed, drop, DAYBREAK)
    assert table.shields and table.artifacts              # the night marked cards

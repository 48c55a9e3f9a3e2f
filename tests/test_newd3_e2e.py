"""The timed game of 004 end to end on the box's buttons, as issue 12 asks:
nine seats on mock pins and a fake clock, with nobody moderating.

The table picks setup A1 (Wolf, Alchemist, Seer, Guard, five Sheep) on the
setup screen; the box deals it at random, and the test learns each seat's
card the way its player does, by holding VOTE in the seat's deal turn.
Then:

- Day 1 runs its two clocks out; the table points, enters a tie: nobody out.
- Night 1: the Guard protects the Wolves' victim, so the kill fails; the Seer
  inspects the Alchemist and reads "Wolf" in her own turn.
- Day 2: the table votes early; the Alchemist is out with 5 of 9 (a strict
  majority); the day screen then allows only A1, A2 and A3.
- Night 2: the dead Alchemist's call is still made, whole; a Sheep dies.
- Day 3: 3 votes of the 4 needed: nobody is out.
- Night 3: the Wolf kills with no knife marked (the box hands it to him).
- Day 4: the Wolf is out with 4 of 6: both Wolves are dead, the Town wins.

The second test plays eight nights where nobody is ever put out or killed:
a draw. The third cuts the power in a night and resumes it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pilot import Pilot

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.newd3 import said
from wolfbox.newd3.game import Game, Stage
from wolfbox.newd3.roles import ROLES
from wolfbox.newd3.rules import DISCUSSION, MAX_NIGHTS, VOTE
from wolfbox.newd3.turns import CALLS, Kind, Times
from wolfbox.view import Phase

SEATS = range(1, 10)
BY_NAME = {r.name: r.id for r in ROLES.values()}       # the screen's name -> role id


def timed_config(tmp_path: Path) -> Config:
    c = Config()
    c.game.mode = "newd3"
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    return c


@pytest.fixture
def pilot(tmp_path, pilots):
    return pilots.start(timed_config(tmp_path), said.all_lines(), warm=False)


def game(pilot: Pilot) -> Game:
    return pilot.box.flow.active


def heard(pilot: Pilot) -> list[str]:
    return [p.text for p in pilot.parts.narrator.played]


def in_window(pilot: Pilot) -> bool:
    g = game(pilot)
    return g.stage in (Stage.DEAL, Stage.NIGHT) and g.turn_stage == "wait"


def window(pilot: Pilot, turn_id: str, seat: int = 0) -> float:
    """Wait for the window of turn `turn_id` (of `seat`); the time it opened."""
    def there() -> bool:
        turn = game(pilot).current_turn() if game(pilot).turns else None
        return in_window(pilot) and turn is not None and turn.id == turn_id \
            and (not seat or turn.seat == seat)
    pilot.until(there, limit=900, step=0.5)
    return pilot.clock.now


def window_closes(pilot: Pilot) -> float:
    pilot.until(lambda: not in_window(pilot), limit=120, step=0.1)
    return pilot.clock.now


def next_until(pilot: Pilot, big: str) -> None:
    for _ in range(12):
        if pilot.view.big == big:
            return
        pilot.press(Button.NEXT)
    raise AssertionError(f"NEXT never reached {big!r}; the screen shows {pilot.view.big!r}")


def choose(pilot: Pilot, turn_id: str, target: int) -> None:
    window(pilot, turn_id)
    next_until(pilot, f"Seat {target}")
    pilot.press(Button.VOTE)
    assert [s.seat for s in pilot.view.seats if s.marked] == [target]


def kill(pilot: Pilot, victim: int, knife: int | None, wolves: int = 1) -> None:
    """The first `wolves` Wolves, one after the other, each mark `victim`
    and `knife` (None: no knife marked) in their own slot."""
    window(pilot, "kill")
    for n in range(1, wolves + 1):
        if n > 1:
            pilot.press(Button.START)                   # to the next Wolf's slot
        assert pilot.view.title.startswith(f"Wolves · Wolf {n}: victim · ")
        next_until(pilot, f"Seat {victim}")
        pilot.press(Button.VOTE)                        # this Wolf's mark
        pilot.press(Button.START)                       # to its knife
        assert pilot.view.title.startswith(f"Wolves · Wolf {n}: knife · ")
        if knife is not None:
            next_until(pilot, f"Seat {knife}")
            pilot.press(Button.VOTE)


def read_message(pilot: Pilot, seat: int) -> tuple[str, tuple[str, ...]]:
    """Seat `seat` holds VOTE in its message turn and reads the screen."""
    window(pilot, "look", seat)
    assert pilot.view.big == "Hold VOTE"
    pilot.press(Button.VOTE, hold=2.1)
    return pilot.view.big, pilot.view.details


def to_tally(pilot: Pilot, limit: float = 400) -> None:
    pilot.until(lambda: game(pilot).stage is Stage.TALLY, limit=limit, step=0.5)


def enter_votes(pilot: Pilot, seat: int, votes: int) -> None:
    """The table enters the seat with the most votes, and its count."""
    to_tally(pilot)
    next_until(pilot, f"Seat {seat}")
    pilot.press(Button.VOTE)                            # most votes
    for _ in range(votes):
        pilot.press(Button.VOTE)
    assert pilot.view.big == str(votes)
    pilot.press(Button.START)                           # done: the box applies 004


def night_lines(pilot: Pilot, began: int) -> list[tuple[float, str]]:
    """The lines of a night and when each was said, from the night's start."""
    played = pilot.parts.narrator.played[began:]
    start = played[0].at
    return [(round(p.at - start, 3), p.text) for p in played]


def test_nine_seats_play_the_timed_game_to_a_town_win(pilot):
    # Setup: the table picks A1 (VOTE steps from "Random" through A1..C3).
    assert (pilot.view.title, pilot.view.big) == ("Timed Werewolf for nine", "Random")
    pilot.press(Button.VOTE)
    assert (pilot.view.big, pilot.view.details[1]) == (
        "A1", "A1: Wolf, Alchemist, Seer, Guard, 5× Sheep")
    pilot.press(Button.START)                           # deal

    # The deal: each seat in turn holds VOTE and sees its card; the same
    # window for every card.
    cards: dict[int, str] = {}
    notes: dict[int, tuple[str, ...]] = {}
    for seat in SEATS:
        window(pilot, "card", seat)
        assert pilot.view.big == "Hold VOTE"            # nothing shown before the hold
        pilot.press(Button.VOTE, hold=2.1)
        cards[seat], notes[seat] = BY_NAME[pilot.view.big], pilot.view.details
    assert sorted(cards.values()) == sorted(
        ["wolf", "alchemist", "seer", "guard"] + ["sheep"] * 5)
    # Every seat's turn took the same time, whatever its card: the calls
    # came at equal steps, each longer than the card's window.
    played = pilot.parts.narrator.played
    calls = [p.at for p in played if p.text.endswith("Hold VOTE to see your card.")]
    steps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert len(calls) == 9 and max(steps) - min(steps) < 1e-6 and steps[0] > Times().card
    seat_of = {role: s for s, role in cards.items() if role != "sheep"}
    wolf, alchemist, seer, guard = (seat_of[r] for r in ("wolf", "alchemist", "seer", "guard"))
    sheep = sorted(s for s, role in cards.items() if role == "sheep")
    assert f"Your partner: Seat {alchemist}, Alchemist" in notes[wolf]  # Wolves know each other
    assert f"Your partner: Seat {wolf}, Wolf" in notes[alchemist]
    assert not any("partner" in n for n in notes[seer])

    # Day 1: both clocks run out, with their warnings; then 3, 2, 1, point.
    pilot.until(lambda: game(pilot).stage is Stage.DISCUSSION, limit=60)
    began = pilot.clock.now
    assert pilot.view.title == "Day 1 · Discussion"
    pilot.until(lambda: game(pilot).stage is Stage.VOTE, limit=400, step=0.5)
    assert pilot.clock.now - began == pytest.approx(DISCUSSION, abs=0.6)
    to_tally(pilot)
    assert pilot.clock.now - began == pytest.approx(DISCUSSION + VOTE + 3, abs=1.2)
    day_1 = heard(pilot)[heard(pilot).index("Day 1. The discussion begins."):]
    assert day_1 == ["Day 1. The discussion begins.", "1 minute left.", "30 seconds left.",
                     "10 seconds left.", "Time to vote. When the count ends, everyone alive "
                     "points at a player, or at the ceiling to skip.",
                     "10 seconds left.", "Three.", "Two.", "One.", "Point!"]
    assert pilot.view.title == "Who has the most votes?"
    pilot.press(Button.START)                           # a tie
    assert (pilot.view.big, pilot.view.details[0]) == ("Nobody out", "A tie")
    pilot.press(Button.START)                           # OK: said, then night 1
    pilot.until(lambda: game(pilot).stage is Stage.NIGHT, limit=30)
    assert heard(pilot)[-2:] == ["A tie: nobody is out.", "Night 1. Everyone, close your eyes."]

    # Night 1: a blocked kill, a Seer's result.
    mark = len(heard(pilot)) - 1
    assert not pilot.view.seats and pilot.view.title == "Night 1"
    choose(pilot, "alchemist", sheep[3])
    choose(pilot, "guard", sheep[0])
    kill(pilot, sheep[0], wolf, wolves=2)
    choose(pilot, "seer", alchemist)
    messages = {seat: read_message(pilot, seat) for seat in sorted((seer, sheep[0]))}
    big, details = messages[seer]
    assert (big, details[1]) == ("Wolf", f"Seat {alchemist} is on the Wolves' side.")
    assert messages[sheep[0]][0] == "Nothing"
    pilot.until(lambda: game(pilot).stage is Stage.DISCUSSION, limit=300)
    night_1 = night_lines(pilot, mark)
    assert [text for _at, text in night_1][-3:] == [
        "Everyone, open your eyes.", "Nobody died in the night.", "Day 2. The discussion begins."]

    # Day 2: the table votes early; the Alchemist is out with 5 of 9.
    assert pilot.view.details == ("Possible setups: A1 A2 A3 B1 B2 B3 C1 C2 C3",) or \
        pilot.view.details[0].startswith("Day 2")
    pilot.press(Button.VOTE)                            # a tap does not end the day
    assert game(pilot).stage is Stage.DISCUSSION
    pilot.press(Button.VOTE, hold=2.1)                  # hold: vote now
    assert game(pilot).stage is Stage.VOTE
    pilot.press(Button.VOTE, hold=2.1)                  # hold: point now
    enter_votes(pilot, alchemist, 5)
    assert (pilot.view.big, pilot.view.details) == (
        "Out", (f"Seat {alchemist}: 5 votes", "9 alive: 5 votes put a seat out."))
    pilot.press(Button.START)
    pilot.until(lambda: game(pilot).stage is Stage.NIGHT, limit=30)
    mark = heard(pilot).index("Night 2. Everyone, close your eyes.")
    assert heard(pilot)[mark - 3:mark] == [
        f"Seat {alchemist} is out, with 5 votes.",
        f"Seat {alchemist} was the Alchemist, on the Wolves' side.",
        f"Seat {alchemist}, you are out: say nothing, do not point, and keep your eyes "
        "closed at night."]

    # Night 2: the dead Alchemist is called, his window whole; a Sheep dies.
    choose(pilot, "guard", sheep[0])
    said_at = {p.text: p.at for p in pilot.parts.narrator.played[mark:]}
    assert said_at["Alchemist, close your eyes."] - said_at[
        "Alchemist, open your eyes and choose a seat to block."] > Times().action
    kill(pilot, sheep[1], wolf)
    choose(pilot, "seer", sheep[2])
    big, _details = read_message(pilot, seer)
    assert big == "Not a Wolf"
    pilot.until(lambda: game(pilot).stage is Stage.DISCUSSION, limit=300)
    night_2 = night_lines(pilot, mark)
    assert [text for _at, text in night_2][-5:-1] == [
        "Everyone, open your eyes.", f"Seat {sheep[1]} was killed in the night.",
        f"Seat {sheep[1]} was the Sheep, on the Town's side.",
        f"Seat {sheep[1]}, you are out: say nothing, do not point, and keep your eyes "
        "closed at night."]
    # The two nights sounded the same, line for line and second for second,
    # though a different number of seats were alive and acting.
    calls = len(CALLS) * 2 + 9 * 2 + 1
    assert [at for at, _t in night_1[:calls]] == [at for at, _t in night_2[:calls]]
    assert [t for _at, t in night_1[1:calls]] == [t for _at, t in night_2[1:calls]]

    # Day 3: the dead Alchemist leaves three setups; 3 votes of 4: nobody out.
    said_out = lambda: pilot.until(lambda: game(pilot).speech.line is None, limit=30)  # noqa: E731
    said_out()
    assert pilot.view.details == ("Possible setups: A1 A2 A3",)
    assert [(s.seat, s.role) for s in pilot.view.seats if not s.alive] == sorted(
        [(alchemist, "Alchemist"), (sheep[1], "Sheep")])
    pilot.press(Button.NEXT)                            # the setup tracker
    assert pilot.view.phase is Phase.VERDICT
    assert pilot.view.title == "Setups still possible · 1/2"
    assert pilot.view.details[:3] == ("A1: Wolf, Alchemist, Seer, Guard, 5× Sheep",
                                      "A2: Wolf, Alchemist, Chef, Priest, 5× Sheep",
                                      "A3: Wolf, Alchemist, 2× Noble, 5× Sheep")
    pilot.press(Button.START)                           # back to the day
    enter_votes(pilot, wolf, 3)
    assert (pilot.view.big, pilot.view.details[1]) == (
        "Nobody out", "7 alive: 4 votes put a seat out.")
    assert heard(pilot)[-1] == "Point!"                 # nothing said before it is confirmed
    pilot.press(Button.START)
    pilot.until(lambda: game(pilot).stage is Stage.NIGHT, limit=30)
    assert heard(pilot)[-3:] == ["3 votes, and 4 were needed.", "Nobody is out.",
                                 "Night 3. Everyone, close your eyes."]

    # Night 3: no knife marked: the only living Wolf holds it.
    choose(pilot, "guard", seer)
    kill(pilot, sheep[2], None)
    pilot.until(lambda: game(pilot).stage is Stage.DISCUSSION, limit=300)
    assert f"Seat {sheep[2]} was killed in the night." in heard(pilot)

    # Day 4: the Wolf is out with 4 of 6: the Town wins.
    enter_votes(pilot, wolf, 4)
    pilot.press(Button.START)
    pilot.until(lambda: game(pilot).stage is Stage.END and game(pilot).speech.line is None,
                limit=30)
    assert heard(pilot)[-4:] == [f"Seat {wolf} is out, with 4 votes.",
                                 f"Seat {wolf} was the Wolf, on the Wolves' side.",
                                 said.silent(wolf),
                                 "Both Wolves are dead. The Town wins."]
    assert pilot.view.title == "The Town wins · 1/2"
    shown = list(pilot.view.details)
    pilot.press(Button.NEXT)
    shown += pilot.view.details
    assert shown[0] == "The setup was A1."
    assert f"Seat {wolf}: Wolf, Wolves (died)" in shown
    assert f"Seat {seer}: Seer, Town" in shown
    assert list(pilot.parts.narrator.missed) == []      # every line heard, none a caption


def test_eight_nights_without_a_death_are_a_draw(pilot):
    pilot.press(Button.START)                           # a random setup
    for _day in range(MAX_NIGHTS):
        to_tally(pilot, limit=1500)
        pilot.press(Button.START)                       # a tie
        pilot.press(Button.START)                       # OK: the night
    pilot.until(lambda: game(pilot).stage is Stage.END and game(pilot).speech.line is None,
                limit=900, step=1.0)
    assert game(pilot).night == MAX_NIGHTS and not game(pilot).dead
    assert heard(pilot)[-1] == "Eight nights have passed and nobody has won. The game is a draw."
    assert pilot.view.title.startswith("A draw")


def test_a_power_cut_in_the_night_resumes_that_night(tmp_path, pilots):
    first = pilots.start(timed_config(tmp_path), said.all_lines(), warm=False)
    first.press(Button.START)
    first.until(lambda: game(first).stage is Stage.DISCUSSION, limit=400, step=0.5)
    cards = game(first).seats
    to_tally(first)
    first.press(Button.START)
    first.press(Button.START)
    choose(first, "alchemist", 1 if game(first).seats[0] != "alchemist" else 2)
    first.parts.close()                                 # the power goes
    state = json.loads((tmp_path / "state" / "wolfbox" / "state.json").read_text())
    assert state["games"]["newd3"]["stage"] == "night"

    again = pilots.start(timed_config(tmp_path), fill=False, warm=False)
    try:
        assert again.view.title == "Resume the saved game?"
        assert again.view.details == ("Night 1, from its start",)
        again.press(Button.START)
        assert game(again).stage is Stage.NIGHT and game(again).seats == cards
        assert game(again).turns[0].kind is Kind.PLAN and game(again).turn_index == 0
    finally:
        again.parts.close()

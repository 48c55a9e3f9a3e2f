"""Werewolf with a Mayor (Werewolves of the Dark Arts) end to end, as issue 11
asks: a whole game of 7 players on the box's buttons (two nights, a failed
vote, a lynch, a Hunter chain, a win), then the same game in a real process,
killed mid-game and resumed.

The seat plan, which the box never knows (the test plays the table):
1 werewolf, 2 hunter, 3 seer, 4 matchmaker, 5 villager, 6 werewolf, 7 villager.
The Matchmaker makes 5 and 6 the Lovers. Night 1 the werewolves kill 7.
Day 1: seat 2 is accused and seconded, 2 hands of the 3 needed: the vote
fails; seat 1 is accused, 3 hands, just enough: lynched, a Werewolf. Night 2 the werewolves
kill 2, the Hunter; he shoots 6, the other Werewolf; 5, 6's Lover, dies of a
broken heart. Left alive: 3 and 4, no werewolf: the village wins.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import Lines
from pilot import Pilot

from helpers import fill_cache
from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.darkarts import said
from wolfbox.darkarts.game import Stage
from wolfbox.view import Phase

PLAYERS = 7
LINES = said.all_lines(PLAYERS)          # everything this table can hear
# What night 2 says (the same whoever has died), and the book at the end of the
# seat plan's game: the whole story.
NIGHT_2 = [
    "Night falls. Everyone, close your eyes.",
    "Werewolves, open your eyes. Agree in silence on your victim and point at them.",
    "Werewolves, close your eyes.",
    "Seer, open your eyes. Point at a player: the Mayor shows you whether they are a "
    "werewolf.",
    "Seer, close your eyes.",
    "Everyone, open your eyes. Stay silent until the Mayor has told you who died."]
BOOK = [
    "Night 1: Seat 7 died (Villager).",
    "Day 1: Seat 2 accused, seconded.",
    "Day 1: 2 votes to lynch Seat 2, 3 needed: failed.",
    "Day 1: Seat 1 accused, seconded.",
    "Day 1: 3 votes to lynch Seat 1, 3 needed: lynched.",
    "Day 1: Seat 1 was lynched (Werewolf).",
    "Night 2: Seat 2 died (Hunter).",
    "Day 2: the Hunter, Seat 2, shot Seat 6 (Werewolf).",
    "Day 2: Seat 5 (Villager) died of a broken heart for Seat 6.",
    "The village wins."]


def mayor_config(tmp_path: Path) -> Config:
    c = Config()
    c.game.mode = "dark_arts"
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    return c


@pytest.fixture
def pilot(tmp_path, pilots):
    """The real box in Mayor mode, with a tone for every line it can say (a
    stand-in voice)."""
    return pilots.start(mayor_config(tmp_path), LINES, warm=False)


def heard(pilot: Pilot) -> list[str]:
    """Every line the narrator has played, in order."""
    return [p.text for p in pilot.parts.narrator.played]


def stage(pilot: Pilot) -> Stage:
    return pilot.box.flow.active.stage


def next_until(pilot: Pilot, big: str) -> None:
    """NEXT until the screen's big value reads `big` (a seat, a role, a count)."""
    for _ in range(2 * PLAYERS):
        if pilot.view.big == big:
            return
        pilot.press(Button.NEXT)
    raise AssertionError(f"NEXT never reached {big!r}; the screen shows {pilot.view.big!r}")


def enter_card(pilot: Pilot, role: str) -> None:
    """The card picker starts on none: NEXT to `role`, START shows it back,
    START again (OK) enters it."""
    assert pilot.view.big == "Not chosen"
    next_until(pilot, role)
    pilot.press(Button.START)
    assert pilot.view.details[0].endswith(f"card: {role}. Right?")
    pilot.press(Button.START)


def confirm(pilot: Pilot, question: str) -> None:
    """An entry shown back: the question, then OK."""
    assert pilot.view.details[0] == question, pilot.view.details
    assert pilot.view.label(Button.START) == "OK"
    pilot.press(Button.START)


def said_out(pilot: Pilot) -> None:
    """Let every queued line be said (the Mayor waits for the box to finish)."""
    pilot.until(lambda: pilot.box.flow.active.speech.line is None, limit=60)


def test_a_seven_player_game_on_the_buttons(pilot, tmp_path):
    """The whole game of the seat plan above, on mock buttons and a fake clock, as a
    Mayor plays it: what the table hears and what the screen shows at each step."""
    narrator = pilot.parts.narrator
    assert narrator.sound, "the dummy audio driver should give a mixer"

    # Setup: the Mayor sets the table with the buttons. NEXT moves between the
    # items (players, then each role), VOTE and BACK change the value.
    assert (pilot.view.title, pilot.view.details[0], pilot.view.big) == (
        "Werewolf with a Mayor", "Players", "7")
    pilot.press(Button.VOTE)
    assert pilot.view.big == "8"
    pilot.press(Button.BACK)
    assert pilot.view.big == "7"
    # A new box offers two werewolves, the Hunter and the Matchmaker for 7.
    for role in ("Werewolf", "Hunter", "Matchmaker", "Seer"):
        pilot.press(Button.NEXT)
        assert pilot.view.details[0] == role
        if role == "Seer":
            pilot.press(Button.VOTE)
        assert pilot.view.big == ("2" if role == "Werewolf" else "1")
    assert pilot.view.details[1] == \
        "Deal: 2× Werewolf, Hunter, Matchmaker, Seer, 2× Villager"

    # Night 1 runs on its own clock: only START (pause) does anything.
    pilot.press(Button.START)
    night_began = pilot.clock.now
    assert stage(pilot) is Stage.NIGHT
    assert pilot.view.dim and pilot.view.title == "Night 1 · Eyes closed"
    assert dict(pilot.view.legend) == {Button.START: "Pause", Button.NEXT: "Hold: book",
                                       Button.BACK: "Hold: end game"}   # nothing to undo
    pilot.until(lambda: pilot.box.flow.active.night_stage == "wait")
    assert pilot.view.title == "Night 1 · Matchmaker"
    for button in (Button.NEXT, Button.VOTE, Button.BACK):      # no skipping
        pilot.press(button)
    assert pilot.view.title == "Night 1 · Matchmaker"
    pilot.until(lambda: stage(pilot) is Stage.LOVERS, limit=120)
    assert pilot.clock.now - night_began >= 20         # the Matchmaker's time, whole
    night_1 = [
        "Night falls. Everyone, close your eyes.",
        "Matchmaker, open your eyes. Point at two players: they are the Lovers. If one of "
        "them dies, the other dies of a broken heart.",
        "Matchmaker, close your eyes."]
    assert heard(pilot) == night_1

    # The Mayor marks the Lovers on the ring, undimmed while the table sleeps.
    assert pilot.view.title == "Night 1 · Lovers" and not pilot.view.dim
    assert pilot.view.label(Button.START) == ""           # not done before two are marked
    assert pilot.view.big == "Not chosen"                  # no seat offered first
    pilot.press(Button.VOTE)                               # a hurried "Lover" marks nobody
    assert pilot.box.flow.active.picked == [] and pilot.view.big == "Not chosen"
    next_until(pilot, "Seat 5")
    pilot.press(Button.VOTE)
    next_until(pilot, "Seat 6")
    pilot.press(Button.VOTE)
    assert [s.seat for s in pilot.view.seats if s.marked] == [5, 6]
    pilot.press(Button.START)
    assert stage(pilot) is Stage.NIGHT
    assert pilot.view.label(Button.VOTE) == "Hold: undo"      # the Lovers are an entry
    took = pilot.until(lambda: stage(pilot) is Stage.DAWN, limit=300)
    assert took >= 15 + 30 + 15                 # the Lovers', the Werewolves', the Seer's
    night_1 += [
        "The Mayor will touch the two Lovers. Lovers, open your eyes and look at each other.",
        "Lovers, close your eyes.",
        *NIGHT_2[1:]]                  # then the calls of every night
    assert heard(pilot) == night_1

    # Dawn 1: seat 7 died, a Villager.
    assert pilot.view.title == "Dawn 1 · Who died?" and not pilot.view.dim
    assert pilot.view.label(Button.START) == "Nobody died"
    next_until(pilot, "Seat 7")
    pilot.press(Button.VOTE)                                   # died
    assert pilot.view.title == "Seat 7 · Role"
    # A stray OK enters nothing: the picker starts on no card.
    pilot.press(Button.START)
    assert stage(pilot) is Stage.ROLE and pilot.view.alert.startswith("No card chosen yet")
    enter_card(pilot, "Villager")
    assert stage(pilot) is Stage.DAWN
    said_out(pilot)
    assert [(s.seat, s.alive, s.role) for s in pilot.view.seats if not s.alive] == [
        (7, False, "Villager")]
    assert pilot.view.label(Button.START) == "No more deaths"
    pilot.press(Button.START)
    confirm(pilot, "No other seat died: right?")
    assert stage(pilot) is Stage.DISCUSSION
    said_out(pilot)
    assert heard(pilot)[len(night_1):] == [
        "Seat 7 has died.", "The card: Villager.",
        "Open discussion and accusations are allowed now."]
    assert pilot.view.title == "Day 1 · Discussion"
    assert pilot.view.details == ("6 alive: a lynch needs 3 votes.",)

    # Day 1: seat 2 accused and seconded; 2 hands of the 3 needed.
    mark = len(heard(pilot))
    pilot.press(Button.VOTE)                                   # accuse
    next_until(pilot, "Seat 2")
    pilot.press(Button.VOTE)
    assert pilot.view.title == "Is there a second?"
    pilot.press(Button.VOTE)                                   # seconded
    assert pilot.view.title == "Seat 2 · Defence"
    pilot.press(Button.VOTE)                                   # to the vote
    assert (pilot.view.phase, pilot.view.title, pilot.view.big) == (
        Phase.VOTE, "Raise your hands", "Seat 2")
    took = pilot.until(lambda: stage(pilot) is Stage.COUNT, limit=30)
    assert took >= 4                                   # the beat for the hands, on its clock
    for _ in range(2):
        pilot.press(Button.VOTE)                               # a hand each
    assert (pilot.view.title, pilot.view.big, pilot.view.details) == (
        "Votes to lynch seat 2", "2", ("Hands: 2 of at most 5", "Needed: 3"))
    pilot.press(Button.START)                                  # counted
    assert (pilot.view.big, pilot.view.details) == ("2", ("The vote fails", "Needed: 3"))
    said_out(pilot)
    pilot.press(Button.START)                                  # OK
    assert stage(pilot) is Stage.DISCUSSION
    assert heard(pilot)[mark:] == [
        "Seat 2 is accused. Is there a second?", "Seat 2, defend yourself.",
        "Raise your hands to lynch seat 2.", "2 votes.", "3 needed.", "The vote fails."]

    # Seat 1 accused and seconded: 3 hands of the 3 needed, lynched; a Werewolf.
    mark = len(heard(pilot))
    pilot.press(Button.VOTE)
    assert pilot.view.big == "Not chosen"                  # no seat offered first
    pilot.press(Button.VOTE)                               # a hurried "Accuse" names nobody
    assert stage(pilot) is Stage.ACCUSE and pilot.view.big == "Not chosen"
    next_until(pilot, "Seat 1")
    pilot.press(Button.VOTE)
    pilot.press(Button.VOTE)
    pilot.press(Button.VOTE)
    pilot.until(lambda: stage(pilot) is Stage.COUNT, limit=30)
    for _ in range(3):
        pilot.press(Button.VOTE)
    assert (pilot.view.big, pilot.view.details) == ("3", ("Hands: 3 of at most 5",
                                                          "Needed: 3"))
    pilot.press(Button.START)
    assert pilot.view.details == ("Lynched", "Needed: 3")
    said_out(pilot)
    pilot.press(Button.START)
    assert pilot.view.title == "Seat 1 · Role"
    enter_card(pilot, "Werewolf")
    # No win yet (1 werewolf of 5 living): night 2, straight away.
    assert stage(pilot) is Stage.NIGHT
    pilot.until(lambda: stage(pilot) is Stage.DAWN, limit=300)
    assert heard(pilot)[mark:] == [
        "Seat 1 is accused. Is there a second?", "Seat 1, defend yourself.",
        "Raise your hands to lynch seat 1.", "3 votes.", "3 needed.", "Seat 1 is lynched.",
        "No last words. The Mayor turns the card over.", "The card: Werewolf.",
        *NIGHT_2]                      # the same calls for the living and the dead

    # Dawn 2: seat 2 died, the Hunter. The ring shows the dead with their cards.
    mark = len(heard(pilot))
    assert pilot.view.title == "Dawn 2 · Who died?"
    assert [(s.seat, s.alive, s.role) for s in pilot.view.seats] == [
        (1, False, "Werewolf"), (2, True, ""), (3, True, ""), (4, True, ""), (5, True, ""),
        (6, True, ""), (7, False, "Villager")]
    assert pilot.view.big == "Not chosen"              # no seat offered first
    pilot.press(Button.VOTE)                           # a hurried "Died" marks nobody
    assert pilot.view.title == "Dawn 2 · Who died?"
    pilot.press(Button.NEXT)
    assert pilot.view.big == "Seat 2"                  # the first living seat
    pilot.press(Button.VOTE)
    enter_card(pilot, "Hunter")
    pilot.press(Button.START)                          # no more deaths: the Hunter shoots
    confirm(pilot, "No other seat died: right?")
    assert pilot.view.title == "The Hunter's victim"
    # The call for the Hunter in the ring's middle while it is said (the card
    # line before it is about the dawn screen, and stays off this one).
    pilot.until(lambda: pilot.view.caption ==
                "Hunter, choose your victim alone, and point at them.")
    said_out(pilot)
    assert (pilot.view.title, pilot.view.big, pilot.view.details) == (
        "The Hunter's victim", "Not chosen", ("The Hunter at seat 2 chooses alone.",))
    next_until(pilot, "Seat 6")
    pilot.press(Button.VOTE)                           # shot: shown back first
    confirm(pilot, "The Hunter shot seat 6: right?")
    assert pilot.view.title == "Seat 6 · Role"
    enter_card(pilot, "Werewolf")
    # Seat 6 was a Lover: seat 5 dies of a broken heart, and turns a card too.
    assert pilot.view.title == "Seat 5 · Role"
    enter_card(pilot, "Villager")
    assert stage(pilot) is Stage.END
    said_out(pilot)
    assert heard(pilot)[mark:] == [
        "Seat 2 has died.", "The card: Hunter.",
        "Hunter, choose your victim alone, and point at them.",
        "The Hunter shot seat 6.", "The card: Werewolf.",
        "Seat 5 was a Lover and dies of a broken heart.", "The card: Villager.",
        "The village wins."]
    assert list(narrator.missed) == []                 # every line was heard, none a caption

    # The end: who won, and the whole story from the book, a page at a time.
    assert pilot.view.phase is Phase.VERDICT
    pages = [pilot.view]
    for _ in range(4):
        pilot.press(Button.NEXT)                       # More
        if pilot.view.title == pages[0].title:
            break
        pages.append(pilot.view)
    assert [p.title for p in pages] == ["The village wins · 1/3", "The village wins · 2/3",
                                        "The village wins · 3/3"]
    assert [line for p in pages for line in p.details] == BOOK
    assert pilot.view.label(Button.START) == "New game"
    assert pilot.view.label(Button.VOTE) == "Hold: undo"     # the last card, if wrong

    # A finished game is not offered for resuming after a restart; its setup
    # is kept for the next game.
    pilot.parts.close()                                # the last save reaches the disk
    state = json.loads((tmp_path / "state" / "wolfbox" / "state.json").read_text())
    assert state["games"] == {"dark_arts": {
        "version": 1, "stage": "setup", "players": 7,
        "roles": {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1}}}


def test_the_setup_and_an_undone_entry_come_through_a_restart(tmp_path, pilots):
    """Issue 19: the Seer added on the setup screen is there after a restart,
    and an entry undone is undone in the saved game too: the power going after
    an undo resumes where the undo went back to."""
    config = mayor_config(tmp_path)
    first = pilots.start(config, LINES, warm=False)
    for role in ("Werewolf", "Hunter", "Matchmaker", "Seer"):
        first.press(Button.NEXT)
        assert first.view.details[0] == role
    first.press(Button.VOTE)                            # one Seer
    deal = "Deal: 2× Werewolf, Hunter, Matchmaker, Seer, 2× Villager"
    assert first.view.details[1] == deal
    first.parts.close()                                 # the power goes, in the setup

    second = pilots.start(config, fill=False, warm=False)   # the restart
    assert second.view.title == "Werewolf with a Mayor"
    assert second.view.details[1] == deal
    second.press(Button.START)
    second.until(lambda: stage(second) is Stage.LOVERS, limit=300)
    for seat in ("Seat 5", "Seat 6"):
        next_until(second, seat)
        second.press(Button.VOTE)
    second.press(Button.START)
    second.until(lambda: stage(second) is Stage.DAWN, limit=300)
    next_until(second, "Seat 7")
    second.press(Button.VOTE)
    enter_card(second, "Villager")
    second.press(Button.START)
    confirm(second, "No other seat died: right?")
    assert stage(second) is Stage.DISCUSSION            # saved: day 1, seat 7 dead
    second.press(Button.VOTE, hold=2.1)                 # undo: that was too soon
    assert stage(second) is Stage.CONFIRM
    assert second.view.alert == "The last entry is undone."
    second.press(Button.BACK)                           # another death to enter
    assert stage(second) is Stage.DAWN
    second.parts.close()                                # the power goes again

    third = pilots.start(config, fill=False, warm=False)
    assert third.view.title == "Resume the saved game?"
    assert third.view.details == ("Dawn 1: the night's deaths are entered again",)
    third.press(Button.START)
    assert stage(third) is Stage.DAWN and third.view.title == "Dawn 1 · Who died?"
    assert all(s.alive for s in third.view.seats)
    assert Button.VOTE not in dict(third.view.holds)    # no undo past a restart
    third.parts.close()


# ------------------------------------------------------------ a real process
@pytest.fixture
def boxes():
    """The boxes a test starts; one a failed test leaves running is killed."""
    started: list[Box] = []
    yield started
    for box in started:
        if box.proc.poll() is None:
            box.proc.kill()
        box.proc.wait()
        box.lines.rest()                       # the reader has seen the end of the output
        box.proc.stdin.close()
        box.out.close()


class Terminal:
    """A pseudo-terminal for a child's output, read line by line (newlines
    as written: no carriage returns added)."""

    def __init__(self) -> None:
        import pty
        import termios
        self._parent, self.child = pty.openpty()
        attrs = termios.tcgetattr(self.child)
        attrs[1] &= ~termios.ONLCR
        termios.tcsetattr(self.child, termios.TCSANOW, attrs)
        self._stream = os.fdopen(self._parent, "r", encoding="utf-8", errors="replace")

    def opened(self) -> None:
        """The child has its end: ours is closed, so the end of output is seen."""
        os.close(self.child)

    def __iter__(self):
        while True:
            try:
                line = self._stream.readline()
            except OSError:                 # the child is gone (EIO)
                return
            if not line:
                return
            yield line

    def close(self) -> None:
        self._stream.close()


class Box:
    """`wolfbox --headless` in a process of its own, its keys on a pipe as a
    person types them at a terminal, its output read as it comes."""

    def __init__(self, boxes: list, tmp_path: Path, config: Path) -> None:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "XDG_STATE_HOME": str(tmp_path / "state")}
        env.pop("NOTIFY_SOCKET", None)
        # Its screen is a terminal, as a table's is: a private screen (the
        # Lovers) is drawn there, on the terminal's alternate screen.
        out = Terminal()
        with (tmp_path / f"stderr-{len(boxes) + 1}.txt").open("w") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "wolfbox", "--headless", "--config", str(config)],
                stdin=subprocess.PIPE, stdout=out.child, stderr=errors, text=True, env=env)
        out.opened()
        self.out = out
        boxes.append(self)
        self.lines = Lines(out)
        self.at = 0                   # lines before this one have been looked at
        self.found: dict[str, int] = {}       # the line each needle last matched

    def expect(self, *needles: str) -> list[str]:
        """The next line with each of `needles`, in whatever order they come (a
        line said and the screen it goes with race each other). The timeout
        only bounds a box that never gets there."""
        found: dict[str, int] = {}
        i = self.at
        while len(found) < len(needles):
            self._read_to(i, needles)
            for needle in needles:
                if needle not in found and needle in self.lines.seen[i]:
                    found[needle] = i
                    break
            i += 1
        self.at = max(found.values()) + 1
        self.found.update(found)
        return [self.lines.seen[found[n]].rstrip("\n") for n in needles]

    def screen(self, title: str) -> list[str]:
        """The screen whose title line was the last to match `title`: its lines,
        the title's to the legend's (the terminal writes a screen at once)."""
        i = self.found[title]
        block = []
        while not block or not block[-1].startswith(("   [", "   (")):
            self._read_to(i, (title,))
            block.append(self.lines.seen[i].rstrip("\n"))
            i += 1
        return block

    def said(self, after: str, before: str) -> list[str]:
        """The lines said between the lines that matched `after` and `before`."""
        lines = self.lines.seen[self.found[after] + 1:self.found[before]]
        return [line.strip()[4:-1] for line in lines if line.startswith('   >> "')]

    def _read_to(self, i: int, needles) -> None:
        while i >= len(self.lines.seen):
            try:
                self.lines.wait_for("", timeout=60)             # any line
            except AssertionError:
                raise AssertionError(f"never saw all of {list(needles)}; got:\n"
                                     + "".join(self.lines.seen[self.at:])) from None

    def key(self, keys: str, *then: str) -> list[str]:
        """Type `keys` (a lowercase key taps its button, a capital holds it),
        then wait for the lines with `then`: the box has acted on them."""
        self.proc.stdin.write(keys)
        self.proc.stdin.flush()
        return self.expect(*then)


def saved(tmp_path: Path) -> dict:
    """What the box remembers (state.json is written whole, atomically)."""
    path = tmp_path / "state" / "wolfbox" / "state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def wait_for_save(tmp_path: Path, done, timeout: float = 60) -> dict:
    """The saved game once `done(game)`: the box saves on a thread of its own.
    `timeout` only bounds a box that never saves it."""
    end = time.monotonic() + timeout
    while True:
        game = saved(tmp_path).get("games", {}).get("dark_arts")
        if game is not None and done(game):
            return game
        assert time.monotonic() < end, f"never saved; the state is {saved(tmp_path)}"
        time.sleep(0.02)


def test_the_same_game_killed_mid_game_resumes_where_it_was(tmp_path, boxes):
    """The seat plan's game in a real `wolfbox --headless` on terminal keys. The
    power goes in day 1 (SIGKILL, during the defence of seat 1, after the failed
    vote); after a restart the box offers the saved game and resumes at the start
    of that day's discussion with the same night, deaths, last accused and
    Lovers, and the game plays on to the win."""
    config = tmp_path / "box.toml"
    config.write_text('[game]\nmode = "dark_arts"\n[night]\nscale = 0.1\nline_gap = 0.05\n'
                      f'[voice]\ncache_dir = "{tmp_path / "cache"}"\n')
    # The voice: a short tone for every line, so a line ends when it is heard.
    fill_cache(mayor_config(tmp_path), LINES, seconds=0.05)

    # START taps on press, the other buttons on release, and a terminal key is let
    # go 80 ms after it was pressed (a key typed again before that is lost): START
    # is never typed twice without an answer in between that comes later than
    # that: a tap of another button (released in order, after START), or a line
    # said after two others have been heard out.
    first = Box(boxes, tmp_path, config)
    first.expect("== Werewolf with a Mayor  7")
    # A new box offers 2 werewolves, the Hunter and the Matchmaker: add the Seer.
    first.key("n", "== Werewolf with a Mayor  2")
    first.key("n", "== Werewolf with a Mayor  1")             # the Hunter
    first.key("n", "   Matchmaker")
    first.key("n", "== Werewolf with a Mayor  0")             # the Seer
    first.key("v", "== Werewolf with a Mayor  1")
    first.expect("Deal: 2× Werewolf, Hunter, Matchmaker, Seer, 2× Villager")
    first.key("s", "== Night 1 · Eyes closed")
    # The Lovers are private: redrawn whole on the terminal's alternate screen.
    first.expect("== Night 1 · Lovers  Not chosen")            # after the Matchmaker's time
    first.key("b", "== Night 1 · Lovers  Seat 7")
    first.key("b", "== Night 1 · Lovers  Seat 6")
    first.key("v", "[6♥]")
    first.key("b", "== Night 1 · Lovers  Seat 5")
    first.key("v", "[5♥]")
    first.key("s", '>> "The Mayor will touch the two Lovers.')
    first.expect("== Dawn 1 · Who died?  Not chosen")
    first.key("b", "= Seat 7")
    first.key("v", "== Seat 7 · Role  Not chosen")             # no card offered first
    first.key("n", "== Seat 7 · Role  Werewolf")               # the screen anew: OK now
    for role in ("Hunter", "Matchmaker", "Seer", "Villager"):
        first.key("n", f"= {role}")
    first.key("s", "Seat 7's card: Villager. Right?")  # shown back
    first.key("s", '>> "Seat 7 has died."')                     # OK
    first.key("n", "= Seat 1")
    first.key("s", "No other seat died: right?")
    first.key("s", "== Day 1 · Discussion")                   # no more deaths
    # Seat 2 accused and seconded: 2 hands of the 3 needed.
    first.key("v", "== Who is accused?  Not chosen")
    first.key("n", "= Seat 1")
    first.key("n", "= Seat 2")
    first.key("v", "== Is there a second?  Seat 2")
    first.key("v", "== Seat 2 · Defence")
    first.key("v", "== Raise your hands  Seat 2")
    first.key("n", "== Votes to lynch seat 2  0")             # count now
    first.key("v", "== Votes to lynch seat 2  1")
    first.key("v", "== Votes to lynch seat 2  2")
    first.key("s", '>> "2 votes."', '>> "3 needed."', '>> "The vote fails."')
    first.key("s", "== Day 1 · Discussion")                   # OK
    # The discussion begins again, and is saved; seat 1 is accused, seconded...
    first.key("v", "== Who is accused?  Not chosen")
    first.key("n", "= Seat 1")
    first.key("v", "== Is there a second?  Seat 1")
    first.key("v", "== Seat 1 · Defence")
    game = wait_for_save(tmp_path, lambda game: game["book"][-1]["kind"] == "vote")
    first.proc.send_signal(signal.SIGKILL)                     # ...and the power goes
    first.proc.wait()
    assert (game["stage"], game["night"], game["dead"], game["lovers"],
            game["previous_accused"]) == ("discussion", 1, {"7": "villager"}, [5, 6], 2)

    second = Box(boxes, tmp_path, config)
    second.expect("== Resume the saved game?")
    assert second.screen("== Resume the saved game?")[1] == "   Day 1"
    second.key("s", '>> "Open discussion and accusations are allowed now."',
               "== Day 1 · Discussion")                       # resume
    # Day 1 starts again: seat 7 dead, 6 alive, and seat 2 may not be accused
    # twice in a row: the ring marks it refused.
    assert second.screen("== Day 1 · Discussion")[1] == "   Seats: 1 2 3 4 5 6 7†"
    second.expect("6 alive: a lynch needs 3 votes.")
    second.key("v", "== Who is accused?  Not chosen")
    assert second.screen("== Who is accused?  Not chosen")[1] == "   Seats: 1 2× 3 4 5 6 7†"
    second.key("n", "= Seat 1  Seats: [1] 2× 3 4 5 6 7†")
    second.key("v", "== Is there a second?  Seat 1")
    second.key("v", "== Seat 1 · Defence")
    second.key("v", "== Raise your hands  Seat 1")
    second.key("n", "== Votes to lynch seat 1  0")
    for hands in (1, 2, 3):
        second.key("v", f"== Votes to lynch seat 1  {hands}")
    second.key("s", '>> "3 votes."', '>> "3 needed."', '>> "Seat 1 is lynched."')
    second.key("s", "== Seat 1 · Role  Not chosen")            # OK: no last words
    second.key("n", "== Seat 1 · Role  Werewolf")
    second.key("s", "Seat 1's card: Werewolf. Right?")
    second.key("s", '>> "The card: Werewolf."', "== Night 2 · Eyes closed")
    # Night 2 follows the saved day 1: the Matchmaker is not called again.
    second.expect("== Dawn 2 · Who died?  Not chosen")
    assert [line for line in second.said("== Night 2 · Eyes closed",
                                         "== Dawn 2 · Who died?  Not chosen")
            if line != "The card: Werewolf."] == NIGHT_2
    assert second.screen("== Dawn 2 · Who died?  Not chosen")[1] == "   Seats: 1† 2 3 4 5 6 7†"
    second.key("n", "= Seat 2  Seats: 1† [2] 3 4 5 6 7†")
    second.key("v", "== Seat 2 · Role  Not chosen")
    second.key("n", "== Seat 2 · Role  Werewolf")
    second.key("n", "= Hunter")
    second.key("s", "Seat 2's card: Hunter. Right?")
    second.key("s", '>> "Seat 2 has died."')
    second.key("n", "= Seat 3")
    second.key("s", "No other seat died: right?")
    second.key("s", "== The Hunter's victim  Not chosen")     # no more deaths
    for seat in (3, 4, 5, 6):
        second.key("n", f"= Seat {seat}")
    second.key("v", "The Hunter shot seat 6: right?")
    second.key("s", '>> "The Hunter shot seat 6."', "== Seat 6 · Role  Not chosen")
    second.key("n", "== Seat 6 · Role  Werewolf")
    second.key("s", "Seat 6's card: Werewolf. Right?")
    # The Lovers came through the restart: seat 5 dies for seat 6.
    second.key("s", '>> "The card: Werewolf."',
               '>> "Seat 5 was a Lover and dies of a broken heart."',
               "== Seat 5 · Role  Not chosen")
    second.key("n", "== Seat 5 · Role  Matchmaker")
    for role in ("Seer", "Villager"):
        second.key("n", f"= {role}")
    second.key("s", "Seat 5's card: Villager. Right?")
    second.key("s", '>> "The card: Villager."', '>> "The village wins."',
               "== The village wins · 1/3")
    # The whole story, from before the power cut and after it.
    book = second.screen("== The village wins · 1/3")
    for page in ("2/3", "3/3"):
        second.key("n", f"== The village wins · {page}")
        book += second.screen(f"== The village wins · {page}")
    assert [line.strip() for line in book if not line.startswith(("==", "   ["))] == BOOK
    second.proc.stdin.write("q")                               # no game under way: quits
    second.proc.stdin.flush()
    assert second.proc.wait(timeout=60) == 0
    # A finished game is not kept; its setup is.
    assert saved(tmp_path)["games"]["dark_arts"]["stage"] == "setup"
    errors = "".join((tmp_path / f"stderr-{n}.txt").read_text() for n in (1, 2))
    assert "Traceback" not in errors, errors

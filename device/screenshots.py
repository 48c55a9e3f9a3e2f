"""`wolfbox screenshot`: every screen of a round, rendered to PNG.

The round is played by the real flow on a fake clock and drawn by the real
painter, so the pictures are exactly what the box shows. A few screens are
the flow's own views with one thing added that a round on a fake clock
cannot produce by itself (a notice from the box, a button held half way).
The tests draw every one of them at 480×320 and 320×240 and check that
nothing is cut or too small; a new screen is one more `yield`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pygame

from wolfbox import menu
from wolfbox.buttons import Button, Hold, Tap
from wolfbox.config import Config
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.games import Games
from wolfbox.i18n import _, language
from wolfbox.mode import Playable
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.view import JoinCard, Phase, View, WifiCard

from .notices import every_notice
from .render import Painter, render_view

# Every card with a reveal rule of its own, and the Doppelganger, whose call
# is the longest line of the night.
SPECIAL_DECK = ("doppelganger", "werewolf", "werewolf", "minion", "seer", "robber",
                "troublemaker", "hunter", "bodyguard", "prince", "cursed", "tanner", "curator")


# Phones on (issue 22): the join card a box on a home network shows, two seats taken.
# Its QR code holds the box's key in the address's fragment, as a real one does.
JOIN = JoinCard("http://192.168.1.20:8080/", "4821", ((2, "Anna"), (5, "Bo")),
                qr="http://192.168.1.20:8080/#k=Qm9va3Mgb2YgdGhlIGJveDogYSBrZXkgZm9yIHNob3c")
# On the box's own Wi-Fi ([phones] network = "own", or "auto" with no known
# network in reach): the card's first turn, the Wi-Fi's code and its words.
OWN_WIFI = JoinCard("http://10.42.0.1:8080/", "4821", JOIN.seated,
                    wifi=WifiCard("Wolfbox-3F7A", "k7mpx3qahw9e"), wifi_shown=True)


def _phones_views(game: Playable, mode: str, start: str, screen: str = "",
                  join: JoinCard = JOIN) -> Iterator[tuple[str, View, str]]:
    """A start screen as the box shows it with phones on (its hold of START
    and the join card), and the phones' own screen opened from it."""
    games = Games({mode: lambda: game}, mode, language(), phones_on=True)
    games.handle(PhonesSeated(frozenset(seat for seat, _name in JOIN.seated), JOIN.seated), 0.0)
    yield start, dataclasses.replace(games.view(0.0), join=join), ""
    if screen:
        games.handle(Hold(Button.START), 0.0)
        yield screen, dataclasses.replace(games.view(0.0), join=join), ""
        games.handle(Tap(Button.START), 0.0)
    games.handle(PhonesSeated(frozenset()), 0.0)            # the rest is played without


def _with_status(view: View) -> View:
    """A setup screen as the box draws it while its voice is still being prepared."""
    return dataclasses.replace(view, status=_("Preparing the voice: {percent} %").format(
        percent=40))


def notices() -> list[str]:
    """What the box can say on its start screen (device/notices.py)."""
    return every_notice()


def _until(flow: Flow, now: float, done: Callable[[], bool], step: float = 0.5) -> float:
    """Tick the flow on the fake clock until `done()`; the time then."""
    for _i in range(100_000):
        if done():
            return now
        now += step
        flow.tick(now)
    raise AssertionError("the round never got there")


def _step(flow: Flow) -> str:
    """The night call under way, or ""."""
    return flow.settings.night[flow.step_index].id if flow.phase is Phase.NIGHT else ""


def round_views(config: Config) -> Iterator[tuple[str, View, str]]:
    """(name, view, notice) for each screen worth a picture, in play order."""
    flow = Flow(RoundSettings.from_config(config))
    now = 0.0
    start = flow.view(now)
    yield "1-start", start, ""
    yield "1-start-no-sound", start, notices()[0]
    yield "1-start-notices", _with_status(start), "; ".join(notices()[1:3])
    yield from _phones_views(flow, "one_night", "1-start-phones", "1-join-screen")
    yield from _phones_views(flow, "one_night", "1-start-wifi",
                             "1-join-screen-wifi", OWN_WIFI)
    flow.handle(Tap(Button.START), now)
    now = _until(flow, now, lambda: _step(flow) == "werewolves")
    yield "2-night-call", flow.view(now), ""
    now = _until(flow, now, lambda: _step(flow) == "seer" and bool(flow.view(now).big))
    now += 0.1
    yield "2-night", flow.view(now), ""
    now = _until(flow, now, lambda: flow.phase is not Phase.NIGHT)
    now += 17.2
    flow.tick(now)
    discussion = flow.view(now)
    yield "3-discussion", discussion, ""
    yield "3-discussion-hold", dataclasses.replace(discussion, held=Button.BACK,
                                                   held_progress=0.6), ""
    flow.handle(Tap(Button.START), now)
    yield "4-paused", flow.view(now), ""
    flow.handle(Tap(Button.START), now)
    assert flow.clock is not None
    now += flow.clock.remaining(now) - 8.5
    flow.tick(now)
    yield "5-last-seconds", flow.view(now), ""
    flow.handle(Tap(Button.VOTE), now)
    yield "6-vote-3", flow.view(now), ""
    now = _until(flow, now, lambda: flow.phase is not Phase.VOTE or flow.beat >= 3, 0.25)
    yield "7-vote", flow.view(now), ""
    now = _until(flow, now, lambda: flow.phase is not Phase.VOTE, 0.25)
    yield "8-reveal", flow.view(now), ""
    yield from referee_views(flow, now)
    yield from night_picture_views()
    yield from special_views()
    yield from settings_views(config)
    yield from dark_arts_views()
    yield from timed_views()


@dataclass
class _Drive:
    """A game mode played on a fake clock for its pictures: presses at
    `now`, time jumped from one of the mode's own deadlines to the next."""
    mode: Playable
    now: float = 0.0

    def tap(self, *buttons: Button) -> None:
        for button in buttons:
            self.mode.handle(Tap(button), self.now)

    def hold(self, button: Button) -> None:
        self.mode.handle(Hold(button), self.now)

    def run(self, done: Callable[[], bool]) -> None:
        for _step in range(5000):
            if done():
                return
            due = self.mode.next_change(self.now)
            assert due is not None, "the game waits for nothing"
            self.now = due
            self.mode.tick(self.now)
        raise AssertionError("the game never got there")

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.mode.tick(self.now)

    def view(self) -> View:
        return self.mode.view(self.now)


def dark_arts_views() -> Iterator[tuple[str, View, str]]:
    """Werewolf with a Mayor, a whole game of nine: the setup, a night call,
    the Lovers and the deaths on the seat ring, the line said in its middle,
    the discussion, a refused accusation, the hand count against the
    threshold, the book over the night, the final screen; and a ring of 20."""
    from wolfbox.darkarts.game import Game, Options, Stage
    from wolfbox.darkarts.roles import ROLES, role_name
    # Who sits where (the box never knows): 1 villager, 2 hunter, 3 seer,
    # 4 werewolf, 5 matchmaker, 6 villager, 7 villager, 8 werewolf, 9 villager.
    game = Game(options=Options(scale=0.5), players=9,
                chosen={"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1})
    d = _Drive(game)


    def to_seat(seat: int) -> None:
        while game.cursor != seat:
            d.tap(Button.NEXT)

    def pick(role_id: str) -> None:
        """The Mayor picks a card (the picker starts on none)."""
        for _i in range(len(ROLES) + 1):
            if d.view().big == role_name(role_id):
                break
            d.tap(Button.NEXT)
        else:
            raise AssertionError(f"no role {role_id} offered")

    def role(role_id: str) -> None:
        """The Mayor enters a card: picked, shown back, OK."""
        pick(role_id)
        d.tap(Button.START, Button.START)

    def said() -> None:
        d.run(lambda: game.speech.line is None)

    yield "c-mayor-setup", d.view(), ""
    yield "c-mayor-setup-notices", d.view(), notices()[1]
    yield from _phones_views(game, "dark_arts", "c-mayor-setup-phones")
    d.tap(Button.START)
    d.run(lambda: bool(d.view().big))
    yield "c-mayor-night", d.view(), ""
    d.run(lambda: game.stage is Stage.LOVERS)
    for seat in (3, 7):
        to_seat(seat)
        d.tap(Button.VOTE)
    to_seat(5)
    yield "c-mayor-lovers", d.view(), ""
    d.tap(Button.START)
    d.run(lambda: game.stage is Stage.DAWN)
    to_seat(6)
    yield "c-mayor-dawn", d.view(), ""
    d.tap(Button.VOTE)
    pick("villager")
    yield "c-mayor-role", d.view(), ""
    d.tap(Button.START)
    yield "c-mayor-confirm", d.view(), ""
    d.tap(Button.START)
    yield "c-mayor-dawn-said", d.view(), ""
    said()
    d.tap(Button.START, Button.START)                        # no more deaths; OK
    d.run(lambda: game.stage is Stage.DISCUSSION and game.speech.line is None)
    yield "c-mayor-discussion", d.view(), ""
    d.tap(Button.VOTE)
    to_seat(1)
    d.tap(Button.VOTE, Button.VOTE, Button.VOTE)             # accused, seconded, to the vote
    d.run(lambda: game.stage is Stage.COUNT)
    d.tap(Button.VOTE, Button.VOTE)
    yield "c-mayor-count", d.view(), ""
    d.tap(Button.START)
    yield "c-mayor-result", d.view(), ""
    said()
    d.tap(Button.START)                                      # the vote failed
    d.tap(Button.VOTE)                                       # accuse again
    to_seat(1)
    d.tap(Button.VOTE)                                       # refused: accused just before
    yield "c-mayor-accuse-refused", d.view(), ""
    to_seat(4)
    d.tap(Button.VOTE, Button.VOTE, Button.VOTE)
    d.run(lambda: game.stage is Stage.COUNT)
    d.tap(*[Button.VOTE] * 5, Button.START)                  # lynched
    said()
    d.tap(Button.START)
    role("werewolf")
    d.run(lambda: game.stage is Stage.NIGHT and game.night == 2 and bool(d.view().big))
    d.hold(Button.NEXT)
    yield "c-mayor-book", d.view(), ""
    d.tap(Button.START)
    d.run(lambda: game.stage is Stage.DAWN)
    to_seat(2)
    d.tap(Button.VOTE)
    role("hunter")
    d.tap(Button.START, Button.START)                        # no more deaths: the Hunter shoots
    d.run(lambda: game.speech.line is None)
    to_seat(8)
    yield "c-mayor-shot", d.view(), ""
    d.tap(Button.VOTE, Button.START)                         # shot; OK
    role("werewolf")
    said()
    yield "c-mayor-end", d.view(), ""
    for page in range(2, len(game.book_pages()) + 1):       # as many as the language needs
        d.tap(Button.NEXT)
        yield f"c-mayor-end-{page}", d.view(), ""
    # The largest table the game takes: 20 seats round the ring.
    game = Game(options=Options(scale=0.5), players=20,
                chosen={"werewolf": 4, "hunter": 1, "matchmaker": 1, "seer": 1})
    d = _Drive(game)
    d.tap(Button.START)
    d.run(lambda: game.stage is Stage.LOVERS)
    for seat in (12, 19):
        to_seat(seat)
        d.tap(Button.VOTE)
    d.tap(Button.START)
    d.run(lambda: game.stage is Stage.DAWN)
    to_seat(17)
    yield "c-mayor-ring-20", d.view(), ""


def timed_views() -> Iterator[tuple[str, View, str]]:
    """The timed game of nine, A1 dealt: the setup, the deal (dark between
    seats, a seat's window, a Wolf's card), a night (dark, the Wolves'
    planning, the Seer's choice, the kill and its knife, a message and a
    blocked one), the dawn, the day with the setup tracker, the last
    seconds of the vote, the 3-2-1, the table's entry and the verdict, the
    tracker's page, the end."""
    import random

    from wolfbox.newd3 import said
    from wolfbox.newd3.game import Game, Stage

    game = Game(choice="A1", rng=random.Random(4))
    d = _Drive(game)


    def window(turn_id: str, seat: int = 0) -> None:
        d.run(lambda: game.turn_stage == "wait" and game.current_turn().id == turn_id
            and (not seat or game.current_turn().seat == seat))

    def to_seat(seat: int) -> None:
        for _i in range(10):
            if game.cursor == seat:
                return
            d.tap(Button.NEXT)
        raise AssertionError(f"seat {seat} cannot be chosen")

    yield "d-timed-setup", d.view(), ""
    yield "d-timed-setup-notices", d.view(), notices()[1]
    yield from _phones_views(game, "newd3", "d-timed-setup-phones")
    d.tap(Button.START)
    seat = {role: s for s, role in enumerate(game.seats, 1)}
    wolf, alchemist, seer, guard = (seat[r] for r in ("wolf", "alchemist", "seer", "guard"))
    sheep = [s for s, role in enumerate(game.seats, 1) if role == "sheep"]
    d.run(lambda: game.stage is Stage.DEAL and game.speech.line is not None
          and game.turn_index == 0)
    yield "d-timed-deal-dark", d.view(), ""
    window("card", 1)
    d.wait(2.3)
    yield "d-timed-deal-seat", d.view(), ""
    window("card", wolf)
    d.hold(Button.VOTE)
    yield "d-timed-deal-card", d.view(), ""
    d.run(lambda: game.stage is Stage.TALLY)
    d.tap(Button.START, Button.START)                        # a tie; night 1
    d.run(lambda: game.speech.line is not None and game.turn_index == 0
          and game.stage is Stage.NIGHT)
    yield "d-timed-night-dark", d.view(), ""
    window("wolves")
    d.wait(11.2)
    yield "d-timed-night-plan", d.view(), ""
    window("alchemist")
    to_seat(seer)
    d.tap(Button.VOTE)                                       # the Seer is blocked
    window("kill")
    to_seat(sheep[0])
    d.tap(Button.VOTE)
    yield "d-timed-night-kill", d.view(), ""
    d.tap(Button.START)
    to_seat(alchemist)
    yield "d-timed-night-knife", d.view(), ""
    window("seer")
    to_seat(wolf)
    d.tap(Button.VOTE)
    yield "d-timed-night-choose", d.view(), ""
    window("look", seer)
    d.hold(Button.VOTE)
    yield "d-timed-message-blocked", d.view(), ""
    d.run(lambda: game.stage is Stage.DAWN and game.killed is not None
        and game.caption == said.was(game.killed, game.seats[game.killed - 1]))
    yield "d-timed-dawn", d.view(), ""
    d.run(lambda: game.stage is Stage.DISCUSSION and game.speech.line is None)
    yield "d-timed-discussion", d.view(), ""
    d.tap(Button.NEXT)
    yield "d-timed-tracker", d.view(), ""
    d.tap(Button.START)                                      # back to the day
    d.hold(Button.VOTE)                    # vote now
    d.run(lambda: game.timer is not None and game.timer.remaining(d.now) <= 8)
    yield "d-timed-vote", d.view(), ""
    d.run(lambda: game.stage is Stage.POINT)
    yield "d-timed-point", d.view(), ""
    d.run(lambda: game.stage is Stage.TALLY)
    to_seat(alchemist)
    yield "d-timed-tally", d.view(), ""
    d.tap(*[Button.VOTE] * 6)
    yield "d-timed-count", d.view(), ""
    d.tap(Button.START)
    yield "d-timed-result", d.view(), ""
    d.tap(Button.START)                                      # the Alchemist is out
    # Night 2: the Seer looks at the Wolf and reads her result.
    window("guard")
    to_seat(sheep[1])
    d.tap(Button.VOTE)
    window("kill")
    to_seat(sheep[1])
    d.tap(Button.VOTE)
    window("seer")
    to_seat(wolf)
    d.tap(Button.VOTE)
    window("look", seer)
    d.hold(Button.VOTE)
    yield "d-timed-message", d.view(), ""
    d.run(lambda: game.stage is Stage.TALLY)
    to_seat(wolf)
    d.tap(*[Button.VOTE] * 5, Button.START, Button.START)
    d.run(lambda: game.stage is Stage.END and game.speech.line is None)
    yield "d-timed-end", d.view(), ""
    del guard


def referee_views(flow: Flow, now: float) -> Iterator[tuple[str, View, str]]:
    """The referee after the reveal: a seat's card, a vote, and the verdict
    of a game where everyone but seat 1 points at seat 1, a werewolf."""
    flow.handle(Tap(Button.VOTE), now)
    yield "b-referee-card", flow.view(now), ""
    assert flow.entry is not None
    flow.entry.turn(+1)                            # seat 1's card: the next one offered
    flow.handle(Tap(Button.START), now)
    yield "b-referee-vote", flow.view(now), ""
    flow.handle(Tap(Button.START), now)            # seat 1 points at seat 2
    for _seat in range(2, len(flow.settings.deck) - 2):
        flow.handle(Tap(Button.START), now)        # the card offered
        while flow.entry.choice != 1:
            flow.entry.turn(-1)                    # points at seat 1
        flow.handle(Tap(Button.START), now)
    yield "b-verdict", flow.view(now), ""
    flow.handle(Tap(Button.START), now)            # done


def settings_views(config: Config) -> Iterator[tuple[str, View, str]]:
    """Every page of the settings screen (held NEXT on the start screen),
    one moved a step, one the config file fixes, and reset's question."""
    flow = Flow.from_config(config, has_brightness=True)
    flow.handle(Hold(Button.NEXT), 0.0)
    for i, item in enumerate(menu.items(True)):
        view = flow.view(0.0)
        if item.key == "sound.volume":
            flow.handle(Tap(Button.BACK), 0.0)
            yield "a-settings-volume-90", flow.view(0.0), ""
        if item.key == "phones.enabled":
            flow.handle(Tap(Button.VOTE), 0.0)                  # on: the page shows the card
            yield "a-settings-phones-on", dataclasses.replace(flow.view(0.0), join=JOIN), ""
            flow.handle(Tap(Button.BACK), 0.0)
        if not view.details[0] or i == len(menu.items(True)) - 1:
            flow.handle(Tap(Button.VOTE), 0.0)
            yield "a-settings-reset-ask", flow.view(0.0), ""
        else:
            slug = menu.items(True)[i].key.split(".")[1].replace("_", "-")
            yield f"a-settings-{i + 1:02d}-{slug}", view, ""
        flow.handle(Tap(Button.NEXT), 0.0)
    fixed = menu.with_value(config, "voice.length_scale", 1.2)
    fixed.from_file.add("voice.length_scale")
    flow = Flow.from_config(fixed)
    flow.handle(Hold(Button.NEXT), 0.0)
    while flow.screen is not None and flow.screen.item().key != "voice.length_scale":
        flow.handle(Tap(Button.NEXT), 0.0)
    yield "a-settings-fixed", flow.view(0.0), ""


# A game on five phones for the night's pictures: the deal (seats, then
# the center) and each seat's name as typed at join (seat 3 typed none).
PICTURE_DEAL = ("werewolf", "seer", "robber", "troublemaker", "werewolf",
                "villager", "villager", "drunk")
PICTURE_NAMES = ((1, "Anna"), (2, "Bo"), (4, "Dee"), (5, "Eve"))
# The night: each call's acting seat and its taps (the Seer two center
# cards, the Robber seat 5, the Troublemaker seats 1 and 2); then the votes.
PICTURE_NIGHT = {"seer": (2, (212,)), "robber": (3, (5,)), "troublemaker": (4, (1, 2))}
PICTURE_VOTES = {1: 3, 2: 3, 3: 1, 4: 3, 5: 3}


def night_picture_views() -> Iterator[tuple[str, View, str]]:
    """One Night on phones after its verdict: the night's pictures."""
    from wolfbox.onenight.phones import PhoneNight
    flow = Flow(RoundSettings.for_deck(PICTURE_DEAL))
    seats = frozenset(range(1, 6))
    flow.handle(PhonesSeated(seats, PICTURE_NAMES), 0.0)
    flow.table = PhoneNight(PICTURE_DEAL, round=flow.table.round if flow.table else 1)
    now = 0.0
    flow.handle(Tap(Button.START), now)
    for call, (seat, taps) in PICTURE_NIGHT.items():
        def acting(c: str = call) -> bool:
            return _step(flow) == c and flow.stage == "wait"
        now = _until(flow, now, acting)
        task = flow.phone_view(seat, now).task
        assert task is not None
        flow.handle(PhoneChoice(seat, task.step, taps), now)
    now = _until(flow, now, lambda: flow.phase is Phase.DISCUSSION)
    flow.handle(Tap(Button.VOTE), now)
    now = _until(flow, now, lambda: flow.table is not None and flow.table.voting, 0.25)
    for seat, target in PICTURE_VOTES.items():
        task = flow.phone_view(seat, now).task
        assert task is not None
        flow.handle(PhoneChoice(seat, task.step, (target,)), now)
    now = _until(flow, now, lambda: flow.phase is Phase.VERDICT, 0.25)
    flow.handle(Tap(Button.NEXT), now)
    shown = 0
    while flow.view(now).picture is not None:
        shown += 1
        yield f"b-night-picture-{shown}", flow.view(now), ""
        flow.handle(Tap(Button.NEXT), now)
    assert shown


def special_views() -> Iterator[tuple[str, View, str]]:
    """The longest texts a round can bring: the Doppelganger's call for a
    deck with every reveal rule, and that deck's rules, paged."""
    flow = Flow(RoundSettings.for_deck(SPECIAL_DECK))
    now = 0.0
    flow.handle(Tap(Button.START), now)
    now = _until(flow, now, lambda: _step(flow) == "doppelganger")
    first = flow.view(now).caption
    while flow.view(now).caption == first:        # on to the call's second page
        now += 0.5
        flow.tick(now)
    yield "9-night-call-paged", flow.view(now), ""
    now = _until(flow, now, lambda: flow.phase is Phase.DISCUSSION)
    flow.handle(Tap(Button.VOTE), now)
    now = _until(flow, now, lambda: flow.phase is not Phase.VOTE, 0.25)
    yield "9-reveal-paged", flow.view(now), ""
    flow.handle(Tap(Button.NEXT), now)
    yield "9-reveal-paged-2", flow.view(now), ""


def save_screenshots(config: Config, out: Path, size: tuple[int, int]) -> list[Path]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

    pygame.display.init()
    pygame.font.init()
    out.mkdir(parents=True, exist_ok=True)
    painter = Painter()
    paths = []
    for name, view, notice in round_views(config):
        path = out / f"{name}.png"
        pygame.image.save(render_view(view, size, notice, painter), str(path))
        paths.append(path)
    return paths

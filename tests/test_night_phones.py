"""At night no phone tells a player to look at anything but their own phone
(issue 40, item 2).

Every game's nights are driven whole on the fake clock, in every language
of the box, and every view every seat's phone is sent at each step is
kept: One Night with the cards on the phones and with the table's own
cards, the timed game's deal and night on the phones and on the box (with
a called seat holding VOTE there, so the box's private screens are up),
and the Mayor's game with the box dealing to the phones and with the
Mayor dealing by hand, its Lovers marked on the console, through night 2.
None of those views may say "Look at the box." (in any language), name the
box, or name one of its buttons: with eyes closed, a phone that points at
the box wakes the whole table, and a called player is told aloud."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest
from test_mayor_phones import MAYOR, PLAYERS
from test_mayor_phones import table as mayors_table
from test_newd3_game import A1, Table, saved
from test_onenight_phones import base5
from test_onenight_phones_own_cards import DECK, OwnTable

from wolfbox.buttons import Button, Tap
from wolfbox.darkarts import console, rules
from wolfbox.darkarts.game import Stage as MayorStage
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.i18n import speaking
from wolfbox.newd3.game import Game as Timed
from wolfbox.newd3.game import Stage as TimedStage
from wolfbox.newd3.turns import Kind
from wolfbox.phone import PhoneView
from wolfbox.view import Phase

LANGUAGES = ("en", "de", "zh")
# What the phones said at night before issue 40, in each language.
LOOK_AT_THE_BOX = ("Look at the box.", "Schau auf die Box.", "请看盒子。")
# The box, by name, in each language's words for it, and its buttons by theirs.
BOX = re.compile(r"\b(box|Box)\b|盒|\b(VOTE|NEXT|BACK|START)\b")
TIMED_SEATS = range(1, 10)


def texts(view: PhoneView) -> list[str]:
    """Every word a phone shows of a view: its cover's secret too."""
    out = [view.title, view.big, *view.lines, *view.secret]
    task = view.task
    if task is not None:
        out += [task.prompt, *(w for _i, w in task.options), *(w for _i, w in task.actions)]
    return [t for t in out if t]


class Nights:
    """The night views of every seat, as a game is driven through them."""

    def __init__(self) -> None:
        self.views: list[tuple[str, int, PhoneView]] = []

    def keep(self, where: str, game, seats, now: float) -> None:
        self.views += [(where, seat, game.phone_view(seat, now)) for seat in seats]

    def pointing_at_the_box(self) -> list[tuple[str, int, str]]:
        return [(where, seat, text) for where, seat, view in self.views for text in texts(view)
                if any(look in text for look in LOOK_AT_THE_BOX) or BOX.search(text)]


def one_night_on_phones(nights: Nights) -> None:
    t = base5()
    t.press(Tap(Button.START))
    while t.f.phase is not Phase.DISCUSSION:
        if t.f.phase is Phase.NIGHT:
            nights.keep("One Night, cards on phones", t.f, range(1, 6), t.now)
        t.until(lambda at=t.now: t.now > at)


def one_night_own_cards(nights: Nights) -> None:
    t = OwnTable(DECK)
    t.press(Tap(Button.START))
    while t.f.phase is not Phase.DISCUSSION:
        if t.f.phase is Phase.NIGHT:
            nights.keep("One Night, own cards", t.f, range(1, 6), t.now)
        nxt = t.f.next_change(t.now)
        assert nxt is not None
        t.now = nxt
        t.f.tick(t.now)


def timed(nights: Nights, where: str, t: Table, done: Callable[[], bool]) -> None:
    """The timed game on until `done()`, kept at every step of its deal or
    night; in a seat's own window on the box, with VOTE held there too."""
    while not done():
        if t.g.stage in (TimedStage.DEAL, TimedStage.NIGHT):
            nights.keep(where, t.g, TIMED_SEATS, t.now)
            if t.in_window() and t.turn().kind in (Kind.CARD, Kind.LOOK) and not t.g.showing:
                t.hold(Button.VOTE)                     # the called seat, at the box
                nights.keep(where, t.g, TIMED_SEATS, t.now)
                t.release(Button.VOTE)
        t.step()


def timed_game(nights: Nights, phones: frozenset[int], where: str) -> None:
    deal = Table(Timed(rng=random.Random(4)))
    deal.press(PhonesSeated(phones))
    deal.tap(Button.START)
    timed(nights, f"{where}: the deal", deal, lambda: deal.g.stage is TimedStage.DISCUSSION)
    night = Table(Timed.from_dict(saved("night", A1, (), 1), rng=random.Random(0)))
    night.press(PhonesSeated(phones))
    night.tap(Button.START)
    timed(nights, f"{where}: night 1", night,
          lambda: night.g.stage not in (TimedStage.NIGHT, TimedStage.RESUME))


def mayors_game(nights: Nights, phones: frozenset[int], where: str) -> None:
    """Night 1 (the Lovers marked on the box's ring) to the end of night 2:
    the Mayor on the buttons, the table lynching its first living seat."""
    t = mayors_table(phones)
    t.press(Tap(Button.START))
    # The deal on the phones, eyes open, and the night (by name: the deal
    # is a stage of its own since issue 40).
    dark = {s for s in MayorStage if s.value in ("deal", "night", "lovers")}
    for _step in range(4000):
        g = t.g
        if g.stage is MayorStage.END or (g.night == 2 and g.stage is MayorStage.DAWN):
            break
        if g.stage in dark:
            nights.keep(where, g, PLAYERS, t.now)
        match g.stage:
            case MayorStage.LOVERS:
                for seat in (3, 5):                     # the box's ring shows them marked
                    t.seat(seat)
                    t.press(Tap(Button.VOTE))
                    nights.keep(where, g, PLAYERS, t.now)
                t.press(Tap(Button.START))
            case MayorStage.DAWN:
                t.dawn_over()
            case MayorStage.DISCUSSION:
                t.press(Tap(Button.VOTE))
                t.seat(g.ring.living()[0])
                t.press(Tap(Button.VOTE))
            case MayorStage.SECOND | MayorStage.DEFENCE:
                t.settle()
                t.press(Tap(Button.VOTE))
            case MayorStage.HANDS:
                for seat in console.voters(g) if g.hands_on_phones else ():
                    task = g.phone_view(seat, t.now).task
                    t.press(PhoneChoice(seat, task.step, (console.HAND_UP,)))
                t.run_until(lambda g: g.stage is not MayorStage.HANDS)
            case MayorStage.COUNT:
                t.tap(Button.VOTE, rules.most_hands(g.living_count()))
                t.press(Tap(Button.START))
            case MayorStage.RESULT | MayorStage.CONFIRM:
                t.press(Tap(Button.START))
            case MayorStage.ROLE:
                t.press(Tap(Button.NEXT))               # the first card left
                t.press(Tap(Button.START))
            case MayorStage.SHOT:
                t.seat(g.ring.living()[0])
                t.press(Tap(Button.VOTE))
            case _:
                t.step()
    assert t.g.night == 2, "the game never reached its second night"


def every_night_view() -> Iterator[tuple[str, Callable[[Nights], None]]]:
    yield "one night on phones", one_night_on_phones
    yield "one night own cards", one_night_own_cards
    yield "timed on phones", lambda n: timed_game(n, frozenset(TIMED_SEATS), "timed on phones")
    yield "timed on the box", lambda n: timed_game(n, frozenset(range(1, 9)),
                                                   "timed on the box")
    yield "mayor, cards on phones", lambda n: mayors_game(n, PLAYERS | {MAYOR},
                                                          "mayor, cards on phones")
    yield "mayor, cards by hand", lambda n: mayors_game(n, frozenset({MAYOR}),
                                                        "mayor, cards by hand")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game", "drive"), list(every_night_view()),
                         ids=[name for name, _drive in every_night_view()])
def test_no_phone_points_at_the_box_at_night(lang, game, drive):
    nights = Nights()
    with speaking(lang):
        drive(nights)
        found = nights.pointing_at_the_box()
    assert len(nights.views) > 50, "too few night views kept to mean anything"
    assert found == [], found[:5]


def test_the_mayors_night_is_the_same_view_on_every_phone():
    """Whatever the box shows the Mayor (the Lovers being marked), every
    player's phone shows the night's title and one line pointing nowhere
    but itself; only the card behind the cover is its own."""
    t = mayors_table(PLAYERS | {MAYOR})
    t.press(Tap(Button.START))
    t.stage_is(MayorStage.LOVERS)
    t.press(Tap(Button.NEXT))
    t.press(Tap(Button.VOTE))                           # a Lover marked on the box's ring
    assert t.g.view(t.now).private and any(s.marked for s in t.g.view(t.now).seats)
    views = [t.g.phone_view(seat, t.now) for seat in PLAYERS]
    shown = {(v.title, v.big, v.lines, v.dim, v.task) for v in views}
    assert shown == {("Night 1 · Lovers", "",
                      ("Night: keep your eyes closed until you are called.",), True, None)}
    assert len({v.secret for v in views}) > 1          # each its own card, covered

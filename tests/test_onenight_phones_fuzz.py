"""One Night on phones played to its end by phones that tap what they are
offered (issue 29, item 2): any deck of base, Daybreak and Bonus cards, any
deal (a Doppelganger copying each role), each seat answering every step
from the options its task shows, in any order, or not at all. Through the
pure game on the fake clock: nothing raises, the game's own `check()`
holds, the night ends, the referee gives a verdict, and no seat's answer
changes another seat's task or secret."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wolfbox.buttons import Button, Tap
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.model import WAIT
from wolfbox.onenight.phones import PhoneNight
from wolfbox.onenight.roles import ROLES
from wolfbox.view import Phase

CARDS = [r for r in ROLES for _copy in range(ROLES[r].copies)]
COPIES = sorted(r for r in ROLES if r != "doppelganger")
# Every card, each deck a handful of them: a modest run, in CI on two cores.
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def deals(draw) -> tuple[tuple[str, ...], int, int]:
    """A deck and its deal (seats, then the center, then the center
    werewolf card of an Alpha Wolf deck), the Doppelganger at a seat with
    the card she is meant to copy at another; and the players."""
    copy = draw(st.sampled_from(COPIES))
    pool = [r for r in CARDS if r not in ("doppelganger", copy)]
    more = draw(st.lists(st.sampled_from(range(len(pool))), unique=True, min_size=4,
                         max_size=9))
    rest = [pool[i] for i in more]
    # Each of the Village Idiot and the Witch changes every copy's options.
    for card in ("village_idiot", "witch"):
        if card not in rest and card != copy and draw(st.booleans()):
            rest.append(card)
    if (rest.count("mason") + (copy == "mason")) == 1:
        rest.append("mason")
    wolf = ()
    if "alpha_wolf" in (copy, *rest):
        # Two Werewolf cards: one lies apart as the center werewolf card.
        rest += ["werewolf"] * (2 - rest.count("werewolf") - (copy == "werewolf"))
        rest.remove("werewolf")
        wolf = ("werewolf",)
    if len(rest) + 2 - 3 < 3:                     # three players at least
        rest.append(next(pool[i] for i in range(len(pool)) if i not in more
                         and pool[i] not in ("alpha_wolf", "mason")))
    cards = len(rest) + 2
    players = cards - 3
    dopp, target = draw(st.sampled_from([(a, b) for a in range(players)
                                         for b in range(players) if a != b]))
    shuffled = iter(draw(st.permutations(rest)))
    placed = ["doppelganger" if i == dopp else copy if i == target else next(shuffled)
              for i in range(cards)]
    return tuple(placed) + wolf, players, target + 1


def table(dealt: tuple[str, ...], players: int) -> Flow:
    deck = list(dealt)
    f = Flow(RoundSettings.for_deck(deck), rng=random.Random(0))
    f.handle(PhonesSeated(frozenset(range(1, players + 1))), 0.0)
    assert f.table is not None, "a phone at every seat: the box deals"
    f.table = PhoneNight(dealt, f.table.lone_wolf, round=f.table.round)   # this deal
    return f


def seen(f: Flow, seats: range) -> dict[int, tuple]:
    night = f.table
    assert night is not None
    return {s: (night.task(s), night.secret(s)) for s in seats}


@FUZZ
@given(deal=deals(), data=st.data())
def test_phones_tapping_what_they_are_offered_play_any_deck_to_a_verdict(deal, data):
    dealt, players, target = deal
    f = table(dealt, players)
    seats = range(1, players + 1)
    now = 0.0
    f.handle(Tap(Button.START), now)
    answered: set[int] = set()
    for _change in range(2000):
        if f.phase is not Phase.NIGHT:
            break
        step = f.settings.night[f.step_index]
        if f.stage == WAIT and f.step_index not in answered and f.table.open:
            answered.add(f.step_index)
            for seat in data.draw(st.permutations(list(seats)), label=f"order {step.id}"):
                for _try in range(8):
                    task = f.table.task(seat)
                    if task is None or task.chosen or not data.draw(
                            st.integers(0, 9), label="taps"):
                        break
                    offered = [o for o, _w in task.options]
                    if step.id == "doppelganger" and f.table.stage(seat) == 0 \
                            and target in offered and data.draw(st.booleans(), label="aim"):
                        choice: tuple[int, ...] = (target,)
                    else:
                        choice = tuple(data.draw(st.lists(
                            st.sampled_from(offered), min_size=task.pick,
                            max_size=task.pick, unique=True), label="choice"))
                    before = seen(f, seats)
                    f.handle(PhoneChoice(seat, task.step, choice), now)
                    f.check(now)
                    after = seen(f, seats)
                    for other in seats:
                        if other != seat:
                            assert after[other] == before[other], (step.id, seat, other)
        nxt = f.next_change(now)
        assert nxt is not None and nxt >= now, f"the night waits for nothing at {step.id}"
        now = nxt
        f.tick(now)
        f.check(now)
    assert f.phase is Phase.DISCUSSION, "the night ended"
    f.handle(Tap(Button.VOTE), now)
    for _change in range(200):
        if f.phase is Phase.VOTE and f.table.voting:
            for seat in seats:
                task = f.table.vote_task(seat)
                if task is not None and not task.chosen and data.draw(st.booleans(),
                                                                      label="votes"):
                    f.handle(PhoneChoice(seat, task.step, (data.draw(st.sampled_from(
                        [o for o, _w in task.options]), label="vote"),)), now)
        if f.phase is Phase.VERDICT:
            break
        nxt = f.next_change(now)
        assert nxt is not None
        now = nxt
        f.tick(now)
        f.check(now)
    assert f.phase is Phase.VERDICT and f.verdict is not None
    assert f.table.happened()

"""The timed game's deal and night, box time, with and without phones
(issue 22, item 5), for `make bench`.

    python bench/timed.py            # prints one JSON line of figures

Simulated on the game's own fake clock (no sound, no screen: each line
lasts its caption time, as the box's captions do without a voice), the
default windows, a table where every seat answers as soon as it is asked.
Without phones a seat short of one: the box deals and plays the night a
seat or a role at a time, whatever is answered (the windows are fixed).
Measured:
- timed_deal_window_phones_s: the deal's one step on nine phones;
- timed_deal_phones_s / timed_deal_box_s: START to the first day;
- timed_night_phones_s / timed_night_box_s: night 1, from its first line
  to the dawn.
"""

from __future__ import annotations

import json
import random

from wolfbox import lineup  # noqa: F401 (the games' config sections)
from wolfbox.buttons import Button, Tap
from wolfbox.events import Event, PhoneChoice, PhonesSeated
from wolfbox.newd3.game import Game, Stage
from wolfbox.newd3.turns import Kind

SEATS = frozenset(range(1, 10))


class Table:
    """One game on a fake clock: events at `now`, time moved on to the
    game's next change."""

    def __init__(self, phones: frozenset[int], seed: int) -> None:
        self.g, self.now = Game(rng=random.Random(seed)), 0.0
        self.send(PhonesSeated(phones))

    def send(self, event: Event) -> None:
        self.g.handle(event, self.now)

    def until(self, done) -> float:
        """Steps to `done()`, every seat answering each night task it is
        shown (nobody votes by day: the same night follows); the time."""
        start = self.now
        for _ in range(100_000):
            if done():
                return self.now - start
            self.answer()
            at = self.g.next_change(self.now)
            assert at is not None, self.g.stage
            self.now = max(self.now, at)
            self.g.tick(self.now)
        raise AssertionError("never")

    def answer(self) -> None:
        for seat in SEATS:
            task = self.g.phone_view(seat, self.now).task
            if task is not None and not task.chosen and task.step.startswith("night"):
                self.send(PhoneChoice(seat, task.step, (task.options[-1][0],)))


def figures(phones: frozenset[int], seed: int = 1) -> dict[str, float]:
    t = Table(phones, seed)
    t.send(Tap(Button.START))
    window = [0.0, 0.0]

    def dealt() -> bool:
        if t.g.stage is Stage.DEAL and t.g.turn_stage == "wait" \
                and t.g.current_turn().kind is Kind.PHONES and not window[0]:
            window[0] = t.now
        if t.g.stage is Stage.DEAL and t.g.turn_stage == "after" and window[0] \
                and not window[1]:
            window[1] = t.now
        return t.g.stage is Stage.DISCUSSION
    deal = t.until(dealt)
    t.until(lambda: t.g.stage in (Stage.TALLY, Stage.RESULT))   # nobody voted
    if t.g.stage is Stage.TALLY:
        t.send(Tap(Button.START))                   # entered on the box: a tie
    t.send(Tap(Button.START))                       # the result as shown: OK
    t.until(lambda: t.g.stage is Stage.NIGHT)
    night = t.until(lambda: t.g.stage is Stage.DAWN)
    return {"deal": round(deal, 1), "deal_window": round(window[1] - window[0], 1),
            "night": round(night, 1)}


def main() -> None:
    on, off = figures(SEATS), figures(SEATS - {9})
    print(json.dumps({"timed_deal_window_phones_s": on["deal_window"],
                      "timed_deal_phones_s": on["deal"], "timed_deal_box_s": off["deal"],
                      "timed_night_phones_s": on["night"], "timed_night_box_s": off["night"]}))


if __name__ == "__main__":
    main()

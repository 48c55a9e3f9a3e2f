"""Write a seeded random walk of button events for `wolfbox replay`.

    python tests/replays/walk.py SEED [EVENTS [BACK]] > NAME.events

The walks in this folder were written with it once and are kept as they
are: with their recorded timelines (NAME.golden) they pin down what a
table sees and hears, so that a refactor that changes it fails
tests/test_golden.py. Taps are most of a walk; holds (which abandon,
undo, switch games or show a card) are rarer, and a held button is let
go a moment later, as a hand would."""

from __future__ import annotations

import json
import random
import sys

BUTTONS = ("start", "vote", "next", "back")
STEPS = (0.3, 0.7, 1.5, 3.0, 6.0, 12.0, 30.0, 75.0)


def walk(seed: int, count: int, back: float = 0.25) -> list[dict[str, object]]:
    """`back`: how often BACK is the button, against the other three's
    share (a low one keeps a walk in a game long enough to finish it)."""
    rng = random.Random(seed)
    at, out = 0.0, []
    for _ in range(count):
        at = round(at + rng.choice(STEPS), 1)
        button = "back" if rng.random() < back else rng.choice(BUTTONS[:3])
        if rng.random() < 0.12 and button != "back" or rng.random() < 0.02:
            out.append({"at": at, "hold": button})
            at = round(at + rng.choice((0.5, 2.0, 4.0)), 1)
            out.append({"at": at, "release": button})
        else:
            out.append({"at": at, "tap": button})
    out.append({"at": round(at + 120, 1)})
    return out


if __name__ == "__main__":
    seed = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    back = float(sys.argv[3]) if len(sys.argv) > 3 else 0.25
    print(f"# A seeded walk: python tests/replays/walk.py {seed} {count} {back}")
    for event in walk(seed, count, back):
        print(json.dumps(event))

"""Write a seeded walk of a game played on phones, for `wolfbox replay`.

    python tests/replays/phone_walk.py MODE SEED [EVENTS [OPTION ...]] > NAME.events

Every seat takes a phone at the start; then each step is a tap of a box
button or a seat's answer to the task its phone shows at that moment,
drawn from the options that task offers (so the walk goes where a table
would, not into answers the box refuses). The game is played as `wolfbox
replay` plays it (`wolfbox.cli.replay_game`, with the same options), and
the walks in this folder were written with it once and are kept as they
are: with their recorded timelines (NAME.golden.gz) they pin down what the
box and every phone show."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator

from wolfbox import cli
from wolfbox.buttons import Button
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.replay import TimedPress, replay

STEPS = (0.5, 1.0, 2.0, 3.0, 5.0, 8.0)
BUTTONS = (Button.START, Button.VOTE, Button.NEXT)
# The Mayor's console's actions a walk takes rarely (900: pause, or back
# out of the book; 951: the book) or never (950: undo the last entry), so
# that it goes on through the game instead of around in it.
RARE = {900: 0.2, 950: 0.0, 951: 0.05}
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")


def walk(mode: str, seed: int, count: int, options: list[str]) -> list[dict[str, object]]:
    """The events of one walk, as the lines of an events file."""
    rng = random.Random(seed)
    args = cli._parse(["replay", "-", "--mode", mode, "--seed", str(seed), *options])
    game_rng = random.Random(args.seed)
    config = cli._load(args, game_rng)
    played, stage = cli.replay_game(args, config, game_rng)
    seats = seats_at(mode, played, config.game.deck)
    written: list[dict[str, object]] = []

    def events() -> Iterator[TimedPress]:
        at = 0.0
        names = {str(s): NAMES[s - 1] for s in seats}
        written.append({"at": at, "seated": seats, "names": names})
        yield TimedPress(at, phone=PhonesSeated(frozenset(seats),
                                                tuple((s, NAMES[s - 1]) for s in seats)))
        for _ in range(count):
            then = at
            at = round(at + rng.choice(STEPS), 1)
            if rng.random() < 0.15:
                button = rng.choice(BUTTONS)
                written.append({"at": at, "tap": button.value})
                yield TimedPress(at, button)
                continue
            seat = rng.choice(seats)
            task = played.phone_view(seat, then).task
            ids = [] if task is None else [i for i, _w in (*task.options, *task.actions)]
            if not ids:
                written.append({"at": at})
                yield TimedPress(at)
                continue
            if task.pick > 1 and task.pick <= len(task.options) and rng.random() < 0.9:
                choice = tuple(rng.sample([i for i, _w in task.options], task.pick))
            else:
                choice = (rng.choices(ids, [RARE.get(i, 1.0) for i in ids])[0],)
            written.append({"at": at, "seat": seat, "step": task.step, "choice": list(choice)})
            yield TimedPress(at, phone=PhoneChoice(seat, task.step, choice))
        at = round(at + 120, 1)
        written.append({"at": at})
        yield TimedPress(at)

    for _record in replay(played, events(), stage):
        pass
    return written


def seats_at(mode: str, played: object, deck: list[str]) -> list[int]:
    """The seats that hold a phone: every player's, and the Mayor's console."""
    game = played.active                                    # type: ignore[attr-defined]
    if mode == "dark_arts":
        return [*range(1, game.players + 1), game.mayor_seat]
    if mode == "newd3":
        return list(range(1, 10))
    from wolfbox.onenight.deck import players_for
    return list(range(1, players_for(deck) + 1))


if __name__ == "__main__":
    mode, seed = sys.argv[1], int(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    options = sys.argv[4:]
    print(f"# A seeded walk on phones: python tests/replays/phone_walk.py {mode} {seed} {count}"
          + "".join(f" {o}" for o in options))
    for event in walk(mode, seed, count, options):
        print(json.dumps(event))

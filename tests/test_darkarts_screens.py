"""What the Mayor sees at the count: the hands against the threshold, and
the verdict on the result screen."""

from __future__ import annotations

from wolfbox.buttons import Button, Tap
from wolfbox.darkarts.game import Game, Options, Stage
from wolfbox.view import Phase


def to_count(game: Game) -> float:
    """Seven players, seat 1 dies in the night, seat 3 is accused and seconded."""
    now = 0.0
    game.handle(Tap(Button.START), now)
    while game.stage is Stage.NIGHT:
        now = game.next_change(now)
        game.tick(now)
    game.handle(Tap(Button.VOTE), now)                # seat 1 died
    game.handle(Tap(Button.NEXT), now)                # the first card offered
    game.handle(Tap(Button.START), now)               # shown back
    game.handle(Tap(Button.START), now)               # OK
    for _ in range(20):
        if game.stage is Stage.DISCUSSION:
            break
        if game.stage in (Stage.DAWN, Stage.CONFIRM):  # no more deaths; OK
            game.handle(Tap(Button.START), now)
        elif (nxt := game.next_change(now)) is not None:
            now = nxt
            game.tick(now)
    game.handle(Tap(Button.VOTE), now)                # accuse
    game.handle(Tap(Button.NEXT), now)
    game.handle(Tap(Button.VOTE), now)                # seat 3
    game.handle(Tap(Button.VOTE), now)                # seconded
    game.handle(Tap(Button.VOTE), now)                # to the vote
    for _ in range(50):
        if game.stage is Stage.COUNT:
            return now
        nxt = game.next_change(now)
        if nxt is None:
            game.handle(Tap(Button.NEXT), now)
        else:
            now = nxt
            game.tick(now)
    raise AssertionError("never reached the count")


def test_the_count_shows_the_hands_needed_and_the_result_says_the_verdict():
    game = Game(options=Options(scale=0.1), players=7, chosen={"werewolf": 2})
    now = to_count(game)
    view = game.view(now)
    assert view.phase is Phase.REFEREE and view.title == "Votes to lynch seat 3"
    # 6 living (003: the accused counts, the Mayor does not): 3 hands needed, 5 at most.
    assert view.details == ("Hands: 0 of at most 5", "Needed: 3")
    for _ in range(2):
        game.handle(Tap(Button.VOTE), now)
    game.handle(Tap(Button.START), now)
    assert game.view(now).details[0] == "The vote fails"
    game.handle(Tap(Button.BACK), now)                # recount
    game.handle(Tap(Button.VOTE), now)
    game.handle(Tap(Button.START), now)
    assert game.view(now).details[0] == "Lynched" and game.view(now).big == "3"

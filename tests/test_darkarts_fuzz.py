"""Werewolves of the Dark Arts: random Mayor inputs never reach a state with
a negative living count, a dead player accused, or a missed win
(Game.check asserts all three after every step), and the game ends with the
winner the rules give, worked out here from the deal and the dead, not
asked of the code under test."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.darkarts import rules
from wolfbox.darkarts.game import Game, Stage
from wolfbox.darkarts.model import CHECKPOINTS
from wolfbox.darkarts.roles import CHOSEN, ROLES, WEREWOLF
from wolfbox.darkarts.said import all_lines
from wolfbox.effects import Checkpoint, Say
from wolfbox.events import SpeechDone

# The werewolves' side: the Werewolf cards, and 004's Alchemist and Track
# Reader ("on the Wolves' side"; the box counts them with the pack).
WOLF_SIDE = frozenset({"werewolf", "alchemist", "track_reader"})
# Where the game goes on: no side may have won.
GOING_ON = (Stage.NIGHT, Stage.LOVERS, Stage.DISCUSSION, Stage.ACCUSE, Stage.SECOND,
            Stage.DEFENCE, Stage.HANDS, Stage.COUNT, Stage.RESULT)


def expected_winner(players: int, chosen: dict[str, int], dead: dict[int, str]) -> str | None:
    """The win as the rules give it. 003 leaves the conditions unsaid ("if the
    role reveal meets a winning condition"); the rules-facts guide takes the
    classic ones: the village wins when every werewolf is dead, the
    werewolves when they equal or outnumber everyone else alive."""
    wolves = sum(n for role, n in chosen.items() if role in WOLF_SIDE)
    wolves -= sum(1 for role in dead.values() if role in WOLF_SIDE)
    others = players - len(dead) - wolves
    if wolves == 0:
        return "village"
    if wolves >= others:
        return "werewolves"
    return None


def check_win(game: Game) -> None:
    """The game has ended exactly when, and as, the rules say, for the deal
    it was started with (the setup screen may have changed it since) and the
    cards the Mayor entered for the dead."""
    if game.ring is None or game.setup is None or game.stage in (Stage.SETUP, Stage.RESUME):
        return
    expected = expected_winner(game.setup.players, dict(game.setup.roles), game.ring.dead)
    if game.stage is Stage.END:
        assert game.winner == expected is not None, (game.winner, expected, game.ring.dead)
    elif game.stage in GOING_ON:
        assert expected is None, f"{expected} won, but the game is at {game.stage}"


def entered(game: Game) -> tuple:
    """What the Mayor has entered, as the table sees it: what an undo must
    bring back exactly."""
    ring = dict(game.ring.dead) if game.ring else None
    return (game.stage, game.night, ring, game.lovers, game.previous_accused,
            game.book.lines(), game.winner, game.pending, game.dying, game.cursor,
            game.accused, game.hands, game.adjust)


def check_resumes(effects, now: float) -> None:
    """Every checkpoint handed out (after an undo too) resumes to a sound game."""
    for state in (e.state for e in effects if isinstance(e, Checkpoint)):
        back = Game.from_dict(json.loads(json.dumps(state)))
        if Stage(state["stage"]) in CHECKPOINTS:
            back.handle(Tap(Button.START), now)
            back.check()


@st.composite
def setups(draw) -> tuple[int, dict[str, int]]:
    players = draw(st.integers(5, 20))
    wolves = draw(st.integers(1, (players - 1) // 2))
    chosen = {WEREWOLF: wolves}
    room = players - wolves
    for role in CHOSEN[1:]:
        n = ROLES[role].most
        if draw(st.booleans()) and room >= n:
            chosen[role] = n
            room -= n
    # The 004 wolves (Alchemist, Track Reader) may make too many werewolves.
    assume(rules.Setup.of(players, chosen).problem() is None)
    return players, chosen


PREPARED = frozenset(all_lines())

STEPS = st.one_of(
    st.sampled_from([Tap(b) for b in GAME_BUTTONS]),
    st.sampled_from([Tap(Button.VOTE), Tap(Button.START), Tap(Button.NEXT)]),  # weight
    st.just("spoken"),                          # the narrator ends the line
    st.just("due"),                             # the clock jumps to the next deadline
    st.floats(0.0, 30.0),                       # time passes
    st.just(Hold(Button.BACK)),                 # end the game (then START deals again)
    st.just(Hold(Button.VOTE)),                 # undo the last entry
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.lists(STEPS, min_size=100, max_size=400))
def test_random_mayor_inputs_keep_the_game_consistent(setup, steps):
    players, chosen = setup
    game = Game(players=players, chosen=chosen)
    now = 0.0
    token = 0
    effects = game.handle(Tap(Button.START), now)
    assert game.stage is Stage.NIGHT
    before: list[tuple] = []                    # what each entry found, the last last
    for step in steps:
        entries, was = len(game._undo), entered(game)
        if step == "spoken":
            out = game.handle(SpeechDone(token), now)
        elif step == "due":
            nxt = game.next_change(now)
            if nxt is None:
                continue
            assert nxt >= now
            now = nxt
            out = game.tick(now)
        elif isinstance(step, float):
            now += step
            out = game.tick(now)
        else:
            out = game.handle(step, now)
        effects += out
        token = next((e.token for e in reversed(out) if isinstance(e, Say)), token)
        game.check()
        check_win(game)
        check_resumes(out, now)
        if len(game._undo) == entries + 1:      # an entry took effect
            before.append(was)
        elif step == Hold(Button.VOTE) and len(game._undo) == entries - 1:
            assert entered(game) == before.pop()     # undone: all as before the entry
        elif not game._undo:                    # a new game
            before.clear()
        assert len(before) == len(game._undo)
        screen = game.screen(now)
        assert screen.view.title
    # Every line the game said can be rendered ahead (wolfbox prepare).
    said = {e.text for e in effects if isinstance(e, Say)}
    assert said <= PREPARED, said - PREPARED


@settings(max_examples=200, deadline=None)
@given(setups(), st.lists(st.sampled_from(["died", "more", "done", "next"]), min_size=150,
                              max_size=300),
       st.lists(st.integers(0, 299), max_size=12))
def test_random_deaths_always_end_in_the_right_win(setup, steps, undos):
    """A Mayor who enters deaths quickly: every night and every lynch,
    until someone wins; the game ends exactly when a side has won. Now and
    then (at the steps in `undos`) the Mayor undoes the last entry: the
    game is then exactly as it was before that entry, and plays on."""
    players, chosen = setup
    game = Game(players=players, chosen=chosen)
    now = 0.0
    game.handle(Tap(Button.START), now)
    before: list[tuple] = []
    for at, step in enumerate(steps):
        # Hurry the night.
        while game.stage is Stage.NIGHT:
            now = game.next_change(now)
            game.tick(now)
        entries, was = len(game._undo), entered(game)
        if at in undos and game._undo:
            game.handle(Hold(Button.VOTE), now)
            assert entered(game) == before.pop()
            game.check()
            check_win(game)
            continue
        match game.stage, step:
            case Stage.LOVERS, _:                           # a Lover pair
                for button in (Button.VOTE, Button.NEXT, Button.VOTE):
                    game.handle(Tap(button), now)
                was = entered(game)                         # the entry is START's
                game.handle(Tap(Button.START), now)
            case (Stage.DAWN | Stage.SHOT), "died":
                game.handle(Tap(Button.VOTE), now)
            case (Stage.DAWN | Stage.SHOT), "next":
                game.handle(Tap(Button.NEXT), now)
            case Stage.DAWN, _:
                game.handle(Tap(Button.START), now)
            case Stage.ROLE, "next":
                game.handle(Tap(Button.NEXT), now)
            case Stage.ROLE, _:
                game.handle(Tap(Button.START), now)        # refused until a card is on
            case Stage.CONFIRM, _:
                game.handle(Tap(Button.START), now)
            case Stage.DISCUSSION, _:
                game.handle(Tap(Button.VOTE), now)          # accuse
            case Stage.ACCUSE, "next":
                game.handle(Tap(Button.NEXT), now)
            case Stage.ACCUSE, _:
                game.handle(Tap(Button.VOTE), now)
            case Stage.SECOND | Stage.DEFENCE, _:
                game.handle(Tap(Button.VOTE), now)
            case Stage.HANDS, _:
                game.handle(Tap(Button.NEXT), now)
            case Stage.COUNT, "more":
                game.handle(Tap(Button.VOTE), now)
            case Stage.COUNT, _:
                game.handle(Tap(Button.START), now)
            case Stage.RESULT, _:
                game.handle(Tap(Button.START), now)
            case Stage.END, _:
                break
        game.check()
        check_win(game)
        if len(game._undo) == entries + 1:
            before.append(was)
        assert len(before) == len(game._undo)

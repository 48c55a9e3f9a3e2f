"""Werewolves of the Dark Arts: random Mayor inputs never reach a state with
a negative living count, a dead player accused, or a missed win
(Game.check asserts all three after every step)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.darkarts import rules
from wolfbox.darkarts.game import Game, Stage
from wolfbox.darkarts.roles import CHOSEN, ROLES, WEREWOLF
from wolfbox.darkarts.said import all_lines
from wolfbox.effects import Say
from wolfbox.flow import SpeechDone


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
    for step in steps:
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
        if game.ring is not None and game.stage is not Stage.SETUP:
            assert len(game.ring.living()) >= 0
            assert rules.living_werewolves(game.setup, game.ring) >= 0
        if game.stage is Stage.END:
            assert game.winner == rules.winner(game.setup, game.ring)
        screen = game.screen(now)
        assert screen.view.title
    # Every line the game said can be rendered ahead (wolfbox prepare).
    said = {e.text for e in effects if isinstance(e, Say)}
    assert said <= PREPARED, said - PREPARED


@settings(max_examples=200, deadline=None)
@given(setups(), st.lists(st.sampled_from(["died", "more", "done", "next"]), min_size=150,
                              max_size=300))
def test_random_deaths_always_end_in_the_right_win(setup, steps):
    """A Mayor who enters deaths quickly: every night and every lynch,
    until someone wins; the game ends exactly when a side has won."""
    players, chosen = setup
    game = Game(players=players, chosen=chosen)
    now = 0.0
    game.handle(Tap(Button.START), now)
    for step in steps:
        # Hurry the night, enter a Lover pair if asked.
        while game.stage is Stage.NIGHT:
            now = game.next_change(now)
            game.tick(now)
        if game.stage is Stage.LOVERS:
            game.handle(Tap(Button.VOTE), now)
            game.handle(Tap(Button.NEXT), now)
            game.handle(Tap(Button.VOTE), now)
            game.handle(Tap(Button.START), now)
            continue
        match game.stage, step:
            case (Stage.DAWN | Stage.SHOT), "died":
                game.handle(Tap(Button.VOTE), now)
            case (Stage.DAWN | Stage.SHOT), "next":
                game.handle(Tap(Button.NEXT), now)
            case Stage.DAWN, _:
                game.handle(Tap(Button.START), now)
            case Stage.ROLE, "next":
                game.handle(Tap(Button.NEXT), now)
            case Stage.ROLE, _:
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
        assert game.ring is not None and game.setup is not None
        won = rules.winner(game.setup, game.ring)
        if game.stage in (Stage.DISCUSSION, Stage.NIGHT, Stage.ACCUSE):
            assert won is None

"""What the Mayor sees at the count: the hands against the threshold, and
the verdict on the result screen."""

from __future__ import annotations

import pytest
from test_device_render import SIZES, check, painter  # noqa: F401  (a fixture)

from wolfbox.buttons import Button, Hold, Tap
from wolfbox.darkarts.game import Game, Options, Stage
from wolfbox.view import Phase


def to_count(game: Game) -> float:
    """Seven players, seat 1 dies in the night, seat 3 is accused and seconded."""
    now = 0.0
    game.handle(Tap(Button.START), now)
    while game.stage is Stage.NIGHT:
        now = game.next_change(now)
        game.tick(now)
    game.handle(Tap(Button.NEXT), now)                # on no seat first: seat 1
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
    game.handle(Tap(Button.VOTE), now)                # accuse: the picker is on nobody
    game.handle(Tap(Button.NEXT), now)                # seat 2 (seat 1 died)
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


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
@pytest.mark.parametrize("size", SIZES)
def test_the_entry_screens_read_from_across_the_table(painter, size, lang):  # noqa: F811
    """The screens that put an entry right (issue 19), on the busiest ring (20
    seats) with the longest card names: the pickers on nothing and the OK they
    refuse, an entry shown back, the undo's message. Nothing cut or too small."""
    from wolfbox.darkarts.roles import role_name
    from wolfbox.i18n import speaking

    shown: list[str] = []

    def look(game: Game, now: float) -> None:
        view = game.view(now)
        check(painter, view, size, "")
        shown.append(f"{game.stage}:{view.big}")

    with speaking(lang):
        game = Game(options=Options(scale=0.1), players=20,
                    chosen={"werewolf": 4, "hunter": 1, "matchmaker": 1, "dairy_maid": 1,
                            "track_reader": 1})
        now = 0.0
        game.handle(Tap(Button.START), now)
        while game.stage is not Stage.LOVERS:
            now = game.next_change(now)
            game.tick(now)
        for _ in range(2):                                   # the picker starts on nobody
            game.handle(Tap(Button.NEXT), now)
            game.handle(Tap(Button.VOTE), now)
        game.handle(Tap(Button.START), now)
        assert game.stage is not Stage.LOVERS, "the Lovers were refused"
        while game.stage is not Stage.DAWN:
            now = game.next_change(now)
            game.tick(now)
        game.handle(Tap(Button.START), now)                  # nobody died: shown back
        look(game, now)
        game.handle(Tap(Button.BACK), now)
        for _ in range(19):
            game.handle(Tap(Button.NEXT), now)               # seat 20
        game.handle(Tap(Button.VOTE), now)
        game.handle(Tap(Button.START), now)                  # refused: no card yet
        look(game, now)
        names = [role_name(r) for r in game.role_options()]
        longest = max(names, key=len)
        for _ in range(names.index(longest) + 1):
            game.handle(Tap(Button.NEXT), now)
        assert game.view(now).big == longest
        game.handle(Tap(Button.START), now)                  # shown back
        look(game, now)
        game.handle(Tap(Button.BACK), now)
        for _ in range(len(names)):
            if game.view(now).big == role_name("hunter"):
                break
            game.handle(Tap(Button.NEXT), now)
        game.handle(Tap(Button.START), now)
        game.handle(Tap(Button.START), now)                  # seat 20: the Hunter
        game.handle(Tap(Button.START), now)
        game.handle(Tap(Button.START), now)                  # no more deaths
        assert game.stage is Stage.SHOT
        look(game, now)
        game.handle(Tap(Button.VOTE), now)                   # refused: no seat yet
        look(game, now)
        game.handle(Tap(Button.BACK), now)                   # seat 19
        game.handle(Tap(Button.VOTE), now)
        look(game, now)                                      # the shot shown back
        game.handle(Tap(Button.START), now)
        game.handle(Hold(Button.VOTE), now)                  # undone
        assert game.stage is Stage.CONFIRM
        look(game, now)
    assert len(shown) == 7, shown


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_the_screenshots_show_every_page_of_the_final_book_in_every_language(lang):
    """German words take three pages where English takes two: the pictures
    page through all of them (the German set once stopped at the first)."""
    import re

    from wolfbox.config import Config
    from wolfbox.device.screenshots import round_views
    from wolfbox.i18n import speaking
    with speaking(lang):
        ends = [v for n, v, _notice in round_views(Config()) if n.startswith("c-mayor-end")]
    pages = int(re.search(r"1/(\d+)$", ends[0].title).group(1))
    assert pages >= 2 and len(ends) == pages
    assert ends[-1].title.endswith(f"{pages}/{pages}")

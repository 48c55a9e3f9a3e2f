"""Werewolves of the Dark Arts: the night calls, their order and their times."""

from __future__ import annotations

from wolfbox.darkarts.night import CALLS, night_calls
from wolfbox.darkarts.roles import ROLES
from wolfbox.darkarts.rules import Setup
from wolfbox.i18n import pseudo_translation

ALL = frozenset(ROLES)


def ids(steps) -> list[str]:
    return [s.id for s in steps]


def test_the_first_night_calls_every_role_in_play_in_the_fixed_order():
    assert ids(night_calls(ALL, 1)) == [
        "close_eyes", "matchmaker", "lovers", "noble", "alchemist", "chef", "guard",
        "werewolf", "seer", "track_reader", "dairy_maid", "priest", "wake_up"]


def test_later_nights_leave_out_the_first_night_calls_only():
    assert ids(night_calls(ALL, 2)) == [
        "close_eyes", "alchemist", "chef", "guard", "werewolf", "seer", "track_reader",
        "dairy_maid", "priest", "wake_up"]
    assert night_calls(ALL, 2) == night_calls(ALL, 7)


def test_only_roles_in_play_are_called():
    setup = Setup.of(7, {"werewolf": 2, "hunter": 1, "seer": 1})
    assert ids(night_calls(setup.in_play(), 1)) == ["close_eyes", "werewolf", "seer",
                                                    "wake_up"]


def test_every_night_starts_with_closed_eyes_and_ends_waking_the_table():
    for night in (1, 2, 3):
        steps = night_calls(ALL, night)
        assert "close your eyes" in steps[0].text
        assert "open your eyes" in steps[-1].text.lower()


def test_the_calls_and_times_do_not_depend_on_who_is_alive():
    # night_calls takes no seats and no deaths: a dead Seer is called as long as
    # a living one. Check that the game's night is the same with the Seer dead.
    from wolfbox.darkarts.game import Game
    from wolfbox.darkarts.seats import Ring

    def night_two(dead):
        game = Game(chosen={"werewolf": 2, "seer": 1, "guard": 1})
        game.setup = Setup.of(7, game.chosen)
        game.ring = Ring(7, dead)
        game._begin_night(0.0, 2)
        return game.steps

    alive = night_two({})
    dead = night_two({3: "seer", 4: "guard"})
    assert alive == dead
    assert [(s.id, s.seconds) for s in alive] == [
        ("close_eyes", 0.0), ("guard", 15.0), ("werewolf", 30.0), ("seer", 15.0),
        ("wake_up", 0.0)]


def test_action_times_scale_and_can_be_set_per_call():
    steps = {s.id: s.seconds for s in night_calls(ALL, 2, scale=2.0, seconds={"seer": 20})}
    assert steps["werewolf"] == 60.0
    assert steps["seer"] == 40.0


def test_every_call_says_its_words_through_the_translation_function():
    with pseudo_translation():
        for step in night_calls(ALL, 1):
            assert step.text.startswith("⟦")
            assert step.after == "" or step.after.startswith("⟦")


def test_calls_have_distinct_ids():
    assert len({c.id for c in CALLS}) == len(CALLS)


def test_the_004_wolves_wake_with_the_pack():
    """The Alchemist and the Track Reader are on the werewolves' side (004):
    the werewolves' call wakes them too, and says so."""
    plain = {s.id: s.text for s in night_calls(frozenset({"werewolf", "seer"}), 2)}
    pack = {s.id: s.text for s in night_calls(frozenset({"werewolf", "alchemist"}), 2)}
    assert plain["werewolf"].startswith("Werewolves, open your eyes.")
    assert pack["werewolf"].startswith("Werewolves, and everyone on the werewolves' side")
    assert pack["alchemist"] == night_calls(frozenset({"alchemist"}), 2)[1].text


def test_a_per_call_time_from_the_config_reaches_the_mayors_night(tmp_path):
    """[mayor] action_seconds sets one call's time; night.scale scales it."""
    from wolfbox.config import load
    from wolfbox.darkarts.game import Game
    from wolfbox.lineup import KINDS
    from wolfbox.settings_screen import SettingsScreen

    path = tmp_path / "wolfbox.toml"
    path.write_text('[night]\nscale = 0.5\n[mayor]\naction_seconds = { werewolf = 40 }\n')
    game = KINDS["dark_arts"].new(SettingsScreen(load(path)))     # as the box makes it
    assert isinstance(game, Game)
    steps = {s.id: s.seconds for s in night_calls(frozenset({"werewolf", "seer"}), 2,
                                                   game.options.scale,
                                                   game.options.action_seconds)}
    assert steps["werewolf"] == 20.0 and steps["seer"] == 7.5

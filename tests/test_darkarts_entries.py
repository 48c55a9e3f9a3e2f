"""Werewolf with a Mayor: every entry the Mayor makes can be put right
(issue 19). A picker starts on nothing and refuses OK until something is
chosen; a card, the Hunter's shot and the close of a dawn are shown back
(OK, or BACK to change) before they take effect; a hold of VOTE undoes the
last entry, with the dead, the book, the win and the saved game as they
were before it."""

from __future__ import annotations

import json

from test_darkarts_game import BACK, NEXT, START, VOTE_, Table, new_game, says

from wolfbox.buttons import Button, Hold
from wolfbox.darkarts.book import WIN
from wolfbox.darkarts.game import Game, Stage
from wolfbox.effects import Ambience, Checkpoint, StopSpeech

UNDO = Hold(Button.VOTE)
# The seat plan of test_darkarts_game: 1 werewolf, 2 hunter, 3 seer,
# 4 matchmaker, 5 villager, 6 werewolf, 7 villager. Lovers: 3 and 5.


def at_dawn() -> Table:
    t = new_game()
    t.press(START)
    t.lovers_to_dawn()
    return t


def checkpoints(effects) -> list[dict]:
    return [e.state for e in effects if isinstance(e, Checkpoint)]


def test_the_card_picker_starts_on_no_card_and_refuses_ok_until_one_is_chosen():
    """One stray OK must not record a card: the picker starts on none."""
    t = at_dawn()
    g = t.game
    t.seat(4)
    t.press(VOTE_)                              # seat 4 died
    view = g.view(t.now)
    assert (g.stage, view.title, view.big) == (Stage.ROLE, "Seat 4 · Role", "Not chosen")
    assert t.press(START) == []                 # a stray OK
    assert g.stage is Stage.ROLE and g.ring.alive(4) and g.book.records == []
    assert g.view(t.now).alert == "No card chosen yet: NEXT goes through the cards."
    t.press(NEXT)
    assert g.view(t.now).big == "Werewolf" and g.view(t.now).alert == ""


def test_a_card_is_shown_back_before_it_takes_effect_and_back_changes_it():
    t = at_dawn()
    g = t.game
    t.seat(4)
    t.press(VOTE_)
    t.role("werewolf")
    assert t.press(START) == []                 # nothing said, nobody dead yet
    view = g.view(t.now)
    assert (g.stage, view.title, view.big) == (Stage.CONFIRM, "Seat 4 · Role", "Werewolf")
    assert view.details[0] == "Seat 4's card: Werewolf. Right?"
    assert dict(view.legend)[Button.START] == "OK"
    assert dict(view.legend)[Button.BACK] == "Change"
    assert [s.seat for s in g.screen(t.now).seats if s.cursor] == [4]
    assert g.ring.alive(4) and g.book.records == []
    t.press(BACK)                               # change it: the picker, on Werewolf
    assert g.stage is Stage.ROLE and g.view(t.now).big == "Werewolf"
    t.role("matchmaker")
    t.press(START)
    said = t.press(START)                       # OK
    assert g.stage is Stage.DAWN and g.ring.dead == {4: "matchmaker"}
    assert says(said) == ["Seat 4 has died."]
    assert g.book.lines() == ["Night 1: Seat 4 died (Matchmaker)."]


def test_the_close_of_a_dawn_is_shown_back():
    t = at_dawn()
    g = t.game
    assert t.press(START) == []                 # "Nobody died": asked first
    view = g.view(t.now)
    assert (g.stage, view.big) == (Stage.CONFIRM, "Nobody died")
    assert view.details[0] == "Nobody died in the night: right?"
    t.press(BACK)
    assert g.stage is Stage.DAWN
    t.death(7, "villager")
    t.press(START)
    assert (g.stage, g.view(t.now).big) == (Stage.CONFIRM, "1 death")
    assert g.view(t.now).details[0] == "No other seat died: right?"
    t.press(START)
    assert g.stage is Stage.DISCUSSION


def test_the_hunters_shot_starts_on_no_seat_and_is_shown_back():
    t = at_dawn()
    g = t.game
    t.death(2, "hunter")
    t.dawn_over()
    t.settle()
    assert g.stage is Stage.SHOT and g.view(t.now).big == "Not chosen"
    assert not any(s.cursor for s in g.screen(t.now).seats)
    assert t.press(VOTE_) == [] and g.stage is Stage.SHOT          # a stray "Shot"
    assert g.view(t.now).alert == "No seat chosen yet: NEXT and BACK go round the ring."
    t.press(BACK)                               # from none: the last living seat
    assert g.cursor == 7
    t.seat(6)
    assert t.press(VOTE_) == []                 # shown back: nothing said yet
    view = g.view(t.now)
    assert (g.stage, view.title, view.big) == (Stage.CONFIRM, "The Hunter's victim", "Seat 6")
    assert view.details[0] == "The Hunter shot seat 6: right?"
    t.press(BACK)                               # change it
    assert g.stage is Stage.SHOT and g.cursor == 6
    t.seat(1)
    t.press(VOTE_)
    said = t.press(START)                       # OK
    assert says(said) == ["The Hunter shot seat 1."]
    assert g.stage is Stage.ROLE and g.dying == 1
    assert g.view(t.now).big == "Not chosen"


def test_a_wrong_card_then_a_wrong_win_are_undone_and_put_right():
    """Issue 19: seat 7 entered as a Werewolf (it was a Villager), then the
    real Werewolf at seat 1 lynched: the box declares the village's win with
    the Werewolf at seat 6 alive. Undo, entry by entry, back to seat 7's card;
    change it; the game goes on with no win, as the rules say."""
    t = new_game()
    g = t.game
    t.press(START)
    assert Button.VOTE not in dict(g.view(t.now).holds)       # nothing to undo yet
    t.lovers_to_dawn()
    assert dict(g.view(t.now).holds)[Button.VOTE] == "Hold: undo"
    t.death(7, "werewolf")                                     # the mistake
    t.dawn_over()
    dawn_day = checkpoints(t.effects)[-1]
    assert dawn_day["stage"] == "discussion"
    t.vote(1, hands=4)
    t.press(START)
    t.card("werewolf")
    assert g.stage is Stage.END and g.winner == "village"      # wrongly
    assert checkpoints(t.effects)[-1]["stage"] == "setup"      # the game is not kept

    # One undo: the lynched's card shown back again; no win, seat 1 alive.
    out = t.press(UNDO)
    assert g.stage is Stage.CONFIRM and g.dying == 1 and g.winner is None
    assert g.ring.alive(1) and g.ring.dead == {7: "werewolf"}
    assert WIN not in [r.kind for r in g.book.records]
    assert g.book.lines()[-1] == "Day 1: 4 votes to lynch Seat 1, 3 needed: lynched."
    assert g.view(t.now).alert == "The last entry is undone."
    assert checkpoints(out) == [dawn_day]      # a power cut now resumes at that day
    # On back, entry by entry: the vote's result, the second, the accusation,
    # the close of the dawn, seat 7's card.
    stages = []
    for _ in range(5):
        t.press(UNDO)
        stages.append(g.stage)
    assert stages == [Stage.RESULT, Stage.SECOND, Stage.ACCUSE, Stage.CONFIRM, Stage.CONFIRM]
    assert (g.pending, g.dying, g.view(t.now).big) == ("card", 7, "Werewolf")
    assert g.book.records == [] and g.ring.dead == {}
    assert checkpoints(t.effects)[-1]["stage"] == "dawn"
    t.press(BACK)
    t.card("villager")                          # put right
    t.dawn_over()
    t.vote(1, hands=4)
    t.press(START)
    t.card("werewolf")
    # One werewolf of five living: no win; the next night.
    assert g.stage is Stage.NIGHT and g.night == 2 and g.winner is None
    assert g.book.lines() == [
        "Night 1: Seat 7 died (Villager).",
        "Day 1: Seat 1 accused, seconded.",
        "Day 1: 4 votes to lynch Seat 1, 3 needed: lynched.",
        "Day 1: Seat 1 was lynched (Werewolf)."]


def test_an_undo_at_night_goes_back_to_the_day_and_a_restart_resumes_there():
    """The lynch's card takes the game straight into the night: an undo
    there stops the night (its sound, its voice) and the saved game is that
    day's again, so a power cut after the undo resumes without the entry."""
    t = at_dawn()
    g = t.game
    t.death(7, "villager")
    t.dawn_over()
    t.vote(1, hands=4)
    t.press(START)
    t.card("werewolf")
    t.run_until(lambda game: game.step_index == 1)
    assert g.stage is Stage.NIGHT and g.night == 2 and g.speech.line is not None
    assert checkpoints(t.effects)[-1]["stage"] == "night"
    out = t.press(UNDO)
    assert out[0] == StopSpeech() and Ambience(False) in out
    assert g.stage is Stage.CONFIRM and g.dying == 1 and g.night == 1
    assert g.ring.alive(1) and g.next_change(t.now) is None       # the night is gone
    saved = json.loads(json.dumps(checkpoints(out)[-1]))
    assert saved == g.to_dict()
    assert (saved["stage"], saved["night"], saved["dead"]) == ("discussion", 1,
                                                              {"7": "villager"})
    back = Game.from_dict(saved)
    back.handle(START, 0.0)                     # resume
    back.check()
    assert back.stage is Stage.DISCUSSION and back.night == 1 and back.ring.alive(1)
    assert back.book.lines() == ["Night 1: Seat 7 died (Villager)."]
    # The undone game goes on: the card entered again takes it to night 2.
    t.press(START)
    assert g.stage is Stage.NIGHT and g.night == 2
    assert Ambience(True) in t.effects[-5:]


def test_the_lovers_and_a_seconding_are_entries_too():
    t = new_game()
    g = t.game
    t.press(START)
    t.lovers_to_dawn()
    t.press(UNDO)                               # the Lovers again, both marked
    assert g.stage is Stage.LOVERS and g.lovers is None and sorted(g.picked) == [3, 5]
    assert Ambience(True) in t.effects[-2:]
    t.press(VOTE_)                              # unmark 5, mark 6
    t.seat(6)
    t.press(VOTE_)
    t.press(START)
    assert g.lovers == (3, 6)
    t.stage_is(Stage.DAWN)
    t.dawn_over()
    t.press(VOTE_)
    t.seat(2)
    t.press(VOTE_)                              # accused
    t.press(BACK)                               # no second
    assert g.book.lines()[-1] == "Day 1: Seat 2 accused, no second."
    t.press(UNDO)                               # it was seconded after all
    assert g.stage is Stage.SECOND and g.book.records == []
    t.press(VOTE_)
    assert g.stage is Stage.DEFENCE and g.book.lines() == ["Day 1: Seat 2 accused, seconded."]


def test_undo_is_held_only_in_a_game_with_an_entry_and_not_under_the_book():
    g = Game()
    assert Button.VOTE in dict(g.view(0.0).holds)             # the setup's: other game
    assert dict(g.view(0.0).holds)[Button.VOTE] == "Hold: next game"
    t = at_dawn()
    t.death(7, "villager")
    t.press(Hold(Button.NEXT))                  # the book
    assert Button.VOTE not in dict(t.game.view(t.now).holds)
    assert t.press(UNDO) == [] and t.game.ring.dead == {7: "villager"}
    t.press(START)                              # closed
    t.press(Hold(Button.BACK))
    t.press(Hold(Button.BACK))                  # the game ended: nothing to undo
    assert t.game.stage is Stage.SETUP
    assert dict(t.game.view(t.now).holds)[Button.VOTE] == "Hold: next game"

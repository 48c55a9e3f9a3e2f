"""The game flow on a fake clock: whole rounds in milliseconds of test time."""

from __future__ import annotations

import pytest
from conftest import make_flow

from wolfbox import pages
from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.effects import (
    Cue,
    PauseAudio,
    PlayCue,
    Remember,
    ResumeAudio,
    Say,
    StopSpeech,
    Warm,
)
from wolfbox.events import SpeechDone
from wolfbox.onenight import lines
from wolfbox.onenight.flow import Flow
from wolfbox.onenight.night import CLOSE_EYES, WAKE_UP_ID
from wolfbox.view import Phase

START, VOTE, NEXT, BACK = (Tap(b) for b in GAME_BUTTONS)


def says(effects) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say)]


def run_until(flow: Flow, now: float, done, limit: float = 10_000) -> tuple[float, list]:
    """Jump the fake clock from change to change until done(flow)."""
    effects: list = []
    while not done(flow):
        nxt = flow.next_change(now)
        assert nxt is not None, f"stuck in {flow.phase}"
        assert nxt >= now
        now = nxt
        assert now < limit
        effects += flow.tick(now)
        flow.check(now)
    return now, effects


def test_a_full_round_goes_through_every_phase_in_order(flow: Flow):
    now = 0.0
    assert flow.view(now).phase is Phase.IDLE
    effects = flow.handle(START, now)
    assert PlayCue(Cue.CHIME) in effects
    now, more = run_until(flow, now, lambda f: f.phase is not Phase.NIGHT)
    effects += more
    spoken = says(effects)
    night = flow.settings.night
    assert night[0] == CLOSE_EYES and night[-1].id == WAKE_UP_ID
    expected_night = []
    for step in night:
        expected_night += [step.text] + ([step.after] if step.after else [])
    assert spoken[:len(expected_night)] == expected_night
    assert [s.id for s in night] == ["close_eyes", "werewolves", "seer", "robber",
                                     "troublemaker", "wake_up"]

    assert flow.phase is Phase.DISCUSSION
    assert flow.view(now).big == "5:00"
    assert spoken[-1] == lines.discussion_start(300)
    start_discussion = now
    now, effects = run_until(flow, now, lambda f: f.phase is not Phase.DISCUSSION)
    assert now == pytest.approx(start_discussion + 300)
    assert says(effects)[:2] == ["1 minute left.", "10 seconds left."]
    assert PlayCue(Cue.TIME_UP) in effects
    assert effects.count(PlayCue(Cue.TICK)) == 10

    assert flow.phase is Phase.VOTE
    now, effects = run_until(flow, now, lambda f: f.phase is not Phase.VOTE)
    assert says(effects)[:3] == ["Two.", "One.", "Vote!"]
    assert flow.phase is Phase.REVEAL
    assert flow.view(now).title == "Who won? · 1/2"
    shown = list(flow.view(now).details)
    flow.handle(NEXT, now)                                # NEXT: the second page
    shown += flow.view(now).details
    assert tuple(shown) == lines.REVEAL_RULES             # no Hunter, Tanner... in play
    flow.handle(START, now)                               # START: done
    assert flow.phase is Phase.IDLE


def test_role_waits_last_their_action_time():
    flow = make_flow()
    now = 0.0
    flow.handle(START, now)
    now, _ = run_until(flow, now, lambda f: f.settings.night[f.step_index].id == "seer"
                       and f.stage == "wait")
    begun = now
    now, _ = run_until(flow, now, lambda f: f.stage != "wait")
    assert now - begun == pytest.approx(10.0)


def test_speech_end_moves_the_night_on_after_the_line_gap():
    flow = make_flow(line_gap=0.5)
    effects = flow.handle(START, 0.0)
    token = next(e.token for e in effects if isinstance(e, Say))
    assert flow.stage == "speak"
    flow.handle(SpeechDone(token), 1.0)
    assert flow.stage == "speak"
    assert flow.next_change(1.0) == pytest.approx(1.5)
    flow.tick(1.5)
    assert flow.stage == "wait"


def test_a_stale_speech_end_is_ignored():
    flow = make_flow()
    flow.handle(START, 0.0)
    deadline = flow.clock.deadline
    flow.handle(SpeechDone(token=999), 0.5)
    assert flow.clock.deadline == deadline


def _all_instants(flow_factory, step: float = 7.3):
    """Times spread over a whole round, to pause at."""
    flow = flow_factory()
    flow.handle(START, 0.0)
    end, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.REVEAL)
    t = 0.05
    while t < end:
        yield round(t, 3)
        t += step


@pytest.mark.parametrize("pause_at", list(_all_instants(make_flow)))
def test_pause_and_resume_anywhere_keep_the_remaining_time_exactly(pause_at):
    flow = make_flow()
    flow.handle(START, 0.0)
    now = 0.0
    while True:
        nxt = flow.next_change(now)
        if nxt is None or nxt > pause_at:
            break
        now = nxt
        flow.tick(now)
    now = pause_at
    flow.tick(now)
    before = flow.clock.remaining(now)
    phase, view_before = flow.phase, flow.view(now)
    assert flow.handle(START, now) == [PauseAudio()]
    assert flow.view(now).paused and flow.view(now).legend == ((Button.START, "Resume"),
                                                                (Button.BACK, "Hold: end round"))
    for later in (now + 1, now + 600, now + 3600):
        assert flow.tick(later) == []
        assert flow.clock.remaining(later) == before
        assert flow.next_change(later) is None
    resumed_at = now + 3600.125
    assert flow.handle(START, resumed_at) == [ResumeAudio()]
    assert flow.clock.remaining(resumed_at) == before
    assert flow.phase is phase
    assert flow.view(resumed_at).big == view_before.big


def test_next_adds_a_minute_in_discussion_and_says_so(flow: Flow):
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    now += 100
    flow.tick(now)
    assert flow.view(now).big == "3:20"
    assert flow.view(now).label(Button.NEXT) == "+1 min"
    effects = flow.handle(NEXT, now)
    assert says(effects) == ["1 minute more."]
    assert flow.view(now).big == "4:20"
    end, _ = run_until(flow, now, lambda f: f.phase is not Phase.DISCUSSION)
    assert end - now == pytest.approx(260)


def test_warnings_are_spoken_once_each_and_again_after_time_is_added(flow: Flow):
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    spoken: list[str] = []
    # Every millisecond-ish tick across the one-minute mark says it once.
    for i in range(1, 3000):
        spoken += says(flow.tick(now + 238 + i * 0.001))
    assert spoken == ["1 minute left."]
    now += 241
    flow.tick(now)
    spoken = says(flow.handle(NEXT, now))         # back above one minute
    now, effects = run_until(flow, now, lambda f: f.phase is not Phase.DISCUSSION)
    spoken += says(effects)
    assert spoken[:3] == ["1 minute more.", "1 minute left.", "10 seconds left."]


def test_a_warning_longer_than_the_discussion_is_not_spoken():
    flow = make_flow(discussion_seconds=45, warnings=(60, 10))
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    _, effects = run_until(flow, now, lambda f: f.phase is not Phase.DISCUSSION)
    assert "1 minute left." not in says(effects)
    assert "10 seconds left." in says(effects)


def test_next_skips_narration_and_waits(flow: Flow):
    flow.handle(START, 0.0)
    assert flow.stage == "speak" and flow.step_index == 0
    assert StopSpeech() in flow.handle(NEXT, 0.1)
    assert flow.stage == "wait"
    flow.handle(NEXT, 0.2)                          # close_eyes has no closing line
    assert flow.step_index == 1 and flow.stage == "speak"
    flow.handle(NEXT, 0.3)
    assert flow.stage == "wait"
    effects = flow.handle(NEXT, 0.4)
    assert flow.stage == "after" and says(effects) == ["Werewolves, close your eyes."]


@pytest.mark.parametrize("at", [0.0, 3.0, 20.0, 60.0, 90.0, 200.0, 400.0, 500.0])
def test_vote_goes_to_the_countdown_at_any_time_in_a_round(at):
    flow = make_flow()
    flow.handle(START, 0.0)
    flow.tick(at)                 # a jump: every stage due by then is passed
    if flow.phase is Phase.NIGHT:
        waking = flow.settings.night[flow.step_index].id == "wake_up"
        said = says(flow.handle(VOTE, at)) + said_until(flow, at, Phase.VOTE)
        assert said[-1] == "Three."
        assert waking or WAKE_UP_LINE in said            # nobody votes with closed eyes
    elif flow.phase is Phase.DISCUSSION:
        effects = flow.handle(VOTE, at)
        assert flow.phase is Phase.VOTE
        assert StopSpeech() in effects and says(effects) == ["Three."]
        assert flow.view(at).big == "3"
    elif flow.phase is Phase.VOTE:                 # already counting down
        assert VOTE.button not in dict(flow.view(at).legend)
    else:                                          # the reveal: VOTE asks the referee
        assert flow.phase is Phase.REVEAL
        assert dict(flow.view(at).legend)[VOTE.button] == "Referee"


WAKE_UP_LINE = ("Everyone, reach out and touch your own card. Now open your eyes: it is "
                "morning in the village.")


def said_until(flow: Flow, now: float, phase: Phase) -> list[str]:
    """Everything said from `now` until the flow reaches `phase`."""
    said = []
    while flow.phase is not phase:
        now += 0.05
        said += says(flow.tick(now))
        assert now < 3600
    return said


def at_step(flow: Flow, step_id: str, stage: str) -> float:
    """Run a started flow to the given step and stage; the time then."""
    now = 0.0
    while not (flow.settings.night[flow.step_index].id == step_id and flow.stage == stage):
        now += 0.05
        flow.tick(now)
    return now


def test_vote_at_night_closes_the_open_eyes_and_wakes_everyone_before_the_countdown():
    flow = make_flow()
    flow.handle(START, 0.0)
    now = at_step(flow, "seer", "wait")           # the Seer's eyes are open
    effects = flow.handle(VOTE, now)
    assert says(effects) == ["Seer, close your eyes."]
    assert VOTE.button not in dict(flow.view(now).legend)    # pressed once is enough
    assert said_until(flow, now, Phase.VOTE) == [WAKE_UP_LINE, "Three."]


def test_vote_while_a_role_is_called_closes_that_roles_eyes_first():
    flow = make_flow()
    flow.handle(START, 0.0)
    now = at_step(flow, "robber", "speak")        # "Robber, open your eyes..." is being said
    effects = flow.handle(VOTE, now)
    assert StopSpeech() in effects and says(effects) == ["Robber, close your eyes."]
    assert said_until(flow, now, Phase.VOTE) == [WAKE_UP_LINE, "Three."]


def test_vote_while_eyes_close_or_everyone_wakes_lets_the_line_finish():
    for step_id, stage, then in (("werewolves", "after", [WAKE_UP_LINE, "Three."]),
                                 ("wake_up", "speak", ["Three."])):
        flow = make_flow()
        flow.handle(START, 0.0)
        now = at_step(flow, step_id, stage)
        effects = flow.handle(VOTE, now)
        assert StopSpeech() not in effects and says(effects) == []
        assert said_until(flow, now, Phase.VOTE) == then


def test_vote_as_the_night_falls_goes_straight_to_the_wake_up():
    flow = make_flow()
    flow.handle(START, 0.0)
    effects = flow.handle(VOTE, 0.5)              # "Night falls..." is being said
    assert says(effects) == [WAKE_UP_LINE]
    assert said_until(flow, 0.5, Phase.VOTE) == ["Three."]


def test_on_the_start_screen_vote_and_back_choose_the_player_count(flow: Flow):
    assert (flow.view(0).title, flow.view(0).details[0]) == ("One Night · 3 players",
                                                              "Classic, 3 players")
    effects = flow.handle(VOTE, 0.0)
    assert flow.phase is Phase.IDLE
    assert (flow.view(0).title, flow.view(0).details[0]) == ("One Night · 4 players",
                                                              "Classic, 4 players")
    assert len(flow.settings.deck) == 7
    classic_4 = ("werewolf", "werewolf", "seer", "robber", "troublemaker", "villager",
                 "villager")
    assert effects == [Remember(classic_4, 4), Warm(tuple(flow.settings.lines()))]
    flow.handle(BACK, 0.0)
    flow.handle(BACK, 0.0)
    assert flow.view(0).title == "One Night · 10 players"  # wraps from 3 to the top


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE])
def test_holding_back_abandons_the_round(phase):
    flow = make_flow()
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is phase)
    effects = flow.handle(Hold(Button.BACK), now)
    assert StopSpeech() in effects and PlayCue(Cue.ABANDON) in effects
    assert flow.phase is Phase.IDLE and flow.clock is None
    flow.check(now)


def test_tapping_back_does_not_abandon(flow: Flow):
    flow.handle(START, 0.0)
    assert flow.handle(Tap(Button.BACK), 1.0) == []
    assert flow.phase is Phase.NIGHT


def test_back_hold_works_while_paused(flow: Flow):
    flow.handle(START, 0.0)
    flow.handle(START, 1.0)
    flow.handle(Hold(Button.BACK), 2.0)
    assert flow.phase is Phase.IDLE and not flow.paused


def test_the_night_is_dim_and_the_day_is_not(flow: Flow):
    assert not flow.view(0).dim
    flow.handle(START, 0.0)
    assert flow.view(0).dim
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    assert not flow.view(now).dim


def test_legend_is_what_the_buttons_do(flow: Flow):
    assert flow.view(0).legend == ((Button.START, "Start"), (Button.VOTE, "Players +1"),
                                   (Button.NEXT, "Next deck"), (Button.BACK, "Players −1"))
    flow.handle(START, 0.0)
    assert dict(flow.view(0).legend) == {Button.START: "Pause", Button.VOTE: "Vote now",
                                         Button.NEXT: "Skip", Button.BACK: "Hold: end round"}
    # A button the legend leaves out does nothing.
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.REVEAL)
    assert dict(flow.view(now).legend)[Button.VOTE] == "Referee"
    flow.handle(VOTE, now)
    assert flow.phase is Phase.REFEREE
    flow.handle(BACK, now)                         # back from the first question
    assert flow.phase is Phase.REVEAL


def test_round_lines_cover_everything_a_round_says(flow: Flow):
    needed = set(flow.settings.lines())
    now = 0.0
    spoken = says(flow.handle(START, now))
    now, effects = run_until(flow, now, lambda f: f.phase is Phase.DISCUSSION)
    spoken += says(effects) + says(flow.handle(NEXT, now + 1))
    _, effects = run_until(flow, now, lambda f: f.phase is Phase.REVEAL)
    spoken += says(effects)
    assert set(spoken) <= needed
    assert spoken[0] == flow.settings.lines()[0]


def test_progress_stays_full_when_time_is_added_at_the_start(flow: Flow):
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    flow.handle(NEXT, now + 0.5)
    assert flow.view(now + 0.5).big == "6:00"
    assert flow.view(now + 0.5).progress == pytest.approx(1.0, abs=1e-3)
    assert flow.view(now + 180.5).progress == pytest.approx(0.5, abs=1e-3)


def test_the_reveal_lists_the_rules_of_the_cards_in_play():
    deck = "werewolf werewolf minion seer robber hunter tanner bodyguard prince cursed".split()
    flow = make_flow(deck)
    flow.handle(START, 0.0)
    flow.handle(VOTE, 1.0)
    flow.tick(100.0)
    first = flow.view(100.0)
    assert first.details[0].startswith("Werewolves in this deck:")   # the Cursed may be one
    assert first.details[1] == lines.REVEAL_RULES[0]
    assert first.title.startswith("Who won? · 1/") and first.label(Button.NEXT) == "More rules"
    pages = int(first.title.rsplit("/", 1)[1])
    assert pages >= 2                                 # ten rules do not fit one screen
    shown = list(first.details)
    for page in range(2, pages + 1):
        flow.handle(NEXT, 100.0 + page)               # NEXT turns the page
        view = flow.view(100.0 + page)
        assert view.title == f"Who won? · {page}/{pages}"
        shown += view.details
    for card in ("Hunter", "Bodyguard", "Prince", "Cursed", "Tanner", "Minion"):
        assert sum(card in rule for rule in shown) >= 1, card
    assert len(shown) == 12          # who is a werewolf, five core rules, six cards' rules
    assert set(lines.REVEAL_RULES) <= set(shown)
    flow.handle(NEXT, 200.0)
    assert flow.view(200.0).title == f"Who won? · 1/{pages}"   # and round again
    flow.handle(START, 201.0)
    assert flow.phase is Phase.IDLE


def test_one_page_of_rules_says_done_on_start_alone(monkeypatch):
    """No two buttons on one screen share a label (issue 19): with no more
    rules to show, NEXT does nothing rather than a second "Done"."""
    monkeypatch.setattr(pages, "RULES_LINES", 100)          # a screen that holds them all
    flow = make_flow()
    flow.handle(START, 0.0)
    flow.handle(VOTE, 1.0)
    flow.tick(100.0)
    view = flow.view(100.0)
    assert view.title == "Who won?"
    assert view.label(Button.START) == "Done" and view.label(Button.NEXT) == ""
    flow.handle(NEXT, 101.0)
    assert flow.phase is Phase.REVEAL


@pytest.mark.parametrize("late_by", [0.4, 3.0, 45.0])
def test_a_late_wake_up_does_not_stretch_the_night(late_by):
    """A loop that wakes late (a busy CPU, a slow SD card) must find the
    round exactly where a punctual one would be: each stage starts when the
    last was due, not when the lateness was noticed."""
    punctual, late = make_flow(), make_flow()
    punctual.handle(START, 0.0)
    late.handle(START, 0.0)
    t = 0.0
    while punctual.phase is not Phase.VOTE:
        t += 0.01
        punctual.tick(t)
        if round(t / late_by) != round((t - 0.01) / late_by):
            late.tick(t)
    for flow in (punctual, late):
        flow.tick(t)
    assert late.phase is punctual.phase
    assert late.clock.remaining(t) == pytest.approx(punctual.clock.remaining(t), abs=1e-6)


def test_adding_a_minute_does_not_make_the_bar_jump(flow: Flow):
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    now += 60                                        # 4:00 of 5:00 left
    assert flow.view(now).progress == pytest.approx(0.8)
    flow.handle(NEXT, now)
    assert flow.view(now).big == "5:00"
    assert flow.view(now).progress == pytest.approx(0.8)     # where it was
    assert flow.view(now + 150).progress == pytest.approx(0.4)   # half of 5:00 gone


def test_the_timer_itself_turns_red_for_the_last_ten_seconds(flow: Flow):
    flow.handle(START, 0.0)
    now, _ = run_until(flow, 0.0, lambda f: f.phase is Phase.DISCUSSION)
    end = now + 300
    assert not flow.view(end - 10.5).urgent          # 0:11 on the clock
    assert flow.view(end - 9.5).urgent               # 0:10
    assert flow.view(end - 0.5).urgent


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_every_page_of_a_long_line_turns_when_its_time_comes(lang):
    """A line too long for the caption is shown page by page. Woken only
    when the flow says something changes, the screen must show every page
    of every line of a night, the moment it was due: a wake-up that came a
    rounding error early once left a page for the next whole second, and a
    line's last page unseen."""
    from wolfbox.i18n import speaking
    from wolfbox.onenight.presets import PRESETS
    with speaking(lang):
        flow = make_flow(PRESETS["total_chaos"].deck(8))
        now, paged = 0.0, 0
        said = says(flow.handle(START, now))
        before = flow.view(now)
        seen = [before.caption]
        while flow.phase is Phase.NIGHT:
            due = flow.next_change(now)
            assert due is not None and due > now
            now = due
            new = says(flow.tick(now))
            view = flow.view(now)
            assert new or view != before, f"woken at {now:.3f} for nothing"
            said += new
            before = view
            seen.append(view.caption)
        for text in said[:-1]:                      # the last line is the day's
            split = pages.split_text(text, pages.CAPTION_LINES)
            paged += len(split) > 1
            missing = [p for p in split if p not in seen]
            assert not missing, f"never shown: {missing}"
    assert paged >= 1                               # the deck has a long line to page

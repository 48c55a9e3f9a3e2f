"""The real box (main loop, narrator, mock pins, SDL's dummy drivers) on a
fake clock, driven by a Pilot: press, advance time, assert what is drawn
and said. No test here waits on the wall clock.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
import time
from pathlib import Path

import pygame
import pytest
from pilot import NO_RENDERER, Pilot

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.effects import Cue
from wolfbox.onenight.flow import RoundSettings
from wolfbox.pages import IDLE_PAGE_SECONDS
from wolfbox.view import Phase

HERE = Path(__file__).parent
FAKE_WORKER = [sys.executable, str(HERE / "fake_worker.py"), "ok"]

# What the starter deck's night says, in the words a table hears.
STARTER_NIGHT = [
    "Night falls. Everyone, close your eyes.",
    "Werewolves, open your eyes and look for the other werewolves. If you are the only "
    "werewolf awake, you may look at one of the center cards.",
    "Werewolves, close your eyes.",
    "Seer, open your eyes. You may look at another player's card, or at two of the "
    "center cards.",
    "Seer, close your eyes.",
    "Robber, open your eyes. You may swap your card with another player's card, then look "
    "at the card you now have.",
    "Robber, close your eyes.",
    "Troublemaker, open your eyes. You may swap the cards of two other players without "
    "looking at them.",
    "Troublemaker, close your eyes.",
    "Everyone, reach out and touch your own card. Now open your eyes: it is morning in the "
    "village.",
]


def fast_config(tmp_path) -> Config:
    c = Config()
    c.game.discussion_seconds = 3
    c.game.warnings = [2]
    c.night.scale = 0.02
    c.night.line_gap = 0.05
    c.voice.cache_dir = str(tmp_path / "cache")
    return c


@pytest.fixture
def pilot_for(tmp_path, pilots):
    """One Night's box (fast timings unless `config` is given)."""
    def make(config: Config | None = None, fill: bool = True, display: str = "headless",
             line_seconds: float = 0.15, renderer: list[str] = NO_RENDERER) -> Pilot:
        return pilots.start(config or fast_config(tmp_path), fill=fill, display=display,
                            line_seconds=line_seconds, renderer=renderer)
    return make


def phases(frames) -> list[Phase]:
    out: list[Phase] = []
    for view in frames:
        if not out or out[-1] is not view.phase:
            out.append(view.phase)
    return out


def test_a_whole_round_by_mock_buttons(pilot_for):
    pilot = pilot_for()
    narrator = pilot.parts.narrator
    assert narrator.sound, "the dummy audio driver should give a mixer"
    assert pilot.view.phase is Phase.IDLE and pilot.view.label(Button.START) == "Start"

    pilot.press(Button.START)
    assert pilot.view.phase is Phase.NIGHT and pilot.view.dim
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL)
    pilot.press(Button.NEXT)                             # the rules' second page
    assert pilot.box.flow.active.phase is Phase.REVEAL
    pilot.press(Button.START)                            # done
    assert pilot.box.flow.active.phase is Phase.IDLE

    assert phases(pilot.frames) == [Phase.IDLE, Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE,
                                    Phase.REVEAL, Phase.IDLE]
    assert [p.text for p in narrator.played] == STARTER_NIGHT + [
        "You have 3 seconds to find the werewolves. Go!", "2 seconds left.",
        "Three.", "Two.", "One.", "Vote!", "Everyone, flip your card over and see who won."]
    assert list(narrator.missed) == []
    shown = [v.big for v in pilot.frames if v.phase is Phase.VOTE]
    assert [b for i, b in enumerate(shown) if i == 0 or shown[i - 1] != b] == \
        ["3", "2", "1", "VOTE!"]
    discussion = [v.big for v in pilot.frames if v.phase is Phase.DISCUSSION]
    assert discussion[:3] == ["0:03", "0:02", "0:01"]


def test_back_abandons_only_when_held_for_its_hold_time(pilot_for, tmp_path):
    config = fast_config(tmp_path)
    config.buttons.hold_seconds = 1.5
    pilot = pilot_for(config)
    pilot.press(Button.START)
    pilot.press(Button.VOTE)                           # at night: wake everyone, then vote
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.VOTE)
    pilot.press(Button.START)                          # pause: the countdown waits
    pilot.press(Button.BACK, hold=1.4)                 # short of 1.5 s: a tap
    assert pilot.box.flow.active.phase is Phase.VOTE
    pilot.press(Button.BACK, hold=1.6)
    assert pilot.view.phase is Phase.IDLE
    assert pilot.parts.narrator.cues[-1][0].value == "abandon"


def test_pause_keeps_the_time_left_and_vote_goes_to_the_countdown(pilot_for):
    pilot = pilot_for()
    pilot.press(Button.START)
    pilot.press(Button.START)                          # pause
    assert pilot.view.paused and pilot.view.label(Button.START) == "Resume"
    remaining = pilot.box.flow.active.clock.remaining(pilot.clock.now)
    pilot.advance(600)
    assert pilot.box.flow.active.clock.remaining(pilot.clock.now) == remaining
    assert pilot.box.flow.active.phase is Phase.NIGHT
    pilot.press(Button.START)                          # resume
    assert not pilot.view.paused
    pilot.press(Button.VOTE)                           # the night ends safely first
    assert pilot.parts.narrator.played[-1].text == STARTER_NIGHT[-1]    # the wake-up
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.VOTE)
    assert pilot.view.big == "3"
    assert pilot.parts.narrator.played[-1].text == "Three."


def test_resuming_a_paused_line_plays_the_rest_of_it(pilot_for, tmp_path):
    # Every line is a 2-second tone: shorter than any caption time, so the
    # line's own end, not the caption's, is what moves the night on.
    pilot = pilot_for(line_seconds=2.0)
    flow = pilot.box.flow.active
    pilot.press(Button.START)                          # "Night falls..." starts
    started = pilot.parts.narrator.played[0].at
    pilot.advance(0.5 - (pilot.clock.now - started))   # half a second heard
    pilot.press(Button.START)                          # pause
    paused_for = pilot.clock.now
    pilot.advance(30)
    pilot.press(Button.START)                          # resume: 1.5 s of it are left
    paused_for = pilot.clock.now - paused_for
    heard = lambda: pilot.clock.now - started - paused_for  # noqa: E731
    pilot.advance(1.3 - heard())
    assert flow.step_index == 0 and flow.stage == "speak"     # still speaking
    pilot.advance(2.0 + 0.2 - heard())                 # the line and its gap are over
    assert flow.stage == "wait"
    assert [p.text for p in pilot.parts.narrator.played] == STARTER_NIGHT[:1]


def test_a_line_missing_from_the_cache_is_a_caption_and_the_flow_goes_on(pilot_for):
    pilot = pilot_for(fill=False)
    pilot.press(Button.START)
    assert pilot.view.caption == "Night falls. Everyone, close your eyes."
    assert list(pilot.parts.narrator.played) == []
    assert list(pilot.parts.narrator.missed) == ["Night falls. Everyone, close your eyes."]
    pilot.until(lambda: pilot.box.flow.active.step_index == 1, limit=10)


def test_no_sound_card_runs_on_captions_and_says_so_once(pilot_for, monkeypatch, capsys):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no_such_driver")
    pygame.mixer.quit()
    pilot = pilot_for()
    assert not pilot.parts.narrator.sound
    assert any("captions only" in n for n in pilot.parts.notices)
    pilot.press(Button.START)
    pilot.press(Button.VOTE)
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL, limit=15)
    out = capsys.readouterr().out
    assert out.count("captions only") == 1
    assert '>> "Vote!"' in out


def test_closing_the_window_ends_the_loop(pilot_for):
    pilot = pilot_for(display="window")
    assert pilot.parts.display == "window"
    pilot.press(Button.START)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pilot.box.run()
    assert not pilot.box.running


def test_window_keys_drive_the_mock_pins(pilot_for):
    pilot = pilot_for(display="window")
    seen = []
    device = pilot.bank.devices[Button.START]
    device.when_pressed = lambda: seen.append("pressed")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    pilot.box.step()
    assert seen == ["pressed"]
    assert device.is_pressed


def test_the_deck_picker_on_the_box(pilot_for):
    pilot = pilot_for()
    first = pilot.view
    assert (first.title, first.details[0]) == ("One Night · 3 players", "Classic, 3 players")
    assert first.label(Button.NEXT) == "Next deck"
    seen_titles = [first.details[0]]
    for _ in range(3):
        pilot.press(Button.NEXT)
        seen_titles.append(pilot.view.details[0])
    assert seen_titles == ["Classic, 3 players", "Evil Transformation", "Trust No One",
                           "Random deck"]
    pilot.press(Button.VOTE)                           # 4 players
    pilot.press(Button.VOTE)                           # 5 players
    pilot.press(Button.NEXT)
    view = pilot.view
    assert view.title == "One Night · 5 players"
    assert view.details[0] == "Evil Transformation"
    assert sorted(pilot.box.flow.active.settings.deck) == sorted(
        ["doppelganger", "alpha_wolf", "mystic_wolf", "minion", "robber", "witch", "werewolf",
         "villager", "villager"])
    pages = [view.details]
    pilot.advance(IDLE_PAGE_SECONDS)                   # the start screen turns its page
    pages.append(pilot.view.details)
    assert pages[1] != pages[0]
    assert any("center werewolf card" in d for d in pages[1])   # the setup note, on page 2
    pilot.press(Button.START)
    assert pilot.box.flow.active.phase is Phase.NIGHT
    pilot.until(lambda: pilot.box.flow.active.settings.night[pilot.box.flow.active.step_index].id
                == "doppelganger", limit=10)
    assert pilot.view.title == "Night · Doppelganger"


def test_the_start_screen_says_how_far_the_voice_is_prepared(pilot_for):
    pilot = pilot_for(fill=False)
    counts = iter([(0, 20), (7, 20), (19, 20), (20, 20)])
    shown = []
    for ready in counts:
        pilot.box.readiness = lambda ready=ready: ready
        pilot.advance(1)
        shown.append(pilot.view.status)
    assert shown == ["Preparing the voice: 0 %", "Preparing the voice: 30 %",
                     "Preparing the voice: 90 %", ""]
    pilot.box.readiness = lambda: (3, 20)
    pilot.press(Button.START)
    assert pilot.view.status == ""                    # never at night


def test_a_cold_cache_is_rendered_in_round_order_and_the_screen_follows(pilot_for):
    pilot = pilot_for(fill=False, renderer=FAKE_WORKER)
    narrator = pilot.parts.narrator
    # the day adds 8: go, a warning, +1 minute, three, two, one, vote, flip; the
    # referee's verdict 8 more: "Seat n dies." for 3 seats, nobody dies, four outcomes
    assert narrator.readiness()[1] == len(STARTER_NIGHT) + 8 + 8
    assert narrator.renderer.wait_idle(timeout=120)
    narrator.wait_warm(timeout=60)
    pilot.advance(1)
    ready, needed = narrator.readiness()
    assert ready == needed and pilot.view.status == ""
    pilot.press(Button.START)
    assert [p.text for p in narrator.played] == STARTER_NIGHT[:1]


def test_a_failing_adapter_is_said_once_and_the_round_goes_on(pilot_for, caplog):
    pilot = pilot_for()

    def broken_speaker(effect):
        raise OSError("the speaker fell off")

    def broken_lights(view):
        raise RuntimeError("no lights")
    pilot.box.effect_sinks.insert(0, broken_speaker)
    pilot.box.view_sinks.insert(0, broken_lights)
    pilot.press(Button.START)
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL)
    failures = [r for r in caplog.records if "an adapter failed" in r.getMessage()]
    assert len(failures) == 2
    assert "the speaker fell off" in failures[0].getMessage()
    assert [p.text for p in pilot.parts.narrator.played][:1] == STARTER_NIGHT[:1]


def test_a_cache_the_box_cannot_write_is_said_once_and_start_plays_captions(tmp_path, pilot_for,
                                                                           caplog):
    (tmp_path / "a-file").write_text("not a folder")
    config = fast_config(tmp_path)
    config.voice.cache_dir = str(tmp_path / "a-file" / "cache")
    pilot = pilot_for(config, fill=False, renderer=FAKE_WORKER)
    end = time.monotonic() + 60                   # only a bound: the renderer's thread says it
    while "Cannot store voice lines" not in pilot.box.notice:
        assert time.monotonic() < end, "the box never said its cache is unusable"
        pilot.box.act(pilot.box.inbox.wait(0.5))  # woken by what the thread posts
    assert pilot.box.notice == "Cannot store voice lines: see the log"   # short, on screen
    pilot.press(Button.START)                     # no crash: the round plays on captions
    assert pilot.view.caption == STARTER_NIGHT[0]
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.DISCUSSION, limit=120)
    said = [r for r in caplog.records if "cannot be stored" in r.getMessage()]
    assert len(said) == 1 and "not a folder" in said[0].getMessage()     # the detail, logged


def test_esc_mid_round_asks_again_and_a_second_esc_ends_the_box(pilot_for):
    pilot = pilot_for(display="window")

    def esc() -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        pilot.box.step(max_sleep=0)

    pilot.press(Button.START)
    esc()                                          # a stray key: the game goes on
    assert pilot.box.running
    assert pilot.view.alert == "Press Esc or q again to end the box"
    pilot.advance(3.5)                             # not confirmed in time: forgotten
    assert pilot.view.alert == "" and pilot.box.running
    esc()
    pilot.advance(1)
    esc()                                          # confirmed
    assert not pilot.box.running


def test_q_while_the_referee_is_being_told_asks_again(pilot_for):
    """Answers typed in for the referee are not lost to a stray key."""
    pilot = pilot_for()
    pilot.press(Button.START)
    pilot.press(Button.VOTE)
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL)
    pilot.press(Button.VOTE)
    assert pilot.view.phase is Phase.REFEREE
    pilot.box.inbox.quit_key()
    pilot.settle()
    assert pilot.box.running and pilot.view.alert == "Press Esc or q again to end the box"


def test_q_on_the_start_screen_ends_the_box_at_once(pilot_for):
    pilot = pilot_for()
    pilot.box.inbox.quit_key()                     # what the terminal's q posts
    pilot.settle()
    assert not pilot.box.running


def test_the_alert_shows_above_the_nights_veil(pilot_for):
    from wolfbox.device.render import render_view
    pilot = pilot_for()
    pilot.press(Button.START)
    pilot.box.inbox.quit_key()
    pilot.settle()
    view = pilot.view
    assert view.dim and view.alert
    lit = render_view(view, (480, 320))
    dark = render_view(dataclasses.replace(view, alert=""), (480, 320))

    def brightest(surface) -> int:
        return max(pygame.image.tobytes(surface, "RGB"))
    # At night every word is drawn in the darkest shade that still reads;
    # the alert alone is in its full colour, above the dark.
    assert brightest(lit) >= 240 and brightest(dark) < 200


# ------------------------------------------------------------ settings on the box
def open_settings(pilot: Pilot, page: str = "Volume") -> None:
    """The settings screen, on `page` (the first page is the language)."""
    pilot.press(Button.NEXT, hold=2.1)
    assert pilot.box.flow.active.phase is Phase.SETTINGS
    for _ in range(15):
        if pilot.view.details[0] == page:
            return
        pilot.press(Button.NEXT)
    raise AssertionError(f"no settings page {page!r}")


def test_holding_next_fills_its_box_then_opens_the_settings(pilot_for):
    pilot = pilot_for()
    pilot.bank.drive(Button.NEXT, True)
    pilot.settle()
    pilot.advance(1.0)                                  # half of the 2 s hold
    assert pilot.view.held is Button.NEXT
    assert pilot.view.held_progress == pytest.approx(0.5)
    filled = [v.held_progress for v in pilot.frames if v.held is Button.NEXT]
    assert filled == sorted(filled) and len(set(filled)) >= 5   # it fills, step by step
    pilot.advance(1.1)
    assert pilot.box.flow.active.phase is Phase.SETTINGS
    pilot.bank.drive(Button.NEXT, False)
    pilot.advance(0.1)
    assert pilot.view.held is None
    assert pilot.view.details[0] == "Language"


def test_a_short_press_of_next_still_changes_the_deck(pilot_for):
    pilot = pilot_for()
    before = pilot.view.details[0]
    pilot.press(Button.NEXT, hold=0.5)
    assert pilot.box.flow.active.phase is Phase.IDLE
    assert pilot.view.details[0] != before


def test_volume_is_heard_at_once_with_a_chime(pilot_for):
    pilot = pilot_for()
    narrator = pilot.parts.narrator
    open_settings(pilot)
    pilot.press(Button.BACK)                            # Quieter: 90 %
    assert pilot.view.big == "90 %"
    assert narrator._voice.get_volume() == pytest.approx(0.9, abs=0.01)
    assert narrator._cue.get_volume() == pytest.approx(0.8 * 0.9, abs=0.01)
    assert narrator.cues[-1][0] == Cue.CHIME


def test_a_new_speech_speed_keeps_the_old_lines_playing_until_the_new_are_ready(pilot_for):
    pilot = pilot_for()                                 # lines cached at the usual speed;
    narrator = pilot.parts.narrator                    # this renderer never starts
    open_settings(pilot)
    pilot.press(Button.NEXT)                            # Speech speed
    pilot.press(Button.VOTE)                            # Faster: 110 %
    assert pilot.view.big == "110 %"
    assert narrator.cache.settings.length_scale == pytest.approx(100 / 110, abs=1e-3)
    pilot.press(Button.START)                           # back to the start screen
    assert pilot.box.flow.active.phase is Phase.IDLE
    assert pilot.view.status.startswith("Preparing the voice")   # the new lines are due
    pilot.press(Button.START)                           # a round now: the old lines play
    pilot.until(lambda: len(narrator.played) >= 2, limit=60)
    assert [p.text for p in narrator.played][:2] == STARTER_NIGHT[:2]
    assert narrator.missed == []


# ------------------------------------------------------------ the referee on the box
def test_a_five_player_game_entered_seat_by_seat_corrected_once_and_judged(pilot_for):
    """Mock buttons only: after the vote, VOTE asks the referee; each seat's card
    and vote are entered, one is corrected with BACK, and the verdict is said
    and shown."""
    pilot = pilot_for()
    narrator = pilot.parts.narrator
    for _ in range(2):
        pilot.press(Button.VOTE)                        # 5 players: classic_5
    assert pilot.view.title == "One Night · 5 players"
    pilot.press(Button.START)
    pilot.press(Button.VOTE)                            # vote at night: wake, then vote
    pilot.until(lambda: pilot.box.flow.active.phase is Phase.REVEAL)
    pilot.press(Button.VOTE)                            # Referee
    assert pilot.view.phase is Phase.REFEREE

    def pick(shown: str) -> None:
        for _ in range(12):
            if pilot.view.big == shown:
                break
            pilot.press(Button.NEXT)
        assert pilot.view.big == shown
        pilot.press(Button.START)

    pick("Werewolf")                                    # seat 1
    pick("Seat 2")
    pick("Seer")                                        # seat 2 ...
    pick("Seat 3")                                      # ... a slip: meant seat 1
    pilot.press(Button.BACK)                            # back to it
    assert pilot.view.details[0] == "Seat 2: whom did this player point at?"
    assert pilot.view.big == "Seat 3"                   # the answer given, shown
    pick("Seat 1")
    for seat in (3, 4, 5):
        pick("Villager" if seat != 5 else "Robber")
        pick("Seat 1")
    assert pilot.view.phase is Phase.VERDICT
    pilot.until(lambda: pilot.box.flow.active.clock is None, limit=60)
    said = [p.text for p in narrator.played] + list(narrator.missed)
    assert "Seat 1 dies." in said and "The village wins." in said
    assert said.index("Seat 1 dies.") < said.index("The village wins.")
    assert any("Seat 1 (Werewolf), who dies" in line for line in pilot.view.details)
    pilot.press(Button.START)                           # done
    assert pilot.view.phase is Phase.IDLE


# ------------------------------------------------------------ choosing the game
def test_the_game_is_chosen_on_the_box_and_remembered(pilot_for, tmp_path):
    """One Night's settings offer the other game; the Mayor's setup offers the
    way back; the choice is kept like a deck."""
    pilot = pilot_for()
    pilot.press(Button.NEXT, hold=2.1)                 # settings
    while pilot.view.details[0] != "Game":
        pilot.press(Button.NEXT)
    assert pilot.view.big == "One Night"
    pilot.press(Button.VOTE)                           # the next game
    assert pilot.view.title == "Werewolf with a Mayor"  # its own start screen
    assert pilot.box.flow.name == "dark_arts"
    pilot.parts.close()                                # the choice reaches the disk
    saved = json.loads((tmp_path / "state" / "wolfbox" / "state.json").read_text())
    assert saved["settings"]["game.mode"] == "dark_arts"


def test_the_mayors_setup_leads_back_to_one_night(pilot_for):
    pilot = pilot_for()
    pilot.box.flow.name = "dark_arts"                  # as if chosen before
    pilot.settle()
    for _ in range(20):
        if pilot.view.details and pilot.view.details[0] == "Game":
            break
        pilot.press(Button.NEXT)
    assert pilot.view.big == "Werewolf with a Mayor"
    assert pilot.view.details[1] == "VOTE: Timed Werewolf for nine. BACK: One Night."
    pilot.press(Button.BACK)
    assert pilot.box.flow.name == "one_night"
    assert pilot.view.title == "One Night · 3 players"  # One Night's start screen


def test_holding_vote_on_the_start_screen_switches_games_and_the_box_remembers(
        pilot_for, tmp_path):
    pilot = pilot_for()
    pilot.settle()
    assert pilot.view.footer == "Hold NEXT: settings. Hold VOTE: Werewolf with a Mayor."
    pilot.press(Button.VOTE, hold=2.1)
    assert pilot.box.flow.name == "dark_arts"
    assert pilot.view.title == "Werewolf with a Mayor"
    pilot.parts.close()                                # the last save reaches the disk
    # A restart, as `wolfbox run` makes it: what the box remembers, then the box.
    from wolfbox.device.state import StateStore, state_path
    from wolfbox.settings import apply_remembered
    config = apply_remembered(fast_config(tmp_path), StateStore(state_path()).load())
    assert config.game.mode == "dark_arts"
    again = pilot_for(config=config, fill=False)
    again.settle()
    assert again.box.flow.name == "dark_arts"
    again.press(Button.VOTE, hold=2.1)                 # on to the timed game
    assert again.box.flow.name == "newd3"
    assert again.view.title == "Timed Werewolf for nine"
    again.press(Button.VOTE, hold=2.1)                 # and round to the first
    assert again.box.flow.name == "one_night"
    assert again.view.title == "One Night · 3 players"


def test_the_mayors_lines_are_rendered_and_loaded_before_they_are_due(pilot_for, tmp_path):
    """The Mayor's game asks for its own lines, as One Night does for its
    round: on a cold cache they are rendered, then held in memory, so no
    announcement waits on the disk or the voice; a game switch asks again."""
    from wolfbox.darkarts.game import Game as MayorsGame
    from wolfbox.newd3.game import Game as TimedGame

    config = fast_config(tmp_path)
    config.game.mode = "dark_arts"
    pilot = pilot_for(config=config, fill=False, renderer=FAKE_WORKER)
    narrator = pilot.parts.narrator
    wanted = MayorsGame().lines()                 # a new box's table: 7 seats
    assert "Seat 7 has died." in wanted and "Seat 8 has died." not in wanted
    assert narrator.readiness()[1] == len(wanted)
    assert narrator.renderer.wait_idle(timeout=120)
    narrator.wait_warm(timeout=60)
    pilot.advance(1)
    assert narrator.readiness() == (len(wanted), len(wanted))
    assert set(wanted) <= set(narrator._files) | set(narrator._sounds)   # in memory
    pilot.press(Button.VOTE, hold=2.1)           # to the timed game: all its lines
    assert pilot.box.flow.name == "newd3"
    assert narrator.readiness()[1] == len(TimedGame().lines())
    pilot.press(Button.VOTE, hold=2.1)           # to One Night: its round's lines
    assert pilot.box.flow.name == "one_night"
    assert narrator.readiness()[1] == len(RoundSettings.from_config(config).lines())


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_a_table_sets_the_box_to_german_with_its_buttons(pilot_for):
    """The language page first: VOTE, and every word on the screen is German
    at once, and the voice follows (no German Piper voice here: espeak-ng in
    German, said on the start screen), rendering the round's German lines."""
    pilot = pilot_for()
    narrator = pilot.parts.narrator
    open_settings(pilot, page="Language")
    pilot.press(Button.VOTE)
    assert (pilot.view.details[0], pilot.view.big) == ("Sprache", "Deutsch")
    assert narrator.cache.lang == "de"
    assert (narrator.renderer.voice.engine, narrator.renderer.voice.espeak) == ("espeak", "de")
    wanted = RoundSettings.from_config(fast_config_de(pilot)).lines()
    assert narrator.readiness()[1] == len(wanted)
    assert wanted[0] == "Die Nacht bricht herein. Alle schließen die Augen."
    pilot.press(Button.START)                           # back to the start screen
    assert pilot.view.title.startswith("Vollmondnacht")
    assert pilot.box.notice.split("; ") == ["Gesprochen von espeak-ng"]
    # On to Chinese: its notice takes the German one's place; back to
    # English (the bundled Piper voice): no notice about the voice at all.
    open_settings(pilot, page="Sprache")
    pilot.press(Button.VOTE)
    assert pilot.box.notice.split("; ") == ["由 espeak-ng 朗读"]
    pilot.press(Button.VOTE)
    assert (pilot.view.big, pilot.box.notice) == ("English", "")


def fast_config_de(pilot: Pilot) -> Config:
    """The pilot's configuration with the language it was switched to."""
    from wolfbox import menu
    with_lang = menu.with_value(pilot.box.flow.active.config, "box.lang", "de")
    return menu.with_value(with_lang, "game.deck", list(pilot.box.flow.active.settings.deck))

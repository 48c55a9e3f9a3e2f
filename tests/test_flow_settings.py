"""The settings screen, the paging of long texts, and holds, in the pure flow."""

from __future__ import annotations

import pytest

from wolfbox.buttons import GAME_BUTTONS, Button, Hold, Tap
from wolfbox.config import Config, from_dict
from wolfbox.effects import ChangeSetting, Cue, PlayCue, Say, Warm
from wolfbox.games import Games
from wolfbox.i18n import language
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.night import NightOptions, night_script
from wolfbox.pages import MORE
from wolfbox.view import Phase

START, VOTE, NEXT, BACK = (Tap(b) for b in GAME_BUTTONS)
DAYBREAK = ["doppelganger", "sentinel", "alpha_wolf", "mystic_wolf", "apprentice_seer",
            "paranormal_investigator", "witch", "village_idiot", "revealer", "curator",
            "bodyguard", "dream_wolf", "werewolf", "seer", "robber", "troublemaker", "drunk"]


def flow_for(config: Config | None = None, **kw) -> Flow:
    config = config or Config()
    return Flow.from_config(config, **kw)


def to_page(flow: Flow, name: str, now: float = 0.0) -> None:
    for _ in range(20):
        if flow.view(now).details[0] == name:
            return
        flow.handle(NEXT, now)
    raise AssertionError(f"no settings page {name!r}")


def open_settings(flow: Flow | Games, now: float = 0.0, page: str = "Volume") -> None:
    """The settings screen, at `page` (the first page is the language)."""
    flow.handle(Hold(Button.NEXT), now)
    assert flow.view(now).phase is Phase.SETTINGS
    to_page(flow, page, now)


def test_holding_next_on_the_start_screen_opens_the_settings_and_start_leaves():
    flow = flow_for()
    view = flow.view(0.0)
    assert dict(view.holds)[Button.NEXT] == "Hold: settings"
    assert view.footer == "Hold NEXT: settings. Hold VOTE: Werewolf with a Mayor."
    assert view.label(Button.NEXT) == "Next deck"         # a tap still changes the deck
    open_settings(flow, page="Language")
    view = flow.view(0.0)
    assert view.title == "Settings · 1/13"                # no backlight here: no brightness page
    assert view.details[0] == "Language" and view.big == "English"
    assert view.label(Button.START) == "Done"
    flow.handle(START, 1.0)
    assert flow.phase is Phase.IDLE


def test_next_walks_every_page_and_comes_round():
    flow = flow_for(has_brightness=True)
    open_settings(flow, page="Language")
    names = []
    for _ in range(14):
        names.append(flow.view(0.0).details[0])
        flow.handle(NEXT, 0.0)
    assert names == ["Language", "Volume", "Speech speed", "Action time", "Discussion",
                     "Warnings", "Lone wolf", "Night ambience", "Ambience volume",
                     "Brightness", "Phones", "Cards on phones", "Game", "Reset to defaults"]
    assert flow.view(0.0).details[0] == "Language"


def test_the_language_changes_every_word_and_the_rounds_lines_at_once():
    """A German table sets the box to German with its buttons: the settings
    screen answers in German at once, and the round's lines are German
    (handed out to be rendered in the German voice)."""
    one_night = flow_for()
    flow = Games({"one_night": lambda: one_night}, "one_night")   # as the box calls it
    open_settings(flow, page="Language")
    effects = flow.handle(VOTE, 0.0)                       # English -> Deutsch
    assert effects[0] == ChangeSetting("box.lang", "de")
    view = flow.view(0.0)
    assert (view.details[0], view.big) == ("Sprache", "Deutsch")
    assert view.title.startswith("Optionen")
    warm = next(e for e in effects if isinstance(e, Warm))
    assert warm.lines[0] == "Die Nacht bricht herein. Alle schließen die Augen."
    flow.handle(VOTE, 0.0)                                 # Deutsch -> 中文
    assert flow.view(0.0).details[0] == "语言"
    flow.handle(VOTE, 0.0)                                 # and round to English
    assert flow.view(0.0).details[0] == "Language"
    flow.handle(VOTE, 0.0)                                 # German again: only the games
    assert flow.lang == "de" and language() == "en"


def test_volume_changes_at_once_with_a_chime_at_the_new_level():
    flow = flow_for()
    open_settings(flow)
    effects = flow.handle(BACK, 0.0)
    assert effects == [ChangeSetting("sound.volume", 0.9), PlayCue(Cue.CHIME)]
    assert flow.view(0.0).big == "90 %"
    assert flow.view(0.0).progress == pytest.approx(0.9)
    assert flow.view(0.0).label(Button.BACK) == "Quieter"
    assert flow.handle(VOTE, 0.0)[0] == ChangeSetting("sound.volume", 1.0)
    assert flow.handle(VOTE, 0.0) == []                    # the top: nothing to change


def test_speech_speed_faster_is_a_shorter_length_scale():
    flow = flow_for()
    open_settings(flow)
    to_page(flow, "Speech speed")
    assert flow.view(0.0).big == "100 %"
    effects = flow.handle(VOTE, 0.0)                       # Faster
    assert effects[0] == ChangeSetting("voice.length_scale", round(100 / 110, 3))
    assert flow.view(0.0).big == "110 %"
    assert any(isinstance(e, Warm) for e in effects)       # the round's lines, at the new speed


def test_discussion_length_changes_the_round_and_its_lines():
    flow = flow_for()
    open_settings(flow)
    to_page(flow, "Discussion")
    assert flow.view(0.0).big == "5:00"
    effects = flow.handle(VOTE, 0.0)
    assert effects[0] == ChangeSetting("game.discussion_seconds", 330.0)
    assert flow.settings.discussion_seconds == 330.0
    warm = next(e for e in effects if isinstance(e, Warm))
    assert "You have 5 minutes 30 seconds to find the werewolves. Go!" in warm.lines
    flow.handle(START, 0.0)                                # back to the start screen
    flow.handle(START, 0.0)                                # and a round uses it
    now = 0.0
    while flow.phase is Phase.NIGHT:
        now = flow.next_change(now)
        flow.tick(now)
    assert flow.view(now).big == "5:30"


def test_action_time_scales_every_role():
    flow = flow_for()
    seer = next(s for s in flow.settings.night if s.id == "seer").seconds
    open_settings(flow)
    to_page(flow, "Action time")
    flow.handle(VOTE, 0.0)
    assert flow.view(0.0).big == "125 %"
    assert next(s for s in flow.settings.night if s.id == "seer").seconds == \
        pytest.approx(seer * 1.25)


def test_warnings_and_toggles():
    flow = flow_for()
    open_settings(flow)
    to_page(flow, "Warnings")
    assert flow.view(0.0).big == "1:00, 0:10"
    flow.handle(BACK, 0.0)
    assert flow.view(0.0).big == "1:00"
    assert flow.settings.warnings == (60,)
    to_page(flow, "Lone wolf")
    assert flow.view(0.0).big == "On" and flow.view(0.0).progress is None
    assert flow.handle(BACK, 0.0) == [ChangeSetting("game.lone_wolf", False),
                                      Warm(tuple(flow.settings.lines()))]
    assert not flow.settings.options.lone_wolf
    assert flow.view(0.0).big == "Off"


def test_a_value_the_config_file_sets_is_shown_and_not_changed():
    config = from_dict({"sound": {"volume": 0.5}})
    flow = flow_for(config)
    open_settings(flow)
    assert flow.view(0.0).details[0] == "Volume"
    view = flow.view(0.0)
    assert view.big == "50 %"
    assert "config file" in view.details[1]
    assert view.label(Button.VOTE) == "" and view.label(Button.BACK) == ""
    assert flow.handle(VOTE, 0.0) == []


def test_reset_asks_twice_then_puts_back_every_default():
    flow = flow_for()
    open_settings(flow)
    flow.handle(BACK, 0.0)                                 # volume 90 %
    to_page(flow, "Discussion")
    flow.handle(BACK, 0.0)                                 # 4:30
    to_page(flow, "Reset to defaults")
    assert flow.view(0.0).label(Button.VOTE) == "Reset"
    assert flow.handle(VOTE, 0.0) == []                    # asks first
    assert flow.view(0.0).label(Button.VOTE) == "Yes, reset"
    assert "again" in " ".join(flow.view(0.0).details)
    effects = flow.handle(VOTE, 0.0)
    changes = [e for e in effects if isinstance(e, ChangeSetting)]
    assert changes == [ChangeSetting("sound.volume", 1.0),
                       ChangeSetting("game.discussion_seconds", 300.0)]
    assert flow.settings.discussion_seconds == 300.0
    assert PlayCue(Cue.CHIME) in effects


def test_reset_is_disarmed_by_moving_on():
    flow = flow_for()
    open_settings(flow)
    flow.handle(BACK, 0.0)
    to_page(flow, "Reset to defaults")
    flow.handle(VOTE, 0.0)
    flow.handle(NEXT, 0.0)
    to_page(flow, "Reset to defaults")
    assert flow.handle(VOTE, 0.0) == []                    # asks again


def test_a_hold_with_nothing_to_hold_for_is_a_tap():
    """NEXT is held on the start screen for the settings; in a round a long
    press of NEXT must still skip, not vanish."""
    flow = flow_for()
    flow.handle(START, 0.0)
    step = flow.step_index
    flow.handle(Hold(Button.NEXT), 0.1)
    assert flow.step_index != step or flow.stage != "speak"


# --------------------------------------------------------------- paging
def longest_call() -> str:
    steps = night_script(DAYBREAK, NightOptions())
    return max((s.text for s in steps), key=len)


def test_a_long_call_is_shown_in_pages_that_turn_while_it_is_spoken():
    deck = DAYBREAK
    flow = Flow(RoundSettings.for_deck(deck))
    call = longest_call()
    assert len(call.split()) > 50                          # the Doppelganger's call
    flow.handle(START, 0.0)
    now = 0.0
    while not (flow.caption == call):
        now = flow.next_change(now)
        flow.tick(now)
    shown = []
    began = now
    while flow.caption == call:
        page = flow.view(now).caption
        if not shown or shown[-1] != page:
            shown.append(page)
        now = flow.next_change(now)
        flow.tick(now)
    assert len(shown) >= 3
    assert all(p.endswith(MORE) for p in shown[:-1]) and not shown[-1].endswith(MORE)
    words = " ".join(p.removesuffix(MORE).strip() for p in shown).split()
    assert words == call.split()                           # every word, in order, once
    assert now - began > 10                                # pages took the line's time


def test_caption_pages_stop_turning_while_paused():
    flow = Flow(RoundSettings.for_deck(DAYBREAK))
    call = longest_call()
    flow.handle(START, 0.0)
    now = 0.0
    while flow.caption != call:
        now = flow.next_change(now)
        flow.tick(now)
    first = flow.view(now).caption
    flow.handle(START, now)                                # pause
    assert flow.next_change(now) is None
    assert flow.view(now + 300).caption == first
    flow.handle(START, now + 300)                          # resume: the page is still first
    assert flow.view(now + 300).caption == first


def test_a_short_line_is_one_page():
    flow = Flow(RoundSettings.for_deck(["werewolf", "werewolf", "seer", "robber",
                                        "troublemaker", "villager"]))
    effects = flow.handle(START, 0.0)
    said = [e.text for e in effects if isinstance(e, Say)][0]
    assert flow.view(0.5).caption == said


def test_the_speed_bar_grows_with_the_speed():
    flow = flow_for()
    open_settings(flow)
    to_page(flow, "Speech speed")
    before = flow.view(0.0).progress
    flow.handle(VOTE, 0.0)                                 # Faster
    assert flow.view(0.0).progress > before

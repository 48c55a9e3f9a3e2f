"""The Mayor's game deals to the phones in a moment of its own (issue 40,
item 1): with a phone at every seat, every phone shows its card behind the
cover while the box asks everyone to read it, a window of the same 30 s
for every deal follows, and only then does night fall, so a Matchmaker
has read their card before "Matchmaker, open your eyes". Nothing in the
window differs by card; a power cut in it resumes the deal with the same
cards. The game alone, on the fake clock."""

from __future__ import annotations

import json

import pytest
from test_darkarts_game import START, Table, says
from test_mayor_phones import MAYOR, PLAYERS, table

from wolfbox.buttons import Button, Tap
from wolfbox.darkarts.game import Game, Stage
from wolfbox.darkarts.saved import CannotResume
from wolfbox.effects import Ambience
from wolfbox.events import PhonesSeated

LOOK = ("Everyone, open your eyes and look at your phone: hold its cover to read your card. "
        "Let nobody else see it.")
NIGHT_FALLS = "Night falls. Everyone, close your eyes."
WINDOW = 30.0                     # the timed game's deal on the phones is as long


def said_at(t: Table) -> dict[str, float]:
    """When each line was first said."""
    out: dict[str, float] = {}
    for at, line in t.said:
        out.setdefault(line, at)
    return out


def public(t: Table, seat: int) -> tuple:
    """What a player's phone shows outside its cover."""
    v = t.g.phone_view(seat, t.now)
    return (v.title, v.big, v.lines, v.dim, v.task)


def dealt(seed: int = 3) -> Table:
    t = table(PLAYERS | {MAYOR}, seed)
    t.press(START)
    return t


def test_every_phone_shows_its_card_before_the_night_and_the_night_waits_for_the_window():
    t = dealt()
    assert t.g.stage is Stage.DEAL
    assert says(t.effects) == [LOOK]                           # not "close your eyes"
    assert not any(isinstance(e, Ambience) for e in t.effects)  # eyes open: no night sound
    cards = {seat: t.g.phone_view(seat, t.now).secret for seat in PLAYERS}
    for seat in PLAYERS:                                       # its own, from the first view
        assert cards[seat][0] == t.g.phone_view(seat, t.now).secret[0]
        assert cards[seat][0] in {"Werewolf", "Hunter", "Seer", "Matchmaker", "Villager"}
    assert [c[0] for c in cards.values()].count("Werewolf") == 2
    assert len({public(t, seat) for seat in PLAYERS}) == 1      # the rest the same for all
    assert public(t, 1)[0] == "The deal" and LOOK in public(t, 1)[2]
    view = t.g.view(t.now)
    assert not view.private and view.title == "The deal"       # no card on the box
    t.run_until(lambda g: g.speech.line is None)                # the line has been said
    opened = t.now
    assert t.g.view(t.now).big == "0:30"
    assert public(t, 1)[1] == "0:30"
    assert public(t, 1)[2] == ("Look at your phone: hold its cover to see your card.",)
    assert len({public(t, seat) for seat in PLAYERS}) == 1
    t.stage_is(Stage.NIGHT)
    assert t.now - opened == pytest.approx(WINDOW)
    t.stage_is(Stage.LOVERS)
    heard = said_at(t)
    assert heard["Phones face down."] == pytest.approx(opened + WINDOW)
    matchmaker = next(line for line in heard if line.startswith("Matchmaker, open"))
    assert heard[LOOK] < opened < heard[NIGHT_FALLS] < heard[matchmaker]
    assert [line for _at, line in t.said][:3] == [LOOK, "Phones face down.", NIGHT_FALLS]
    assert {seat: t.g.phone_view(seat, t.now).secret for seat in PLAYERS} == cards  # kept


def test_the_window_is_the_same_whatever_the_deal():
    """What the table hears and when, and what every phone shows outside
    its cover, do not depend on who holds which card."""
    tables = [dealt(seed) for seed in (1, 2, 5)]
    assert len({t.g.dealt for t in tables}) == 3
    shown: list[list] = []
    for t in tables:
        seen = []
        while t.g.stage is Stage.DEAL:
            seen.append((t.now, [public(t, seat) for seat in PLAYERS]))
            t.step()
        shown.append(seen)
    assert shown[0] and shown[0] == shown[1] == shown[2]
    assert tables[0].said == tables[1].said == tables[2].said


def test_without_a_phone_at_every_seat_the_night_falls_at_once():
    t = table(frozenset(PLAYERS - {4}) | {MAYOR})
    t.press(START)
    assert t.g.stage is Stage.NIGHT and t.g.dealt is None
    assert says(t.effects) == [NIGHT_FALLS]


def test_a_pause_holds_the_window():
    t = dealt()
    t.run_until(lambda g: g.speech.line is None)
    opened = t.now
    t.wait(10)
    t.press(Tap(Button.START))                                  # pause
    assert t.g.paused
    t.now += 300
    t.press(Tap(Button.START))                                  # resume
    t.stage_is(Stage.NIGHT)
    assert t.now - opened == pytest.approx(WINDOW + 300)


def test_a_power_cut_in_the_window_deals_the_same_cards_again():
    t = dealt()
    t.run_until(lambda g: g.speech.line is None)
    t.wait(12)
    saved = json.loads(json.dumps(t.g.to_dict()))              # the power is cut
    assert saved["stage"] == "deal" and saved["dealt"] == list(t.g.dealt)
    back = Table(Game.from_dict(saved), now=t.now)
    assert back.g.stage is Stage.RESUME and back.g.view(back.now).details == ("The deal",)
    back.press(PhonesSeated(PLAYERS | {MAYOR}))
    assert back.g.phone_view(2, back.now).secret == t.g.phone_view(2, t.now).secret
    back.press(START)                                           # resume: the whole window
    assert back.g.stage is Stage.DEAL and says(back.effects) == [LOOK]
    back.run_until(lambda g: g.speech.line is None)
    opened = back.now
    back.stage_is(Stage.NIGHT)
    assert back.now - opened == pytest.approx(WINDOW)
    assert back.g.dealt == t.g.dealt and back.g.night == 1


def test_a_save_of_the_deal_is_checked_and_older_saves_still_load():
    t = dealt()
    saved = json.loads(json.dumps(t.g.to_dict()))
    for change, words in ((dict(dealt=None), "without the cards"),
                          (dict(dead={"3": "seer"}), "before the first night"),
                          (dict(night=2), "before the first night"),
                          (dict(lovers=[3, 5]), "before the first night")):
        with pytest.raises(CannotResume) as refused:
            Game.from_dict({**saved, **change})
        assert "\n" not in str(refused.value) and words in str(refused.value), change
    # A checkpoint of night 1 as the box took it before the deal had its
    # own stage: it still resumes, at the night.
    old = {**saved, "stage": "night"}
    back = Table(Game.from_dict(old))
    back.press(START)
    assert back.g.stage is Stage.NIGHT and says(back.effects) == [NIGHT_FALLS]


def test_a_box_that_knows_no_deal_stage_refuses_it_in_one_line():
    """What an older box says of this box's save (the stage it cannot
    read), as this box says of an unknown stage."""
    t = dealt()
    saved = {**t.g.to_dict(), "stage": "shuffle"}
    with pytest.raises(CannotResume) as refused:
        Game.from_dict(saved)
    assert "\n" not in str(refused.value) and "stage" in str(refused.value)


"""`wolfbox replay`: a whole round from a file of timed button events, as
JSON lines, deterministic and without pygame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wolfbox.buttons import Button
from wolfbox.errors import UserError
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.games import Games
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.replay import TimedPress, parse_events, replay

HERE = Path(__file__).parent
STARTER = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", "replay", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def records(events: list[TimedPress], deck=STARTER, **kw) -> list[dict]:
    return list(replay(Flow(RoundSettings.for_deck(deck, **kw)), events))


def test_a_whole_round_from_start_to_reveal():
    out = records([TimedPress(0.0, Button.START), TimedPress(3600.0)],
                  discussion_seconds=300)
    phases = [r["phase"] for r in out]
    assert [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p] == \
        ["idle", "night", "discussion", "vote", "reveal"]
    said = [line for r in out for line in r["said"]]
    assert said[0] == "Night falls. Everyone, close your eyes."
    assert said[-7:] == ["1 minute left.", "10 seconds left.", "Three.", "Two.", "One.",
                         "Vote!", "Everyone, flip your card over and see who won."]
    discussion = [r for r in out if r["phase"] == "discussion"]
    start = discussion[0]
    assert start["big"] == "5:00" and start["cues"] == ["chime"]
    # one record a shown second: 5:00 down to 0:01
    assert [r["big"] for r in discussion][:3] == ["5:00", "4:59", "4:58"]
    assert len({r["big"] for r in discussion}) == 300
    warning = next(r for r in discussion if "1 minute left." in r["said"])
    assert warning["big"] == "1:00"
    assert warning["at"] == pytest.approx(start["at"] + 240)
    reveal = out[-1]
    assert reveal["title"] == "Who won? · 1/2" and reveal["legend"] == {
        "start": "Done", "vote": "Referee", "next": "More rules"}


def test_the_same_events_give_the_same_lines_and_time_runs_only_as_far_as_asked():
    events = [TimedPress(0.0, Button.START), TimedPress(30.0)]
    first, second = records(events), records(events)
    assert first == second
    assert first[-1]["at"] <= 30.0
    assert first[-1]["phase"] == "night"


def test_a_hold_of_back_abandons_and_a_pause_stops_the_clock():
    out = records([TimedPress(0.0, Button.START), TimedPress(10.0, Button.START),
                   TimedPress(500.0, Button.START), TimedPress(505.0, Button.BACK, hold=True)])
    paused = [r for r in out if r["paused"]]
    assert paused and paused[0]["at"] == 10.0
    assert not any(10.0 < r["at"] < 500.0 for r in out)   # nothing moves while paused
    assert out[-1]["phase"] == "idle" and out[-1]["cues"] == ["abandon"]


def test_golden_round_from_a_file():
    """The file in tests/replays plays the same round every time. Its
    landmarks were checked by hand: a pause of a minute at night, +1 minute
    in the discussion, an early vote, the rules' second page, Done."""
    result = run(str(HERE / "replays" / "classic_round.events"))
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    by_time = {r["at"]: r for r in out}
    assert by_time[20.0]["paused"] and by_time[20.0]["legend"]["start"] == "Resume"
    assert not by_time[80.0]["paused"]
    assert by_time[160.0]["said"] == ["1 minute more."]
    assert by_time[400.0]["phase"] == "vote" and by_time[400.0]["said"] == ["Three."]
    assert by_time[410.0]["phase"] == "reveal" and by_time[410.0]["title"] == "Who won? · 2/2"
    assert by_time[412.0]["phase"] == "idle"
    assert [r["said"] for r in out if r["phase"] == "vote"] == \
        [["Three."], ["Two."], ["One."], ["Vote!"]]


def test_reads_standard_input_and_takes_a_deck_and_a_seed():
    events = '{"at": 0, "tap": "next"}\n{"at": 0, "tap": "next"}\n{"at": 0, "tap": "next"}\n'
    a = run("--deck", "random", "--players", "6", "--seed", "7", "-", stdin=events)
    b = run("--deck", "random", "--players", "6", "--seed", "7", "-", stdin=events)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    first = json.loads(a.stdout.splitlines()[0])
    assert first["title"] == "One Night · 6 players"


@pytest.mark.parametrize("line, fragment", [
    ("{nope", "line 1: not JSON"),
    ('["at", 0]', "must be an object"),
    ('{"at": 0, "press": "start"}', "unknown key 'press' (allowed: at, tap, hold, release, "
                                    "seated, names, seat, step, choice)"),
    ('{"tap": "start"}', '"at" must be a time in seconds'),
    ('{"at": -1, "tap": "start"}', '"at" must be a time in seconds'),
    ('{"at": NaN, "tap": "start"}', "NaN is not a number JSON allows"),
    ('{"at": 0, "tap": "stop"}', "no button 'stop' (buttons: start, vote, next, back, power)"),
    ('{"at": 0, "tap": "start", "hold": "back"}', "only one"),
    ('{"at": "5", "tap": "start"}', '"at" must be a time in seconds'),
    ('{"at": true, "tap": "start"}', '"at" must be a time in seconds'),
    ('{"at": 0, "tap": 5}', "no button '5'"),
    ('{"at": 0, "hold": null}', "no button 'null'"),
])
def test_bad_events_are_one_line_naming_the_line(line, fragment):
    result = run("-", stdin='{"at": 0}\n' + line + "\n")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "<stdin>:2" in result.stderr and fragment.replace("line 1", "") in result.stderr


def test_events_out_of_order_and_a_missing_file():
    with pytest.raises(UserError, match="before the line above"):
        parse_events(['{"at": 5}', '{"at": 4}'], "events")
    result = run(os.devnull + "-missing")
    assert result.returncode == 2 and "cannot read events" in result.stderr


def test_the_referee_screens_replay_from_events():
    """A file of events covers the referee too: the entry's questions and the
    verdict come out as records, and the same events give the same verdict."""
    events = '\n'.join([
        '{"at": 0, "tap": "start"}', '{"at": 1, "tap": "vote"}',   # vote at night
        '{"at": 60, "tap": "vote"}',                                # the reveal: Referee
        *(f'{{"at": {61 + i}, "tap": "start"}}' for i in range(6)),
        '{"at": 100}',                                              # the verdict said
    ]) + "\n"
    a, b = run("-", stdin=events), run("-", stdin=events)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = [json.loads(line) for line in a.stdout.splitlines()]
    entry = [r for r in out if r["phase"] == "referee"]
    assert entry[0]["title"] == "Referee · 1/6" and entry[0]["big"] == "Werewolf"
    assert entry[0]["details"][0] == "Seat 1: which card lies in front of this player?"
    assert entry[1]["details"][0] == "Seat 1: whom did this player point at?"
    verdict = [r for r in out if r["phase"] == "verdict"]
    assert verdict and verdict[0]["title"].startswith("Verdict")
    assert verdict[0]["said"] == ["Nobody dies."]        # every default: a circle
    said = [line for r in verdict for line in r["said"]]
    assert said[-1] in ("The village wins.", "The werewolves win.")


def test_the_mayors_game_replays_from_events_too():
    # Start; the Mayor marks seats 1 and 2 as the Lovers; NEXT and VOTE at dawn.
    events = "".join(json.dumps(e) + "\n" for e in (
        {"at": 0, "tap": "start"}, {"at": 59.5, "tap": "next"},      # the Lovers' picker: seat 1
        {"at": 60, "tap": "vote"}, {"at": 60.5, "tap": "next"},
        {"at": 61, "tap": "vote"}, {"at": 61.5, "tap": "start"}, {"at": 199.5, "tap": "next"},
        {"at": 200, "tap": "vote"}, {"at": 201}))
    a, b = (run("--mode", "dark_arts", "-", stdin=events) for _ in range(2))
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = [json.loads(line) for line in a.stdout.splitlines()]
    assert out[0]["title"] == "Werewolf with a Mayor"
    titles = [r["title"] for r in out]
    assert "Night 1 · Werewolves" in titles and "Dawn 1 · Who died?" in titles
    assert out[-1]["title"].startswith("Seat 1")       # seat 1 marked at dawn: its role


def test_a_replay_of_the_mayors_game_plays_the_configured_limits(tmp_path):
    """A replay builds the game from the same settings as the box: a
    discussion limit set in [mayor] is the one its setup shows (a replay
    once ignored the Mayor's section)."""
    config = tmp_path / "box.toml"
    config.write_text("[mayor]\ndiscussion_seconds = 120\n")
    events = "".join(json.dumps({"at": i, "tap": "next"}) + "\n" for i in range(1, 21))
    done = run("--mode", "dark_arts", "--config", str(config), "-", stdin=events)
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    limit = [r for r in out if r["details"][:1] == ["Discussion limit"]]
    assert limit and limit[0]["big"] == "2:00"
    assert "Set in the config file." in limit[0]["details"]


def test_the_timed_game_replays_its_deal_from_the_seed():
    """Seat 1 holds VOTE in its deal turn and lets go: its card shows from
    the hold until 3 s after it; the seed decides the deal, so the same
    seed replays the same card."""
    from wolfbox.newd3.roles import ROLES
    events = "".join(json.dumps(e) + "\n" for e in (
        {"at": 0, "tap": "start"}, {"at": 25, "hold": "vote"}, {"at": 26, "release": "vote"},
        {"at": 35}))
    a, b = (run("--mode", "newd3", "--seed", "7", "-", stdin=events) for _ in range(2))
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = [json.loads(line) for line in a.stdout.splitlines()]
    names = {r.name for r in ROLES.values()}
    shown = [r for r in out if r["big"] in names]
    assert shown and shown[0]["at"] == 25 and shown[0]["details"][0] == "Seat 1 · your card"
    after = [r for r in out if r["at"] >= 28 and r["title"].startswith("Seat 1 ·")]
    assert after and all(r["big"] == "Hold VOTE" for r in after)
    cards = {json.loads(line)["big"] for seed in range(6)
             for line in run("--mode", "newd3", "--seed", str(seed), "-",
                             stdin=events).stdout.splitlines()} & names
    assert len(cards) > 1                               # the seed deals, not a fixed deck


def test_each_record_says_what_the_buttons_lights_show():
    """At One Night's start screen START pulses (the button to press); at
    night only START glows, dimly, so a hand finds pause in the dark."""
    out = records([TimedPress(0.0, Button.START), TimedPress(5.0)])
    assert out[0]["lights"]["start"] == "pulse"
    night = [r for r in out if r["phase"] == "night"]
    assert night and all(r["lights"] == {"start": "dim", "vote": "off", "next": "off",
                                         "back": "off"} for r in night)


# ------------------------------------------------------------ phones (issue 29.17)
def test_a_phone_game_replays_with_every_seats_phone():
    """Phones take seats 1-3 (Ann names hers), the night falls, and the seat
    whose phone shows a task answers it: each seat's phone is a record of
    its own whenever it changes, its card behind the cover (`secret`), and
    the answer shows on that phone only."""
    events = [TimedPress(0.0, phone=PhonesSeated(frozenset({1, 2, 3}), ((1, "Ann"),))),
              TimedPress(1.0, Button.START), TimedPress(30.0)]
    flow = Games({"one_night": lambda: Flow(RoundSettings.for_deck(STARTER))}, "one_night")
    out = list(replay(flow, events))
    phones = [r for r in out if "phone" in r]
    assert {r["phone"] for r in phones if r["at"] == 0.0} == {1, 2, 3}
    cards = {r["phone"]: r["secret"][0] for r in phones if r["at"] == 0.0}
    assert all(card.startswith("Your card: ") for card in cards.values())
    tasked = next(r for r in phones if "task" in r)
    step, option = tasked["task"]["step"], tasked["task"]["options"][0][0]
    seat = tasked["phone"]
    answered = events[:2] + [TimedPress(tasked["at"] + 0.5, phone=PhoneChoice(seat, step,
                                                                              (option,))),
                             TimedPress(30.0)]
    again = list(replay(Games({"one_night": lambda: Flow(RoundSettings.for_deck(STARTER))},
                              "one_night"), answered))
    moved = [r for r in again if r["at"] == tasked["at"] + 0.5]
    assert [r.get("phone") for r in moved] == [seat]            # that phone, nothing else
    assert moved[0]["task"]["chosen"] == [option]
    # Without phones, records are as they always were: the screen's alone.
    plain = list(replay(Games({"one_night": lambda: Flow(RoundSettings.for_deck(STARTER))},
                              "one_night"), events[1:]))
    assert not any("phone" in r for r in plain)


def test_phone_lines_from_a_file_and_a_seat_that_leaves():
    lines = ['{"at": 0, "seated": [1, 2], "names": {"2": "Bo"}}',
             '{"at": 1, "seat": 2, "step": "1.werewolves.0", "choice": [101]}',
             '{"at": 2, "seated": [1]}']
    events = parse_events(lines, "events")
    assert events[0].phone == PhonesSeated(frozenset({1, 2}), ((2, "Bo"),))
    assert events[1].phone == PhoneChoice(2, "1.werewolves.0", (101,))
    assert events[2].phone == PhonesSeated(frozenset({1}))
    out = run("-", stdin="\n".join(lines + ['{"at": 3}']) + "\n")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert {r["phone"] for r in records if "phone" in r} == {1, 2}
    assert not any(r.get("phone") == 2 and r["at"] >= 2 for r in records)


@pytest.mark.parametrize("line, fragment", [
    ('{"at": 0, "seated": [0]}', '"seated" must be a list of seat numbers from 1 to 99'),
    ('{"at": 0, "seated": [100]}', '"seated" must be a list'),
    ('{"at": 0, "seated": [1, 1]}', "each once"),
    ('{"at": 0, "seated": [true]}', '"seated" must be a list'),
    ('{"at": 0, "seated": "1,2"}', '"seated" must be a list'),
    ('{"at": 0, "seated": [1], "names": {"2": "Bo"}}', '"names" must give seated seats'),
    ('{"at": 0, "seated": [1], "names": {"1": "' + "x" * 61 + '"}}', "at most 60 characters"),
    ('{"at": 0, "names": {"1": "Ann"}}', '"seated" must be a list'),
    ('{"at": 0, "seat": 1, "step": "s"}', "a phone's answer is"),
    ('{"at": 0, "seat": 0, "step": "s", "choice": [1]}', '"seat" (1 to 99)'),
    ('{"at": 0, "seat": 1, "step": "' + "s" * 41 + '", "choice": [1]}', "at most 40 characters"),
    ('{"at": 0, "seat": 1, "step": "s", "choice": [1, 2, 3, 4, 5]}', "at most 4 option ids"),
    ('{"at": 0, "seat": 1, "step": "s", "choice": [1000]}', "from 0 to 999"),
    ('{"at": 0, "seat": 1, "step": "s", "choice": [-1]}', "from 0 to 999"),
    ('{"at": 0, "seat": 1, "step": 5, "choice": [1]}', "a phone's answer is"),
    ('{"at": 0, "seat": 1, "step": "s", "choice": [1], "tap": "start"}', "only one of them"),
    ('{"at": 0, "seated": [1], "seat": 1, "step": "s", "choice": [1]}', "only one of them"),
])
def test_bad_phone_lines_are_one_line_naming_the_line(line, fragment):
    result = run("-", stdin='{"at": 0}\n' + line + "\n")
    assert result.returncode == 2, result.stdout[:300]
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "<stdin>:2" in result.stderr and fragment in result.stderr, result.stderr


def test_a_replay_takes_what_a_phone_may_send_and_no_more():
    """The limits are the phones' server's (wolfbox.phones.protocol), which
    the core cannot import: kept equal here."""
    import typing

    from wolfbox import replay as replaying
    from wolfbox.phones import protocol

    def meta(alias):
        return next(m for m in typing.get_args(alias) if hasattr(m, "max_length")
                    or hasattr(m, "le"))
    assert meta(protocol.SeatNumber).ge == 1 and meta(protocol.SeatNumber).le == \
        replaying.MAX_SEAT
    assert meta(protocol.Name).max_length == replaying.MAX_NAME
    assert meta(protocol.Step).max_length == replaying.MAX_STEP
    assert meta(protocol.OptionId).ge == 0 and meta(protocol.OptionId).le == \
        replaying.MAX_OPTION
    assert meta(protocol.Choice).max_length == replaying.MAX_PICKED

"""A frame's size tells nothing (issue 29, item 8): through the real box
and the real server, the timed game's deal and first night on nine phones,
the Wolves plotting and taking the knife, in each of the box's languages
and for more than one deal: every view any phone is sent, at any moment,
is the same number of bytes. Without the padding the sizes differ by seat,
by card and by tap."""

from __future__ import annotations

import random

import pytest
from test_phones_box import box_hears, join_details, sent  # noqa: F401 (a fixture)
from test_timed_phones_box import Phone

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.i18n import speaking
from wolfbox.newd3 import said
from wolfbox.newd3.game import Stage
from wolfbox.newd3.roles import is_wolf_team
from wolfbox.newd3.turns import Kind

SEATS = range(1, 10)


@pytest.mark.parametrize("lang, seed", [("en", 7), ("de", 12), ("zh", 7), ("zh", 12)])
def test_every_view_of_a_timed_night_is_one_size_whatever_the_deal_and_taps(
        tmp_path, pilots, sent, lang, seed):  # noqa: F811 (the fixture)
    config = phones_config(tmp_path, "newd3")
    config.box.lang = lang
    with speaking(lang):
        lines = said.all_lines()
    pilot = pilots.start(config, lines, warm=False)
    url, pin = join_details(pilot)
    phones = {seat: Phone(url) for seat in SEATS}
    try:
        for seat, p in phones.items():
            p.send(t="hello")
            p.send(t="join", pin=pin, seat=seat, name=f"P{seat}")
            p.wait(lambda m: m["t"] == "joined")
        game = pilot.box.flow.active
        box_hears(pilot, lambda: game.phones == frozenset(SEATS))
        game.rng = random.Random(seed)
        pilot.press(Button.START)                                # the deal, on the phones
        wolves = [s for s in SEATS if is_wolf_team(game.seats[s - 1])]
        pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
        pilot.press(Button.VOTE, hold=2.1)                      # day 1: vote now, nobody out
        pilot.until(lambda: game.stage is Stage.RESULT, limit=300, step=0.5)
        pilot.press(Button.START)
        pilot.until(lambda: game.night_task() is Kind.PLOT, limit=300, step=0.5)
        pack = game.pack()
        victim = next(s for s in reversed(SEATS) if s not in wolves)
        for seat in SEATS:                                       # the Wolves plot, the rest
            phones[seat].send(t="choose", step=game.night_step(), choice=[victim])
            box_hears(pilot, lambda s=seat: game.marks.get(s) == victim)
        for wolf in pack:                                        # each Wolf takes the knife
            phones[wolf].send(t="choose", step=game.night_step(), choice=[pack[0]])
            box_hears(pilot, lambda w=wolf: game.marks.get(w) == pack[0])
        pilot.until(lambda: game.stage is Stage.DAWN, limit=300, step=0.5)
        for p in phones.values():                                # all sent has arrived
            since = len(p.got)
            p.send(t="hello", token=p.token)
            p.wait(lambda m: m["t"] == "view", since)
    finally:
        for p in phones.values():
            p.close()
    views = [m for _socket, m in sent if m.startswith(b'{"t":"view"')]
    secret = [m for m in views if b'"secret":[]' not in m]
    assert len(views) > 200 and len(secret) > 20                 # cards and marks were sent
    assert len({len(m) for m in views}) == 1, sorted({len(m) for m in views})

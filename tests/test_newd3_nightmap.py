"""The timed game's nights as pictures at its end (issue 40, item 6):
who aimed at whom, in 004's order, what was blocked, who died. Expected
values worked out by hand from 004's rules for a known night."""

from __future__ import annotations

from test_newd3_game import A1, finish_night, play_night, resumed

from wolfbox.buttons import Button
from wolfbox.newd3.model import Stage
from wolfbox.tablemap import Arrow, Spot


def test_the_last_night_drawn_at_the_end_block_protect_kill_and_a_blocked_look():
    # A1: 1 Wolf, 2 Alchemist (Wolf team), 3 Seer, 4 Guard, 5-9 Sheep; four
    # Sheep dead. The Alchemist blocks the Seer, the Guard protects the
    # Seer, the Wolf kills seat 9: two Wolves to two Town, the Wolves win
    # (night 3: four dead need two days and a night before it).
    table = resumed("night", A1, dead=(5, 6, 7, 8), night=3)
    play_night(table, {"alchemist": 3, "seer": 1, "guard": 3}, victims=[9], knives=[1])
    assert table.g.picture() is None                   # nothing of a night before the end
    finish_night(table)
    table.until(lambda: table.g.stage is Stage.END)
    picture = table.g.picture()
    assert picture is not None and len(picture.pages) == 1
    night = picture.pages[0]
    assert night.title == "Night 3"
    assert night.seats == tuple(Spot(s, f"Seat {s}", dead=s >= 5) for s in range(1, 10))
    assert night.arrows == (Arrow("block", 2, 3, 1), Arrow("protect", 4, 3, 2),
                            Arrow("kill", 1, 9, 3), Arrow("look", 3, 1, 4))
    assert night.notes == (
        "1. Seat 2 (Alchemist) blocked Seat 3.",
        "2. Seat 4 (Guard) protected Seat 3.",
        "3. The Wolves' knife, Seat 1 (Wolf), went for Seat 9.",
        "4. Seat 3 (Seer) looked at Seat 1. Blocked: it had no effect.",
        "Seat 9 died.")
    assert [k for k, _w in night.legend] == ["block", "protect", "kill", "look", "died"]
    titles = []
    for _page in range(4):                             # the cards, then the night drawn
        view = table.view()
        titles.append((view.title, view.picture is not None))
        table.tap(Button.NEXT)
    assert ("Night 3 · 1/1", True) in titles
    assert all(table.g.phone_view(s, table.now).picture == picture for s in range(1, 10))


"""Names a cheating player types to pass for a seat or the Mayor (issue
41, last step), through the real server over a sealed socket, joining
seat 1 of seven: each is refused."""

from __future__ import annotations

import json

import pytest
from test_laptop_player import PIN, box, phone  # noqa: F401 (the fixture)

REFUSED = [
    "Seat #4", "Seat4", "Seat 4\ufe0f\u20e3", "Seat \u2463", "Seat \U0001d7d2", "S e a t 4",
    "Seat\u00ad4", "Seat-4", "Seat_4", "Seat\u30004", "\uff33\uff45\uff41\uff54\uff14",
    "S\u0435at 4", "Ann\u00b73", "Ann \u2022 3", "Ann . 3", "Ann \u22c5 3", "Ann \u30fb 3",
    "#4", "No. 4", "Nr. 4", "Player 4", "Platz 4", "Sitz 4", "\u5ea7\u4f4d4", "4\u53f7\u4f4d",
    "\u56db\u865f", "\u7b2c4\u4f4d", "\u8086", "\u4e03", "Seat 2+2", "Seat nine", "Seat ix",
    "Seat 4 (Ann)", "Ann (4)", "Ann #4",
    "May0r", "MAY0R", "May\u00f6r", "M a y o r", "Mayor\u200b", "\u1d0d\u1d00\u028f\u1d0f\u0280",
    "B\u00fcrgermeisterin", "Buergermeister", "\u5e02\u957f", "\u9547\u957f", "\u6751\u957f",
]


@pytest.mark.parametrize("name", REFUSED)
def test_a_name_that_reads_as_a_seat_or_the_mayor_is_refused(box, name):  # noqa: F811
    server, url, _posted = box
    with phone(url) as eve:
        eve.send('{"t": "hello"}')
        eve.send(json.dumps({"t": "join", "pin": PIN, "seat": 1, "name": name}))
        while (answer := json.loads(eve.recv(timeout=10)))["t"] not in ("joined", "refused"):
            pass
        assert answer["t"] == "refused", name
        assert answer["why"].startswith("That name "), answer
    assert server.room.held == {}

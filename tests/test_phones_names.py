"""A player with a laptop on the box's Wi-Fi names their phone so that the
table reads it as another seat's or the Mayor's (issue 41, item 7): look-
alike letters from other scripts, the Chinese ways of writing a seat, Roman
numerals and number words, the box's own "Ann · 3" label, or a second
"Ann" spelt with a Cyrillic A. Every join goes through the real server
over a sealed socket, as the page sends it; the box answers with one line
in its language, and the seat stays free."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sealed import connect
from test_phones import Changes, FakeClock, receive, socket_url

from wolfbox.i18n import use_language
from wolfbox.phones.room import Room
from wolfbox.phones.server import PhoneServer

WAIT = 10.0          # only a bound: every wait ends on a message from the server
PIN = "4821"
SEATS = 20
IS_A_SEAT = "That name is what the box calls a seat: choose your own."
IS_THE_MAYOR = "That name reads as the Mayor: choose your own."
TAKEN = "Someone at this table has that name, or one that looks the same: choose another."

# What a cheater types to pass for the Mayor, or for seat 4 (or any other).
MAYORS = [
    "M\u0430yor",                       # a Cyrillic a
    "\u039cayor",                       # a Greek capital Mu
    "\u039c\u0391\u03a5\u039fR",        # every letter Greek but the R
    "鎮長", "The Mayor", "Mayor 1", "Mr. Mayor", "Der Bürgermeister", "BÜRGERMEISTER",
    "我是镇长", "M a y o r", "Mayor1", "MAY0R", "Der Buergermeister", "rnayor",
]
ATTACKS = [
    *MAYORS,
    "\u0405eat 4",                      # a Cyrillic S (DZE)
    "四号", "玩家四", "第四位", "4號", "第4号", "四號玩家",
    "Seat IV", "Seat Ⅳ", "Seat ⅳ", "Seat four", "Seat Twenty-One", "Spieler vier",
    "Spieler Nr. 4", "Platz zwölf", "Platz zwoelf", "Player No. 4",
    "Ann · 3", "Ann • 3", "Ann・3", "Ann - 3", "Ann · III", "Ann · 3号", "Ann (3)",
    "ＳＥＡＴ\u3000４",                  # fullwidth, with an ideographic space
    "𝐒𝐞𝐚𝐭 𝟒",                          # mathematical bold
    "S\u200beat 4",                     # a zero-width space inside
    "S e a t 4", "Seat\u00a04", "Seat ٤", "４", "十二", "第四", "肆号",
]

# Ordinary names in the box's languages, and words that only look near a
# seat's: each takes a seat.
ORDINARY = ["Anna", "Jürgen", "李娜", "Zoë", "Mayo", "Seattle", "Platzhirsch", "Mayorga",
            "Anna 2000", "Jean-Luc", "约翰·史密斯", "李四", "张三", "Vi", "Xi", "Elf",
            "Oberst Vier-Augen", "Ørjan"]


@pytest.fixture
def served() -> Iterator[tuple[PhoneServer, str]]:
    server = PhoneServer(Room(seats=SEATS, pin=PIN), lambda e: None, Changes(),
                         ["127.0.0.1"], 0, FakeClock())
    (url,) = server.start()
    server.publish({}, {"title": "One Night", "words": {"pin": "PIN"}})
    yield server, url
    server.close()
    use_language("en")


def answers(url: str, names: list[str], seat: int = 1) -> list[tuple[str, str]]:
    """What the box answers a phone that asks for `seat` under each name in
    turn, each from a socket of its own (a page reloaded for each try):
    ("refused", why) or ("joined", "")."""
    got = []
    for name in names:
        with connect(socket_url(url), open_timeout=WAIT) as phone:
            phone.send('{"t": "hello"}')
            receive(phone, "lobby")
            phone.send(json.dumps({"t": "join", "pin": PIN, "seat": seat, "name": name},
                                  ensure_ascii=False))
            while True:
                message = json.loads(phone.recv(timeout=WAIT))
                if message["t"] in ("refused", "joined"):
                    break
            got.append((message["t"], message.get("why", "")))
    return got


def test_a_name_that_reads_as_a_seat_or_the_mayor_is_refused_however_it_is_spelt(served):
    server, url = served
    got = []
    for name in ATTACKS:
        got += answers(url, [name])
        server.room.free(1)             # a name that got through leaves the seat to the next
    passed = [name for name, (kind, _why) in zip(ATTACKS, got, strict=True) if kind != "refused"]
    assert passed == []
    said = {name: why for name, (_kind, why) in zip(ATTACKS, got, strict=True)}
    assert {name for name, why in said.items() if why == IS_THE_MAYOR} == set(MAYORS)
    assert {name for name, why in said.items() if why == IS_A_SEAT} == set(ATTACKS) - set(MAYORS)
    assert server.room.names() == {}


def test_ordinary_names_in_every_language_still_take_a_seat(served):
    server, url = served
    for seat, name in enumerate(ORDINARY, start=1):
        assert answers(url, [name], seat) == [("joined", "")], name
    assert list(server.room.names().values()) == ORDINARY


def test_a_seat_may_use_its_own_words(served):
    server, url = served
    assert answers(url, ["Seat IV"], 4) == [("joined", "")]
    assert answers(url, ["Spieler zwölf"], 12) == [("joined", "")]
    assert answers(url, ["十一号"], 11) == [("joined", "")]


def test_a_second_name_that_looks_like_one_taken_is_refused(served):
    server, url = served
    assert answers(url, ["Ann"], 1) == [("joined", "")]
    for seat, twin in enumerate(["\u0410nn", "ANN", "A n n", "Аnn", "Ann\u200b"], start=2):
        assert answers(url, [twin], seat) == [("refused", TAKEN)], twin
    assert answers(url, ["Zoë"], 2) == [("joined", "")]
    assert answers(url, ["Zoe"], 3) == [("refused", TAKEN)]
    assert answers(url, ["李娜"], 4) == [("joined", "")]
    assert answers(url, ["李娜"], 5) == [("refused", TAKEN)]
    assert server.room.names() == {1: "Ann", 2: "Zoë", 4: "李娜"}


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_refusal_is_one_line_in_the_box_s_language(served, lang):
    _server, url = served
    use_language(lang)
    (kind, why), = answers(url, ["\u0405eat 4"])
    assert kind == "refused" and why != IS_A_SEAT and "\n" not in why and why
    assert answers(url, ["Anna"], 2) == [("joined", "")]
    (kind, twin), = answers(url, ["\u0410nna"], 3)
    assert kind == "refused" and twin not in (why, TAKEN) and "\n" not in twin and twin


def test_a_name_taken_while_the_box_is_asked_for_a_guarded_seat_stops_the_look_alike(served):
    """The Mayor's phone asks for the console as "Mia"; before the Mayor
    accepts it on the box, another phone takes seat 3 as "Мia" (a Cyrillic
    M). Accepting then would seat two look-alikes: the asking phone is told
    why instead, and the console stays free."""
    server, url = served
    changes = server.changed                    # the Changes the fixture gave it
    server.guard(frozenset({8}))
    with connect(socket_url(url), open_timeout=WAIT) as mayor:
        mayor.send('{"t": "hello"}')
        receive(mayor, "lobby")
        mayor.send(json.dumps({"t": "join", "pin": PIN, "seat": 8, "name": "Mia"}))
        receive(mayor, "asking")
        changes.wait_for(1)
        with changes.changed:
            assert changes.changed.wait_for(lambda: changes[-1].asking, WAIT)
        ((_seat, _name, code),) = changes[-1].asking
        assert answers(url, ["\u041cia"], 3) == [("joined", "")]
        server.answer(8, code, True)
        assert receive(mayor, "refused")["why"] == TAKEN
    assert server.room.names() == {3: "\u041cia"}

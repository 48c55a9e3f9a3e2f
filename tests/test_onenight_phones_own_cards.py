"""One Night with the table's own cards and a phone at every seat (issue
22 item 4), on the fake clock: the box deals nothing, the night is told as
without phones, the phones vote, then each player enters the card turned
up in front of them on their own phone (and a Doppelganger's copy, a
Paranormal Investigator's change, an artifact, only where needed), and
the box settles the game as the referee does."""

from __future__ import annotations

from test_onenight_phones import start_screen

from wolfbox import menu
from wolfbox.buttons import Button, Tap
from wolfbox.effects import Say
from wolfbox.events import PhoneChoice, PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.owncards import ROLE_IDS, TOKEN_IDS
from wolfbox.settings_screen import SettingsScreen
from wolfbox.view import Phase

START, VOTE, BACK = Tap(Button.START), Tap(Button.VOTE), Tap(Button.BACK)
DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "drunk"]


class OwnTable:
    def __init__(self, deck: list[str], own: bool = True, phones: int | None = None) -> None:
        screen = SettingsScreen(menu.with_value(SettingsScreen().config, "game.cards_on_phones",
                                                not own))
        self.f = Flow(RoundSettings.for_deck(deck), screen=screen)
        self.n = len(deck) - 3 - ("alpha_wolf" in deck)
        self.now = 0.0
        self.said: list[tuple[float, str]] = []
        held = range(1, self.n + 1) if phones is None else range(1, phones + 1)
        self.f.handle(PhonesSeated(frozenset(held)), self.now)

    def press(self, event) -> None:
        effects = self.f.handle(event, self.now)
        self.said += [(self.now, e.text) for e in effects if isinstance(e, Say)]

    def until(self, done) -> None:
        while not done():
            nxt = self.f.next_change(self.now)
            assert nxt is not None, f"stuck in {self.f.phase}"
            self.now = nxt
            effects = self.f.tick(self.now)
            self.said += [(self.now, e.text) for e in effects if isinstance(e, Say)]
            self.f.check(self.now)

    def view(self, seat: int):
        return self.f.phone_view(seat, self.now)

    def choose(self, seat: int, option: int) -> None:
        task = self.view(seat).task
        assert task is not None, seat
        self.press(PhoneChoice(seat, task.step, (option,)))

    def vote(self, votes: dict[int, int]) -> None:
        self.until(lambda: self.f.phase is Phase.DISCUSSION)
        self.press(VOTE)
        for seat, target in votes.items():
            self.choose(seat, target)
        self.until(lambda: self.f.phase is not Phase.VOTE)


def card(role: str) -> int:
    return ROLE_IDS.index(role) + 1


def test_own_cards_deal_nothing_and_tell_the_night_as_without_phones():
    own = OwnTable(DECK)
    assert own.f.table is None
    screen = start_screen(own.f)
    assert any(line.startswith("Own cards: play the night with the real cards") for line in
               screen)
    plain = OwnTable(DECK, phones=0)
    for t in (own, plain):
        t.press(START)
        t.until(lambda t=t: t.f.phase is Phase.DISCUSSION)
    assert own.said == plain.said                         # "touch your own card" and all
    assert all(own.view(s).task is None and own.view(s).secret == () for s in range(1, 6))


def test_the_phones_vote_then_each_enters_its_card_and_the_box_settles_it():
    t = OwnTable(DECK)
    t.press(START)
    t.vote({1: 3, 2: 3, 3: 1, 4: 3})                      # seat 5 does not vote
    assert t.f.phase is Phase.REFEREE
    assert t.f.view(t.now).big == "0/5"
    task = t.view(2).task
    assert task.prompt == "Turn up your card: which is it?"
    assert [w for _o, w in task.options] == ["Werewolf", "Seer", "Robber", "Troublemaker",
                                             "Villager", "Drunk"]
    for seat, role in ((1, "villager"), (2, "seer"), (3, "werewolf"), (4, "robber")):
        t.choose(seat, card(role))
    assert t.view(3).lines[-1] == "Your card: Werewolf" and t.view(3).task is None
    assert t.f.view(t.now).details[-1] == "Waiting for: 5" and t.f.phase is Phase.REFEREE
    t.choose(5, card("werewolf"))
    assert t.f.phase is Phase.VERDICT and t.f.verdict is not None
    assert t.f.verdict.dead == (3,) and t.f.verdict.teams == ("village",)
    assert t.view(1).lines[:2] == ("Seat 3 dies.", "The village wins.")
    assert t.f.busy()
    t.press(START)
    assert t.f.phase is Phase.IDLE and t.f.own is None


def test_answers_the_deck_cannot_hold_are_entered_again():
    t = OwnTable(DECK)
    t.press(START)
    t.vote({1: 2, 2: 1, 3: 1, 4: 1, 5: 1})
    for seat, role in ((1, "seer"), (2, "seer"), (3, "villager"), (4, "robber"),
                       (5, "drunk")):
        t.choose(seat, card(role))
    assert t.f.phase is Phase.REFEREE                     # one Seer, two seats
    assert "Seat 1 and Seat 2 entered the Seer, but the deck has only 1: enter again." \
        in t.f.view(t.now).details
    assert t.view(1).task is not None and t.view(3).task is None
    t.choose(1, card("werewolf"))
    t.choose(2, card("seer"))
    assert t.f.phase is Phase.VERDICT and t.f.verdict.dead == (1,)


def test_the_doppelganger_investigator_and_artifacts_are_asked_where_needed():
    deck = ["doppelganger", "paranormal_investigator", "werewolf", "curator", "villager",
            "seer", "tanner"]
    t = OwnTable(deck)
    t.press(START)
    t.vote({1: 2, 2: 1, 3: 2, 4: 2})
    t.choose(1, card("doppelganger"))
    assert t.view(1).task.prompt == "Which card did the Doppelganger copy?"
    t.choose(1, card("paranormal_investigator"))
    assert t.view(1).task.prompt == "What did the Paranormal Investigator become?"
    assert [w for _o, w in t.view(1).task.options] == ["Nothing", "Werewolf", "Tanner"]
    t.choose(1, card("werewolf"))
    assert t.view(1).task.prompt == "Is there an artifact token on your card?"
    t.choose(1, 0)
    t.choose(2, card("villager"))
    t.choose(2, TOKEN_IDS.index("cudgel") + 1)            # a Tanner, by the token
    for seat, role in ((3, "seer"), (4, "curator")):
        t.choose(seat, card(role))
        t.choose(seat, 0)
    assert t.f.phase is Phase.VERDICT
    game = t.f.own.game()
    assert game.players[0].became == "werewolf" and game.artifacts == {2: "cudgel"}
    assert t.f.verdict.dead == (2,) and "tanner" in t.f.verdict.teams


def test_a_phone_short_at_the_end_the_cards_go_on_the_box_as_before():
    t = OwnTable(DECK)
    t.press(START)
    t.vote({1: 2})
    t.press(BACK)                                         # "On the box"
    assert t.f.phase is Phase.REFEREE and t.f.own is None and t.f.entry is not None
    assert all(t.view(s).task is None for s in range(1, 6))


def test_answers_out_of_turn_change_nothing():
    t = OwnTable(DECK)
    t.press(START)
    t.until(lambda: t.f.phase is Phase.DISCUSSION)
    t.press(PhoneChoice(1, "1.vote", (2,)))               # no vote yet
    t.press(PhoneChoice(1, "1.cards.card", (card("seer"),)))
    assert t.f.own.votes == {} and t.f.own.answers == {}
    t.vote({})
    t.press(PhoneChoice(1, "1.vote", (2,)))               # the vote is over
    t.press(PhoneChoice(1, "1.cards.card", (card("mason"),)))   # not in the deck
    t.press(PhoneChoice(1, "1.cards.as", (card("seer"),)))      # not its question
    assert t.f.own.votes == {} and t.f.own.answers == {}


def test_cards_on_phones_is_the_default_and_own_cards_a_setting_of_the_config():
    assert SettingsScreen().config.game.cards_on_phones is True
    t = OwnTable(DECK, own=False)
    assert t.f.table is not None and not t.f.own_cards()  # the box deals
    t.press(START)
    assert t.f.own is None and t.f.playing()

"""One Night with the table's own cards and a phone at every seat (issue
22): the night is played with the real cards, as without phones; the
phones take the vote, and then each player turns up their card and enters
it on their own phone (what a Doppelganger copied, what a Paranormal
Investigator became, an artifact token, only on the phones that need
them), so nobody types the whole game into the box seat by seat.

Pure, like the referee entry on the box (entry.py): the flow hands it each
phone's answer and reads each seat's task back; when every seat has
answered and the answers fit the deck, it gives the referee its game.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..i18n import _, ngettext
from ..phone import Task, seat_name
from .deck import players_for
from .referee import ARTIFACTS, NO_VOTE, PI_BECOMES, Game, Player, Verdict, judge
from .roles import ROLES, WEREWOLVES, role_name

CARD, AS, BECAME, ARTIFACT = "card", "as", "became", "artifact"
ROLE_IDS = tuple(ROLES)          # a role's option id: its place in the catalogue, from 1
TOKEN_IDS = tuple(ARTIFACTS)     # an artifact's option id: its place, from 1; 0: none
NONE = 0


def seat_word(seat: int) -> str:
    return _("Seat {seat}").format(seat=seat)


def vote_task(step: str, seats: range, seat: int, votes: dict[int, int]) -> Task:
    """Whom a seat points at: every other seat; its vote so far marked."""
    options = tuple((s, seat_word(s)) for s in seats if s != seat)
    chosen = (votes[seat],) if seat in votes else ()
    return Task(step, _("Your vote: whom do you point at?"), options, chosen)


def take_vote(task: Task | None, votes: dict[int, int], seat: int, step: str,
              choice: tuple[int, ...]) -> bool:
    """A seat's vote, if it answers its vote task; a later one replaces it."""
    if task is None or step != task.step or len(choice) != 1 \
            or choice[0] not in {o for o, _words in task.options}:
        return False
    votes[seat] = choice[0]
    return True


@dataclass
class OwnCards:
    """The vote and the cards turned up, as the phones give them."""
    deck: tuple[str, ...]
    round: int = 0                          # names this game's tasks
    votes: dict[int, int] = field(default_factory=dict)
    voting: bool = False
    entering: bool = False                  # the cards are being entered on the phones
    answers: dict[tuple[int, str], int] = field(default_factory=dict)
    problem: str = ""                       # why answers were cleared, for the box to show
    names: dict[int, str] = field(default_factory=dict)    # the players' names, by seat

    @property
    def seats(self) -> range:
        return range(1, players_for(self.deck) + 1)

    # ------------------------------------------------------------- the vote
    def vote_task(self, seat: int) -> Task | None:
        if not self.voting or seat not in self.seats:
            return None
        return vote_task(f"{self.round}.vote", self.seats, seat, self.votes)

    def vote(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        return take_vote(self.vote_task(seat), self.votes, seat, step, choice)

    # ------------------------------------------------------------ the cards
    def _roles(self, kind: str, seat: int) -> tuple[str, ...]:
        """The answers a question allows, as role or artifact ids ("" none)."""
        if kind == CARD:
            return tuple(dict.fromkeys(self.deck))
        if kind == AS:
            return tuple(r for r in dict.fromkeys(self.deck) if r != "doppelganger")
        if kind == BECAME:
            # What the Paranormal Investigator may become: what the deck has to see (000).
            return ("", *(r for r in PI_BECOMES if r in self.deck
                          or (r == "werewolf" and WEREWOLVES & set(self.deck))))
        return ("", *TOKEN_IDS)

    def questions(self, seat: int) -> list[str]:
        """What `seat` is asked, as its answers so far lead."""
        out = [CARD]
        card = self._answer(seat, CARD)
        if card == "doppelganger":
            out.append(AS)
        if card == "paranormal_investigator" or self._answer(seat, AS) \
                == "paranormal_investigator":
            out.append(BECAME)
        if "curator" in self.deck:
            out.append(ARTIFACT)
        return out

    def _answer(self, seat: int, kind: str) -> str | None:
        if (seat, kind) not in self.answers:
            return None
        return self._value(kind, self.answers[(seat, kind)])

    @staticmethod
    def _value(kind: str, option: int) -> str:
        if kind in (CARD, AS):
            return ROLE_IDS[option - 1]
        if kind == BECAME:
            return "" if option == NONE else ROLE_IDS[option - 1]
        return "" if option == NONE else TOKEN_IDS[option - 1]

    def _id(self, kind: str, value: str) -> int:
        if not value:
            return NONE
        return (TOKEN_IDS.index(value) if kind == ARTIFACT else ROLE_IDS.index(value)) + 1

    def asking(self, seat: int) -> str | None:
        """The question `seat` has yet to answer, if any."""
        return next((k for k in self.questions(seat) if (seat, k) not in self.answers), None)

    def done(self, seat: int) -> bool:
        return self.asking(seat) is None

    def task(self, seat: int) -> Task | None:
        kind = self.asking(seat) if self.entering and seat in self.seats else None
        if kind is None:
            return None
        options = tuple((self._id(kind, v), self._shown(kind, v)) for v in self._roles(kind, seat))
        prompt = {CARD: _("Turn up your card: which is it?"),
                  AS: _("Which card did the Doppelganger copy?"),
                  BECAME: _("What did the Paranormal Investigator become?"),
                  ARTIFACT: _("Is there an artifact token on your card?")}[kind]
        return Task(f"{self.round}.cards.{kind}", prompt, options)

    @staticmethod
    def _shown(kind: str, value: str) -> str:
        if kind == ARTIFACT:
            return _(ARTIFACTS[value]) if value else _("None")
        return role_name(value) if value else _("Nothing")

    def enter(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        """A seat's answer to the question it is asked; once every seat has
        answered, answers that do not fit the deck are cleared (see check)."""
        task = self.task(seat)
        if task is None or step != task.step or len(choice) != 1 \
                or choice[0] not in {o for o, _words in task.options}:
            return False
        kind = step.rsplit(".", 1)[1]
        self.answers[(seat, kind)] = choice[0]
        if kind == CARD:
            self.problem = ""
        if self.complete():
            self._check()
        return True

    def entered(self, seat: int) -> tuple[str, ...]:
        """What `seat` has entered, for its own phone."""
        out = []
        for kind in self.questions(seat):
            value = self._answer(seat, kind)
            if value is None:
                continue
            words = self._shown(kind, value)
            out.append({CARD: _("Your card: {what}"),
                        AS: _("The Doppelganger copied: {what}"),
                        BECAME: _("The Paranormal Investigator became: {what}"),
                        ARTIFACT: _("Artifact: {what}")}[kind].format(what=words))
        return tuple(out)

    def complete(self) -> bool:
        return all(self.done(s) for s in self.seats)

    def waiting(self) -> list[int]:
        return [s for s in self.seats if not self.done(s)]

    def _check(self) -> None:
        """The table has only the deck's cards and one token of each (000):
        seats whose answers cannot all be true enter again."""
        cards: dict[str, list[int]] = {}
        for s in self.seats:
            cards.setdefault(str(self._answer(s, CARD)), []).append(s)
        tokens: dict[str, list[int]] = {}
        for s in self.seats:
            token = self._answer(s, ARTIFACT)
            if token:
                tokens.setdefault(token, []).append(s)
        counts = Counter(self.deck)
        for card, seats in cards.items():
            if len(seats) > counts[card]:
                self._again(seats, ngettext(
                    "{seats} entered the {role}, but the deck has only {count}: enter again.",
                    "{seats} entered the {role}, but the deck has only {count}: enter again.",
                    counts[card]).format(seats=_seats(seats, self.names), role=role_name(card),
                                         count=counts[card]))
                return
        for token, seats in tokens.items():
            if len(seats) > 1:
                self._again(seats, _("{seats} entered the {artifact}; there is one of each "
                                     "token: enter again.").format(
                    seats=_seats(seats, self.names), artifact=_(ARTIFACTS[token])))
                return

    def _again(self, seats: list[int], why: str) -> None:
        for s in seats:
            for kind in (CARD, AS, BECAME, ARTIFACT):
                self.answers.pop((s, kind), None)
        self.problem = why

    # ---------------------------------------------------------- the verdict
    def game(self) -> Game:
        players, artifacts = [], {}
        for s in self.seats:
            became = self._answer(s, BECAME) or self._answer(s, AS) or None
            players.append(Player(str(self._answer(s, CARD)), self.votes.get(s, NO_VOTE),
                                  became))
            token = self._answer(s, ARTIFACT)
            if token:
                artifacts[s] = token
        return Game(tuple(players), artifacts)

    def verdict(self) -> Verdict:
        """Who died and who won, each seat called by its player's name."""
        return judge(dataclasses.replace(self.game(), names=dict(self.names)))


def _seats(seats: list[int], called: Mapping[int, str]) -> str:
    names = [seat_name(s, called) for s in seats]
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=_(", ").join(names[:-1]), last=names[-1])

"""Entering a finished One Night game on the box, for the referee.

The table answers one question at a time with the buttons: for each seat,
the card turned up in front of that player and whom they pointed at; what
a Doppelganger copied or a Paranormal Investigator became, only for those
cards; artifacts only when the Curator is in the deck. Every answer has a
default chosen to need the fewest presses (the deck's commonest card, the
next seat clockwise), so a table confirms most answers with one press.

Pure: the flow drives it with taps and reads questions back; nothing here
knows about buttons, screens or time.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..i18n import _
from ..phone import seat_name
from .referee import ARTIFACTS, PI_BECOMES, Game, Player, Verdict, judge
from .roles import WEREWOLVES, role_name

CARD, AS, BECAME, VOTE = "card", "as", "became", "vote"
ARTIFACT_SEAT, ARTIFACT = "artifact_seat", "artifact"
NONE = 0                         # "no seat": no (more) artifacts
MAX_ARTIFACTS = 2                # the Curator's, and a Doppelganger-Curator's


@dataclass(frozen=True)
class Question:
    kind: str
    seat: int                    # the seat asked about (0 for artifact questions)
    options: tuple[object, ...]  # role ids, seat numbers, artifact ids
    default: object


@dataclass
class Entry:
    """The answers so far and the question being asked."""
    deck: tuple[str, ...]
    players: int
    answers: dict[tuple[str, int], object] = field(default_factory=dict)
    index: int = 0               # which question of questions() is being asked
    choice: object = None        # the option shown for it

    def __post_init__(self) -> None:
        self.choice = self.current().default

    # ------------------------------------------------------------ questions
    def questions(self) -> list[Question]:
        """Every question the answers so far lead to, in order."""
        out: list[Question] = []
        left = Counter(self.deck)             # the cards not yet turned up at a seat
        last_vote: object = None
        for seat in range(1, self.players + 1):
            # Only cards still unaccounted for; the commonest of them first offered.
            cards = tuple(c for c in dict.fromkeys(self.deck) if left[c] > 0)
            commonest = max(cards, key=lambda c: left[c])
            card = self.answers.get((CARD, seat), commonest)
            if card not in cards:             # an earlier answer changed: keep it valid
                card = commonest
            out.append(Question(CARD, seat, cards, card))
            left[str(card)] -= 1
            # What the Paranormal Investigator may become: a werewolf or the Tanner,
            # if the deck has one to see (000).
            outcomes = ("", *(r for r in PI_BECOMES if r in self.deck
                              or (r == "werewolf" and WEREWOLVES & set(self.deck))))
            if card == "doppelganger":
                copied = tuple(c for c in dict.fromkeys(self.deck) if c != "doppelganger")
                out.append(Question(AS, seat, copied, copied[0]))
                # 000: a Doppelganger-P.I. who sees a werewolf (or the Tanner) becomes it.
                if self.answers.get((AS, seat), copied[0]) == "paranormal_investigator":
                    out.append(Question(BECAME, seat, outcomes, ""))
            elif card == "paranormal_investigator":
                out.append(Question(BECAME, seat, outcomes, ""))
            others = tuple(s for s in range(1, self.players + 1) if s != seat)
            # A table's votes gather: the seat the player before pointed at, else
            # the next seat clockwise.
            default = last_vote if last_vote in others else seat % self.players + 1
            out.append(Question(VOTE, seat, others, default))
            last_vote = self.answers.get((VOTE, seat), default)
        if "curator" in self.deck:
            # The Curator's token, and a Doppelganger-Curator's if she is in the deck;
            # one token a card, one of each token (000, 001).
            most = MAX_ARTIFACTS if "doppelganger" in self.deck else 1
            taken_seats: list[object] = []
            taken_tokens: list[object] = []
            for n in range(1, most + 1):
                seats = (NONE, *(s for s in range(1, self.players + 1) if s not in taken_seats))
                where = self.answers.get((ARTIFACT_SEAT, n), NONE)
                out.append(Question(ARTIFACT_SEAT, n, seats, NONE))
                if where == NONE or where not in seats:
                    break
                tokens = tuple(a for a in ARTIFACTS if a not in taken_tokens)
                token = self.answers.get((ARTIFACT, n), tokens[0])
                out.append(Question(ARTIFACT, n, tokens, tokens[0]))
                taken_seats.append(where)
                taken_tokens.append(token)
        return out

    def current(self) -> Question:
        return self.questions()[self.index]

    @property
    def done(self) -> bool:
        return self.index >= len(self.questions())

    # ------------------------------------------------------------- answers
    def turn(self, step: int) -> None:
        """Show the next (+1) or previous (-1) option."""
        q = self.current()
        i = q.options.index(self.choice) if self.choice in q.options else 0
        self.choice = q.options[(i + step) % len(q.options)]

    def confirm(self) -> bool:
        """Take the option shown; True when that was the last question."""
        q = self.current()
        self.answers[(q.kind, q.seat)] = self.choice
        self.index += 1
        if self.done:
            return True
        nxt = self.current()
        self.choice = self.answers.get((nxt.kind, nxt.seat), nxt.default)
        return False

    def back(self) -> bool:
        """Back to the question before, its answer shown; False at the first."""
        if self.index == 0:
            return False
        self.index -= 1
        q = self.current()
        self.choice = self.answers.get((q.kind, q.seat), q.default)
        return True

    # ------------------------------------------------------------ the game
    def game(self) -> Game:
        questions = self.questions()
        # A card's question carries its answer already checked against the cards left.
        answers = {(q.kind, q.seat): q.default if q.kind == CARD
                   else self.answers.get((q.kind, q.seat), q.default) for q in questions}
        players = []
        for seat in range(1, self.players + 1):
            # What a seat plays as: a Doppelganger-P.I.'s outcome, else her copy, else
            # an investigator's outcome. The change goes with the card: whoever holds
            # it at dawn is what it became (as 001 says of the Doppelganger's card).
            became = answers.get((BECAME, seat)) or answers.get((AS, seat)) or None
            players.append(Player(str(answers[(CARD, seat)]), _seat(answers[(VOTE, seat)]),
                                  str(became) if became else None))
        artifacts = {}
        for n in range(1, MAX_ARTIFACTS + 1):
            where = _seat(answers.get((ARTIFACT_SEAT, n), NONE))
            if where != NONE:
                artifacts[where] = str(answers[(ARTIFACT, n)])
        return Game(tuple(players), artifacts)

    def verdict(self, names: Mapping[int, str] | None = None) -> Verdict:
        """Who died and who won, a seat with a phone called by its player's name."""
        return judge(dataclasses.replace(self.game(), names=names or {}))

    # ------------------------------------------------------------ the words
    def ask(self) -> str:
        """The question being asked, as the screen shows it."""
        q = self.current()
        if q.kind == CARD:
            return _("Seat {seat}: which card lies in front of this player?").format(seat=q.seat)
        if q.kind == AS and self.answers.get((CARD, q.seat)) == "doppelganger":
            return _("Seat {seat}: which card did the Doppelganger copy?").format(seat=q.seat)
        if q.kind == BECAME:
            return _("Seat {seat}: what did the Paranormal Investigator become?").format(
                seat=q.seat)
        if q.kind == VOTE:
            return _("Seat {seat}: whom did this player point at?").format(seat=q.seat)
        if q.kind == ARTIFACT_SEAT:
            return _("Which seat has an artifact token?") if q.seat == 1 else \
                _("Another artifact token, from a Doppelganger-Curator?")
        return _("Which artifact is it?")

    def shown(self, option: object | None = None) -> str:
        """An option as the screen shows it."""
        q = self.current()
        value = self.choice if option is None else option
        if q.kind in (CARD, AS, BECAME):
            return role_name(str(value)) if value else _("Nothing")
        if q.kind == VOTE:
            return _("Seat {seat}").format(seat=value)
        if q.kind == ARTIFACT_SEAT:
            return _("None") if value == NONE else _("Seat {seat}").format(seat=value)
        return _(ARTIFACTS[str(value)])


def _seat(value: object) -> int:
    assert isinstance(value, int), value
    return value


def spoken_verdict(verdict: Verdict) -> list[str]:
    """What the box says: each death in order, then who won. Short fixed
    lines (one per seat number), so every one can be rendered ahead: a
    seat is said by its number, never its player's name (no voice cache
    holds a name typed tonight); the screens and phones show the name."""
    out = [seat_dies(s) for s in verdict.dead] or [_("Nobody dies.")]
    won = {"village": _("The village wins."), "werewolf": _("The werewolves win."),
           "tanner": _("The Tanner wins.")}
    out += [won[t] for t in verdict.teams] or [_("Nobody wins.")]
    return out


def written_verdict(verdict: Verdict, names: Mapping[int, str]) -> list[str]:
    """The spoken verdict as the phones write it, each seat that dies
    called by its player's name ("Ann · 3 dies.")."""
    spoken = spoken_verdict(verdict)
    dead = [_("{seat} dies.").format(seat=seat_name(s, names)) for s in verdict.dead]
    return dead + spoken[len(verdict.dead):] if dead else spoken


def seat_dies(seat: int) -> str:
    return _("Seat {seat} dies.").format(seat=seat)


def verdict_lines(max_seats: int) -> list[str]:
    """Every line spoken_verdict can say, for tables up to `max_seats`."""
    return [*(seat_dies(s) for s in range(1, max_seats + 1)), _("Nobody dies."),
            _("The village wins."), _("The werewolves win."), _("The Tanner wins."),
            _("Nobody wins.")]

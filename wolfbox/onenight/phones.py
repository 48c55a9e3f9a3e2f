"""One Night with a phone at every seat (issue 22): the box deals the
cards, each seat acts on its own phone when its role is called, the box
keeps the deal as the night moves it, the phones vote, and the referee
settles the game from the cards at dawn.

Pure: a `PhoneNight` is the deal and what the night did to it; the flow
(flow.py) tells it which call is open and hands it each seat's answer,
and screen.py reads each seat's task and secret from it. No clock here:
a call opens and closes when the flow's narration says so, so the night
keeps today's timing whatever is tapped.

One shape for everyone (PHONES.md rule 3): at every call every seat gets
the same task (the same prompt, the same kind of options with its own
seat left out, the same pick); only the words behind the cover differ.
Within a call only the called role moves cards, so an answer is applied
the moment it arrives, in the night's order, and the seat sees its result
at once; each seat's first answer to a task is final (a Seer looks once).
The Doppelganger's call asks every seat three times (copy, then up to two
picks for a copy that acts at once), so her copy's action has the same
shape as everybody's taps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..i18n import _
from ..phone import Task
from .deck import CENTER_CARDS, players_for
from .referee import NO_VOTE, Game, Player, Verdict, judge
from .roles import role_name

# The roles the phones play whole: the base game's, and the cards with no
# night action (the referee settles those at the vote). A deck with any
# other card plays on the box's buttons as before.
PHONE_ROLES = frozenset({
    "doppelganger", "werewolf", "minion", "mason", "seer", "robber", "troublemaker",
    "drunk", "insomniac", "villager", "hunter", "tanner", "bodyguard", "prince", "cursed",
})

CENTER = 100                     # option id of center card k: CENTER + k (101..103)
PAIR = 200                       # two center cards a and b: PAIR + 10a + b (212, 213, 223)
PAIRS = ((1, 2), (1, 3), (2, 3))
SEATS, CENTERS, CENTER_PAIRS = "seats", "centers", "pairs"

# Each call the phones answer: per stage, the kinds of options and the pick.
# The Doppelganger's call has three stages for every seat alike.
_ANY = ((SEATS, CENTERS), 1)
SHAPES: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {
    "doppelganger": (((SEATS,), 1), _ANY, _ANY),
    "doppelganger_minion": (((SEATS,), 1),),
    "werewolves": (((CENTERS,), 1),),
    "minion": (((SEATS,), 1),),
    "masons": (((SEATS,), 1),),
    "seer": (((SEATS, CENTER_PAIRS), 1),),
    "robber": (((SEATS,), 1),),
    "troublemaker": (((SEATS,), 2),),
    "drunk": (((CENTERS,), 1),),
    "insomniac": (((SEATS,), 1),),
    "doppelganger_insomniac": (((SEATS,), 1),),
}
# The copies that act during the Doppelganger's own call (000, rules facts).
ACTS_AT_ONCE = ("seer", "robber", "troublemaker", "drunk")


def playable(deck: Sequence[str]) -> bool:
    """Every card of `deck` is played whole on the phones."""
    return all(r in PHONE_ROLES for r in deck)


def not_on_phones(deck: Sequence[str]) -> list[str]:
    """The deck's roles whose action is not on the phones yet, in deck order."""
    return list(dict.fromkeys(r for r in deck if r not in PHONE_ROLES))


def seat_word(seat: int) -> str:
    return _("Seat {seat}").format(seat=seat)


def center_word(n: int) -> str:
    return _("Center card {n}").format(n=n)


def seat_list(seats: Sequence[int]) -> str:
    """'Seat 2 and Seat 5', in the box's language."""
    names = [seat_word(s) for s in seats]
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=_(", ").join(names[:-1]), last=names[-1])


def _nothing() -> str:
    return _("Not your call: tap any choice; it changes nothing.")


@dataclass
class PhoneNight:
    """The deal the box made and what the night has done to it."""
    dealt: tuple[str, ...]                 # seats 1..n, then the center cards 1..3
    lone_wolf: bool = True
    round: int = 0                         # names this game's tasks
    cards: list[str] = field(default_factory=list)   # the cards now, in the same places
    copied: str | None = None              # what the Doppelganger copied
    call: str = ""                         # the call being made
    open: bool = False                     # its task can be answered
    answers: dict[tuple[str, int], list[tuple[int, ...]]] = field(default_factory=dict)
    results: dict[int, list[str]] = field(default_factory=dict)   # this call's, per seat
    moves: list[str] = field(default_factory=list)                # the whole night's
    votes: dict[int, int] = field(default_factory=dict)
    voting: bool = False
    started: bool = False                  # the night has begun (not only dealt)

    def __post_init__(self) -> None:
        if not self.cards:
            self.cards = list(self.dealt)

    @classmethod
    def deal(cls, deck: Sequence[str], rng: random.Random, lone_wolf: bool = True,
             round: int = 0) -> PhoneNight:
        """The deck shuffled with the game's own random source."""
        cards = list(deck)
        rng.shuffle(cards)
        return cls(tuple(cards), lone_wolf, round)

    # ----------------------------------------------------------- the table
    @property
    def players(self) -> int:
        return players_for(self.dealt)

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    def card(self, seat: int) -> str:
        """The card a seat was dealt (what it acts as at night)."""
        return self.dealt[seat - 1]

    def center(self, n: int) -> str:
        return self.cards[self.players + n - 1]

    def _is(self, seat: int, role: str) -> bool:
        """The seat acts as `role`: dealt it, or the Doppelganger who copied it."""
        return self.card(seat) == role or (self.card(seat) == "doppelganger"
                                           and self.copied == role)

    def wolves(self) -> list[int]:
        return [s for s in self.seats if self._is(s, "werewolf")]

    def _doppelganger(self, seat: int) -> bool:
        return self.card(seat) == "doppelganger"

    def acts(self, call: str, seat: int) -> bool:
        """`seat` is the one (or one of those) called by `call`."""
        match call:
            case "doppelganger":
                return self._doppelganger(seat)
            case "doppelganger_minion" | "doppelganger_insomniac":
                return self._doppelganger(seat) and self.copied == call.split("_", 1)[1]
            case "werewolves":
                return seat in self.wolves()
            case "masons":
                return self._is(seat, "mason")
        return self.card(seat) == call

    def who(self, seat: int) -> str:
        """A seat and the role it acts as, for what happened."""
        if self._doppelganger(seat) and self.copied:
            role = _("Doppelganger as {role}").format(role=role_name(self.copied))
        else:
            role = role_name(self.card(seat))
        # TRANSLATORS: a player in what happened at night, e.g. "Seat 3 (Seer)".
        return _("Seat {seat} ({role})").format(seat=seat, role=role)

    # ------------------------------------------------------------ the calls
    def begin(self, call: str) -> None:
        """A new step of the night: its task opens if it has one; the last
        step's results are no longer shown."""
        self.call, self.open, self.results = call, call in SHAPES, {}

    def close(self) -> None:
        """The call's eyes close: its task can no longer be answered."""
        self.open = False

    def stage(self, seat: int) -> int:
        return len(self.answers.get((self.call, seat), []))

    def _step(self, stage: int) -> str:
        return f"{self.round}.{self.call}.{stage}"

    def task(self, seat: int) -> Task | None:
        """`seat`'s task at the open call, the same shape for every seat."""
        if not self.open or seat not in self.seats:
            return None
        shapes = SHAPES[self.call]
        done = self.stage(seat)
        stage = min(done, len(shapes) - 1)
        kinds, pick = shapes[stage]
        chosen = self.answers[(self.call, seat)][stage] if done > stage else ()
        prompt = _("Tonight: choose two") if pick == 2 else _("Tonight: choose")
        return Task(self._step(stage), prompt, self._options(kinds, seat), chosen, pick)

    def _options(self, kinds: Sequence[str], seat: int) -> tuple[tuple[int, str], ...]:
        out: list[tuple[int, str]] = []
        if SEATS in kinds:
            out += [(s, seat_word(s)) for s in self.seats if s != seat]
        if CENTERS in kinds:
            out += [(CENTER + n, center_word(n)) for n in range(1, CENTER_CARDS + 1)]
        if CENTER_PAIRS in kinds:
            out += [(PAIR + 10 * a + b, _("Center cards {a} and {b}").format(a=a, b=b))
                    for a, b in PAIRS]
        return tuple(out)

    def answer(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        """A seat's answer: taken if it answers the task it was given (an
        allowed option, as many as the pick, all different), else ignored.
        The acting seat's answer is applied at once."""
        task = self.task(seat)
        if task is None or task.chosen or step != task.step or len(choice) != task.pick \
                or len(set(choice)) != len(choice) \
                or not set(choice) <= {o for o, _words in task.options}:
            return False
        stage = self.stage(seat)
        self.answers.setdefault((self.call, seat), []).append(tuple(choice))
        if self.acts(self.call, seat):
            self._act(seat, stage, tuple(choice))
        return True

    # ------------------------------------------------------------- actions
    def _result(self, seat: int, text: str) -> None:
        self.results.setdefault(seat, []).append(text)

    def _look(self, seat: int, target: int) -> None:
        if target >= CENTER:
            n = target - CENTER
            self._result(seat, _("{card}: {role}.").format(card=center_word(n),
                                                          role=role_name(self.center(n))))
            self.moves.append(_("{who} looked at center card {n}: {role}.").format(
                who=self.who(seat), n=n, role=role_name(self.center(n))))
            return
        role = role_name(self.cards[target - 1])
        self._result(seat, _("{card}: {role}.").format(card=seat_word(target), role=role))
        self.moves.append(_("{who} looked at seat {seat}'s card: {role}.").format(
            who=self.who(seat), seat=target, role=role))

    def _swap(self, a: int, b: int) -> None:
        """Swap the cards at two places (seats 1..n; center cards CENTER+k)."""
        i, j = (p - 1 if p < CENTER else self.players + p - CENTER - 1 for p in (a, b))
        self.cards[i], self.cards[j] = self.cards[j], self.cards[i]

    def _rob(self, seat: int, target: int) -> None:
        self._swap(seat, target)
        role = role_name(self.cards[seat - 1])
        self._result(seat, _("You took {seat}'s card: you are now the {role}.").format(
            seat=seat_word(target), role=role))
        self.moves.append(_("{who} swapped cards with seat {seat} and took the {role}.").format(
            who=self.who(seat), seat=target, role=role))

    def _trouble(self, seat: int, a: int, b: int) -> None:
        self._swap(a, b)
        self._result(seat, _("You swapped the cards of {first} and {second}.").format(
            first=seat_word(a), second=seat_word(b)))
        self.moves.append(_("{who} swapped the cards of seat {first} and seat {second}.").format(
            who=self.who(seat), first=a, second=b))

    def _drink(self, seat: int, target: int) -> None:
        self._swap(seat, target)
        n = target - CENTER
        self._result(seat, _("You took {card}, without looking.").format(card=center_word(n)))
        self.moves.append(_("{who} swapped cards with center card {n} and took the "
                            "{role}.").format(who=self.who(seat), n=n,
                                              role=role_name(self.cards[seat - 1])))

    def _act(self, seat: int, stage: int, choice: tuple[int, ...]) -> None:
        first = choice[0]
        match self.call:
            case "doppelganger":
                self._as_doppelganger(seat, stage, first)
            case "werewolves" if self._lone() and self.lone_wolf:
                self._look(seat, first)
            case "seer":
                self._seer(seat, first)
            case "robber":
                self._rob(seat, first)
            case "troublemaker":
                self._trouble(seat, choice[0], choice[1])
            case "drunk":
                self._drink(seat, first)

    def _seer(self, seat: int, option: int) -> None:
        if option >= PAIR:
            a, b = divmod(option - PAIR, 10)
            self._look(seat, CENTER + a)
            self._look(seat, CENTER + b)
        else:
            self._look(seat, option)

    def _as_doppelganger(self, seat: int, stage: int, option: int) -> None:
        """Stage 0 copies a player's card; stages 1 and 2 are the copy's
        action where it acts at once (a player, or center cards)."""
        picks = [c[0] for c in self.answers[(self.call, seat)]]
        if stage == 0:
            self.copied = self.cards[option - 1]
            role = role_name(self.copied)
            self._result(seat, _("{seat}'s card is the {role}: you are now the {role}.").format(
                seat=seat_word(option), role=role))
            self.moves.append(_("{who} copied seat {seat}'s card: {role}.").format(
                who=_("Seat {seat} ({role})").format(seat=seat, role=role_name("doppelganger")),
                seat=option, role=role))
            return
        earlier = picks[1] if stage == 2 else None
        player = option < CENTER
        match self.copied:
            case "seer" if stage == 1 or (earlier is not None and earlier >= CENTER
                                          and not player and option != earlier):
                self._look(seat, option)
            case "robber" if stage == 1 and player:
                self._rob(seat, option)
            case "troublemaker" if stage == 2 and earlier is not None and earlier < CENTER \
                    and player and option != earlier:
                self._trouble(seat, earlier, option)
            case "drunk" if stage == 1 and not player:
                self._drink(seat, option)

    def _lone(self) -> bool:
        return len(self.wolves()) == 1

    # -------------------------------------------------------- what it reads
    def secret(self, seat: int) -> tuple[str, ...]:
        """What `seat` reads behind its cover at the call being made: what
        it is asked (its role's words, or everyone else's decoy), then what
        it learned. Its card, dealt, is on top at every step."""
        mine = (_("Your card: {role}").format(role=role_name(self.card(seat))),)
        if self.call not in SHAPES:
            return mine
        task = self.task(seat)
        if task is not None and task.chosen:
            asked = _("Answered. Keep your eyes closed until you are called.")
        elif self.open:
            asked = self._asked(seat) if self.acts(self.call, seat) else _nothing()
        else:
            asked = ""
        return mine + tuple(t for t in (asked, *self.results.get(seat, ())) if t)

    def _asked(self, seat: int) -> str:
        match self.call:
            case "doppelganger":
                return self._doppelganger_asked(seat)
            case "werewolves" if self._lone() and self.lone_wolf:
                return _("You are the only werewolf: choose a center card to look at.")
            case "werewolves" if self._lone():
                return _("You are the only werewolf. Tap any choice; it changes nothing.")
            case "werewolves":
                return _("The werewolves: {seats}. Tap any choice; it changes nothing.").format(
                    seats=seat_list(self.wolves()))
            case "minion" | "doppelganger_minion" if self.wolves():
                return _("You are the Minion. The werewolves: {seats}. Tap any choice; it "
                         "changes nothing.").format(seats=seat_list(self.wolves()))
            case "minion" | "doppelganger_minion":
                return _("You are the Minion. No player is a werewolf. Tap any choice; it "
                         "changes nothing.")
            case "masons":
                masons = [s for s in self.seats if self._is(s, "mason")]
                if len(masons) == 1:
                    return _("You are the only Mason among the players. Tap any choice; it "
                             "changes nothing.")
                return _("The Masons: {seats}. Tap any choice; it changes nothing.").format(
                    seats=seat_list(masons))
            case "seer":
                return _("You are the Seer: choose another player's card to look at, or two "
                         "center cards.")
            case "robber":
                return _("You are the Robber: choose the player whose card you take; you will "
                         "see it.")
            case "troublemaker":
                return _("You are the Troublemaker: choose two other players whose cards you "
                         "swap.")
            case "drunk":
                return _("You are the Drunk: choose the center card you take, without "
                         "looking.")
        # The Insomniac, and the Doppelganger who copied her.
        return _("Your card now: {role}. Tap any choice; it changes nothing.").format(
            role=role_name(self.cards[seat - 1]))

    def _doppelganger_asked(self, seat: int) -> str:
        stage = self.stage(seat)
        if stage == 0:
            return _("You are the Doppelganger: choose the player whose card you copy.")
        picks = [c[0] for c in self.answers[("doppelganger", seat)]]
        match self.copied:
            case "seer" if stage == 1:
                return _("As the Seer: choose another player's card to look at, or a center "
                         "card and then a second one.")
            case "seer" if picks[1] >= CENTER:
                return _("As the Seer: choose a second center card to look at.")
            case "robber" if stage == 1:
                return _("As the Robber: choose the player whose card you take; you will see "
                         "it.")
            case "troublemaker" if stage == 1:
                return _("As the Troublemaker: choose the first of two other players whose "
                         "cards you swap.")
            case "troublemaker" if picks[1] < CENTER:
                return _("As the Troublemaker: choose the second player.")
            case "drunk" if stage == 1:
                return _("As the Drunk: choose the center card you take, without looking.")
        return _nothing()

    # ------------------------------------------------------------- the vote
    def vote_step(self) -> str:
        return f"{self.round}.vote"

    def vote_task(self, seat: int) -> Task | None:
        if not self.voting or seat not in self.seats:
            return None
        options = tuple((s, seat_word(s)) for s in self.seats if s != seat)
        chosen = (self.votes[seat],) if seat in self.votes else ()
        return Task(self.vote_step(), _("Your vote: whom do you point at?"), options, chosen)

    def vote(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        """A seat's vote; a later one replaces it until the vote ends."""
        task = self.vote_task(seat)
        if task is None or step != task.step or len(choice) != 1 \
                or choice[0] not in {o for o, _words in task.options}:
            return False
        self.votes[seat] = choice[0]
        return True

    # ---------------------------------------------------------- the verdict
    def game(self) -> Game:
        """The table at dawn, for the referee. A Doppelganger who copied
        nothing plays as a Villager (the sources are silent: she has no
        role to take, and a missing answer is no action)."""
        players = []
        for seat in self.seats:
            card = self.cards[seat - 1]
            became = (self.copied or "villager") if card == "doppelganger" else None
            players.append(Player(card, self.votes.get(seat, NO_VOTE), became))
        return Game(tuple(players))

    def verdict(self) -> Verdict:
        return judge(self.game())

    def happened(self) -> list[str]:
        """Every move of the night, public once the game is over: the deal,
        each action in order, the cards at dawn, and the votes."""
        out = [_("Seat {seat} was dealt the {role}.").format(seat=s, role=role_name(self.card(s)))
               for s in self.seats]
        out += [_("Center card {n} was the {role}.").format(
            n=n, role=role_name(self.dealt[self.players + n - 1]))
            for n in range(1, CENTER_CARDS + 1)]
        if any(self.card(s) == "doppelganger" for s in self.seats) and self.copied is None:
            out.append(_("The Doppelganger copied no card: she plays as a Villager."))
        out += self.moves
        out += [_("At dawn seat {seat} has the {role}.").format(
            seat=s, role=role_name(self.cards[s - 1])) for s in self.seats]
        out += [_("At dawn center card {n} is the {role}.").format(n=n, role=role_name(
            self.center(n))) for n in range(1, CENTER_CARDS + 1)]
        out += [_("Seat {seat} voted for seat {target}.").format(seat=s, target=self.votes[s])
                if s in self.votes else _("Seat {seat} did not vote.").format(seat=s)
                for s in self.seats]
        return out

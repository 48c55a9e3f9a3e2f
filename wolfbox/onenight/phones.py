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
the same task (the same prompt, the same kind of options, the same pick);
only the words behind the cover differ. Within a call only the called
role moves cards, so an answer is applied the moment it arrives, in the
night's order, and the seat sees its result at once; each seat's first
answer to a task is final (a Seer looks once). An answer the rules forbid
the acting seat (a shielded card, the Alpha Wolf's werewolf), or an option
every seat is offered that its role cannot use (a Doppelganger-Drunk's
seat, the Village Idiot's ways to a copied Seer), is refused behind its
cover with a line why, and it may choose again; the other seats see
nothing. No offered tap is dropped in silence, and none is misread.
The Doppelganger's call asks every seat three times (copy, then up to two
picks for a copy that acts at once), so her copy's action has the same
shape as everybody's taps.

What the rules settle at the vote (a Doppelganger's copy, what the
Paranormal Investigator became, the artifacts) goes to the referee
(referee.py) with the cards at dawn; the night's own rules (shields, the
Revealer's flip, who became what) are here, with the referee's tables.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import ForbiddenAnswer
from ..i18n import N_, _
from ..phone import Task, seat_name
from ..tablemap import COPY, LOOK, REVEAL, SHIELD, SHIFT, SWAP, TAKE, TOKEN
from .deck import players_for
from .night import center_wolf_card
from .owncards import take_vote, vote_task
from .prompts import CENTER_CARD, PLAYER_CARD, PROMPTS
from .referee import ARTIFACTS, NO_VOTE, PI_BECOMES, Game, Player, Verdict, judge
from .roles import WEREWOLVES, role_name

CENTER = 100                     # option id of center card k: CENTER + k (101..103; 104 the
WOLF_CARD = CENTER + 4           # center werewolf card of an Alpha Wolf deck)
PAIR = 200                       # two center cards a and b: PAIR + 10a + b (212, 213, 223...)
UP, DOWN = 301, 302              # the Village Idiot's two ways
SEATS, ALL, CENTERS, CENTER_PAIRS, SIDES = "seats", "all", "centers", "pairs", "sides"

Shape = tuple[tuple[tuple[str, ...], int], ...]

# Each call the phones answer: per stage, the kinds of options and the pick.
# SEATS leaves each seat's own seat out; ALL keeps it (the Witch and the
# Curator may choose their own card), for every seat alike.
_SEAT = (((SEATS,), 1),)
SHAPES: dict[str, Shape] = {
    "sentinel": _SEAT,
    "doppelganger": (((SEATS,), 1),),            # and two more stages: doppelganger_shape()
    "doppelganger_minion": _SEAT,
    "werewolves": (((CENTERS,), 1),),
    "alpha_wolf": _SEAT,
    "mystic_wolf": _SEAT,
    "minion": _SEAT,
    "masons": _SEAT,
    "seer": (((SEATS, CENTER_PAIRS), 1),),
    "apprentice_seer": (((CENTERS,), 1),),
    "paranormal_investigator": (((SEATS,), 1), ((SEATS,), 1)),
    "robber": _SEAT,
    "witch": (((CENTERS,), 1), ((ALL,), 1)),
    "troublemaker": (((SEATS,), 2),),
    "village_idiot": (((SIDES,), 1),),
    "aura_seer": _SEAT,
    "doppelganger_aura_seer": _SEAT,
    "drunk": (((CENTERS,), 1),),
    "insomniac": _SEAT,
    "doppelganger_insomniac": _SEAT,
    "revealer": _SEAT,
    "doppelganger_revealer": _SEAT,
    "curator": (((ALL,), 1),),
    "doppelganger_curator": (((ALL,), 1),),
}
AWAKE_WOLVES = ("werewolf", "alpha_wolf", "mystic_wolf")   # the Dream Wolf sleeps (000)
# 000 "Revealer": a werewolf or the Tanner goes back face down.
HIDDEN_WHEN_REVEALED = WEREWOLVES | {"tanner"}

# What an artifact tells the player it lies on (000 "Artifacts"), in our words.
ARTIFACT_TEXT = {
    "claw": N_("You are now a Werewolf."),
    "brand": N_("You are now a Villager, with no special power."),
    "cudgel": N_("You are now a Tanner: you win only if you die."),
    "void": N_("It has no effect."),
    "mute": N_("You may not speak: gestures only, until the game is over."),
    "shroud": N_("Turn your chair, body and face away from the others: you may speak, but "
                 "not look at them."),
}


# Moves the night's picture draws no arrow for: a change of role, and a
# part of a call that moved nothing (a shielded Robber, a Witch out of time).
BECAME = "became"
NO_MOVE = "no_move"


@dataclass(frozen=True)
class Move:
    """One move of the night as the picture draws it: who made it, what
    kind (wolfbox.tablemap's, or BECAME), and the places it joins (seats
    1..n, center cards CENTER+k) in the order the cards went (a card
    taken: from the first to the actor; the Village Idiot's: each place's
    card to the next place listed)."""
    kind: str
    actor: int
    places: tuple[int, ...]


def doppelganger_shape(deck: Sequence[str]) -> Shape:
    """The Doppelganger's call: whom she copies, then two picks for a copy
    that acts at once. The picks offer what the deck's copies need (the
    deck is public, so the shape tells nobody anything)."""
    kinds = [ALL if "witch" in deck else SEATS, CENTERS]
    if "village_idiot" in deck:
        kinds.append(SIDES)
    return (((SEATS,), 1), (tuple(kinds), 1), (tuple(kinds), 1))


Names = Mapping[int, str]        # the names the players gave, by seat (PhonesSeated)


def seat_word(seat: int, names: Names | None = None) -> str:
    return seat_name(seat, names or "")


def center_word(n: int) -> str:
    if n == WOLF_CARD - CENTER:
        return _("The center werewolf card")
    return _("Center card {n}").format(n=n)


def place_word(place: int, names: Names | None = None) -> str:
    return seat_word(place, names) if place < CENTER else center_word(place - CENTER)


def place_phrase(place: int, names: Names | None = None) -> str:
    """A seat or a center card within a sentence."""
    return seat_word(place, names) if place < CENTER else center_phrase(place - CENTER)


def center_phrase(n: int) -> str:
    """A center card within a sentence of what happened."""
    if n == WOLF_CARD - CENTER:
        return _("the center werewolf card")
    return _("center card {n}").format(n=n)


def seat_list(seats: Sequence[int], names: Names | None = None) -> str:
    """'Ann · 2 and Seat 5', in the box's language."""
    words = [seat_word(s, names) for s in seats]
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}").format(first=_(", ").join(words[:-1]), last=words[-1])


def _nothing() -> str:
    return _("Not your call: tap any choice; it changes nothing.")


def _done() -> str:
    return _tap_any(_("Your part of this call is done."))


def _tap_any(text: str) -> str:
    return _("{told} Tap any choice; it changes nothing.").format(told=text)


# Why an option every phone is offered is refused to the role acting: one
# line behind its cover, and it chooses again.
_OTHER = N_("Your role needs another player's card here: choose again.")
_CENTER = N_("Your role needs a center card here: choose again.")


def _need(usable: bool, why: str) -> None:
    """Refuse an option the acting role cannot use (`why`: an N_() text)."""
    if not usable:
        raise ForbiddenAnswer(_(why))


@dataclass
class PhoneNight:
    """The deal the box made and what the night has done to it."""
    dealt: tuple[str, ...]                 # seats 1..n, the center cards 1..3, the wolf card
    lone_wolf: bool = True
    round: int = 0                         # names this game's tasks
    tokens: tuple[str, ...] = tuple(ARTIFACTS)   # the artifact tokens, shuffled face down
    cards: list[str] = field(default_factory=list)   # the cards now, in the same places
    copied: str | None = None              # what the Doppelganger copied
    became: dict[str, str] = field(default_factory=dict)   # card -> what its player became
    shields: list[int] = field(default_factory=list)       # seats whose card is shielded
    artifacts: dict[int, str] = field(default_factory=dict)   # seat -> artifact on its card
    revealed: dict[int, str] = field(default_factory=dict)    # seat -> card left face up
    touched: list[int] = field(default_factory=list)       # seats that looked or moved
    call: str = ""                         # the call being made
    open: bool = False                     # its task can be answered
    answers: dict[tuple[str, int], list[tuple[int, ...]]] = field(default_factory=dict)
    results: dict[int, list[str]] = field(default_factory=dict)   # this call's, per seat
    refused: dict[int, str] = field(default_factory=dict)         # this call's, per seat
    moves: list[str] = field(default_factory=list)                # the whole night's
    drawn: list[Move] = field(default_factory=list)   # the same moves, for the picture
    votes: dict[int, int] = field(default_factory=dict)
    voting: bool = False
    started: bool = False                  # the night has begun (not only dealt)
    dawn: bool = False                     # the night is over: the table sees its marks
    # The players' names by seat, as the flow last heard them (and saved
    # with the round): every seat this night names to the table is called
    # by its player's name, in what it learns and in what happened.
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.cards:
            self.cards = list(self.dealt)

    @classmethod
    def deal(cls, deck: Sequence[str], rng: random.Random, lone_wolf: bool = True,
             round: int = 0) -> PhoneNight:
        """The deck shuffled with the game's own random source; with the
        Alpha Wolf a werewolf card lies apart as the center werewolf card."""
        cards = list(deck)
        wolf = center_wolf_card(deck) if "alpha_wolf" in deck else None
        if wolf is not None:
            cards.remove(wolf)
        rng.shuffle(cards)
        tokens = list(ARTIFACTS)
        rng.shuffle(tokens)
        return cls(tuple(cards + ([wolf] if wolf else [])), lone_wolf, round, tuple(tokens))

    # ----------------------------------------------------------- the table
    @property
    def players(self) -> int:
        return players_for(self.dealt)

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    @property
    def centers(self) -> range:
        """The center cards' numbers: 1..3, and 4 for the center werewolf card."""
        return range(1, len(self.dealt) - self.players + 1)

    def card(self, seat: int) -> str:
        """The card a seat was dealt (what it acts as at night)."""
        return self.dealt[seat - 1]

    def _at(self, place: int) -> int:
        return place - 1 if place < CENTER else self.players + place - CENTER - 1

    def center(self, n: int) -> str:
        return self.cards[self._at(CENTER + n)]

    def role(self, seat: int) -> str:
        """The role a seat acts as tonight: its card, or the Doppelganger's copy."""
        if self.card(seat) == "doppelganger" and self.copied:
            return self.copied
        return self.card(seat)

    def _is(self, seat: int, role: str) -> bool:
        return self.role(seat) == role

    def awake_wolves(self) -> list[int]:
        return [s for s in self.seats if self.role(s) in AWAKE_WOLVES]

    def wolves(self) -> list[int]:
        """The werewolves the wolves and the Minion see: awake, or a Dream
        Wolf's thumb (000)."""
        return [s for s in self.seats if self.role(s) in AWAKE_WOLVES + ("dream_wolf",)]

    def _doppelganger(self, seat: int) -> bool:
        return self.card(seat) == "doppelganger"

    def acts(self, call: str, seat: int) -> bool:
        """`seat` is the one (or one of those) called by `call`."""
        if call == "doppelganger":
            return self._doppelganger(seat)
        if call.startswith("doppelganger_"):
            return self._doppelganger(seat) and self.copied == call.split("_", 1)[1]
        match call:
            case "werewolves":
                return seat in self.wolves()
            case "masons":
                return self._is(seat, "mason")
        # A copy that acted at once, or wakes with another call, is not called again.
        return self.card(seat) == call

    def _seat(self, seat: int) -> str:
        """A seat as this table reads it: its player's name, or "Seat 3"."""
        return seat_word(seat, self.names)

    def who(self, seat: int, role: str | None = None) -> str:
        """A seat and the role it acts as, for what happened."""
        if role is None and self._doppelganger(seat) and self.copied:
            role = _("Doppelganger as {role}").format(role=role_name(self.copied))
        elif role is None:
            role = role_name(self.card(seat))
        # TRANSLATORS: a player in what happened at night: {seat} is "Ann · 3"
        # or "Seat 3", e.g. "Ann · 3 (Seer)".
        return _("{seat} ({role})").format(seat=self._seat(seat), role=role)

    # ------------------------------------------------------------ the calls
    def shape(self, call: str) -> Shape:
        if call == "doppelganger":
            return doppelganger_shape(self.dealt)
        return SHAPES[call]

    def begin(self, call: str) -> None:
        """A new step of the night: its task opens if it has one. What a
        seat learned stays behind its cover until its next task opens, so
        an answer tapped late in a call is still read (after the last call,
        until the vote); why an answer was refused goes with its call."""
        self.call, self.open, self.refused = call, call in SHAPES, {}
        if self.open:
            self.results = {}
        self.dawn = self.dawn or call == "wake_up"

    def close(self) -> None:
        """The call's eyes close: its task can no longer be answered. A Witch
        who looked and never chose whom to swap with did not swap (no answer
        is no action): what happened says so, as it says her look."""
        if self.open and self.call in ("witch", "doppelganger"):
            for seat in self.seats:
                looked = len(self.answers.get((self.call, seat), []))
                witch = self.call == "witch" or self.copied == "witch"
                if witch and self.acts(self.call, seat) and looked == (
                        1 if self.call == "witch" else 2):
                    self.drawn.append(Move(NO_MOVE, seat, (seat,)))
                    self.moves.append(_("{who} looked but did not swap: the call ended "
                                        "first.").format(who=self.who(seat)))
                    self._result(seat, _("You did not swap in time: the card stays in the "
                                         "center."))
        self.open = False

    def stage(self, seat: int) -> int:
        return len(self.answers.get((self.call, seat), []))

    def _step(self, stage: int) -> str:
        return f"{self.round}.{self.call}.{stage}"

    def task(self, seat: int) -> Task | None:
        """`seat`'s task at the open call, the same shape for every seat."""
        if not self.open or seat not in self.seats:
            return None
        shapes = self.shape(self.call)
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
        if ALL in kinds:
            out += [(s, seat_word(s)) for s in self.seats]
        if CENTERS in kinds:
            out += [(CENTER + n, center_word(n)) for n in self.centers]
        if CENTER_PAIRS in kinds:
            out += [(PAIR + 10 * a + b, _("Center cards {a} and {b}").format(a=a, b=b))
                    for a in self.centers for b in self.centers if a < b]
        if SIDES in kinds:
            out += [(UP, _("Every other card to the left (1 → 2)")),
                    (DOWN, _("Every other card to the right (2 → 1)"))]
        return tuple(out)

    def answer(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        """A seat's answer: taken if it answers the task it was given (an
        allowed option, as many as the pick, all different), else ignored.
        The acting seat's answer is applied at once; one the rules forbid
        it is refused, with why behind its cover, and it may choose again."""
        task = self.task(seat)
        if task is None or task.chosen or step != task.step or len(choice) != task.pick \
                or len(set(choice)) != len(choice) \
                or not set(choice) <= {o for o, _words in task.options}:
            return False
        stage = self.stage(seat)
        taken = self.answers.setdefault((self.call, seat), [])
        taken.append(tuple(choice))
        if self.acts(self.call, seat):
            try:
                self._act(seat, stage, tuple(choice))
            except ForbiddenAnswer as why:
                taken.pop()
                self.refused[seat] = str(why)
                return False
        self.refused.pop(seat, None)
        return True

    # ------------------------------------------------------------- actions
    def _result(self, seat: int, text: str) -> None:
        self.results.setdefault(seat, []).append(text)

    def _touch(self, seat: int) -> None:
        """`seat` looked at or moved a card: the Aura Seer will see it."""
        if seat not in self.touched:
            self.touched.append(seat)

    def _free(self, *places: int) -> None:
        """Shielded cards may not be looked at, moved or given a token (000)."""
        for place in places:
            if place in self.shields:
                raise ForbiddenAnswer(_("{seat}'s card has the shield: it may not be looked at or "
                                        "moved. Choose another.").format(seat=self._seat(place)))

    def _look(self, seat: int, target: int) -> str:
        self._free(target)
        self._touch(seat)
        role = self.cards[self._at(target)]
        self._result(seat, _("{card}: {role}.").format(card=place_word(target, self.names),
                                                      role=role_name(role)))
        if target >= CENTER:
            self.drawn.append(Move(LOOK, seat, (target,)))
            self.moves.append(_("{who} looked at {card}: {role}.").format(
                who=self.who(seat), card=center_phrase(target - CENTER), role=role_name(role)))
        else:
            self.drawn.append(Move(LOOK, seat, (target,)))
            self.moves.append(_("{who} looked at {seat}'s card: {role}.").format(
                who=self.who(seat), seat=self._seat(target), role=role_name(role)))
        return role

    def _swap(self, a: int, b: int) -> None:
        """Swap the cards at two places (seats 1..n; center cards CENTER+k)."""
        i, j = self._at(a), self._at(b)
        self.cards[i], self.cards[j] = self.cards[j], self.cards[i]

    def _held_by_shield(self, seat: int) -> bool:
        """A Robber or Drunk whose own card has the shield cannot act at all
        (000: a shielded card may not move): said once, as its answer, and
        its part of the call is done, not "choose another" at every tap."""
        if seat not in self.shields:
            return False
        self._result(seat, _("Your own card has the shield: it may not move, so you cannot "
                             "act tonight."))
        self.drawn.append(Move(NO_MOVE, seat, (seat,)))
        self.moves.append(_("{who} could not act: their own card had the shield.").format(
            who=self.who(seat)))
        return True

    def _rob(self, seat: int, target: int) -> None:
        if self._held_by_shield(seat):
            return
        self._free(seat, target)
        self._touch(seat)
        self._swap(seat, target)
        role = role_name(self.cards[seat - 1])
        self._result(seat, _("You took {seat}'s card: you are now the {role}.").format(
            seat=self._seat(target), role=role))
        self.drawn.append(Move(TAKE, seat, (target, seat)))
        self.moves.append(_("{who} swapped cards with {seat} and took the {role}.").format(
            who=self.who(seat), seat=self._seat(target), role=role))

    def _trouble(self, seat: int, a: int, b: int) -> None:
        self._free(a, b)
        self._touch(seat)
        self._swap(a, b)
        self._result(seat, _("You swapped the cards of {first} and {second}.").format(
            first=self._seat(a), second=self._seat(b)))
        self.drawn.append(Move(SWAP, seat, (a, b)))
        self.moves.append(_("{who} swapped the cards of {first} and {second}.").format(
            who=self.who(seat), first=self._seat(a), second=self._seat(b)))

    def _drink(self, seat: int, target: int) -> None:
        if self._held_by_shield(seat):
            return
        self._free(seat)
        self._touch(seat)
        self._swap(seat, target)
        self._result(seat, _("You took {card}, without looking.").format(
            card=place_phrase(target, self.names)))
        self.drawn.append(Move(TAKE, seat, (target, seat)))
        self.moves.append(_("{who} swapped cards with {card} and took the {role}.").format(
            who=self.who(seat), card=center_phrase(target - CENTER),
            role=role_name(self.cards[seat - 1])))

    def _shield(self, seat: int, target: int) -> None:
        if target == seat or target in self.shields:
            raise ForbiddenAnswer(_("Choose another player's card, one without a shield."))
        self.shields.append(target)
        self._result(seat, _("You put the shield on {seat}'s card.").format(
            seat=self._seat(target)))
        self.drawn.append(Move(SHIELD, seat, (target,)))
        self.moves.append(_("{who} put the shield on {seat}'s card.").format(
            who=self.who(seat), seat=self._seat(target)))

    def _alpha(self, seat: int, target: int, wolves: Sequence[int]) -> None:
        """000: the center werewolf card for a non-werewolf player's card
        (not the Alpha Wolf's own, nor another werewolf's), unseen."""
        if target == seat or target in wolves:
            raise ForbiddenAnswer(_("{seat} is a werewolf: choose a player who is not.").format(
                seat=self._seat(target)))
        self._free(target)
        self._touch(seat)
        self._swap(target, WOLF_CARD)
        self._result(seat, _("You swapped the center werewolf card with {seat}'s card, "
                             "without looking.").format(seat=self._seat(target)))
        self.drawn.append(Move(SWAP, seat, (WOLF_CARD, target)))
        self.moves.append(_("{who} gave {seat} the center werewolf card ({role}).").format(
            who=self.who(seat), seat=self._seat(target), role=role_name(self.cards[target - 1])))

    def _investigate(self, seat: int, stage: int, target: int, first: int | None) -> None:
        """000: up to two players' cards, one at a time; a werewolf or the
        Tanner stops him and he becomes it (not what a Doppelganger copied)."""
        card = self.card(seat)
        if card in self.became:
            return                                 # he has stopped: his taps change nothing
        _need(target != first, N_("You looked at that card already: choose another."))
        role = self._look(seat, target)
        found = "werewolf" if role in WEREWOLVES else "tanner" if role == "tanner" else None
        if found is not None and found in PI_BECOMES:
            # The change goes with the card: whoever holds it at dawn is what it became.
            self.became[card] = found
            self._result(seat, _("You stop: you are now a {role}.").format(
                role=role_name(found)))
            self.drawn.append(Move(BECAME, seat, (seat,)))
            self.moves.append(_("{who} became a {role}.").format(who=self.who(seat),
                                                                  role=role_name(found)))

    def _witch(self, seat: int, stage: int, option: int, earlier: int | None) -> None:
        """000: a center card looked at must be swapped with any player's."""
        if stage == 0 or earlier is None:
            _need(CENTER < option < PAIR, _CENTER)
            self._look(seat, option)
            return
        _need(option < CENTER, N_("Choose the player whose card you swap it with, your own "
                                  "included."))
        self._free(option)
        self._swap(earlier, option)
        if option == seat:
            self._result(seat, _("You took {card}: you are now the {role}.").format(
                card=place_phrase(earlier, self.names), role=role_name(self.cards[seat - 1])))
        else:
            self._result(seat, _("You swapped {card} with {seat}'s card.").format(
                card=place_phrase(earlier, self.names), seat=self._seat(option)))
        self.drawn.append(Move(TAKE if option == seat else SWAP, seat, (earlier, option)))
        self.moves.append(_("{who} swapped {card} with {seat}'s card; {seat} now has "
                            "the {role}.").format(who=self.who(seat),
                                              card=center_phrase(earlier - CENTER),
                                              seat=self._seat(option),
                                              role=role_name(self.cards[option - 1])))

    def _idiot(self, seat: int, way: int) -> None:
        """000: every other player's card, but shielded ones, one place on."""
        _need(way in (UP, DOWN), N_("Choose one of the two ways."))
        places = [s for s in self.seats if s != seat and s not in self.shields]
        if len(places) > 1:
            self._touch(seat)
            old = [self.cards[s - 1] for s in places]
            step = 1 if way == UP else -1
            for k, card in enumerate(old):
                self.cards[places[(k + step) % len(places)] - 1] = card
        if way == UP:
            self._result(seat, _("Every other card moved one seat to the left (1 → 2)."))
            self.drawn.append(Move(SHIFT, seat, tuple(places)))
            self.moves.append(_("{who} moved every other card one seat to the left "
                                "(1 → 2).").format(who=self.who(seat)))
        else:
            self._result(seat, _("Every other card moved one seat to the right (2 → 1)."))
            self.drawn.append(Move(SHIFT, seat, tuple(reversed(places))))
            self.moves.append(_("{who} moved every other card one seat to the right "
                                "(2 → 1).").format(who=self.who(seat)))

    def _reveal(self, seat: int, target: int) -> None:
        """000: another player's card face up; a werewolf or the Tanner goes
        back face down."""
        self._free(target)
        role = self.cards[target - 1]
        if role in HIDDEN_WHEN_REVEALED:
            self._result(seat, _("{seat}'s card: {role}. You turned it face down again.").format(
                seat=self._seat(target), role=role_name(role)))
            self.drawn.append(Move(REVEAL, seat, (target,)))
            self.moves.append(_("{who} turned up {seat}'s card, the {role}, and turned it "
                                "down again.").format(who=self.who(seat), seat=self._seat(target),
                                                      role=role_name(role)))
            return
        self.revealed[target] = role
        self._result(seat, _("{seat}'s card: {role}. It stays face up for everyone to "
                             "see.").format(seat=self._seat(target), role=role_name(role)))
        self.drawn.append(Move(REVEAL, seat, (target,)))
        self.moves.append(_("{who} turned up {seat}'s card: the {role}.").format(
            who=self.who(seat), seat=self._seat(target), role=role_name(role)))

    def _curate(self, seat: int, target: int) -> None:
        """000: a random token face down on any card with no shield (and, for
        the Doppelganger-Curator, no token)."""
        if target in self.artifacts:
            raise ForbiddenAnswer(_("{seat}'s card has a token already: choose another.").format(
                seat=self._seat(target)))
        if target in self.shields:
            raise ForbiddenAnswer(_("{seat}'s card has the shield: it may not have a token. Choose "
                                    "another.").format(seat=self._seat(target)))
        token = self.tokens[len(self.artifacts)]
        self.artifacts[target] = token
        self._result(seat, _("You put an artifact token face down on {seat}'s card.").format(
            seat=self._seat(target)))
        self.drawn.append(Move(TOKEN, seat, (target,)))
        self.moves.append(_("{who} put the {artifact} on {seat}'s card.").format(
            who=self.who(seat), artifact=_(ARTIFACTS[token]), seat=self._seat(target)))

    def _aura(self, seat: int) -> str:
        """000: the Aura Seer sees every player who looked at or moved a card."""
        seen = [s for s in self.touched if s != seat]
        if seen:
            return _tap_any(_("You are the Aura Seer. These players looked at or moved a "
                              "card tonight: {seats}.").format(
                seats=seat_list(sorted(seen), self.names)))
        return _tap_any(_("You are the Aura Seer. Nobody else looked at or moved a card "
                          "tonight."))

    def _act(self, seat: int, stage: int, choice: tuple[int, ...]) -> None:
        first = choice[0]
        picks = [c[0] for c in self.answers[(self.call, seat)]]
        earlier = picks[0] if stage == 1 else None
        match self.call:
            case "doppelganger":
                self._as_doppelganger(seat, stage, first)
            case "werewolves" if self._lone() and self.lone_wolf \
                    and seat in self.awake_wolves():
                self._look(seat, first)
            case "sentinel":
                self._shield(seat, first)
            case "alpha_wolf":
                self._alpha(seat, first, self.wolves())
            case "mystic_wolf":
                self._look(seat, first)
            case "seer":
                self._seer(seat, first)
            case "apprentice_seer":
                self._look(seat, first)
            case "paranormal_investigator":
                self._investigate(seat, stage, first, earlier)
            case "robber":
                self._rob(seat, first)
            case "witch":
                self._witch(seat, stage, first, earlier)
            case "troublemaker":
                self._trouble(seat, choice[0], choice[1])
            case "village_idiot":
                self._idiot(seat, first)
            case "drunk":
                self._drink(seat, first)
            case "revealer" | "doppelganger_revealer":
                self._reveal(seat, first)
            case "curator" | "doppelganger_curator":
                self._curate(seat, first)

    def _seer(self, seat: int, option: int) -> None:
        if option >= PAIR:
            a, b = divmod(option - PAIR, 10)
            self._look(seat, CENTER + a)
            self._look(seat, CENTER + b)
        else:
            self._look(seat, option)

    def _as_doppelganger(self, seat: int, stage: int, option: int) -> None:
        """Stage 0 copies a player's card; stages 1 and 2 are the copy's
        action where it acts at once (000 "Doppelganger and Daybreak")."""
        picks = [c[0] for c in self.answers[(self.call, seat)]]
        if stage == 0:
            self._free(option)
            self._touch(seat)
            self.copied = self.cards[option - 1]
            role = role_name(self.copied)
            self._result(seat, _("{seat}'s card is the {role}: you are now the {role}.").format(
                seat=self._seat(option), role=role))
            self.drawn.append(Move(COPY, seat, (option,)))
            self.moves.append(_("{who} copied {seat}'s card: {role}.").format(
                who=self.who(seat, role_name("doppelganger")), seat=self._seat(option),
                role=role))
            return
        if stage == 1:
            self._copy_first(seat, option)
        else:
            self._copy_second(seat, option, picks[1])

    def _copy_first(self, seat: int, option: int) -> None:
        """The first pick of a copy that acts at once. Every copy is offered
        the same options (the shape tells nothing); one its role cannot use
        is refused, and she chooses again."""
        other = option < CENTER and option != seat
        center = CENTER < option < PAIR
        match self.copied:
            case "seer":
                _need(other or center, N_("As the Seer, choose another player's card or a "
                                          "center card."))
                self._look(seat, option)
            case "robber":
                _need(other, _OTHER)
                self._rob(seat, option)
            case "troublemaker":
                _need(other, _OTHER)
                self._free(option)                 # the second pick could never use it
            case "drunk":
                _need(center, _CENTER)
                self._drink(seat, option)
            case "sentinel":
                _need(other, _OTHER)
                self._shield(seat, option)
            case "alpha_wolf":
                _need(other, _OTHER)
                # 000: any player but hers or the Alpha Wolf's, whose card she saw.
                copied = self.answers[("doppelganger", seat)][0][0]
                self._alpha(seat, option, [seat, copied])
            case "mystic_wolf":
                _need(other, _OTHER)
                self._look(seat, option)
            case "apprentice_seer":
                _need(center, _CENTER)
                self._look(seat, option)
            case "paranormal_investigator":
                _need(other, _OTHER)
                self._investigate(seat, 0, option, None)
            case "witch":
                _need(center, _CENTER)
                self._witch(seat, 0, option, None)
            case "village_idiot":
                _need(option in (UP, DOWN), N_("Choose one of the two ways."))
                self._idiot(seat, option)

    def _copy_second(self, seat: int, option: int, earlier: int) -> None:
        """The second pick, for a copy that has one (the Seer's second
        center card, the Troublemaker's second player, the Paranormal
        Investigator's second look, the Witch's swap)."""
        other = option < CENTER and option != seat
        center = CENTER < option < PAIR
        match self.copied:
            case "seer" if earlier > CENTER:
                _need(center and option != earlier, N_("Choose a second center card."))
                self._look(seat, option)
            case "troublemaker":
                _need(other and option != earlier,
                      N_("Choose another player, not yourself or the first one."))
                self._trouble(seat, earlier, option)
            case "paranormal_investigator" if "doppelganger" not in self.became:
                _need(other, _OTHER)
                self._investigate(seat, 1, option, earlier)
            case "witch":
                _need(option < CENTER, N_("Choose the player whose card you swap it with, "
                                          "your own included."))
                self._witch(seat, 1, option, earlier)

    def _lone(self) -> bool:
        """One werewolf awake and no other to see, a Dream Wolf's thumb included."""
        return len(self.awake_wolves()) == 1 and len(self.wolves()) == 1

    # -------------------------------------------------------- what it reads
    def secret(self, seat: int) -> tuple[str, ...]:
        """What `seat` reads behind its cover at the call being made: what
        it is asked (its role's words, or everyone else's decoy), then what
        it learned. Its card, dealt, is on top at every step; from dawn, an
        artifact on its card."""
        mine = (_("Your card: {role}").format(role=role_name(self.card(seat))),)
        learned = tuple(self.results.get(seat, ()))
        if self.dawn:
            return mine + learned + self._token(seat)
        if self.call not in SHAPES:
            return mine + learned
        task = self.task(seat)
        if task is not None and task.chosen:
            asked = _("Answered. Keep your eyes on your phone until morning.")
        elif self.open:
            asked = self._asked(seat) if self.acts(self.call, seat) else _nothing()
        else:
            asked = ""
        # What it learned reads as its own, above what it is asked now (a
        # Doppelganger's copy done, or any seat's later decoy line).
        said = (*learned, asked, self.refused.get(seat, ""))
        return mine + tuple(t for t in said if t)

    def _token(self, seat: int) -> tuple[str, ...]:
        """000: the player looks at a token on their card as the night ends."""
        token = self.artifacts.get(seat)
        if token is None:
            return ()
        return (_("An artifact token lies on your card: the {artifact}. {what}").format(
            artifact=_(ARTIFACTS[token]), what=_(ARTIFACT_TEXT[token])),)

    def marks(self) -> tuple[str, ...]:
        """What the whole table sees on the cards from dawn on: a shield, a
        token (face down), a card turned face up."""
        if not self.dawn:
            return ()
        out = [_("{seat}'s card has the shield.").format(seat=self._seat(s))
               for s in sorted(self.shields)]
        out += [_("{seat}'s card has an artifact token on it.").format(seat=self._seat(s))
                for s in sorted(self.artifacts)]
        out += [_("{seat}'s card lies face up: {role}.").format(seat=self._seat(s),
                                                               role=role_name(r))
                for s, r in sorted(self.revealed.items())]
        return tuple(out)

    def _asked(self, seat: int) -> str:
        match self.call:
            case "doppelganger":
                return self._doppelganger_asked(seat)
            case "werewolves" if self._is(seat, "dream_wolf"):
                return _tap_any(_("You are the Dream Wolf: you sleep, and the werewolves see "
                                  "on their phones that you are one."))
            case "werewolves" if self._lone() and self.lone_wolf:
                return _("You are the only werewolf: choose a center card to look at.")
            case "werewolves" if self._lone():
                return _tap_any(_("You are the only werewolf."))
            case "werewolves":
                return _tap_any(_("The werewolves: {seats}.").format(
                    seats=seat_list(self.wolves(), self.names)))
            case "minion" | "doppelganger_minion" if self.wolves():
                return _tap_any(_("You are the Minion. The werewolves: {seats}.").format(
                    seats=seat_list(self.wolves(), self.names)))
            case "minion" | "doppelganger_minion":
                return _tap_any(_("You are the Minion. No player is a werewolf."))
            case "masons":
                masons = [s for s in self.seats if self._is(s, "mason")]
                if len(masons) == 1:
                    return _tap_any(_("You are the only Mason among the players."))
                return _tap_any(_("The Masons: {seats}.").format(
                    seats=seat_list(masons, self.names)))
            case "paranormal_investigator" if self.card(seat) in self.became:
                return _nothing()
            case "aura_seer" | "doppelganger_aura_seer":
                return self._aura(seat)
        # A copy that wakes at its own call later (the Revealer, the Curator)
        # is asked as the role is.
        prompt = PROMPTS.get(self.call.removeprefix("doppelganger_"))
        if prompt is not None:
            stage = self.stage(seat)
            return _(prompt.own[stage] if stage < len(prompt.own) else prompt.own[0])
        # The Insomniac, and the Doppelganger who copied her.
        if seat in self.shields:
            return _tap_any(_("Your card has the shield: you may not look at it."))
        return _tap_any(_("Your card now: {role}.").format(role=role_name(self.cards[seat - 1])))

    def _doppelganger_asked(self, seat: int) -> str:
        stage = self.stage(seat)
        if stage == 0:
            return _(PROMPTS["doppelganger"].own[0])
        prompt = PROMPTS.get(self.copied or "")
        if prompt is None or not prompt.copied or (
                self.copied == "paranormal_investigator" and "doppelganger" in self.became):
            # Her copy has nothing (more) to do at this call: her own words,
            # not another seat's "Not your call".
            return _done()
        if stage == 1:
            return _(prompt.copied[0])
        first = self.answers[("doppelganger", seat)][1][0]
        again = CENTER_CARD if first >= CENTER else PLAYER_CARD
        if len(prompt.copied) > 1 and prompt.again_after == again:
            return _(prompt.copied[1])
        return _done()

    # ------------------------------------------------------------- the vote
    def vote_step(self) -> str:
        return f"{self.round}.vote"

    def start_vote(self) -> None:
        """"3, 2, 1, vote!": every phone's next task; what the night told a
        seat is no longer shown."""
        self.voting, self.results = True, {}

    def vote_task(self, seat: int) -> Task | None:
        if not self.voting or seat not in self.seats:
            return None
        return vote_task(self.vote_step(), self.seats, seat, self.votes)

    def vote(self, seat: int, step: str, choice: tuple[int, ...]) -> bool:
        """A seat's vote; a later one replaces it until the vote ends."""
        return take_vote(self.vote_task(seat), self.votes, seat, step, choice)

    # ---------------------------------------------------------- the verdict
    def game(self) -> Game:
        """The table at dawn, for the referee: each seat's card, what that
        card became (the Doppelganger's copy, or the werewolf or Tanner a
        Paranormal Investigator found: the change goes with the card), the
        votes and the artifacts. A Doppelganger who copied nothing plays as
        a Villager (the sources are silent: she has no role to take, and a
        missing answer is no action)."""
        players = []
        for seat in self.seats:
            card = self.cards[seat - 1]
            became = self.became.get(card)
            if card == "doppelganger" and became is None:
                became = self.copied or "villager"
            players.append(Player(card, self.votes.get(seat, NO_VOTE), became))
        return Game(tuple(players), dict(self.artifacts), dict(self.names))

    def verdict(self) -> Verdict:
        return judge(self.game())

    def happened(self) -> list[str]:
        """Every move of the night, public once the game is over: the deal,
        each action in order, the cards at dawn, and the votes."""
        out = [_("{seat} was dealt the {role}.").format(seat=self._seat(s),
                                                        role=role_name(self.card(s)))
               for s in self.seats]
        out += [_("{card} was the {role}.").format(
            card=center_word(n), role=role_name(self.dealt[self._at(CENTER + n)]))
            for n in self.centers]
        if any(self.card(s) == "doppelganger" for s in self.seats) and self.copied is None:
            out.append(_("The Doppelganger copied no card: she plays as a Villager."))
        out += self.moves
        out += [_("At dawn {seat} has the {role}.").format(
            seat=self._seat(s), role=role_name(self.cards[s - 1])) for s in self.seats]
        out += [_("At dawn {card} is the {role}.").format(card=center_phrase(n),
                                                          role=role_name(self.center(n)))
                for n in self.centers]
        out += [_("{seat} voted for {target}.").format(seat=self._seat(s),
                                                       target=self._seat(self.votes[s]))
                if s in self.votes else _("{seat} did not vote.").format(seat=self._seat(s))
                for s in self.seats]
        return out

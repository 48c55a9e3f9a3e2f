"""One Night as it is saved on disk, checked before it is trusted (issue 29).

A round is saved from the deal on phones (before START: so a phone that
rejoins after a power cut sees the card it was dealt, not a new one)
through the night, the discussion and the vote; the reveal and the verdict
are not (the round is over: a new one starts). The flow (flow.py) writes a
checkpoint whenever what it holds changes: a call begins, a phone's answer
or vote is taken, the discussion's clock passes a whole minute.

What is saved is the least the round is rebuilt from: the deck, the deal
(the cards dealt and the artifact tokens, in their places), every answer the
phones gave in the order of the calls, the call running, the discussion's
time left (to the minute above), the votes. What the night did (the cards
moved, the shields, the artifacts, the Doppelganger's copy, what each seat
learned) is not saved but played again from the answers, the one source of
truth, so it is in the box's language now and cannot disagree with them.

`read` checks a saved round as wolfbox.engine.checkpoints says every game
does: types and ranges first (msgspec), then what the rules make true of
every checkpoint the round takes: the deck can be played; the deal is the
deck, shuffled, with the center werewolf card apart where the Alpha Wolf
is; the tokens are the six artifacts; the call is the one at its place in
this deck's night; each answer is one the night takes (an option of its
seat's task at a call already made, which the rules allow the acting
seat); votes only in the vote, each one a seat could give; nothing the
stage needs is missing; the discussion's time left no more than the
longest discussion the box runs (model.LONGEST_DISCUSSION: the config's
most, and NEXT adds no further). Anything else is `CannotResume`.

The round resumes where the table says yes: the night at the call that
was running, from its first line (whoever answered it keeps the answer and
sees what it learned; nobody acts twice); the discussion with the time it
had at its last whole minute; the vote from its "3", the votes given kept.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec

from ..engine.checkpoints import CannotResume as CannotResume
from .deck import DeckError, check_deck, players_for
from .model import LONGEST_DISCUSSION
from .night import NightOptions, Step, center_wolf_card, night_script
from .owncards import OwnCards
from .phones import PhoneNight
from .referee import ARTIFACTS

VERSION = 1
DEALT, NIGHT, DISCUSSION, VOTE = "dealt", "night", "discussion", "vote"

Seat = Annotated[int, msgspec.Meta(ge=1, le=99)]
Place = Annotated[int, msgspec.Meta(ge=1, le=999)]        # a seat, a center card, a way
Count = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Seconds = Annotated[int, msgspec.Meta(ge=1, le=LONGEST_DISCUSSION)]


class SavedTable(msgspec.Struct, forbid_unknown_fields=True):
    """The deal on the phones, and every answer given, call by call."""
    dealt: tuple[str, ...]
    tokens: tuple[str, ...]
    lone_wolf: bool
    answers: list[tuple[str, Seat, list[tuple[Place, ...]]]]    # call, seat, its picks
    # The players' names (public: the table saw them join), so what the
    # night played again tells is worded as it was, before the phones are back.
    names: dict[Seat, Annotated[str, msgspec.Meta(max_length=200)]] = msgspec.field(
        default_factory=dict)


class SavedRound(msgspec.Struct, forbid_unknown_fields=True):
    """A round dealt on the phones, or in its night, discussion or vote."""
    version: Literal[1]
    stage: Literal["dealt", "night", "discussion", "vote"]
    deck: tuple[str, ...]
    round: Count                     # names the round's tasks on the phones
    step: Count = 0                  # the night: the call running, by its place
    call: str = ""                   # ... and its id
    vote_at_dawn: bool = False       # VOTE was pressed in the night
    seconds: Seconds | None = None   # the discussion's time left
    own: bool = False                # the table's own cards, voted on the phones
    table: SavedTable | None = None  # the box's deal on the phones
    votes: dict[Seat, Seat] = field(default_factory=dict)


@dataclass
class Resumed:
    """A saved round, checked and rebuilt, waiting for the table's yes."""
    saved: SavedRound
    state: dict[str, Any]                  # as it was saved, kept until resumed
    night: list[Step]                      # the deck's night
    table: PhoneNight | None               # the night played again up to the call running
    pending: list[tuple[int, tuple[int, ...]]]    # that call's answers, given again

    @property
    def step(self) -> int:
        """The call the night resumes at: after VOTE in the night, the wake-up."""
        return len(self.night) - 1 if self.saved.vote_at_dawn else self.saved.step

    def own_cards(self) -> OwnCards | None:
        return OwnCards(self.saved.deck, self.saved.round) if self.saved.own else None


def state(stage: str, deck: Sequence[str], round: int, table: PhoneNight | None, *,
          own: bool = False, step: int = 0, call: str = "", vote_at_dawn: bool = False,
          seconds: int | None = None, votes: dict[int, int] | None = None) -> dict[str, Any]:
    """A checkpoint, JSON-safe, as `read` takes it back."""
    out: dict[str, Any] = {"version": VERSION, "stage": stage, "deck": list(deck),
                           "round": round, "step": step, "call": call,
                           "vote_at_dawn": vote_at_dawn, "seconds": seconds, "own": own,
                           "votes": {str(s): t for s, t in sorted((votes or {}).items())},
                           "table": None}
    if table is not None:
        out["table"] = {
            "dealt": list(table.dealt), "tokens": list(table.tokens),
            "lone_wolf": table.lone_wolf,
            "names": {str(s): n for s, n in sorted(table.names.items())},
            "answers": [[call_, seat, [list(c) for c in picks]]
                        for (call_, seat), picks in table.answers.items() if picks]}
    return out


def read(saved_state: object, options: NightOptions) -> Resumed:
    """The saved round, typed, checked and played again up to where it
    resumes; CannotResume names the first problem. `options` are the
    night's as the box is set now (its times; who is on the phones is the
    save's)."""
    try:
        saved = msgspec.convert(saved_state, SavedRound, str_keys=True)
    except msgspec.ValidationError as e:
        raise CannotResume(str(e)) from None
    try:
        check_deck(saved.deck)
    except DeckError as e:
        raise CannotResume(f"the saved deck cannot be played: {e}") from None
    if saved.table is not None and saved.own:
        raise CannotResume("a round both dealt by the box and on the table's own cards")
    if saved.stage == DEALT and (saved.table is None or saved.step or saved.call
                                 or saved.table.answers):
        raise CannotResume("a deal saved before START with a night begun")
    if saved.stage != DISCUSSION and saved.seconds is not None:
        raise CannotResume("a discussion's time outside the discussion")
    if saved.stage == DISCUSSION and saved.seconds is None:
        raise CannotResume("a discussion without its time")
    if saved.stage != VOTE and saved.votes:
        raise CannotResume("votes outside the vote")
    if saved.votes and saved.table is None and not saved.own:
        raise CannotResume("votes on phones in a round without them")
    if saved.vote_at_dawn and saved.stage == DISCUSSION:
        raise CannotResume("a discussion after VOTE was pressed in the night")
    phones = saved.table is not None and saved.stage != DEALT
    night = night_script(saved.deck, NightOptions(
        lone_wolf=saved.table.lone_wolf if saved.table else options.lone_wolf,
        scale=options.scale, action_seconds=options.action_seconds, phones=phones))
    if saved.stage == NIGHT and (saved.step >= len(night) or night[saved.step].id != saved.call):
        raise CannotResume(f"no call {saved.call!r} at step {saved.step} of this deck's night")
    if saved.stage != NIGHT and (saved.step or saved.call):
        raise CannotResume("a call running outside the night")
    assert isinstance(saved_state, dict)                 # msgspec took it as an object
    resumed = Resumed(saved, copy.deepcopy(saved_state), night, None, [])
    if saved.table is not None:
        resumed.table, resumed.pending = _replayed(saved, saved.table, night, resumed.step)
    _check_votes(saved, resumed.table)
    return resumed


def _dealt(saved: SavedRound, table: SavedTable) -> PhoneNight:
    """The deal as `PhoneNight.deal` makes it, or CannotResume."""
    deck = saved.deck
    if Counter(table.dealt) != Counter(deck):
        raise CannotResume("the cards dealt are not the deck's")
    if "alpha_wolf" in deck and table.dealt[-1] != center_wolf_card(deck):
        raise CannotResume("the center werewolf card is not where the deal puts it")
    if sorted(table.tokens) != sorted(ARTIFACTS):
        raise CannotResume("the artifact tokens are not the six")
    night = PhoneNight(tuple(table.dealt), table.lone_wolf, saved.round, tuple(table.tokens))
    night.names = dict(table.names)
    if night.players != players_for(deck):
        raise CannotResume("the seats dealt are not the deck's")
    return night


def _replayed(saved: SavedRound, table: SavedTable, night: list[Step], at: int
              ) -> tuple[PhoneNight, list[tuple[int, tuple[int, ...]]]]:
    """The night played again from the deal: every call before `at` with
    its answers, then (checked on a copy) the answers of the call at `at`,
    which are given again once it is called again. Each answer must be taken
    as it was the first time."""
    phones = _dealt(saved, table)
    if saved.stage == DEALT:
        return phones, []
    phones.started = True
    calls = [s.id for s in night]
    done = calls[:at] if saved.stage == NIGHT else calls
    given: dict[str, list[tuple[int, list[tuple[int, ...]]]]] = {}
    for call, seat, picks in table.answers:
        if call not in calls:
            raise CannotResume(f"an answer at call {call!r}, which this deck's night has not")
        given.setdefault(call, []).append((seat, picks))
    for call in done:
        phones.begin(call)
        _answer(phones, given.pop(call, []))
        phones.close()
    pending = [(seat, pick) for seat, picks in given.pop(calls[at], []) for pick in picks] \
        if saved.stage == NIGHT else []
    if given:                          # a call to come, or one VOTE in the night skipped
        raise CannotResume(f"answers at a call the night has not made: {', '.join(given)}")
    if pending:
        trial = copy.deepcopy(phones)
        trial.begin(calls[at])
        _answer(trial, [(seat, [pick]) for seat, pick in pending])
    return phones, pending


def _answer(phones: PhoneNight, answers: list[tuple[int, list[tuple[int, ...]]]]) -> None:
    for seat, picks in answers:
        for pick in picks:
            task = phones.task(seat)
            if task is None or not phones.answer(seat, task.step, pick):
                raise CannotResume(f"seat {seat}'s answer {list(pick)} at the "
                                   f"{phones.call} call is not one the night takes")


def _check_votes(saved: SavedRound, table: PhoneNight | None) -> None:
    """Each vote is one its seat's phone could give."""
    if not saved.votes:
        return
    if table is not None:
        voting = copy.deepcopy(table)
        voting.start_vote()
        vote, task = voting.vote, voting.vote_task
    else:
        own = OwnCards(saved.deck, saved.round, voting=True)
        vote, task = own.vote, own.vote_task
    for seat, target in saved.votes.items():
        asked = task(seat)
        if asked is None or not vote(seat, asked.step, (target,)):
            raise CannotResume(f"seat {seat}'s vote for seat {target} is not one it could give")

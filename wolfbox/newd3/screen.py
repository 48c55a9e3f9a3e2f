"""What the timed game shows: each stage's screen, drawn from the game's
state and never changing it (the state machine is game.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ..buttons import Button
from ..engine.actions import Legend
from ..i18n import N_, _, ngettext
from ..phone import PhoneView, Task, night, out_of_the_game, public, seat_name
from ..roster import game_name, setup_holds_note, switch_note
from ..timer import clock_text
from ..view import Phase, Seat, View
from . import rules, said
from .model import (
    _KNIFE,
    _SPEAK,
    _WAIT,
    KILL_STEPS,
    MODE,
    SEATS,
    SETUP_ITEMS,
    SKIP,
    Stage,
)
from .resolve import VANILLA, Result
from .roles import (
    ALCHEMIST,
    CHEF,
    DAIRY_MAID,
    GUARD,
    NOBLE,
    PRIEST,
    ROLES,
    SEER,
    TRACK_READER,
    is_wolf_team,
    role_name,
    team_name,
    team_of,
)
from .seen import Seen
from .setups import describe
from .turns import Kind, Turn


def view(game: Seen, now: float) -> View:
    legend = Legend.of(game.taps(), game.holds())
    v = View(phase=Phase.NIGHT, title="", paused=game.paused, alert=game.alert,
             legend=legend.labels,
             holds=legend.holds)
    if game.reading:
        return _tracker_view(game, v)
    if game.settings.shown_over(MODE):
        return game.settings.view(dataclasses.replace(v, phase=Phase.SETTINGS))
    return _stage_view(game, v, now)


def _clock(game: Seen, now: float) -> str:
    return clock_text(game.timer.shown_seconds(now)) if game.timer is not None else ""


def _stage_view(game: Seen, v: View, now: float) -> View:
    r = dataclasses.replace
    match game.stage:
        case Stage.SETUP:
            return r(v, phase=Phase.REFEREE, title=game_name(MODE),
                     big=_setup_value(game), details=_setup_details(game),
                     footer=setup_holds_note(MODE), hint=Button.START, between=True)
        case Stage.RESUME:
            return r(v, phase=Phase.IDLE, title=_("Resume the saved game?"),
                     details=(_resume_words(game),), hint=Button.START)
        case Stage.DEAL | Stage.NIGHT:
            return _turn_view(game, v, now)
        case Stage.DAWN:
            return r(v, phase=Phase.DISCUSSION, title=_("Dawn {n}").format(n=game.night),
                     caption=game.caption, seats=_ring(game))
        case Stage.DISCUSSION:
            left = game.timer.remaining(now) if game.timer is not None else 0.0
            return r(v, phase=Phase.DISCUSSION,
                     title=_("Day {n} · Discussion").format(n=game.night + 1),
                     big=_clock(game, now), details=(game.caption or _tracker_line(game),),
                     seats=_ring(game), urgent=0 < left <= 10, hint=Button.VOTE)
        case Stage.VOTE:
            # The vote's clock is the box's big timer, with its bar, as a
            # day's clock is in One Night: in the ring's middle the long
            # call to vote would shrink it (below the size floor at
            # 320×240). The votes needed follow the call under it.
            t = game.timer
            shown = t.shown_seconds(now) if t is not None else 0
            return r(v, phase=Phase.VOTE,
                     title=_("Day {n} · Vote").format(n=game.night + 1),
                     big=_clock(game, now), caption=game.caption or _needed_words(game),
                     progress=min(1.0, shown / t.total) if t is not None and t.total else 0.0,
                     urgent=0 < shown <= 10, hint=Button.VOTE)
        case Stage.POINT:
            number = str(len(said.COUNT_IN) - game.count_in)
            return r(v, phase=Phase.VOTE, title=_("Point at your choice"), big=number,
                     caption=game.caption)
        case Stage.TALLY:
            return r(v, phase=Phase.REFEREE, title=_("Who has the most votes?"),
                     big=_picked(game, game.cursor), seats=_ring(game, game.cursor),
                     details=(_("Or START: a tie."),))
        case Stage.COUNT:
            return r(v, phase=Phase.REFEREE, title=_("Votes for seat {seat}").format(
                seat=game.tally), big=str(game.votes), details=(
                _("Votes"), _needed_words(game)), hint=Button.START)
        case Stage.RESULT:
            return r(v, phase=Phase.REFEREE, title=_("The vote"),
                     big=_("Out") if game.verdict[0] else _("Nobody out"),
                     details=(_verdict_words(game), _needed_words(game, game.verdict[1])),
                     hint=None if game.applied else Button.START)
    return _end_view(game, v)


def _turn_view(game: Seen, v: View, now: float) -> View:
    r = dataclasses.replace
    turn = game.current_turn()
    head = _("Night {n}").format(n=game.night) if game.stage is Stage.NIGHT else _("The deal")
    if game.turn_stage != _WAIT:
        # Between turns: dark, the same for every setup, only the line
        # being said, with no word from the box (an alert) on it. The
        # painter lights the words above the veil: without sound the
        # call is read here, and nothing on this screen is secret (a
        # card or a message shows only in its seat's window).
        return r(v, phase=Phase.NIGHT, title=head, caption=game.caption, alert="",
                 dim=True)
    clock = _clock(game, now)
    if turn.kind in (Kind.CARD, Kind.LOOK):
        if not game.showing:
            what = _("Hold VOTE to see your card; let go to hide it.") \
                if turn.kind is Kind.CARD else \
                _("Hold VOTE to read your message; let go to hide it.")
            return r(v, phase=Phase.REFEREE, title=_("Seat {seat} · {clock}").format(
                seat=turn.seat, clock=clock), big=_("Hold VOTE"), details=(
                _("Seat {seat} only").format(seat=turn.seat), what))
        name, big, notes = _private(game, turn)
        return r(v, phase=Phase.REFEREE, title=_("Seat {seat} · {clock}").format(
            seat=turn.seat, clock=clock), big=big, details=(name, *notes), private=True)
    if turn.kind is Kind.PHONES:
        return r(v, phase=Phase.DISCUSSION, title=_("The deal · {clock}").format(clock=clock),
                 big=clock, caption=_("Look at your phone: hold its cover to see your card."))
    if turn.kind in (Kind.PLOT, Kind.ACT, Kind.READ):
        # A night on phones: the box shows only its clock, the same for
        # every setup; each seat reads and answers on its own phone.
        return r(v, phase=Phase.DISCUSSION, title=_("Night {n} · {clock}").format(
            n=game.night, clock=clock), big=clock,
            caption=game.caption or _("Eyes on your phone: hold its cover to read it."))
    if turn.kind is Kind.PLAN:
        who = _("Wolves") if turn.id == "wolves" else _("Nobles")
        return r(v, phase=Phase.DISCUSSION, title=_("{who} · plan").format(who=who),
                 big=clock, caption=_("Plan in silence. Eyes closed when it ends."))
    refused = [game.refused] if game.refused else []
    if turn.kind is Kind.KILL:
        # The step in the title: the ring's middle keeps room for the
        # pointed seat and the marks (a tie included) at the size floor.
        slot, asked = KILL_STEPS[game.kill_step]
        title = _("Wolves · Wolf {n}: knife · {clock}") if asked == _KNIFE else \
            _("Wolves · Wolf {n}: victim · {clock}")
        marks = game.kill_marks()
        ring = _ring(game, game.cursor, [s for s in marks if s is not None], refused)
        return r(v, phase=Phase.REFEREE, title=title.format(n=slot + 1, clock=clock),
                 big=_pointed(game), details=(_kill_words(game, marks),), seats=ring,
                 private=True)
    role = role_name(turn.role)
    question = _ACTION_QUESTIONS[turn.role]
    chosen = [game.chosen] if game.chosen is not None else []
    return r(v, phase=Phase.REFEREE, title=_("{role} · {clock}").format(role=role,
                                                                        clock=clock),
             big=_pointed(game), details=(_(question),),
             seats=_ring(game, game.cursor, chosen, refused), private=True)


# The turns played on the phones, a window for every seat at once.
_ON_PHONES = (Kind.PHONES, Kind.PLOT, Kind.ACT, Kind.READ)


def phone_view(game: Seen, seat: int, now: float) -> PhoneView:
    """What `seat`'s phone shows: the box's public screen, and from the
    deal on phones (or the box's deal done) to the end its own card behind
    the cover (and no other seat's, ever), in every phase, so a player
    whose phone rejoined by day can read it again, as in the Mayor's game.
    At a night on phones the cover holds the night's task as well."""
    base = _phone_screen(game, public(view(game, now), seat))
    if game.stage in (Stage.DEAL, Stage.NIGHT) and game.turns \
            and game.current_turn().kind not in _ON_PHONES:
        # The box deals or calls a seat at a time, eyes closed: a phone
        # points at nothing but itself (not at the box's buttons a called
        # seat is told of aloud), the same on every seat.
        base = night(seat, _("Night {n}").format(n=game.night)
                     if game.stage is Stage.NIGHT else _("The deal"))
    if seat in game.dead and game.stage is not Stage.END:
        base = out_of_the_game(base)
    card = _card_secret(game, seat)
    if game.stage is Stage.NIGHT and game.turns and game.turn_stage == _WAIT \
            and game.current_turn().kind in (Kind.PLOT, Kind.ACT, Kind.READ) \
            and seat in SEATS and seat not in game.dead:
        return _night_on_phone(game, base, seat)
    base = dataclasses.replace(base, secret=card)
    if game.stage in (Stage.VOTE, Stage.POINT) and game.voting_on_phones() \
            and seat in SEATS and seat not in game.dead:
        # Every living seat is asked the same, with the same choices but
        # its own seat: whom it votes out. What it chose shows on its
        # phone alone.
        options = tuple((s, _seat_word(s)) for s in SEATS if s not in game.dead and s != seat)
        return dataclasses.replace(base, task=Task(
            game.vote_step(), _("Your vote: whom do you vote out?"),
            (*options, (SKIP, _("Nobody: skip"))),
            tuple(v for v in (game.phone_votes.get(seat),) if v is not None)))
    return base


def _card_secret(game: Seen, seat: int) -> tuple[str, ...]:
    """`seat`'s card as its cover shows it, in the same four lines for
    every seat (a seat that knows no partner says so), from the moment the
    deal on phones asks every seat to hold its cover (all eyes are open
    for it) or the box's deal is over; nothing before the game is dealt."""
    if not 1 <= seat <= len(game.seats) or game.stage in (Stage.SETUP, Stage.RESUME):
        return ()
    if game.stage is Stage.DEAL and not (
            game.turns and game.turn_stage in (_SPEAK, _WAIT)
            and game.current_turn().kind is Kind.PHONES):
        return ()
    _name, role, notes = _card(game, seat)
    if _partner(game, seat) is None:
        notes = (notes[0], _("You know no other seat's card."), *notes[1:])
    return (role, *notes)


def _phone_screen(game: Seen, base: PhoneView) -> PhoneView:
    """The box's public screen as a phone shows it: a window's clock once,
    large (the box's title repeats it for a table across the room), and
    the end in full, every page of it (a phone scrolls; the box pages)."""
    if game.stage in (Stage.DEAL, Stage.NIGHT) and game.turns and game.turn_stage == _WAIT \
            and game.current_turn().kind in _ON_PHONES:
        head = _("Night {n}").format(n=game.night) if game.stage is Stage.NIGHT \
            else _("The deal")
        return dataclasses.replace(base, title=head)
    if game.reading:
        return dataclasses.replace(base, title=_("Setups still possible"),
                                   lines=tuple(game.tracker_items()))
    if game.stage is Stage.END:
        return dataclasses.replace(base, title=_end_title(game), lines=tuple(game.end_items()),
                                   picture=game.picture())
    return base


def _night_on_phone(game: Seen, base: PhoneView, seat: int) -> PhoneView:
    """A living seat's phone in a night on phones. Every seat gets the same
    prompt and the same kind of options (see Game.night_options), its own
    last tap marked; what its tap does is in its secret: the Wolves' plot
    (with the partner's marks, the pack's own secret), its role's action,
    or a decoy that changes nothing. In the messages' window, its message."""
    kind = game.current_turn().kind
    if kind is Kind.READ:
        return dataclasses.replace(base, secret=(*game.message(seat), _("Your card: {role}").format(
            role=role_name(game.seats[seat - 1]))))
    role = game.seats[seat - 1]
    if kind is Kind.PLOT and seat in game.pack():
        does = _("Tap a Town seat: your victim. Tap yourself or your partner: who holds "
                 "the knife. Your partner sees your marks.") if len(game.pack()) > 1 else \
            _("Tap a Town seat: your victim. You hold the knife.")
        secret = (role_name(role), does, *_pack_marks(game, seat))
    elif kind is Kind.ACT and ROLES[role].ability is not None:
        secret = (role_name(role), _(_ACTION_QUESTIONS[role]),
                  _("Tap a seat; you can change it until the time is up."))
    else:
        secret = (role_name(role), _(
            "Nothing to do now: tap whoever seems most suspicious to you; it changes "
            "nothing."))
    if kind is Kind.ACT and seat in game.pack():
        secret += (_kill_line(game),)
    options = tuple((s, _seat_word(s)) for s in game.night_options(seat))
    mark = game.marks.get(seat)
    chosen: tuple[int, ...] = (mark,) if mark is not None else ()
    if kind is Kind.PLOT and seat in game.pack():
        # Both of a Wolf's marks (behind its cover): the victim stays
        # marked once the knife is tapped.
        slot = game.pack().index(seat)
        chosen = tuple(s for s in (game.victims[slot], game.knives[slot]) if s is not None)
    return dataclasses.replace(base, secret=secret, task=Task(
        game.night_step(), _("Tonight: choose a seat"), options, chosen))


def _pack_marks(game: Seen, seat: int) -> tuple[str, ...]:
    """Each living Wolf's marks as they stand, this seat's first."""
    pack = game.pack()
    lines = []
    for wolf in sorted(pack, key=lambda s: s != seat):
        slot = pack.index(wolf)
        victim, knife = game.victims[slot], game.knives[slot]
        marks = _("victim: {victim} · knife: {knife}").format(
            victim=_picked(game, victim) if victim is not None else "–",
            knife=_picked(game, knife) if knife is not None else "–")
        lines.append(_("You: {marks}").format(marks=marks) if wolf == seat else
                     _("{seat}, your partner: {marks}").format(seat=_picked(game, wolf),
                                                               marks=marks))
    return tuple(lines)


def _kill_line(game: Seen) -> str:
    """What the pack decided in its plot, for the Wolves' eyes only."""
    if game.kill is None:
        return _("No kill tonight: no victim was marked.")
    return _("Tonight's kill: {target}; the knife: {knife}.").format(
        target=_picked(game, game.kill.target), knife=_picked(game, game.kill.knife))


def _pointed(game: Seen) -> str:
    """The seat a turn's buttons point at; a hint before the first press."""
    return _picked(game, game.cursor) if game.cursor else _("NEXT: a seat")


def _private(game: Seen, turn: Turn) -> tuple[str, str, tuple[str, ...]]:
    """A seat's card (the deal) or its message (a night): its name line,
    its big word and its notes."""
    seat = turn.seat
    if turn.kind is Kind.LOOK:
        big, note = game.message(seat)
        return _("Seat {seat} · tonight").format(seat=seat), big, (note,)
    return _card(game, seat)


def _card(game: Seen, seat: int) -> tuple[str, str, tuple[str, ...]]:
    """A seat's card: its name line, the role, its team, partner and power."""
    role = game.seats[seat - 1]
    notes = [_("Team: {team}").format(team=team_name(team_of(role)))]
    partner = _partner(game, seat)
    if partner:
        # The role too: a silent pack cannot tell each other whether the
        # partner is a plain Wolf, the Alchemist or the Track Reader.
        notes.append(_("Your partner: {seat}, {role}").format(
            seat=_picked(game, partner), role=role_name(game.seats[partner - 1])))
    notes.append(_(ROLES[role].does))
    return _("Seat {seat} · your card").format(seat=seat), role_name(role), tuple(notes)


def _partner(game: Seen, seat: int) -> int | None:
    """Wolves know each other and Nobles know each other (004)."""
    role = game.seats[seat - 1]
    if not is_wolf_team(role) and role != NOBLE:
        return None
    same = (lambda r: is_wolf_team(r)) if is_wolf_team(role) else (lambda r: r == NOBLE)
    return next(s for s in SEATS if s != seat and same(game.seats[s - 1]))


def _ring(game: Seen, cursor: int = 0, marked: Sequence[int] = (),
          refused: Sequence[int] = ()) -> tuple[Seat, ...]:
    return tuple(Seat(seat=s, alive=s not in game.dead,
                      role=role_name(game.dead[s]) if s in game.dead else "",
                      cursor=s == cursor, marked=s in marked, refused=s in refused)
                 for s in SEATS)


def _kill_words(game: Seen, marks: Sequence[int | None]) -> str:
    """Each Wolf's mark for the question asked, and a tie said as one."""
    first, second = (str(s) if s is not None else "–" for s in marks)
    if None not in marks and marks[0] != marks[1]:
        # TRANSLATORS: the two Wolves marked different seats: the box
        # draws one of them at random (004). Keep it short: one line.
        return _("Wolf 1: {first} · Wolf 2: {second} · a tie").format(
            first=first, second=second)
    return _("Wolf 1: {first} · Wolf 2: {second}").format(first=first, second=second)


def _tracker_line(game: Seen) -> str:
    possible = game.possible()
    return _("Possible setups: {names}").format(names=" ".join(possible))


def _tracker_view(game: Seen, v: View) -> View:
    shown = game.tracker_pages()
    page = game.page % len(shown)
    title = _("Setups still possible")
    if len(shown) > 1:
        title = _("{title} · {page}/{pages}").format(title=title, page=page + 1,
                                                    pages=len(shown))
    return dataclasses.replace(v, phase=Phase.VERDICT, title=title, details=shown[page])


def _end_title(game: Seen) -> str:
    return {"town": _("The Town wins"), "wolves": _("The Wolves win"),
            "draw": _("A draw")}.get(game.winner or "", _("Game ended early"))


def _end_view(game: Seen, v: View) -> View:
    """The cards and deaths, then each night drawn."""
    shown = game.end_pages()
    picture = game.picture()
    drawn = picture.pages if picture is not None else ()
    page = game.page % (len(shown) + len(drawn))
    if page >= len(shown):
        night = drawn[page - len(shown)]
        title = _("{title} · {page}/{pages}").format(title=night.title, page=page - len(shown)
                                                    + 1, pages=len(drawn))
        return dataclasses.replace(v, phase=Phase.VERDICT, title=title, picture=night)
    title = _end_title(game)
    if len(shown) > 1:
        title = _("{title} · {page}/{pages}").format(title=title, page=page + 1,
                                                    pages=len(shown))
    return dataclasses.replace(v, phase=Phase.VERDICT, title=title, details=shown[page])


def _setup_value(game: Seen) -> str:
    if SETUP_ITEMS[game.item] == "game":
        return game_name(MODE)
    return game.choice or _("Random")


def _setup_details(game: Seen) -> tuple[str, ...]:
    if SETUP_ITEMS[game.item] == "game":
        return (_("Game"), switch_note(MODE))
    if not game.choice:
        what = _("One of the nine setups, dealt in secret.")
    else:
        what = describe(game.choice)
    return (_("Setup"), what, _phones_note(game) or _("Nine players. Seat 1 faces the screen; "
                                                     "seats go clockwise."))


def _phones_note(game: Seen) -> str:
    """What the setup says of phones once one has joined: the deal, the
    nights and the votes go on them only with a phone at every seat."""
    if not game.phones:
        return ""
    if game.phones >= set(SEATS):
        return _("A phone at every seat: the deal, the nights and the votes are on the phones.")
    return _("Phones at {joined} of 9 seats: the deal, the nights and the votes go on the "
             "phones once every seat holds one.").format(joined=len(game.phones & set(SEATS)))


def _resume_words(game: Seen) -> str:
    to = game.saves.resume_to
    if to is Stage.DEAL:
        return _("The deal, from seat 1")
    if to is Stage.NIGHT and game.resume_chosen:
        return _("Night {n}, from its messages").format(n=game.night)
    if to is Stage.NIGHT:
        return _("Night {n}, from its start").format(n=game.night)
    if to is Stage.DAWN:
        return _("Dawn {n}").format(n=game.night)
    if to is Stage.END:
        return _("The end")
    return _("Day {n}").format(n=game.night + 1)


def _needed_words(game: Seen, living: int = 0) -> str:
    """The strict majority of `living` (of the living now, by default)."""
    living = living or game.living_count()
    return _("{living} alive: {needed} votes put a seat out.").format(
        living=living, needed=rules.votes_needed(living))


def _verdict_words(game: Seen) -> str:
    if game.tie:
        return _("A tie")
    seat = _picked(game, game.tally)
    if game.verdict[0]:
        return ngettext("{seat}: {votes} vote", "{seat}: {votes} votes",
                        game.votes).format(seat=seat, votes=game.votes)
    return ngettext("{seat}: {votes} vote, short of a majority",
                    "{seat}: {votes} votes, short of a majority", game.votes).format(
        seat=seat, votes=game.votes)


_ACTION_QUESTIONS = {
    ALCHEMIST: N_("Whom do you block?"),
    CHEF: N_("Whom do you jail?"),
    GUARD: N_("Whom do you protect?"),
    SEER: N_("Whom do you inspect?"),
    TRACK_READER: N_("Whose tracks do you read?"),
    DAIRY_MAID: N_("Whom do you visit?"),
    PRIEST: N_("Whom do you watch?"),
}


def result_words(role: str, target: int, result: Result | None,
                 names: Mapping[int, str] | None = None) -> tuple[str, str]:
    """An information role's result as its owner reads it, each seat by
    its player's name where it gave one."""
    if result is None:
        return _("No result"), _("Your action did not work tonight.")
    seat = seat_name(target, names or "")
    if role == SEER:
        if result["wolf"]:
            return _("Wolf"), _("{seat} is on the Wolves' side.").format(seat=seat)
        return _("Not a Wolf"), _("{seat} is not on the Wolves' side.").format(seat=seat)
    if role == TRACK_READER:
        seen = str(result["role"])
        if seen == VANILLA:
            return _("Vanilla"), _("{seat} is a Wolf or a Sheep.").format(seat=seat)
        return role_name(seen), _("{seat} is the {role}.").format(
            seat=seat, role=role_name(seen))
    if role == PRIEST:
        went = result["visited"]
        if went is None:
            return _("Nobody"), _("{seat} visited nobody.").format(seat=seat)
        other = seat_name(int(went), names or "")
        return other, _("{seat} visited {other}.").format(seat=seat, other=other)
    assert role == DAIRY_MAID
    return _("Milk"), _("{seat} now knows you are Town.").format(seat=seat)


def _seat_word(seat: int) -> str:
    return _("Seat {seat}").format(seat=seat)


def _picked(game: Seen, seat: int) -> str:
    """The seat a picker is on, by its player's name too where a phone gave one."""
    return seat_name(seat, game.names.get(seat, ""))


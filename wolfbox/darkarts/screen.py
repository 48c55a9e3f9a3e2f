"""What the Mayor's game shows: each stage's screen, drawn from the game's
state and never changing it (the state machine is game.py)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..buttons import Button
from ..engine.actions import Legend
from ..i18n import _, copies, listed, ngettext
from ..phone import PhoneView, night, out_of_the_game, public, seat_name
from ..roster import game_name, setup_holds_note, switch_note
from ..timer import clock_text
from ..view import Phase, Seat, View
from . import console, rules
from .model import (
    _CARD,
    _DAWN,
    _NIGHT_STAGES,
    _SHOT,
    _WAIT,
    GAME_ITEM,
    LIMITS,
    MODE,
    NO_SEAT,
    PHASE_OF,
    RING_STAGES,
    Screen,
    Stage,
)
from .night import call_title
from .roles import VILLAGE, role_name
from .seen import Seen


def phone_view(game: Seen, seat: int, now: float) -> PhoneView:
    """What `seat`'s phone shows. The Mayor's (the seat after the table's,
    while a game is under way): the box's screen and the console. A
    player's: the box's public screen and who is dead with which card (at
    night, whatever the box shows the Mayor, the same night view on every
    phone: eyes closed until called); while the hands are up on the phones,
    the question to a seat that may vote; and, where the box dealt the
    cards to the phones, this seat's card (and no other) behind the cover,
    from the deal's window on, the whole game long."""
    shown = screen(game, now).view
    if seat == game.mayor_seat and game.busy():
        return console.view(game, shown, seat)
    if seat == game.mayor_seat and game.stage is Stage.RESUME:
        # Still the Mayor's seat (a power cut): the public screen, no console
        # until the table resumes.
        return dataclasses.replace(public(shown, seat), label=_("Mayor"))
    if game.stage in _NIGHT_STAGES:
        base = night(seat, _night_title(game))
    else:
        base = _player_screen(game, public(shown, seat), now)
    hands = console.hands_task(game, seat)
    base = dataclasses.replace(base, lines=base.lines + _dead_words(game), task=hands and
                               dataclasses.replace(hands, marks_shown=True))   # public
    if game.ring is not None and seat in game.ring.dead and game.stage is not Stage.END:
        base = out_of_the_game(base)
    if game.dealt is None or not 1 <= seat <= len(game.dealt) or game.stage is Stage.SETUP:
        return base
    return dataclasses.replace(base, secret=(
        role_name(game.dealt[seat - 1]), _("Your card for the whole game: keep it to yourself.")))


def _dead_words(game: Seen) -> tuple[str, ...]:
    """The dead and their cards, as turned up for the table: on every
    phone, since a phone has no seat ring to show them."""
    ring = game.ring
    if ring is None or not ring.dead or game.stage in (Stage.SETUP, Stage.RESUME):
        return ()
    dead = listed([_("{seat} ({role})").format(seat=_picked(game, s), role=role_name(r))
                   for s, r in sorted(ring.dead.items())])
    return (_("Dead: {dead}").format(dead=dead),)


def screen(game: Seen, now: float) -> Screen:
    legend = Legend.of(game.taps(), game.holds())
    # The ring shows the line in its middle while it is said (a table
    # without sound reads it there; an alert is shown once, in its box),
    # then the Mayor's question again. The count's screens show their
    # verdict and the end its winner in the title, not the line. The
    # night and the hands show the line, as One Night does.
    ring = game.stage in RING_STAGES
    if ring:
        # Only a line about this screen: "The card: Villager." of the last
        # death is not shown over the next seat's card.
        speaking = game.speech.line is not None and game.caption != game.alert \
            and game.speech.about == game.subject()
        caption = game.caption if speaking else ""
    elif PHASE_OF[game.stage] is Phase.REFEREE or game.stage is Stage.END:
        caption = ""
    else:
        caption = game.caption
    view = View(phase=PHASE_OF[game.stage], title="", paused=game.paused,
                caption=caption, alert=game.alert,
                legend=legend.labels,
                holds=legend.holds)
    if game.settings.shown_over(MODE):
        view = game.settings.view(dataclasses.replace(view, phase=Phase.SETTINGS))
    elif game.reading:
        # Not dimmed at night: the Mayor reads it while the table sleeps.
        view = dataclasses.replace(_book_view(game, view), phase=Phase.VERDICT, caption="")
    else:
        view = _stage_view(game, view, now)
    seats = _seats_shown(game)
    if ring and not game.reading:
        view = dataclasses.replace(view, seats=seats,
                                   details=() if caption else view.details)
    return Screen(view, game.stage, seats)


def _stage_view(game: Seen, v: View, now: float) -> View:
    r = dataclasses.replace
    t = game.timer
    clock = clock_text(t.shown_seconds(now)) if t is not None else ""
    match game.stage:
        case Stage.SETUP:
            return r(v, title=_("Werewolf with a Mayor"), big=_setup_value(game),
                     details=_setup_details(game), footer=setup_holds_note(MODE),
                     hint=Button.START, between=True)
        case Stage.RESUME:
            return r(v, title=_("Resume the saved game?"), hint=Button.START,
                     details=(_resume_words(game),))
        case Stage.DEAL:
            # The line while it is said; then the window's clock, and what to do.
            said = v.caption if game.speech.line is not None else ""
            return r(v, title=_("The deal"), big=clock, caption=said or _(
                "Look at your phone: hold its cover to see your card."))
        case Stage.NIGHT:
            big = clock if game.night_stage == _WAIT else ""
            return r(v, title=_night_title(game), big=big, dim=True,
                     progress=1 - game.step_index / len(game.steps))
        case Stage.LOVERS:
            # Not dimmed: the Mayor reads the seats while the table sleeps.
            # Private: who the Lovers are stays off a terminal's record.
            return r(v, title=_night_title(game), big=_picked(game, game.cursor),
                     details=(_("Mark the two Lovers the Matchmaker chose."),),
                     private=True)
        case Stage.DAWN:
            return r(v, title=_("Dawn {n} · Who died?").format(n=game.night),
                     big=_picked(game, game.cursor),
                     details=(_("Mark each seat that died in the night."),))
        case Stage.ROLE:
            role = game.chosen_role()
            return r(v, title=_("Seat {seat} · Role").format(seat=game.dying),
                     big=role_name(role) if role else _("Not chosen"),
                     hint=Button.START if role else Button.NEXT,
                     details=(_("Which card did seat {seat} have?")
                              .format(seat=game.dying),))
        case Stage.SHOT:
            big = _picked(game, game.cursor)
            return r(v, title=_("The Hunter's victim"), big=big,
                     details=(_("The Hunter at seat {seat} chooses alone.")
                              .format(seat=game.by),))
        case Stage.CONFIRM:
            return r(v, hint=Button.START, **_confirm_view(game))
        case Stage.DISCUSSION:
            return r(v, title=_("Day {n} · Discussion").format(n=game.night), big=clock,
                     details=(_alive_words(game),), hint=Button.VOTE)
        case Stage.ACCUSE:
            return r(v, title=_("Who is accused?"), big=_picked(game, game.cursor))
        case Stage.SECOND:
            return r(v, title=_("Is there a second?"), big=_picked(game, game.accused))
        case Stage.DEFENCE:
            return r(v, title=_("Seat {seat} · Defence").format(seat=game.accused),
                     big=clock, hint=Button.VOTE)
        case Stage.HANDS:
            lynch = _("To lynch seat {seat}").format(seat=game.accused)
            if not game.hands_on_phones:
                return r(v, title=_("Raise your hands"), big=_seat_word(game.accused),
                         details=(lynch,))
            return r(v, title=_("Vote on your phones"), big=_seat_word(game.accused),
                     details=(lynch, _hands_clock(clock)))
        case Stage.COUNT | Stage.RESULT:
            details = _count_details(game)
            if game.stage is Stage.RESULT:     # the verdict first, as it was said
                lynched = rules.passes(game.vote_count(), game.living_count())
                details = (_("Lynched") if lynched else _("The vote fails"), *details[1:])
            return r(v, title=_("Votes to lynch seat {seat}").format(seat=game.accused),
                     big=str(game.vote_count()), details=details,
                     hint=Button.START if game.stage is Stage.RESULT else None)
    return _book_view(game, v)


def _night_title(game: Seen) -> str:
    """The night's title as the box shows it to the table: the call."""
    if game.stage is Stage.LOVERS:
        return _("Night 1 · Lovers")
    step = game.steps[game.step_index]
    return _("Night {n} · {call}").format(n=game.night, call=call_title(step.id))


def _hands_clock(clock: str) -> str:
    return _("Hands on the phones: {clock}").format(clock=clock) if clock \
        else _("Hands on the phones")


def _player_screen(game: Seen, base: PhoneView, now: float) -> PhoneView:
    """The box's public screen as a player's phone shows it: the hands'
    clock large while they are up on the phones (once: not again in a
    line), and the book whole, every page of it (a phone scrolls)."""
    t = game.timer
    if game.stage is Stage.HANDS and game.hands_on_phones and t is not None:
        clock = clock_text(t.shown_seconds(now))
        return dataclasses.replace(base, big=clock, lines=tuple(
            line for line in base.lines if line != _hands_clock(clock)))
    if game.reading or game.stage is Stage.END:
        return dataclasses.replace(base, title=_book_title(game), lines=tuple(
            game.book.lines(game.names) or [_("Nobody has died yet.")]))
    return base


def _confirm_view(game: Seen) -> dict[str, Any]:
    """An entry shown back: its title, its value and the question."""
    if game.pending == _DAWN:
        deaths = len(game.dawn_deaths)
        # The legend says the rest: START OK, BACK Change.
        if deaths:
            big = ngettext("{count} death", "{count} deaths", deaths).format(count=deaths)
            question = _("No other seat died: right?")
        else:
            big, question = _("Nobody died"), _("Nobody died in the night: right?")
        return {"title": _("Dawn {n} · Who died?").format(n=game.night), "big": big,
                "details": (question,)}
    if game.pending == _SHOT:
        return {"title": _("The Hunter's victim"), "big": _picked(game, game.cursor),
                "details": (_("The Hunter shot seat {seat}: right?").format(
                    seat=game.cursor),)}
    role = game.chosen_role()
    assert role is not None
    return {"title": _("Seat {seat} · Role").format(seat=game.dying),
            "big": role_name(role),
            "details": (_("Seat {seat}'s card: {role}. Right?").format(
                seat=game.dying, role=role_name(role)),)}


def _book_view(game: Seen, v: View) -> View:
    """The story so far, a page at a time; at the end, under who won."""
    shown = game.book_pages()
    page = game.page % len(shown)
    title = _book_title(game)
    if len(shown) > 1:
        title = _("{title} · {page}/{pages}").format(title=title, page=page + 1,
                                                    pages=len(shown))
    return dataclasses.replace(v, title=title, details=shown[page])


def _book_title(game: Seen) -> str:
    if game.stage is Stage.END:
        return _("The village wins") if game.winner == VILLAGE else _("The werewolves win")
    return _("Book")


def setup_limit(game: Seen, item: str) -> int:
    """A day limit's seconds on the setup screen (0: none)."""
    o = game.options
    seconds = o.discussion_seconds if item == "discussion" else o.defence_seconds
    return round(seconds) if seconds else 0


def _setup_value(game: Seen) -> str:
    item = game.setup_items()[game.cursor % len(game.setup_items())]
    if item == GAME_ITEM:
        return game_name(MODE)
    if item in LIMITS:
        seconds = setup_limit(game, item)
        return clock_text(seconds) if seconds else _("No limit")
    if item == "players":
        return str(game.players)
    return str(game.chosen.get(item, 0))


def _setup_details(game: Seen) -> tuple[str, ...]:
    item = game.setup_items()[game.cursor % len(game.setup_items())]
    if item == GAME_ITEM:
        return (_("Game"), switch_note(MODE))
    if item in LIMITS:
        name = _("Discussion limit") if item == "discussion" else _("Defence limit")
        note = _("Set in the config file.") if LIMITS[item][0] in game.options.fixed \
            else _("When it runs out, a chime; the Mayor moves on.")
        return (name, note)
    name = _("Players") if item == "players" else role_name(item)
    setup = rules.Setup.of(game.players, game.chosen)
    deal = listed([copies(role_name(r), n) for r, n in setup.counts.items()])
    return (name, _("Deal: {cards}").format(cards=deal),
            _phones_note(game) or _("Seat 1 faces the screen; seats go clockwise."))


def _phones_note(game: Seen) -> str:
    """What the setup says of phones once one has joined: the box deals the
    cards to them only with a phone at every seat; the Mayor's phone takes
    the seat after the last player's when the game starts."""
    if not game.phones:
        return ""
    seats = set(range(1, game.players + 1))
    if game.phones >= seats:
        return _("A phone at every seat: the box deals the cards to the phones. The Mayor's "
                 "phone takes seat {mayor} once the game starts.").format(mayor=game.players + 1)
    return _("Phones at {joined} of {seats} seats: the box deals the cards to the phones once "
             "every seat holds one.").format(joined=len(game.phones & seats), seats=len(seats))


def _resume_words(game: Seen) -> str:
    to = game.saves.resume_to
    if to is Stage.DEAL:
        return _("The deal")
    if to is Stage.NIGHT:
        return _("Night {n}").format(n=game.night)
    if to is Stage.DAWN:
        return _("Dawn {n}: the night's deaths are entered again").format(n=game.night)
    return _("Day {n}").format(n=game.night)


def _alive_words(game: Seen) -> str:
    living, needed = game.living_count(), rules.lynch_threshold(game.living_count())
    return ngettext("{living} alive: a lynch needs {needed} vote.",
                    "{living} alive: a lynch needs {needed} votes.", needed).format(
        living=living, needed=needed)


def _count_details(game: Seen) -> tuple[str, ...]:
    living = game.living_count()
    out = [_("Hands: {hands} of at most {most}").format(
        hands=game.hands, most=rules.most_hands(living))]
    if game.adjust:
        out.append(_("Adjusted by {adjust:+d}").format(adjust=game.adjust))
    out.append(_("Needed: {needed}").format(needed=rules.lynch_threshold(living)))
    return tuple(out)


def _seats_shown(game: Seen) -> tuple[Seat, ...]:
    ring = game.ring
    if ring is None or game.stage in (Stage.SETUP, Stage.RESUME):
        return ()
    if game.stage in (Stage.LOVERS, Stage.DAWN, Stage.SHOT, Stage.ACCUSE):
        target = game.cursor                # the seat the Mayor's buttons point at
    elif game.stage is Stage.CONFIRM:
        target = {_CARD: game.dying, _SHOT: game.cursor}.get(game.pending, 0)
    elif game.stage is Stage.ROLE:
        target = game.dying
    elif game.stage in (Stage.SECOND, Stage.DEFENCE, Stage.HANDS, Stage.COUNT,
                        Stage.RESULT):
        target = game.accused
    else:
        target = 0
    return tuple(Seat(
        seat=s, alive=ring.alive(s),
        role=role_name(ring.dead[s]) if s in ring.dead else "",
        cursor=s == target,
        marked=game.stage is Stage.LOVERS and s in game.picked,
        refused=game.stage is Stage.ACCUSE and s == game.previous_accused)
        for s in ring.seats)


def _seat_word(seat: int) -> str:
    """The seat a ring screen is about, in its middle."""
    return _("Seat {seat}").format(seat=seat)


def _picked(game: Seen, seat: int) -> str:
    """The seat a picker is on, by its player's name too where a phone
    gave one; before the Mayor points at one, none."""
    if seat == NO_SEAT:
        return _("Not chosen")
    return seat_name(seat, game.names.get(seat, ""))

"""What One Night shows: each phase's screen, drawn from the round's state
and never changing it (the round itself is flow.py)."""

from __future__ import annotations

import dataclasses

from .. import pages
from ..buttons import Button
from ..engine.actions import Legend
from ..i18n import _, ngettext
from ..phone import PhoneView, public
from ..roster import game_name, setup_holds_note
from ..timer import clock_text
from ..view import Phase, View
from . import lines
from .entry import written_verdict
from .model import ONE_NIGHT
from .model import SPEAK as _SPEAK
from .model import WAIT as _WAIT
from .night import PHONE_RULE, step_title
from .seen import Seen


def view(game: Seen, now: float) -> View:
    legend = Legend.of(game.taps(), game.holds())
    base = View(phase=game.phase, title="", paused=game.paused,
                caption=game.caption_page(now),
                legend=legend.labels,
                holds=legend.holds,
                hint=_hint(game, now))
    t = game.timer
    match game.phase:
        case Phase.IDLE:
            return _idle_view(game, base, now)
        case Phase.SETTINGS:
            return _settings_view(game, base)
        case Phase.REFEREE:
            return _referee_view(game, base)
        case Phase.VERDICT:
            return _verdict_view(game, base)
        case Phase.NIGHT:
            step = game.settings.night[game.step_index]
            big = clock_text(t.shown_seconds(now)) if t and game.stage == _WAIT else ""
            progress = (game.step_index + (game.stage != _SPEAK) * 0.5) \
                / len(game.settings.night)
            title = _("Night · {step}").format(step=step_title(step.id, game.playing()))
            return dataclasses.replace(base, title=title, big=big, progress=1 - progress,
                                       dim=True)
        case Phase.DISCUSSION:
            assert t is not None
            shown = t.shown_seconds(now)
            return dataclasses.replace(
                base, title=_("Discussion"), big=clock_text(shown),
                progress=min(1.0, shown / t.total) if t.total else 0.0,
                urgent=shown <= game.settings.tick_from)
        case Phase.VOTE:
            # The phones' vote is timed: its bar drains by the second, and
            # each second is a new screen the phones follow with their clock.
            vote = dataclasses.replace(base, title=_("Vote"),
                                       big=_(lines.COUNTDOWN_SHOWN[game.beat]))
            if _phones_voting(game) and t is not None and t.total:
                vote = dataclasses.replace(vote, progress=t.shown_seconds(now) / t.total)
            return vote
    rules = game.reveal_pages()
    page = game.reveal_page % len(rules)
    title = _("Who won?") if len(rules) == 1 else _("Who won? · {page}/{pages}").format(
        page=page + 1, pages=len(rules))
    return dataclasses.replace(base, title=title, details=rules[page])


def _referee_view(game: Seen, base: View) -> View:
    if game.own is not None:
        return _own_cards_view(game, base)
    assert game.entry is not None
    asked = game.entry.questions()
    title = _("Referee · {step}/{steps}").format(step=game.entry.index + 1,
                                                 steps=len(asked))
    return dataclasses.replace(
        base, title=title, big=game.entry.shown(),
        details=(game.entry.ask(), _("Seat 1 faces the screen; seats go clockwise.")),
        progress=game.entry.index / len(asked), caption="")


def _own_cards_view(game: Seen, base: View) -> View:
    """The table's own cards turned up, entered on the phones: who is left."""
    own = game.own
    assert own is not None
    waiting = own.waiting()
    seats = len(own.seats)
    details = [_("Each player enters the card turned up in front of them on their phone.")]
    if own.problem:
        details.append(own.problem)
    if waiting:
        details.append(_("Waiting for: {seats}").format(
            seats=_(", ").join(str(s) for s in waiting)))
    return dataclasses.replace(
        base, title=_("Referee"), big=_("{done}/{seats}").format(done=seats - len(waiting),
                                                                  seats=seats),
        details=tuple(details), progress=(seats - len(waiting)) / seats)


def _verdict_view(game: Seen, base: View) -> View:
    """The reasons, then (a game on phones) the night's pictures, then what
    happened as a list."""
    shown = game.verdict_pages()
    happened = len(game.happened_pages())
    reasons = len(shown) - happened
    picture = game.picture()
    drawn = picture.pages if picture is not None else ()
    page = game.verdict_page % (len(shown) + len(drawn))
    if reasons <= page < reasons + len(drawn):
        at = page - reasons
        # TRANSLATORS: a picture of the night on the box: its title, then which of how many.
        title = _("{title} · {page}/{pages}").format(title=drawn[at].title, page=at + 1,
                                                     pages=len(drawn))
        return dataclasses.replace(base, title=title, picture=drawn[at], caption="")
    if page >= reasons:
        page -= len(drawn)
    if page >= len(shown) - happened:       # a game on phones: what happened, after the reasons
        title = _("What happened · {page}/{pages}").format(
            page=page - (len(shown) - happened) + 1, pages=happened)
    elif reasons == 1:
        title = _("Verdict")
    else:
        title = _("Verdict · {page}/{pages}").format(page=page + 1, pages=reasons)
    return dataclasses.replace(base, title=title, details=shown[page], caption="")


def _idle_view(game: Seen, base: View, now: float) -> View:
    if game.resumed is not None:
        return dataclasses.replace(base, title=_("Resume the saved game?"),
                                   details=(_resume_words(game),))
    assert game.picker is not None
    deck = game.settings.deck
    title = game.picker.choice.title if game.picker.choice.deck == deck else _("Your deck")
    players = ngettext("{n} player", "{n} players", game.picker.players).format(
        n=game.picker.players)
    shown = game.idle_pages()
    page = int((now - game.idle_since) // pages.IDLE_PAGE_SECONDS) % len(shown)
    # TRANSLATORS: the start screen's title: the game, then the table's size.
    heading = _("{game} · {players}").format(game=game_name(ONE_NIGHT), players=players)
    footer = setup_holds_note(ONE_NIGHT)
    return dataclasses.replace(base, title=heading, details=(title, *shown[page]),
                               footer=footer, between=True)


def _resume_words(game: Seen) -> str:
    """Where a saved round resumes: the call, the discussion's time, the vote."""
    assert game.resumed is not None
    was = game.resumed.saved
    if was.stage == "discussion":
        return _("Discussion, {time} left").format(time=clock_text(was.seconds or 0))
    if was.stage == "vote":
        return _("Vote")
    return _("Night · {step}").format(step=step_title(game.resumed.night[game.resumed.step].id))


def _settings_view(game: Seen, base: View) -> View:
    assert game.screen is not None
    return game.screen.view(base)


def _hint(game: Seen, now: float) -> Button | None:
    """The button the table should press next, if one stands out."""
    if game.paused:
        return Button.START
    if game.phase is Phase.IDLE:
        return Button.START
    if (game.phase is Phase.DISCUSSION and game.timer is not None
            and game.timer.shown_seconds(now) <= game.settings.vote_hint_seconds):
        return Button.VOTE
    if game.phase is Phase.REVEAL:
        return Button.START
    return None


def phone_view(game: Seen, seat: int, now: float) -> PhoneView:
    """What `seat`'s phone shows: the box's public screen and, in a game
    on phones, this seat's own card, task and results behind the cover
    (never another seat's); once the verdict is given, the verdict and
    every move of the night, the same for every seat."""
    shown = view(game, now)
    base = public(shown, seat)
    if shown.between and shown.details:
        # The start screen pages its deck on the box's clock; a phone has
        # room to scroll, so it shows every page at once.
        whole = tuple(line for page in game.idle_pages() for line in page)
        base = dataclasses.replace(base, lines=(shown.details[0], *whole))
    if _phones_voting(game) and game.timer is not None:
        # "VOTE!" is the box's; the phone shows the time left to tap, large,
        # as the other games' timed tasks do (the same on every phone).
        base = dataclasses.replace(base, big=clock_text(game.timer.shown_seconds(now)))
    if game.own is not None:
        return _own_cards_phone(game, base, seat)
    table = game.table
    if table is None or seat not in table.seats:
        return base
    if not table.started:                     # dealt, before START
        if game.phase is Phase.IDLE and game.on_phones():
            return dataclasses.replace(base, secret=table.secret(seat))
        return base
    if game.phase is Phase.VERDICT:
        assert game.verdict is not None
        # What happened is drawn (night.js), its list one tap away.
        return dataclasses.replace(
            base, title=_("Verdict"),
            lines=(*written_verdict(game.verdict, game.names), *game.verdict.why),
            picture=game.picture())
    if game.phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTE):
        task = table.vote_task(seat) if game.phase is Phase.VOTE else table.task(seat)
        # At night, the rule the box said at nightfall, the same on every phone;
        # from dawn, what the whole table sees on the cards: shields, tokens, a
        # card face up.
        rule = (_(PHONE_RULE),) if game.phase is Phase.NIGHT else ()
        return dataclasses.replace(base, lines=(*base.lines, *rule, *table.marks()),
                                   secret=table.secret(seat), task=task)
    return base


def _phones_voting(game: Seen) -> bool:
    """The vote's last beat ("VOTE!"), taken on the phones: timed to tap."""
    return game.phase is Phase.VOTE and game.beat == len(lines.COUNTDOWN) - 1 \
        and (game.playing() or game.own is not None)


def _own_cards_phone(game: Seen, base: PhoneView, seat: int) -> PhoneView:
    """The table's own cards: the vote, then the card turned up (public,
    so it is not behind the cover), then the verdict."""
    own = game.own
    assert own is not None
    if seat not in own.seats:
        return base
    if game.phase is Phase.VERDICT and game.verdict is not None:
        return dataclasses.replace(base, title=_("Verdict"), lines=(
            *written_verdict(game.verdict, game.names), *game.verdict.why))
    if game.phase is Phase.VOTE:
        return dataclasses.replace(base, task=own.vote_task(seat))
    if game.phase is Phase.REFEREE:
        return dataclasses.replace(base, lines=(*base.lines, *own.entered(seat)),
                                   task=own.task(seat))
    return base

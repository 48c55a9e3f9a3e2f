"""Everything the box says in the timed game besides the turns' calls.

Each line holds at most a seat, a role and a count, so the set of lines a
game can need is small and known in advance: `all_lines` is what the box
renders before a game and what `wolfbox prepare` renders ahead, so no line
of a game waits for the voice. So a seat is said by its number, never by
the name its player typed on a phone (no cache holds a name typed
tonight); the screens and phones show the name (wolfbox.phone.seat_name).
The words are the box's own; the facts are 004's.
"""

from __future__ import annotations

from ..i18n import N_, _, ngettext
from .roles import ROLES, Team, role_name, team_of
from .rules import MAX_NIGHTS, votes_needed
from .setups import PLAYERS
from .turns import CALLS, deal_turns, night_turns, phone_deal_turns, phone_night_turns

# Said before the deal: a seat's number is how the box calls it all game.
SEATING = N_("Seat 1 is the player facing the screen; the seats count on clockwise, to "
             "the left. Remember your number.")
DEAL = N_("Everyone, close your eyes. The box deals the cards, one seat at a time.")
PHONE_DEAL = N_("Everyone, close your eyes. The cards go to your phones, all at once.")
EVERYONE_WAKE = N_("Everyone, open your eyes.")
NOBODY_DIED = N_("Nobody died in the night.")
VOTE_NOW = N_("Time to vote. When the count ends, everyone alive points at a player, "
              "or at the ceiling to skip.")
PHONE_VOTE_NOW = N_("Time to vote, on your phones: tap the player you vote out before the "
                   "count ends. No tap is no vote.")
POINT = N_("Point!")
COUNT_IN = (N_("Three."), N_("Two."), N_("One."))
TIE = N_("A tie: nobody is out.")
NOBODY_OUT = N_("Nobody is out.")
TOWN_WINS = N_("Both Wolves are dead. The Town wins.")
WOLVES_WIN = N_("The Wolves are as many as the Town. The Wolves win.")
DRAW = N_("Eight nights have passed and nobody has won. The game is a draw.")
FIXED = (SEATING, DEAL, PHONE_DEAL, EVERYONE_WAKE, NOBODY_DIED, VOTE_NOW, PHONE_VOTE_NOW, POINT,
         *COUNT_IN, TIE,
         NOBODY_OUT, TOWN_WINS, WOLVES_WIN, DRAW)
# When the day's clocks speak: seconds left.
DISCUSSION_WARNINGS = (60, 30, 10)
VOTE_WARNINGS = (10,)
END_LINES = {"town": TOWN_WINS, "wolves": WOLVES_WIN, "draw": DRAW}


def night_falls(night: int) -> str:
    return _("Night {night}. Everyone, close your eyes.").format(night=night)


def phone_night_falls(night: int) -> str:
    """A night on phones: eyes stay on the phone, never on the table."""
    return _("Night {night}. Everyone, eyes on your phone.").format(night=night)


def day_begins(day: int) -> str:
    return _("Day {day}. The discussion begins.").format(day=day)


def killed(seat: int) -> str:
    return _("Seat {seat} was killed in the night.").format(seat=seat)


# Every death reveals the role and the team (004): a sentence for each team,
# so each language says the team its own way rather than tacking its name on.
WAS = {
    # TRANSLATORS: said after a death, e.g. "Seat 5 was the Chef, on the Town's side."
    Team.TOWN: N_("Seat {seat} was the {role}, on the Town's side."),
    # TRANSLATORS: said after a death, e.g. "Seat 2 was the Alchemist, on the Wolves' side."
    Team.WOLVES: N_("Seat {seat} was the {role}, on the Wolves' side."),
}


def was(seat: int, role: str) -> str:
    """Every death reveals the role and the team (004)."""
    return _(WAS[team_of(role)]).format(seat=seat, role=role_name(role))


def silent(seat: int) -> str:
    """What a player who is out must do: at a table nobody can mute them."""
    return _("Seat {seat}, you are out: say nothing, do not point, and keep your eyes "
             "closed at night.").format(seat=seat)


def out(seat: int, votes: int) -> str:
    return ngettext("Seat {seat} is out, with {votes} vote.",
                    "Seat {seat} is out, with {votes} votes.", votes).format(
        seat=seat, votes=votes)


def short(votes: int, needed: int) -> str:
    """Most votes, but not a strict majority."""
    return ngettext("{votes} vote, and {needed} were needed.",
                    "{votes} votes, and {needed} were needed.", votes).format(
        votes=votes, needed=needed)


def left(seconds: int) -> str:
    """A clock's spoken warning."""
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("{n} minute left.", "{n} minutes left.", minutes).format(n=minutes)
    return ngettext("{n} second left.", "{n} seconds left.", seconds).format(n=seconds)


def all_lines() -> list[str]:
    """Every line a game can say, in the order a game first needs them."""
    out_lines = [_(SEATING), _(DEAL)]
    out_lines += [t for turn in deal_turns() for t in (turn.wake, turn.sleep)]
    out_lines += [_(PHONE_DEAL)]
    out_lines += [t for turn in phone_deal_turns() for t in (turn.wake, turn.sleep)]
    out_lines += [_(EVERYONE_WAKE), day_begins(1)]
    out_lines += [left(s) for s in (*DISCUSSION_WARNINGS, *VOTE_WARNINGS)]
    out_lines += [_(VOTE_NOW), _(PHONE_VOTE_NOW), *(_(c) for c in COUNT_IN), _(POINT)]
    out_lines += [night_falls(n) for n in range(1, MAX_NIGHTS + 1)]
    out_lines += [_(c.wake) for c in CALLS] + [_(c.sleep) for c in CALLS]
    out_lines += [t for turn in night_turns() for t in (turn.wake, turn.sleep)]
    out_lines += [phone_night_falls(n) for n in range(1, MAX_NIGHTS + 1)]
    out_lines += [t for turn in phone_night_turns() for t in (turn.wake, turn.sleep) if t]
    seats = range(1, PLAYERS + 1)
    out_lines += [killed(s) for s in seats]
    out_lines += [was(s, r) for s in seats for r in ROLES]
    out_lines += [silent(s) for s in seats]
    out_lines += [day_begins(d) for d in range(2, MAX_NIGHTS + 1)]
    # A day goes on with at least three alive (one Wolf and two Town), where
    # two votes put a seat out.
    out_lines += [out(s, v) for s in seats for v in range(votes_needed(3), PLAYERS + 1)]
    out_lines += [short(v, n) for living in range(PLAYERS, 0, -1)
                  for n in (votes_needed(living),) for v in range(0, n)]
    out_lines += [_(text) for text in FIXED]
    return list(dict.fromkeys(out_lines))

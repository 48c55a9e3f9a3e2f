"""Everything the narrator says outside the night calls, and how long a
line is given on screen when no voice is speaking it.

Lines with numbers in them are built by the functions here, so the set of
lines a game can need is enumerable (the pre-render step relies on that).
The constants are English, marked with `N_()`: whoever says or shows one
passes it through `_()` first.
"""

from __future__ import annotations

from ..i18n import N_, _, listed, ngettext
from .roles import WEREWOLVES, role_name

COUNTDOWN = (N_("Three."), N_("Two."), N_("One."), N_("Vote!"))
COUNTDOWN_SHOWN = ("3", "2", "1", N_("VOTE!"))
REVEAL = N_("Everyone, flip your card over and see who won.")

# The reveal screen: how the table decides who died and who won, for the
# deck in play. The core rules hold for every deck; the rules of cards in
# the deck follow, in this order. Sources: 000 Daybreak rulebook, 001
# Chinese rules sheet, 002 German base game (see ../shared/seeds).
REVEAL_RULES = (
    # 001: everyone must vote, and not for themselves.
    N_("Everyone points at another player at once; nobody may point at themselves."),
    # 001, 002: most votes die, ties for most all die; nobody with two votes: nobody dies.
    N_("Most votes dies; a tie for most: all of them die. Nobody with two votes or more? "
       "Nobody dies."),
    # 001: the village wins if a werewolf dies, whoever else dies with him.
    N_("The village wins if a werewolf died."),
    # 001: the werewolves win if none of them dies (and the Tanner did not die).
    N_("The werewolves win if a player is a werewolf and no werewolf died."),
    # 001: with no werewolf among the players, the village wins only if nobody dies;
    # voting in a circle is the one way nobody dies.
    N_("No werewolf among the players? The village wins only if nobody died, as when "
       "everyone votes in a circle."),
)
REVEAL_CARD_RULES: dict[str, str] = {
    # 001, 002: the Hunter takes the player he points at with him.
    "hunter": N_("If the Hunter dies, the player he points at dies too."),
    # 000: the Bodyguard's point protects and is not a vote.
    "bodyguard": N_("The Bodyguard's point is not a vote: that player cannot die. If they "
                    "had the most votes, the next most-voted (two votes or more) dies."),
    # 001: the Prince cannot be killed; the next most-voted (at least two) dies instead.
    "prince": N_("The Prince cannot die. If he had the most votes, the next most-voted (two "
                 "votes or more) dies."),
    # 001: the Cursed turns werewolf if a werewolf votes for him.
    "cursed": N_("The Cursed is a werewolf if a werewolf voted for him."),
    # 001, 000 (Cudgel): the Tanner wins only by dying; then the werewolves cannot win,
    # and if a werewolf dies too the village wins with him.
    "tanner": N_("The Tanner wins only if he died. Then the werewolves cannot win; if a "
                 "werewolf died too, the village wins with him."),
    # 001: the Minion wins with the werewolves even if he dies; with no werewolf among
    # the players, he wins if neither he nor the Tanner dies (the sheet is the source).
    "minion": N_("The Minion wins with the werewolves, even if he died. With no werewolf "
                 "among the players, he wins if neither he nor the Tanner died."),
    # 000: artifacts override the card; those that change a role remove the Hunter's
    # shot and the Tanner's win.
    "curator": N_("An artifact overrides the card: Claw makes a werewolf, Brand a villager, "
                  "Cudgel a tanner; those also take away the card's own power (a Hunter's "
                  "shot, a Bodyguard's protection, a Tanner's win)."),
}

# Who may count as a werewolf beyond the werewolf cards themselves, by the card
# that brings the case into the deck (000, 001).
BECOMES_WEREWOLF: dict[str, str] = {
    "doppelganger": N_("a Doppelganger who copied a werewolf"),
    "paranormal_investigator": N_("a Paranormal Investigator who saw one"),
    "cursed": N_("the Cursed if a werewolf voted for him"),
    "curator": N_("a player given the Claw"),
}


def reveal_rules(deck: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The reveal screen's rules for this deck, translated: who counts as a
    werewolf where the deck makes that a question, the core rules, then each
    card's own."""
    wolves = [role_name(r) for r in dict.fromkeys(deck) if r in WEREWOLVES]
    # A Doppelganger or investigator can only become a werewolf the deck has.
    extra = [_(text) for card, text in BECOMES_WEREWOLF.items() if card in deck
             and (wolves or card not in ("doppelganger", "paranormal_investigator"))]
    who: tuple[str, ...] = ()
    if extra or any(r != "werewolf" for r in deck if r in WEREWOLVES):
        # TRANSLATORS: {names} lists the cards and cases that make a werewolf in this deck.
        who = (_("Werewolves in this deck: {names}.").format(names=listed(wolves + extra)),)
    # 000 Cudgel: with the Curator any player may become a Tanner.
    cards = set(deck) | ({"tanner"} if "curator" in deck else set())
    rules = REVEAL_RULES + tuple(rule for card, rule in REVEAL_CARD_RULES.items()
                                 if card in cards)
    return who + tuple(_(rule) for rule in rules)


def duration_words(seconds: int) -> str:
    """60 -> '1 minute', 90 -> '1 minute 30 seconds', 10 -> '10 seconds'."""
    minutes, secs = divmod(int(seconds), 60)
    min_words = ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    sec_words = ngettext("{count} second", "{count} seconds", secs).format(count=secs)
    if minutes and secs:
        # TRANSLATORS: a time span of minutes and seconds, e.g. "1 minute 30 seconds".
        return _("{minutes} {seconds}").format(minutes=min_words, seconds=sec_words)
    return min_words if minutes else sec_words


def discussion_start(seconds: int) -> str:
    # TRANSLATORS: {duration} is a time span such as "5 minutes" or "1 minute 30 seconds".
    return _("You have {duration} to find the werewolves. Go!").format(
        duration=duration_words(seconds))


def warning(seconds: int) -> str:
    # TRANSLATORS: said near the end of the discussion; {duration} as "1 minute".
    return _("{duration} left.").format(duration=duration_words(seconds))


def added(seconds: int) -> str:
    # TRANSLATORS: said when time is added to the discussion; {duration} as "1 minute".
    return _("{duration} more.").format(duration=duration_words(seconds))


def plus(seconds: int) -> str:
    """The short label for NEXT during discussion: '+1 min', '+30 s'."""
    if seconds % 60 == 0:
        return _("+{minutes} min").format(minutes=seconds // 60)
    return _("+{seconds} s").format(seconds=seconds)

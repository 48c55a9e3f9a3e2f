"""Everything the narrator says outside the night calls, and how long a
line is given on screen when no voice is speaking it.

Lines with numbers in them are built by the functions here, so the set of
lines a game can need is enumerable (the pre-render step relies on that).
The constants are English, marked with `N_()`: whoever says or shows one
passes it through `_()` first.
"""

from __future__ import annotations

from .i18n import N_, _, ngettext

COUNTDOWN = (N_("Three."), N_("Two."), N_("One."), N_("Vote!"))
COUNTDOWN_SHOWN = ("3", "2", "1", N_("VOTE!"))
REVEAL = N_("Everyone, flip your card over and see who won.")

# The reveal screen: how the table decides who died and who won. The rules
# for cards that are in the deck are added to the core ones, in this order.
REVEAL_RULES = (
    N_("Most votes dies. A tie for most: all of them die."),
    N_("Nobody got two votes? Nobody dies."),
    N_("Village wins if a werewolf died."),
    N_("Werewolves win if none of them died."),
)
REVEAL_CARD_RULES: dict[str, str] = {
    "hunter": N_("A dead Hunter's pick dies too."),
    "bodyguard": N_("The Bodyguard's pick cannot die; the next most-voted (2+ votes) dies "
                    "instead."),
    "prince": N_("The Prince cannot die; the next most-voted (2+ votes) dies instead."),
    "cursed": N_("The Cursed is a werewolf if a werewolf voted for him."),
    "tanner": N_("The Tanner wins only if he died (then werewolves cannot win)."),
    "minion": N_("The Minion wins with the werewolves, even if he died."),
}


def reveal_rules(deck: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The reveal screen's rules for this deck, translated: the core, then each card's own."""
    rules = REVEAL_RULES + tuple(rule for card, rule in REVEAL_CARD_RULES.items()
                                 if card in deck)
    return tuple(_(rule) for rule in rules)


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


PER_WORD = 0.42     # seconds a word on screen, at speech speed 1


def caption_seconds(text: str, per_word: float = PER_WORD) -> float:
    """How long a line holds the flow when no voice reports its end.

    A little longer than the voice takes (the bundled voice speaks about
    0.32 s a word), so a spoken line normally ends first and its end event
    moves the flow on; captions-only, it is about the time to read it.
    A pure function of the text: every role call gets the same time
    whether its card is in play or in the center.
    """
    return 0.6 + per_word * len(text.split())

"""Everything the narrator says outside the night calls, and how long a
line is given on screen when no voice is speaking it.

Lines with numbers in them are built by the functions here, so the set of
lines a game can need is enumerable (the pre-render step relies on that).
"""

from __future__ import annotations

COUNTDOWN = ("Three.", "Two.", "One.", "Vote!")
COUNTDOWN_SHOWN = ("3", "2", "1", "VOTE!")
REVEAL = "Everyone, flip your card over and see who won."
ABANDONED = "The round is over."

# The reveal screen: how the table decides who died and who won. The rules
# for cards that are in the deck are added to the core ones, in this order.
REVEAL_RULES = (
    "Most votes dies. A tie for most: all of them die.",
    "Nobody got two votes? Nobody dies.",
    "Village wins if a werewolf died.",
    "Werewolves win if none of them died.",
)
REVEAL_CARD_RULES: dict[str, str] = {
    "hunter": "A dead Hunter's pick dies too.",
    "bodyguard": "The Bodyguard's pick cannot die; the next most-voted (2+ votes) dies instead.",
    "prince": "The Prince cannot die; the next most-voted (2+ votes) dies instead.",
    "cursed": "The Cursed is a werewolf if a werewolf voted for him.",
    "tanner": "The Tanner wins only if he died (then werewolves cannot win).",
    "minion": "The Minion wins with the werewolves, even if he died.",
}


def reveal_rules(deck: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The reveal screen's rules for this deck: the core, then each card's own."""
    return REVEAL_RULES + tuple(rule for card, rule in REVEAL_CARD_RULES.items() if card in deck)


def duration_words(seconds: int) -> str:
    """60 -> '1 minute', 90 -> '1 minute 30 seconds', 10 -> '10 seconds'."""
    minutes, secs = divmod(int(seconds), 60)
    parts = []
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    if secs or not minutes:
        parts.append(f"{secs} second{'s' if secs != 1 else ''}")
    return " ".join(parts)


def discussion_start(seconds: int) -> str:
    return f"You have {duration_words(seconds)} to find the werewolves. Go!"


def warning(seconds: int) -> str:
    return f"{duration_words(seconds).capitalize()} left."


def added(seconds: int) -> str:
    return f"{duration_words(seconds).capitalize()} more."


def plus(seconds: int) -> str:
    """The short label for NEXT during discussion: '+1 min', '+30 s'."""
    return f"+{seconds // 60} min" if seconds % 60 == 0 else f"+{seconds} s"


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

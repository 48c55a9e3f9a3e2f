"""A game's voice: the lines it has to say, said one at a time.

Each line is held on the screen for its caption time (a box without sound
reads it there and keeps its timing); when the narrator reports that the
line has been heard out, what is left of that time shrinks to the short
gap before the next line. A pause holds the line and the gap alike, in
every game: the gap used to run on through a pause in the timed game,
which showed "paused" while its next line came due.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .. import pages
from ..effects import Say
from ..timer import Countdown

About = TypeVar("About")


@dataclass
class Speech(Generic[About]):
    """The queue of lines, the line being said and its token.

    `about` is what the line being said concerns (the Mayor's ring shows a
    line in its middle only while it still fits the screen it was said
    for); a game that needs nothing of the kind leaves it None.
    """
    queue: list[tuple[str, About | None]] = field(default_factory=list)
    line: Countdown | None = None        # the line being said, or the gap after it
    speaking: int | None = None          # its token, until the narrator reports it
    tokens: int = 0
    about: About | None = None

    def add(self, text: str, about: About | None = None) -> bool:
        """Queue `text` after the lines already queued; True when nothing is
        being said, so the caller starts it now (`next`)."""
        self.queue.append((text, about))
        return self.line is None

    def replace(self, text: str, about: About | None = None) -> None:
        """`text` next, dropping what was queued and cutting the line short."""
        self.queue, self.line = [(text, about)], None

    def next(self, now: float, per_word: float, paused: bool) -> Say | None:
        """Start the next queued line; None when every line has been said."""
        if not self.queue:
            self.speaking = None
            return None
        text, self.about = self.queue.pop(0)
        self.tokens += 1
        self.speaking = self.tokens
        self.line = Countdown.start(now, pages.caption_seconds(text, per_word))
        if paused:
            self.line.pause(now)
        return Say(text, self.tokens)

    def over(self, text: str) -> Say:
        """Say `text` over a stage that runs on its own clock (a discussion, a
        beat of the vote): nothing waits for its end, and a line that was
        being waited for is dropped."""
        self.silence()
        self.tokens += 1
        return Say(text, self.tokens)

    def heard(self, token: int, now: float, gap: float, paused: bool) -> bool:
        """The narrator has said the line with `token`: only the gap is left
        of it (held, if the game is paused). False for a token that is not
        the line being said (one cut short or replaced)."""
        if token != self.speaking or self.line is None:
            return False
        self.speaking = None
        after = Countdown.start(now, gap)
        if paused:
            after.pause(now)
        if after.remaining(now) < self.line.remaining(now):
            self.line = after
        return True

    def silence(self) -> bool:
        """Drop every line; True if one was being said (the caller stops it)."""
        was_saying = self.line is not None
        self.queue, self.line, self.speaking = [], None, None
        return was_saying

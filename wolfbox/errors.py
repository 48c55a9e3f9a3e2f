"""Every error the box names, in one tree, so that what the box and the
commands catch is one name and a reader finds every kind in one place.

    WolfboxError             something given to the box that it cannot use   (Exception)
    ├── UserError            a person's: an option, the config, a file named
    │   ├── ConfigError      a key or value of the config file
    │   ├── DeckError        a deck One Night cannot deal or play
    │   ├── UnknownRole      a role id One Night does not know
    │   ├── RefereeError     a finished game `wolfbox referee` cannot judge
    │   ├── IllegalNight     a night `wolfbox resolve` says cannot happen
    │   ├── KeyNameError     a key name pygame does not know, or given twice
    │   └── VoiceError       a voice that cannot be found or read
    ├── NotJson              text that is not JSON this program reads        + ValueError
    ├── Misfit               parsed JSON whose shape is not the one asked for + ValueError
    ├── CannotResume         a checkpoint the box will not resume            + ValueError
    ├── MalformedMessage     a phone's message the box will not take
    ├── Unsealable           a phone's frame that does not open, or a key that is none
    └── ForbiddenAnswer      a phone's answer the rules forbid its seat

Each message is one line in the box's language, worded where it is
raised (Misfit alone carries where and what instead, for each command to
word). The commands print a WolfboxError as that one line and exit 2;
the box says it (a notice, a log line, a phone's line) and plays on. The
classes are all defined here, and the modules that raise them import them
from here (the old places, e.g. `wolfbox.onenight.deck.DeckError`, still
name them), so no kind hides in the module that happens to raise it.

The root is an Exception of its own, as gpiozero's GPIOZeroError is, and
a class adds the builtin it stands for only where that helps a caller
(gpiozero's exc.py does the same): NotJson is what `json.loads`'s
ValueError becomes, and Misfit and CannotResume are a value read from a
file that does not fit, so code that parses with `except ValueError`
still catches those. Nothing else is a ValueError: a phone's frame that
does not open (Unsealable) or a message the box will not take
(MalformedMessage) must reach the handler that closes the socket or
passes over it, and a person's bad input (UserError) the command that says
it, never an `except ValueError` around some parsing on the way
(tests/test_errors.py).

Not in the tree, on purpose: exceptions that never leave their module,
which steer control flow rather than name bad input, stay private where
they are: `_NotRegular` (wolfbox.config: a path that is no regular file),
`NoRoom` (device.joincard: a layout that does not fit, tried smaller),
`_Hung`, `_TooLong`, `_Died` (audio.renderer: a voice worker to restart),
`_ToolFailed`, `_NoManager`, `_UpFailed` (device.hotspot: nmcli or
systemctl failing, said once in the log while the phones stay on known
networks), and `Stopped` (device.signals: SIGTERM, a BaseException so that no
`except Exception` swallows it). Nothing outside their module sees them.
"""

from __future__ import annotations

from dataclasses import dataclass


class WolfboxError(Exception):
    """Input the box cannot use, from whoever gave it: what the box and the
    commands catch, to say its one line instead of a traceback."""


class UserError(WolfboxError):
    """Bad input from a person (options, config, deck, key names, a file
    given to a command): the command prints its message and exits 2."""


class ConfigError(UserError):
    """A config file, key or value the box will not take (the setting names
    itself in the message)."""


class DeckError(UserError):
    """A deck One Night cannot play, or a preset that does not fit the
    table: one line naming the problem."""


class UnknownRole(UserError):
    """A role id One Night has no card for, with the nearest id if any."""


class RefereeError(UserError):
    """A finished One Night game `wolfbox referee` cannot judge: the first
    problem in its JSON."""


class IllegalNight(UserError):
    """A night that cannot happen; the message is one line naming the problem
    and what is allowed, for `wolfbox resolve` to print as it is."""


class KeyNameError(UserError):
    """A key name in the config that pygame does not know, or one key given
    to two buttons."""


class VoiceError(UserError):
    """A voice that cannot be found or read (the model, its config)."""


class NotJson(WolfboxError, ValueError):
    """Text that is not JSON this program reads; str() is one line why, which
    the caller words as its own "not JSON" message."""


@dataclass
class Misfit(WolfboxError, ValueError):
    """The first part of an input that does not fit its shape (see
    wolfbox.schema); carries where and what, for each command to word.

    kind: "missing" and "unknown" (a key, in `key`), "key" (a key of the
    wrong kind in the object at `path`), or "value" (the value at `path`).
    """
    path: tuple[str | int, ...]
    kind: str
    key: str = ""


class CannotResume(WolfboxError, ValueError):
    """A saved game the box will not resume: the first problem found. The
    box says so once and starts a new game."""


class MalformedMessage(WolfboxError):
    """A phone's message the box will not take: what was wrong with it. The
    box passes over the message and logs the first from each phone."""


class Unsealable(WolfboxError):
    """A phone's frame that does not open (tampered, replayed, out of order,
    not sealed with its socket's key), or a key that is not one: one line.
    Nothing after it on that socket can be trusted: the box closes it."""


class ForbiddenAnswer(WolfboxError):
    """A phone's answer the rules forbid the acting seat: why, in one line
    behind its cover, and it chooses again."""

"""Who holds which seat: the table's PIN, the seats taken and each phone's
token, with no network in sight (the server asks, this answers).

A phone joins with the PIN the box shows and a free seat; it gets a
random 128-bit token, kept by the phone, which takes it back to its seat
after a reload, a sleep or a dropped Wi-Fi. A seat cannot be taken twice;
the box can free one. The next round keeps the table seated, as a table
keeps its chairs (each token bound to its seat until the seat is freed),
with a new PIN for newcomers; seats kept for another game's table all go.

Wrong PINs: after a few in a minute from one client, that client waits;
after a few more in a minute from all clients together, everyone waits
(the check comes before the PIN is compared, so waiting tells nothing);
and once the box has heard more wrong PINs than a table mistypes, the PIN
grows from 4 digits to 6 for the rest of the box's run. A search of the
6-digit space at the box's global pace takes weeks, from any number of
addresses; a table of nine that mistypes a few times never sees any of it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import msgspec

from wolfbox.i18n import LANGUAGES, N_, _, speaking

PIN_DIGITS = 4
LONG_PIN_DIGITS = 6              # once someone seems to be guessing
TOKEN_BYTES = 16                 # 128 bits
NAME_CHARS = 20
# What the box and the phones call a seat: a name may not read as one.
SEAT_WORDS = (N_("Seat {seat}"), N_("Mayor"))
# Other ways a table writes a seat, in the box's languages, before or after
# its number ("Platz 4", "玩家4", "4号"): a name read so passes for a seat
# just as the box's own words do. Compared folded (no case, no spaces).
SEAT_SYNONYMS = ("seat", "player", "platz", "sitz", "sitzplatz", "spieler", "spielerin",
                 "玩家", "座位", "座", "号", "号玩家", "号座位", "号位", "位")
WRONG_PINS = 5                   # a client's wrong PINs in WRONG_PIN_WINDOW ...
WRONG_PIN_WINDOW = 60.0          # ... seconds before it has to wait
ALL_WRONG_PINS = 20              # every client's wrong PINs in the window before all wait
GUESSING = 30                    # wrong PINs in one run: the PIN grows to LONG_PIN_DIGITS


@dataclass(frozen=True)
class Joined:
    seat: int
    token: str


@dataclass(frozen=True)
class JoinRefused:
    """Why a phone could not join: one line, in the box's language."""
    why: str


@dataclass
class Holder:
    """A seat's player: the name shown, and the SHA-256 of its phone's
    token (the token itself is kept by the phone alone: neither the box's
    memory nor its seats file could give it away)."""
    name: str
    digest: bytes


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class SavedHolder(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=NAME_CHARS)]
    digest: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class SavedRoom(msgspec.Struct, forbid_unknown_fields=True):
    """The seats as the box keeps them across a power cut (Room.saved)."""
    pin: Annotated[str, msgspec.Meta(
        pattern=f"^([0-9]{{{PIN_DIGITS}}}|[0-9]{{{LONG_PIN_DIGITS}}})$")]
    seats: Annotated[int, msgspec.Meta(ge=0, le=99)]
    held: dict[Annotated[int, msgspec.Meta(ge=1, le=99)], SavedHolder]


def new_pin(draw: Callable[[int], int] = secrets.randbelow, digits: int = PIN_DIGITS) -> str:
    return f"{draw(10 ** digits):0{digits}d}"


@dataclass
class Room:
    """The seats of one game. `seats` is how many the table has."""
    seats: int
    pin: str = field(default_factory=new_pin)
    held: dict[int, Holder] = field(default_factory=dict)
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _all_wrong: list[float] = field(default_factory=list)
    wrong: int = 0               # wrong PINs this game (the box's phones screen shows it)
    _ever_wrong: int = 0         # and in the box's run: a new game does not reset it

    def join(self, client: str, pin: str, seat: int, name: str, now: float,
             label: str = "") -> Joined | JoinRefused:
        """`client` (its address) asks for `seat` with `pin` (`label`: what
        the box calls the seat, where not "Seat N")."""
        refused = self.may_join(client, pin, seat, name, now, label)
        return refused if refused is not None else self.take(seat, name)

    def may_join(self, client: str, pin: str, seat: int, name: str, now: float,
                 label: str = "") -> JoinRefused | None:
        """Why `client` may not have `seat` (None: it may): the checks of
        `join`, with the seat left free (a seat the box must accept first)."""
        recent = [t for t in self._wrong.pop(client, []) if now - t < WRONG_PIN_WINDOW]
        if recent:                   # a client with none is forgotten: the map stays small
            self._wrong[client] = recent
        self._all_wrong = [t for t in self._all_wrong if now - t < WRONG_PIN_WINDOW]
        if len(recent) >= WRONG_PINS:
            wait = int(WRONG_PIN_WINDOW - (now - recent[0])) + 1
            return JoinRefused(_("Too many wrong PINs: try again in {seconds} s.").format(
                seconds=wait))
        if len(self._all_wrong) >= ALL_WRONG_PINS:
            wait = int(WRONG_PIN_WINDOW - (now - self._all_wrong[0])) + 1
            return JoinRefused(_("The box has heard too many wrong PINs: try again in "
                                 "{seconds} s.").format(seconds=wait))
        if not hmac.compare_digest(pin.encode(), self.pin.encode()):
            self._wrong[client] = [*recent, now]
            self._all_wrong.append(now)
            self.wrong += 1
            self._ever_wrong += 1
            if self._ever_wrong >= GUESSING and len(self.pin) < LONG_PIN_DIGITS:
                self.pin = new_pin(digits=LONG_PIN_DIGITS)      # the box shows the new one
            return JoinRefused(_("That is not the PIN on the box's screen."))
        if not 1 <= seat <= self.seats:
            return JoinRefused(_("The seats are 1 to {seats}.").format(seats=self.seats))
        if seat in self.held:
            return JoinRefused(_("Seat {seat} is taken: ask the box to free it.").format(seat=seat))
        if impersonates(name, seat, label):
            return JoinRefused(_("That name is what the box calls a seat: choose your own."))
        return None

    def take(self, seat: int, name: str) -> Joined:
        """`seat` is the phone's now: its new token (kept by the phone alone)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.held[seat] = Holder(clean_name(name) or _("Seat {seat}").format(seat=seat),
                                 digest(token))
        return Joined(seat, token)

    def seat_of(self, token: str) -> int | None:
        """The seat a token holds, or None; every held seat is compared in
        constant time, so the answer's timing tells nothing of the others."""
        found, asked = None, digest(token)
        for seat, holder in self.held.items():
            if hmac.compare_digest(asked, holder.digest):
                found = seat
        return found

    def saved(self) -> dict[str, Any]:
        """The PIN and the seats, as the box keeps them across a power cut:
        each seat's token by its hash, never the token."""
        return msgspec.to_builtins(SavedRoom(self.pin, self.seats, {
            seat: SavedHolder(h.name, h.digest.hex()) for seat, h in self.held.items()}))

    @classmethod
    def restored(cls, data: object) -> Room:
        """The room `saved` gave; ValueError (one line) for anything else."""
        try:
            room = msgspec.convert(data, SavedRoom, strict=False)
        except msgspec.ValidationError as e:
            raise ValueError(str(e)) from None
        return cls(room.seats, room.pin, {
            seat: Holder(h.name, bytes.fromhex(h.digest)) for seat, h in room.held.items()
            if seat <= room.seats})

    def free(self, seat: int) -> bool:
        """The box lets a seat go (a phone lost, a player gone)."""
        return self.held.pop(seat, None) is not None

    def resize(self, seats: int) -> None:
        """The table's size changed on a setup screen: the seats past it go."""
        self.seats = seats
        self.held = {s: h for s, h in self.held.items() if s <= seats}

    def new_game(self, seats: int) -> None:
        """Another table's game: a new PIN, every seat free, the old tokens void."""
        self.next_round(seats, frozenset(self.held))

    def next_round(self, seats: int, freed: frozenset[int] = frozenset()) -> None:
        """The same table's next game: its players keep their seats and
        tokens (nobody types a PIN between rounds); the seats past `seats`
        and those in `freed` (the Mayor's console, taken only with the
        box's yes, never carried into another game) go. A new PIN, for a
        newcomer's free seat: one who saw the last stays no wiser."""
        self.seats, self.pin = seats, new_pin(digits=len(self.pin))
        self.held = {s: h for s, h in self.held.items() if s <= seats and s not in freed}
        self._wrong.clear()
        self.wrong = 0

    def names(self) -> dict[int, str]:
        return {seat: h.name for seat, h in sorted(self.held.items())}


def clean_name(name: str) -> str:
    """A name as the screens may show it: printable, on one line, short."""
    kept = "".join(c if c.isprintable() else " " for c in name)
    return " ".join(kept.split())[:NAME_CHARS]


def impersonates(name: str, seat: int = 0, label: str = "") -> bool:
    """Whether `name` reads as what the box calls another seat than `seat`
    ("Seat 4", "Mayor", "Spieler 4", "镇长", or a bare number) in any of its
    languages: a player so named could pass for another seat's phone or
    the Mayor's. The seat's own words (its number, its `label`: the
    Mayor's phone may call itself "Mayor") are no one else's."""
    folded = _folded(clean_name(name))
    if not folded or (label and folded == _folded(label)):
        return False
    for words in _seat_words():
        read = words.fullmatch(folded)
        if read is not None and (not read.groups() or
                                 any(int(n) != seat for n in read.groups())):
            return True
    return False


@functools.cache
def _seat_words() -> tuple[re.Pattern[str], ...]:
    found = [re.compile(r"(\d+)")]
    for word in SEAT_SYNONYMS:
        found += [re.compile(re.escape(word) + r"(\d+)"), re.compile(r"(\d+)" + re.escape(word))]
    for code in LANGUAGES:
        with speaking(code):
            for words in SEAT_WORDS:
                parts = _folded(_(words)).split("{seat}")
                found.append(re.compile(r"(\d+)".join(re.escape(p) for p in parts)))
    return tuple(found)


def _folded(text: str) -> str:
    """`text` as a name is compared: no case, no spaces, no punctuation."""
    return "".join(c for c in text.casefold() if c.isalnum() or c in "{}")

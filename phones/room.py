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
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec
import opencc
from disarm import skeleton_key

from wolfbox.i18n import LANGUAGES, N_, _, speaking

PIN_DIGITS = 4
LONG_PIN_DIGITS = 6              # once someone seems to be guessing
TOKEN_BYTES = 16                 # 128 bits
NAME_CHARS = 20
SEAT_MAX = 99                    # the highest seat any table numbers (the seats file's bound)
# What the box and the phones call a seat, and the box's label for a seat
# by its player's name ("Ann · 3"): a name may not read as one. Taken from
# the catalogues in every language, as the box says them.
SEAT_WORDS = (N_("Seat {seat}"), N_("seat {seat}"))
MAYOR_WORDS = (N_("Mayor"),)
SEAT_LABEL = N_("{name} · {seat}")
# Other ways a table writes a seat, in the box's languages, before or after
# its number ("Platz 4", "玩家4", "4号"), or the Mayor ("Bürgermeisterin";
# 警长, the Chinese werewolf table's elected leader): a name read so passes
# for a seat or the Mayor just as the box's own words do.
SEAT_SYNONYMS = ("seat", "player", "platz", "sitz", "sitzplatz", "spieler", "spielerin",
                 "玩家", "座位", "座", "号", "号玩家", "号座位", "号位", "位")
MAYOR_SYNONYMS = ("bürgermeisterin", "oberbürgermeister", "市长", "村长", "警长")
# Between a seat's word and its number ("Spieler Nr. 4", "Player No. 4").
NUMBER_SIGNS = ("no", "nr", "number", "nummer")
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
    seats: Annotated[int, msgspec.Meta(ge=0, le=SEAT_MAX)]
    held: dict[Annotated[int, msgspec.Meta(ge=1, le=SEAT_MAX)], SavedHolder]


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
        match _reads_as(name, seat, label):
            case "mayor":
                return JoinRefused(_("That name reads as the Mayor: choose your own."))
            case "seat":
                return JoinRefused(_("That name is what the box calls a seat: choose your own."))
        if self.look_alike(name):
            return look_alike_refused()
        return None

    def look_alike(self, name: str) -> bool:
        """Whether a seated player's name folds to the same as `name` ("Ann"
        and "Аnn" with a Cyrillic A, "ANN", "A n n"): two such at one table
        could not be told apart on a screen, and one could pass for the other."""
        key = _tight(folded(clean_name(name), digits=False))
        return bool(key) and any(_tight(folded(h.name, digits=False)) == key
                                 for h in self.held.values())

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


def look_alike_refused() -> JoinRefused:
    """The answer to a name that looks like one taken (`Room.look_alike`)."""
    return JoinRefused(_("Someone at this table has that name, or one that looks the same: "
                         "choose another."))


def clean_name(name: str) -> str:
    """A name as the screens may show it: printable, on one line, short,
    composed (a "ë" typed as "e" and a mark counts and shows as one), and
    with no invisible formatting: a zero-width space inside "Seat 4" or a
    right-to-left override that turns "4 taeS" round is dropped, so the
    name is checked as it shows."""
    kept = "".join(c if c.isprintable() else " " for c in unicodedata.normalize("NFC", name)
                   if unicodedata.category(c) != "Cf")
    return " ".join(kept.split())[:NAME_CHARS]


def impersonates(name: str, seat: int = 0, label: str = "") -> bool:
    """Whether `name` reads as what the box calls another seat than `seat`
    or the Mayor, in any of its languages: "Seat 4", "Spieler vier",
    "Seat IV", "四号", "第四位", "4號", "The Mayor", "镇长", a bare number
    ("7", "四"), or the box's own label ("Ann · 3"). A player so named
    could pass for another seat's phone or the Mayor's. Compared as the
    eye reads it (`folded`: look-alike letters of other scripts, fullwidth
    and mathematical forms, traditional Chinese, case, marks and spacing
    count for nothing). The seat's own words are no one else's: its
    number, and its `label` (the Mayor's phone may call itself "Mayor").

    Bare number words and Roman numerals ("Elf", "Vi", "Xi") are names:
    only beside a seat's word or after the label's dot do they read as a
    seat; bare digits and Chinese numerals read as one alone."""
    return _reads_as(name, seat, label) is not None


def _reads_as(name: str, seat: int, label: str) -> Literal["seat", "mayor"] | None:
    """What `name` passes for (see `impersonates`), if anything."""
    name = clean_name(name)
    wide, tight = folded(name), _tight(folded(name))
    if not tight or (label and tight == _tight(folded(label))):
        return None
    words = _words()
    spaced = _letters_joined(wide)
    mayors = not (label and words.mayor.search(_letters_joined(folded(label))))
    if mayors and any(words.mayor.search(_letters_joined(folded(name, digits)))
                      for digits in (True, False)):
        return "mayor"
    found = [m["n"] or m["m"] for m in (words.bare.fullmatch(tight), words.label.search(wide),
                                         *words.seat.finditer(spaced)) if m is not None]
    return "seat" if any(seat not in words.values(n) for n in found) else None


def prepare_names() -> None:
    """Learn every language's seat words and numerals now (a fifth of a
    second here, more on a Pi), so the first phone to join does not wait."""
    _words()


def folded(text: str, digits: bool = True) -> str:
    """`text` as a name is compared: its TR39 skeleton (disarm's spoof key:
    look-alike letters of other scripts folded to one prototype, NFKC,
    invisible characters gone, no case), traditional Chinese as simplified
    (OpenCC), no combining marks, "i" as "l" (the skeleton folds "I" and
    "l" together, and a reader takes "i" for "I"), "rn" as "m" (TR39 has them
    alike, and disarm leaves that out for prose's sake), and every run of other
    characters as one space, or as one "·" where it holds a mark: the box's
    label is "Ann · 3", and a look-alike dot ("•", "・", "-") reads the same.
    With `digits`, digits stay digits (a seat's number is read from them);
    without, they fold as TR39 has them ("May0r" is "Mayor", "Ann1" "Annl")."""
    text = _simplified(skeleton_key(text, digit_policy="numeric" if digits else "tr39"))
    text = "".join(c for c in unicodedata.normalize("NFD", text)
                   if not unicodedata.combining(c)).replace("i", "l").replace("rn", "m")
    return re.sub(r"[\W_]+", lambda m: " " if m[0].isspace() else "·", text).strip()


def _tight(text: str) -> str:
    """A folded text with no spaces and no marks ("S e a t 4", "Seat-4")."""
    return "".join(c for c in text if c not in " ·")


def _letters_joined(text: str) -> str:
    """A folded text with the letters of a spaced-out word joined again
    ("s e a t 4" reads as "seat 4", "m a y o r" as "mayor")."""
    return re.sub(r"(?<!\w)\w(?:[ ·]\w(?!\w))+",
                  lambda m: m[0].replace(" ", "").replace("·", ""), text)


@functools.cache
def _simplified_converter() -> Any:
    return opencc.OpenCC("t2s")


def _simplified(text: str) -> str:
    return str(_simplified_converter().convert(text)) if text else text


@dataclass(frozen=True)
class _Words:
    """The seat's and the Mayor's words, and the numerals, as `folded`
    leaves them; a match's group `n` (or `m`, on the pattern's other side)
    is the numeral it read, and `numbers` what each numeral, spaces and
    marks taken out, may stand for."""
    seat: re.Pattern[str]
    mayor: re.Pattern[str]
    bare: re.Pattern[str]
    label: re.Pattern[str]
    numbers: dict[str, frozenset[int]]

    def values(self, numeral: str) -> frozenset[int]:
        """The numbers `numeral` may stand for ("l" is I or L, 1 or 50)."""
        numeral = _tight(numeral.removeprefix("第"))
        if numeral.isdecimal():
            return frozenset({int(numeral)})
        return self.numbers.get(numeral, frozenset())


# Not before or after a letter of an alphabet (so "Seattle", "Mayorga" and
# "Platzhirsch" are names); Chinese has no spaces between words.
_START, _END = r"(?<![^\W\d_\u3400-\u9fff])", r"(?![^\W\d_\u3400-\u9fff])"


@functools.cache
def _words() -> _Words:
    numbers = _numerals()
    spelt = "|".join(sorted((_spelt(n) for n in numbers), key=len, reverse=True))
    chinese = "|".join(sorted((n for n in numbers if _is_han(n[0])), key=len, reverse=True))
    number = rf"第?(?:\d+(?!\d)|(?:{spelt}){_END})"
    seats, mayors, suffixes = set(SEAT_SYNONYMS), set(MAYOR_SYNONYMS), set()
    for code in LANGUAGES:
        with speaking(code):
            for words in SEAT_WORDS:
                seats.update(_(words).split("{seat}"))
            mayors.update(_(word) for word in MAYOR_WORDS)
            suffixes.add(_(SEAT_LABEL).split("{seat}")[-1])
    seat = _either(seats)
    sign = _either(set(NUMBER_SIGNS))
    suffix = _either(suffixes) or "(?!)"
    return _Words(
        seat=re.compile(rf"{_START}(?:(?:{seat})[ ·]?(?:(?:{sign})[ ·]?)?(?P<n>{number})"
                        rf"|(?P<m>{number})[ ·]?(?:{seat}){_END})"),
        mayor=re.compile(rf"{_START}(?:{_either(mayors)}){_END}"),
        bare=re.compile(rf"(?P<n>第?(?:\d+|{chinese}))(?P<m>)"),
        label=re.compile(rf"\w·(?P<n>{number})(?:{suffix})?·?$|^·?(?P<m>{number})·\w"),
        numbers={_tight(spelling): n for spelling, n in numbers.items()})


def _either(words: set[str]) -> str:
    """A pattern for any of `words` as `folded` leaves them, longest first,
    and as a keyboard with no umlauts writes them ("Buergermeister")."""
    words = words | {w.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue") for w in words}
    tight = {_tight(folded(w)) for w in words} - {""}
    return "|".join(re.escape(w) for w in sorted(tight, key=len, reverse=True))


def _spelt(numeral: str) -> str:
    """A pattern for a folded numeral, its words apart or together
    ("twenty one", "twenty-one", "twentyone")."""
    return "[ ·]?".join(re.escape(part) for part in numeral.split(" "))


def _is_han(c: str) -> bool:
    return "\u3400" <= c <= "\u9fff"


@functools.cache
def _numerals() -> dict[str, frozenset[int]]:
    """Every way the box's languages spell 1 to SEAT_MAX but in digits, as
    `folded` leaves it: Roman numerals (Ⅳ, IV, iv), English and German
    words ("twenty one", "einundzwanzig", "zwölf", "zwoelf") and Chinese
    (十二, 两)."""
    found: dict[str, set[int]] = {}
    for n in range(1, SEAT_MAX + 1):
        spellings = {_roman(n), _roman(n).lower(), _english(n), *_german(n), _chinese(n),
                     _chinese(n).translate(_ZH_FORMAL)}
        if n == 2:
            spellings.add("两")
        for spelling in spellings:
            key = " ".join(_tight(folded(word)) for word in spelling.split())
            found.setdefault(key, set()).add(n)
    return {key: frozenset(ns) for key, ns in found.items()}


def _roman(n: int) -> str:
    tens, ones = divmod(n, 10)
    return ("", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC")[tens] + \
        ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[ones]


_EN_ONES = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen")
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def _english(n: int) -> str:
    tens, ones = divmod(n, 10)
    return _EN_ONES[n] if n < 20 else f"{_EN_TENS[tens]} {_EN_ONES[ones]}".strip()


_DE_ONES = ("", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
            "zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn",
            "achtzehn", "neunzehn")
_DE_TENS = ("", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig",
            "neunzig")


def _german(n: int) -> set[str]:
    tens, ones = divmod(n, 10)
    if n < 20:
        word = _DE_ONES[n]
    else:
        word = _DE_TENS[tens] if not ones else \
            f"{'ein' if ones == 1 else _DE_ONES[ones]}und{_DE_TENS[tens]}"
    # as a keyboard without umlauts writes it; and "zwo", as said for "zwei"
    spelt = {word, word.replace("ü", "ue").replace("ö", "oe").replace("ß", "ss")}
    return spelt | {w.replace("zwei", "zwo") for w in spelt}


_ZH_DIGITS = "〇一二三四五六七八九"


def _chinese(n: int) -> str:
    tens, ones = divmod(n, 10)
    if not tens:
        return _ZH_DIGITS[ones]
    return ("" if tens == 1 else _ZH_DIGITS[tens]) + "十" + (_ZH_DIGITS[ones] if ones else "")


# The same numerals as written on a cheque, where no stroke may be added:
# "肆号" is seat 4 just as "四号" is.
_ZH_FORMAL = str.maketrans("一二三四五六七八九十", "壹贰叁肆伍陆柒捌玖拾")

"""The game switch: the game being played, and the switch between games.

Each game is a `wolfbox.mode.Playable` of its own and knows nothing of the
others. `Games` holds the one being played and hands everything to it; when
the table picks another game (a `ChangeSetting` of `game.mode`, from the
settings screen's Game page or a game's own setup), it switches. The games
on offer, their order and their names are wolfbox.roster's, filled from
wolfbox.lineup; the device gives `Games` a factory for each Kind there.

Adding a game takes four steps, shown by the tests' fourth game
(tests/toygame.py, played by tests/test_fourth_game.py):
1. its package, `wolfbox/<name>/`: a class with the members of `Playable`
   over the shared engine, and its `kind.py`, a `Kind` (its name and
   title, its config section, its own settings pages, its lines, `new`
   and `resume`);
2. that Kind in wolfbox.lineup's `SHIPPED`: the switch, the settings
   screen's Game page, `game.mode`'s choices and the config file, the
   catalogue that `wolfbox prepare` renders, mypy (a `Kind`, whose `new`
   makes a `Playable`) and the import contracts (lint/importrules.py) all
   take it from there;
3. a golden walk of it in tests/test_golden.py, which tests/test_kinds.py
   asks of every Kind (recorded with tests/replays/walk.py);
4. its words through `make pot` and both catalogues (tests/test_catalogues.py
   fails while one of its lines lacks a translation).
The commands: docs/develop/adding-a-game.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .buttons import GAME_BUTTONS, Button, Hold, Release, Tap
from .effects import ChangeSetting, Effect
from .events import Event, PhonesSeated
from .i18n import LANGUAGE_KEY, SOURCE, _, speaking
from .join_screen import OPEN_HOLD, JoinScreen, asked, asking_view
from .mode import Playable
from .phone import PhoneView
from .roster import MODE_KEY, PHONES_KEY, game_name, setup_holds_note
from .view import View

# The hold that opens the phones' screen on every screen of every game.
PHONES_HOLD = Button.START


@dataclass
class Games:
    """The game being played, built on first use and kept while the box runs
    (a game left for another is found as it was)."""
    make: Mapping[str, Callable[[], Playable]]
    name: str
    # The language the games render in: passed in, and changed by the table's
    # choice (a ChangeSetting of box.lang), never a global the games assign.
    lang: str = SOURCE
    _built: dict[str, Playable] = field(default_factory=dict)
    phones_on: bool = False                     # the box's phones are on (its setting)
    # The phones' server serves: the device says when it cannot (a broken
    # install, the port taken), and nothing then offers the phones' screen.
    phones_up: bool = True
    _seated: PhonesSeated | None = None         # the last word of who holds a phone
    _told: set[str] = field(default_factory=set)    # the games that have heard it
    _join: JoinScreen = field(default_factory=JoinScreen)   # the phones' screen, over a start

    def __post_init__(self) -> None:
        if self.name not in self.make:
            self.name = next(iter(self.make))

    @property
    def active(self) -> Playable:
        """The game being played, built the first time it is asked for."""
        if self.name not in self._built:
            try:
                self._built[self.name] = self.make[self.name]()
            except AttributeError as e:
                # Escaping a property, it would read as the property missing.
                raise RuntimeError(f"cannot build the game {self.name}: {e}") from e
        return self._built[self.name]

    def restart(self) -> None:
        """The game being played built again, as the box starts it (from
        its saved state, where it has one): the box's way back from a
        game that failed (device.loop)."""
        self._built.pop(self.name, None)
        self._told.discard(self.name)
        self._join = JoinScreen()

    def handle(self, event: Event, now: float) -> list[Effect]:
        """The game being played answers `event`. Who holds a phone is
        told to each game before anything else it hears (a game chosen
        after the phones joined learns it too)."""
        with speaking(self.lang):
            if isinstance(event, PhonesSeated):
                self._seated, self._told = event, set()
            if isinstance(event, Tap | Hold | Release) and event.button is not Button.POWER:
                if self._asked() is not None:
                    return asked(event, self._seated_now())
                if self._join.open:
                    return self._join.handle(event, self._seated_now().seats,
                                             self._may_free(now))
                if isinstance(event, Hold) \
                        and event.button in self._join_holds(self.active.view(now)):
                    self._join.show(self._seated_now().seats)
                    return []
            effects: list[Effect] = []
            if self._seated is not None and self.name not in self._told:
                self._told.add(self.name)
                effects += self.active.handle(self._seated, now)
            if not isinstance(event, PhonesSeated):
                effects += self.active.handle(event, now)
            return self._watch(effects)

    def tick(self, now: float) -> list[Effect]:
        with speaking(self.lang):
            return self._watch(self.active.tick(now))

    def next_change(self, now: float) -> float | None:
        with speaking(self.lang):           # a text's pages turn on their own clock
            return self.active.next_change(now)

    def view(self, now: float) -> View:
        with speaking(self.lang):
            label = self._asked()
            if label is not None:
                return asking_view(self._seated_now(), game_name(self.name), label,
                                   dim=self.active.view(now).dim)
            if self._join.open:
                return self._join.view(self._seated_now(), game_name(self.name),
                                       self._may_free(now))
            view = self.active.view(now)
            if not self._join_holds(view):
                return view
            if not self.active.busy() and view.between \
                    and {Button.NEXT, Button.VOTE} <= dict(view.holds).keys():
                # A start screen with the holds every game's has (settings,
                # next game: engine.actions.start_holds) says them all in
                # its footer, the phones' now too; any other keeps its own.
                view = dataclasses.replace(view, footer=setup_holds_note(self.name, phones=True))
            legend = dict(view.legend)
            if not view.dim:
                # START's box says the hold where START has no tap; at night
                # the lights stay as the game has them (only START glows).
                legend.setdefault(PHONES_HOLD, _(OPEN_HOLD))
            # START's hold alone is said: BACK's and VOTE's (_join_holds)
            # still work unsaid, so no two buttons on a screen say the same.
            return dataclasses.replace(
                view, legend=tuple((b, legend[b]) for b in GAME_BUTTONS if b in legend),
                holds=(*view.holds, (PHONES_HOLD, _(OPEN_HOLD))))

    @property
    def phones_offered(self) -> bool:
        """Phones are on and their server serves: only then do the screens
        offer them (a hold that opened a join card nobody can reach would
        send the table looking for a page that is not there)."""
        return self.phones_on and self.phones_up

    @property
    def phones_screen_open(self) -> bool:
        """The phones' screen is shown (the device puts the join card on it,
        mid-game too: a lost phone joins again with the PIN)."""
        return self._join.open

    def _asked(self) -> str | None:
        """While a phone asks for a seat the game guards (the Mayor's
        console) and phones are on: what the phones call that seat, for
        the question the box puts to the table; else None."""
        seated = self._seated_now()
        if not self.phones_offered or not seated.asking:
            return None
        seat = seated.asking[0][0]
        if seat not in self.active.guarded_seats:
            return None
        return self.phone_view(seat, 0.0).label or _("Seat {seat}").format(seat=seat)

    def _seated_now(self) -> PhonesSeated:
        return self._seated if self._seated is not None else PhonesSeated(frozenset())

    def _join_holds(self, view: View) -> tuple[Button, ...]:
        """The holds that open the phones' screen, while phones are on.
        START on every screen of every game, in every phase (no game's
        button tables hold START: tests/test_phones_hold.py walks them all),
        so a phone that died mid-day joins again without waiting for a
        pause or the night. As before, BACK too on a start or setup screen,
        and VOTE while a game is paused (no game holds VOTE then): the
        screens say START's alone (view)."""
        if not self.phones_offered:
            return ()
        holds = [PHONES_HOLD]
        if not self.active.busy():
            if view.between:
                holds.append(Button.BACK)
        elif view.paused and Button.VOTE not in dict(view.holds):
            holds.append(Button.VOTE)
        return tuple(holds)

    def _may_free(self, now: float) -> bool:
        """Whether the phones' screen frees seats now: not over a game's
        dark or private screen while the game runs, where whoever holds the
        buttons could free a sleeping player's seat and read its card on a
        phone of their own while the table's eyes are closed. By day, in a
        pause (the table stops for it) or between games, the table sees it
        done."""
        if not self.active.busy():
            return True
        view = self.active.view(now)
        return view.paused or not (view.dim or view.private)

    def phone_view(self, seat: int, now: float) -> PhoneView:
        """What `seat`'s phone shows (wolfbox.phone): the game's own view of
        its seats (the public screen in a game without phones of its own)."""
        with speaking(self.lang):
            return self.active.phone_view(seat, now)

    @property
    def table_seats(self) -> int:
        """The seats at the game's table: the phones' room."""
        return self.active.table_seats

    @property
    def guarded_seats(self) -> frozenset[int]:
        """The seats a phone takes only with the box's yes."""
        return self.active.guarded_seats

    def lobby_note(self) -> str:
        """What the phones' seat list says, in the box's language."""
        with speaking(self.lang):
            return self.active.lobby_note()

    def busy(self) -> bool:
        with speaking(self.lang):
            return self.active.busy()

    def lines(self) -> list[str]:
        with speaking(self.lang):
            return self.active.lines()

    def setting_changed(self, key: str) -> list[Effect]:
        with speaking(self.lang):
            return self.active.setting_changed(key)

    def _watch(self, effects: list[Effect]) -> list[Effect]:
        """Switch games when the table picks another; a setting changed in
        one game's settings reaches the others already built (they share
        the box's settings screen, so each reads the new value)."""
        active = self.active
        for effect in list(effects):
            if not isinstance(effect, ChangeSetting):
                continue
            if effect.key == LANGUAGE_KEY:
                self.lang = str(effect.value)
            if effect.key == PHONES_KEY:
                self.phones_on = bool(effect.value)
            with speaking(self.lang):
                for built in self._built.values():
                    if built is not active:
                        built.setting_changed(effect.key)
            if effect.key == MODE_KEY and effect.value in self.make:
                self.name = str(effect.value)
        return effects

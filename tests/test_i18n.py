"""Every word the box shows or says goes through `_()`.

With the pseudo-language on, each translated message comes back as
"⟦...⟧"; any letters left outside the brackets were never translated, and a
German or Chinese catalogue would miss them too.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterable, Iterator

import pytest

from wolfbox.buttons import Button
from wolfbox.config import Config
from wolfbox.i18n import LANGUAGES, _, ngettext, pseudo_translation, use_language
from wolfbox.onenight.deck import DeckError, check_deck, parse_deck
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.onenight.lines import added, discussion_start, plus, reveal_rules, warning
from wolfbox.onenight.night import (
    NIGHT_CALLS,
    NightOptions,
    all_lines,
    night_script,
    setup_notes,
    setup_text,
    step_title,
)
from wolfbox.onenight.picker import Picker
from wolfbox.onenight.presets import PRESETS, describe, random_deck, resolve_deck
from wolfbox.onenight.roles import ROLES
from wolfbox.onenight.script import decks_table, script_text
from wolfbox.pages import MORE
from wolfbox.replay import TimedPress, replay

EVERY_ROLE = [r for r in ROLES for _copy in range(ROLES[r].copies)]
# Ten players, every card with a reveal rule of its own, the Doppelganger's
# Minion call and the Dream Wolf's thumb: much of the night varies with it.
BIG_DECK = ["doppelganger", "alpha_wolf", "werewolf", "dream_wolf", "minion", "seer", "robber",
            "troublemaker", "insomniac", "hunter", "tanner", "bodyguard", "prince", "cursed"]


@pytest.fixture
def pseudo() -> Iterator[None]:
    """The pseudo-language for one test; the language before it afterwards."""
    with pseudo_translation():
        yield


def outside(text: str) -> str:
    """The part of `text` outside every ⟦...⟧."""
    depth, out = 0, []
    for ch in text:
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def untranslated(texts: Iterable[str]) -> list[str]:
    """The texts with words that did not go through `_()` (numbers may stand outside)."""
    return [t for t in texts if any(c.isalpha() for c in outside(t))]


# ------------------------------------------------------------ the pseudo-language

def test_the_pseudo_language_wraps_messages_and_keeps_placeholders(pseudo):
    assert _("Skip") == "⟦Skip⟧"
    assert _("{n} left.").format(n=3) == "⟦3 left.⟧"
    assert ngettext("{n} minute", "{n} minutes", 1).format(n=1) == "⟦1 minute⟧"
    assert ngettext("{n} minute", "{n} minutes", 2).format(n=2) == "⟦2 minutes⟧"
    assert _("") == ""
    assert untranslated(["⟦a ⟦b⟧ c⟧", "⟦a⟧ ⟦b⟧", "5:00", ""]) == []
    assert untranslated(["⟦a⟧ b", "Players +1"]) == ["⟦a⟧ b", "Players +1"]


def test_the_language_comes_back_after_the_pseudo_language():
    with pseudo_translation():
        assert _("Skip") == "⟦Skip⟧"
    assert _("Skip") == "Skip"
    use_language("pseudo")
    try:
        assert warning(60) == "⟦⟦1 minute⟧ left.⟧"
    finally:
        use_language("en")
    assert warning(60) == "1 minute left."


# ---------------------------------------------------------------- (a) the night

@pytest.mark.parametrize("lone_wolf", [False, True])
def test_every_night_line_is_translated(pseudo, lone_wolf):
    options = NightOptions(lone_wolf=lone_wolf)
    steps = night_script(EVERY_ROLE, options) + night_script(BIG_DECK, options)
    texts = [s.text for s in steps] + [s.after for s in steps if s.after]
    assert all(texts) and untranslated(texts) == []
    assert untranslated(all_lines(options)) == []


def test_every_step_has_a_title_that_is_a_message_of_its_own():
    """Titles are written out, so a catalogue can hold them (a title made
    from the step id at run time would never reach a translator)."""
    ids = ["close_eyes", *(c.id for c in NIGHT_CALLS), "wake_up"]
    assert [step_title(i) for i in ids] == [i.replace("_", " ").title() for i in ids]
    with pseudo_translation():
        assert untranslated(step_title(i) for i in ids) == []


def test_setup_and_deck_descriptions_are_translated(pseudo):
    for deck in (EVERY_ROLE, BIG_DECK, ["sentinel", "curator", "werewolf", "seer", "villager",
                                        "villager"]):
        texts = setup_text(deck) + setup_notes(deck) + [describe(deck)]
        assert untranslated(texts) == [], deck
    assert untranslated(reveal_rules(EVERY_ROLE)) == []
    assert untranslated([discussion_start(s) for s in (10, 60, 90, 300)]) == []
    assert untranslated([f(s) for f in (warning, added, plus) for s in (1, 30, 60, 61, 120)]) \
        == []


def test_deck_choices_and_text_commands_are_translated(pseudo):
    picker = Picker(tuple(PRESETS["classic_5"].deck(5)), random.Random(1))
    titles = [picker.choice.title] + [picker.next_deck().title for _i in range(8)]
    titles += [picker.change_players(+1).title for _i in range(8)]
    assert len(set(titles)) > 5 and untranslated(titles) == []
    head, *rows = [re.split(r"\s{2,}", line) for line in decks_table().splitlines()]
    assert untranslated(head) == []
    assert untranslated([text for _name, _players, text in rows]) == []   # names are keys
    config = Config()
    config.game.deck = BIG_DECK
    config.game.lone_wolf = True
    steps = [line for line in script_text(config).splitlines()
             if not line.strip().endswith("]")]          # "  3. [seer]": step ids are keys
    assert untranslated(steps) == []


# -------------------------------------------------------- (b) deck errors, warnings

BAD_DECKS: list[tuple[str, Callable[[], object]]] = [
    ("empty", lambda: parse_deck(" , ")),
    ("unknown role, near", lambda: check_deck(["werewolf", "seerr"])),
    ("unknown role", lambda: check_deck(["werewolf", "zzzzzzzz"])),
    ("too many copies", lambda: check_deck(["seer", "seer", "werewolf"])),
    ("one copy too many", lambda: check_deck(["werewolf"] * 3 + ["seer"])),
    ("one mason", lambda: check_deck(["mason", "werewolf", "seer", "robber", "villager",
                                      "villager"])),
    ("alpha without a wolf card", lambda: check_deck(["alpha_wolf", "seer", "robber",
                                                      "villager", "villager", "villager",
                                                      "minion"])),
    ("too few players", lambda: check_deck(["werewolf", "seer", "robber", "villager",
                                            "villager"], players=2)),
    ("players and cards", lambda: check_deck(["werewolf", "seer", "robber", "villager",
                                              "villager", "villager"], players=4)),
    ("players and cards, alpha", lambda: check_deck(["alpha_wolf", "werewolf", "seer",
                                                     "robber", "villager", "villager",
                                                     "villager"], players=4)),
    ("deck too small", lambda: check_deck(["werewolf", "seer", "robber", "villager"])),
    ("preset too few", lambda: PRESETS["cautionary_tale"].deck(3)),
    ("preset exactly", lambda: PRESETS["classic_5"].deck(6)),
    ("preset span", lambda: PRESETS["total_chaos"].deck(11)),
    ("random too few", lambda: random_deck(2, random.Random(0))),
    ("neither, near", lambda: resolve_deck("classic5", None)),
    ("neither", lambda: resolve_deck("zzzzzzzz", None)),
]


@pytest.mark.parametrize("why, make", BAD_DECKS, ids=[w for w, _m in BAD_DECKS])
def test_deck_errors_are_translated(pseudo, why, make):
    with pytest.raises(DeckError) as error:
        make()
    assert untranslated([str(error.value)]) == []


def test_deck_warnings_are_translated(pseudo):
    decks = [
        ["seer", "robber", "troublemaker", "villager", "villager", "villager"],   # no wolf
        ["werewolf", "insomniac", "seer", "villager", "villager", "villager"],
        ["minion", "seer", "robber", "villager", "villager", "villager"],
        ["werewolf", "bodyguard", "seer", "robber", "villager", "villager"],
        EVERY_ROLE[:15],                                                   # 12 players
        ["werewolf", "aura_seer", "villager", "villager", "villager", "hunter"],
    ]
    warnings = [w for deck in decks for w in check_deck(deck)]
    assert len(warnings) >= 6
    assert untranslated(warnings) == []


# ------------------------------------------------------------ (c) a whole round

def screen_texts(record: dict) -> list[tuple[str, str]]:
    """(where, text) for every word of a replay record a person sees or hears."""
    out = [("said", line) for line in record["said"] if line]
    out += [(key, record[key]) for key in ("title", "caption", "big") if record[key]]
    out += [("details", line) for line in record["details"]]
    out += [(f"legend {button}", label) for button, label in record["legend"].items()]
    return out


def whole_line(page: str, said: list[str]) -> str:
    """The spoken line a caption page is part of (the page itself if none)."""
    part = page.removesuffix(MORE).strip()
    return next((line for line in said if part in line), page)


def round_texts(deck: list[str], events: list[TimedPress], **kw: object) -> list[dict]:
    return list(replay(Flow(RoundSettings.for_deck(deck, **kw)), events))  # type: ignore[arg-type]


def test_a_whole_round_shows_and_says_only_translated_words(pseudo):
    check_deck(BIG_DECK, players=10)
    plan = [TimedPress(0.0, Button.START), TimedPress(5.0, Button.START),
            TimedPress(6.0, Button.START), TimedPress(3600.0)]
    first = round_texts(BIG_DECK, plan, discussion_seconds=120)
    talk = next(r["at"] for r in first if r["phase"] == "discussion")
    # Again, with time added and a pause in the discussion, then an early vote.
    plan[-1:] = [TimedPress(talk + 5, Button.NEXT), TimedPress(talk + 6, Button.START),
                 TimedPress(talk + 7, Button.START), TimedPress(talk + 150, Button.VOTE),
                 TimedPress(talk + 200, Button.NEXT), TimedPress(talk + 201)]
    records = round_texts(BIG_DECK, plan, discussion_seconds=120)
    # The start screen's deck choices and player counts, and a round abandoned.
    records += round_texts(["werewolf", "werewolf", "seer", "robber", "troublemaker",
                            "villager"],
                           [TimedPress(0.0, Button.NEXT), TimedPress(0.0, Button.NEXT),
                            TimedPress(0.0, Button.VOTE), TimedPress(0.0, Button.BACK),
                            TimedPress(0.0, Button.BACK), TimedPress(1.0, Button.START),
                            TimedPress(3.0, Button.BACK, hold=True)])
    phases = {r["phase"] for r in records}
    assert phases == {"idle", "night", "discussion", "vote", "reveal"}
    seen = [pair for r in records for pair in screen_texts(r)]
    assert any(where == "said" for where, _text in seen)
    # A long caption is shown in pages: each page is checked as the line it is part of.
    said = [text for where, text in seen if where == "said"]
    seen = [(where, whole_line(text, said) if where == "caption" else text)
            for where, text in seen]
    bad = sorted({(where, text) for where, text in seen if untranslated([text])})
    assert bad == [], "\n".join(f"{where}: {text!r}" for where, text in bad)


def test_the_round_settings_lines_are_translated(pseudo):
    """What `wolfbox prepare` renders must be the lines the round says."""
    settings = RoundSettings.for_deck(BIG_DECK)
    assert untranslated(settings.lines()) == []
    assert untranslated(dataclasses.replace(settings, add_seconds=30).lines()) == []


def test_every_settings_page_shows_only_translated_words(pseudo):
    """Hold NEXT, then walk every page, change each setting both ways, ask
    for a reset and confirm it: every word on screen went through `_()`."""
    # The language page is looked at, not changed: a change leaves the
    # pseudo-language for a real one. Its value is the language's own name,
    # the one word the box shows untranslated on purpose.
    plan = [TimedPress(0.0, Button.NEXT, hold=True), TimedPress(0.5, Button.NEXT)]
    t = 1.0
    for page in range(10):
        # The Game page (the ninth after the language) is looked at only:
        # another game leaves the settings for its own start screen.
        if page != 8:
            plan += [TimedPress(t, Button.VOTE), TimedPress(t + 0.1, Button.BACK),
                     TimedPress(t + 0.2, Button.BACK)]
        plan.append(TimedPress(t + 0.3, Button.NEXT))
        t += 1.0
    plan += [TimedPress(t, Button.NEXT)] * 9 + [TimedPress(t + 0.5, Button.VOTE),
                                                TimedPress(t + 0.6, Button.VOTE),
                                                TimedPress(t + 1.0, Button.START)]
    records = round_texts(["werewolf", "werewolf", "seer", "robber", "troublemaker",
                           "villager"], plan)
    settings = [r for r in records if r["phase"] == "settings"]
    assert len({r["details"][0] for r in settings}) == 13    # every page (no backlight here)
    seen = [pair for r in records for pair in screen_texts(r)]
    bad = sorted({(where, text) for where, text in seen if untranslated([text])
                  and text not in LANGUAGES.values()})
    assert bad == [], "\n".join(f"{where}: {text!r}" for where, text in bad)


def test_the_referee_and_its_verdict_show_only_translated_words(pseudo):
    """Every question, option and reason of the referee, for a deck with a
    Doppelganger, an investigator and the Curator, goes through `_()`."""
    deck = ["doppelganger", "paranormal_investigator", "curator", "werewolf", "werewolf",
            "hunter", "bodyguard", "tanner", "villager"]
    plan = [TimedPress(0.0, Button.START), TimedPress(1.0, Button.VOTE),
            TimedPress(100.0, Button.VOTE)]
    t = 101.0
    for _step in range(40):                  # every question, each option turned through
        plan += [TimedPress(t, Button.NEXT), TimedPress(t + 0.1, Button.VOTE),
                 TimedPress(t + 0.2, Button.NEXT), TimedPress(t + 0.3, Button.START)]
        t += 1.0
    plan.append(TimedPress(t + 60))
    records = round_texts(deck, plan)
    phases = {r["phase"] for r in records}
    assert {"referee", "verdict"} <= phases
    seen = [pair for r in records for pair in screen_texts(r)]
    said = [text for where, text in seen if where == "said"]
    seen = [(where, whole_line(text, said) if where == "caption" else text)
            for where, text in seen]
    bad = sorted({(where, text) for where, text in seen if untranslated([text])})
    assert bad == [], "\n".join(f"{where}: {text!r}" for where, text in bad)

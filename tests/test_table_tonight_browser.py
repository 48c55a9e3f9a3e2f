"""A game night on nine phones, as a new table plays it (issue 40's last
item): each game of the box, in the box's own language, played whole by
nine Chromium pages at 360x740 against the real box on its fake clock and
the real server on loopback. One Night twice in a row without joining
again; the timed game for nine; the Mayor's game with eight players and
the Mayor's console. What a table must see: every page seated once, its
card behind the cover before any night, no page at night pointing anyone
at the box, the night's pictures on every phone after One Night's verdict
(and at the timed game's end), the winner on every phone, no script error.

By default one language a game (One Night in Chinese, the timed game in
German, the Mayor's in English); WOLFBOX_TABLE_TONIGHT=all, or
WOLFBOX_PHONE_SHOTS (`make screenshots`), plays every game in all three
and keeps the key moments as docs/screenshots/phones/{lang}-{game}-{step}-{moment}.png
for the README's "A game night on phones, step by step"."""

from __future__ import annotations

import os
import random
import re

import pytest
from pilot import game_lines
from test_phones_box import box_hears, join_details
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    SHOTS,
    WAIT_MS,
    browser,
    hold_cover,
    open_phone,
    playwright,
    shoot,
)
from test_whole_games_browser import covered, look, no_script_errors, shows

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.i18n import _, speaking

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
expect = playwright.expect

EVERY = os.environ.get("WOLFBOX_TABLE_TONIGHT") == "all" or bool(SHOTS)
ROTA = {"onenight": "zh", "timed": "de", "mayor": "en"}


def langs(game: str) -> list[str]:
    return ["en", "de", "zh"] if EVERY else [ROTA[game]]


# The box in each language, as its pages would name it to a player.
BOX = {"en": "box", "de": "box", "zh": "盒子"}


def tr(lang: str, msgid: str, **values) -> str:
    """`msgid` as the box says it in `lang` (the catalogue's words)."""
    with speaking(lang):
        words = _(msgid)
    return words.format(**values) if values else words


def name(lang: str, seat: int) -> str:
    """Seat `seat` as the pages name it: its player joined as P<seat>."""
    return tr(lang, "{name} · {seat}", name=f"P{seat}", seat=seat)


def start(tmp_path, mode: str, lang: str, **settings):
    config = phones_config(tmp_path, mode)
    config.box.lang = lang
    for key, value in settings.items():
        setattr(config, key, value)
    return config


def box_for(pilots, config, lang: str, **kw):
    with speaking(lang):
        lines = game_lines(config)
    return pilots.start(config, lines, **kw)


def join(chromium, pilot, lang: str, game: str, seats) -> dict:
    """A phone at each seat, joined as a table does: the PIN the box shows,
    a name, a tap on the seat. The first page's filled form is the join
    picture."""
    url, pin = join_details(pilot)
    pages = {}
    for seat in seats:
        page, problems = open_phone(chromium, url)
        page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
        assert page.get_attribute("html", "lang").startswith(lang)    # the fonts for it
        page.fill("#pin", pin)
        page.fill("#name", f"P{seat}")
        if seat == 1:
            shoot(page, f"{lang}-{game}-1-join.png")
        page.locator("#seats button").nth(seat - 1).click(timeout=WAIT_MS)
        page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
        expect(page.locator("#seat-title")).to_have_text(tr(lang, "Seat {seat}", seat=seat),
                                                         timeout=WAIT_MS)
        pages[seat] = (page, problems)
    return pages


def seated_once(pilot, seats) -> None:
    """The box's join card lists every seat once, by the name it joined with."""
    pilot.settle()
    assert pilot.view.join.seated == tuple((s, f"P{s}") for s in seats)


def no_box_at_night(lang: str, pages, seats, when: str) -> None:
    """No page at night names the box: a player at night looks at their own
    phone and nothing else."""
    for seat in seats:
        text = pages[seat][0].inner_text("#seat")
        assert BOX[lang] not in text.lower(), (when, seat, text)


def held_shot(page, path: str, full_page: bool = False) -> None:
    """The page with its cover held (the secret on screen), as a picture."""
    if SHOTS:
        hold_cover(page)
        shoot(page, path, full_page=full_page)
        page.mouse.up()
        covered(page)


def pictures(page, seats) -> None:
    """The night drawn: pictures on the page, naming every seat."""
    night = page.locator("#night")
    expect(night.locator("svg").first).to_be_visible(timeout=WAIT_MS)
    drawn = " ".join(night.locator("svg text").all_text_contents())
    assert all(f"P{s}" in drawn for s in seats), drawn


# ============================================================ One Night
NIGHT_DECK = ["werewolf", "werewolf", "minion", "mason", "mason", "seer", "robber",
              "troublemaker", "drunk", "insomniac", "villager", "hunter"]
NINE = range(1, 10)
NIGHT_WINS = {"village": "The village wins.", "werewolf": "The werewolves win.",
              "tanner": "The Tanner wins."}


@pytest.mark.parametrize("lang", langs("onenight"))
def test_one_night_on_nine_phones_two_rounds_in_a_row(tmp_path, pilots, browser, lang):  # noqa: F811
    from wolfbox.onenight.roles import role_name
    from wolfbox.view import Phase
    config = start(tmp_path, "one_night", lang)
    config.game.deck = list(NIGHT_DECK)
    pilot = box_for(pilots, config, lang)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(4)                               # the same deals every run
    pages = join(browser, pilot, lang, "onenight", NINE)
    box_hears(pilot, lambda: game.table is not None)
    seated_once(pilot, NINE)
    first = pages[1][0]
    shoot(first, f"{lang}-onenight-2-seated.png")

    for played in (1, 2):
        table = game.table
        assert game.phase is Phase.IDLE and not table.started
        with speaking(lang):
            cards = {s: _("Your card: {role}").format(role=role_name(table.dealt[s - 1]))
                     for s in NINE}
        for seat, (page, _problems) in pages.items():        # the deal: each its card, held
            expect(page.locator("#lobby")).to_be_hidden(timeout=WAIT_MS)
            assert look(page) == cards[seat], (played, seat)
        if played == 1:
            held_shot(first, f"{lang}-onenight-3-card.png")
        else:
            held_shot(first, f"{lang}-onenight-9-round2.png")

        pilot.press(Button.START)                             # the night
        calls: list[str] = []
        while True:
            pilot.until(lambda t=table: game.phase is not Phase.NIGHT or t.open, step=1.0)
            if game.phase is not Phase.NIGHT:
                break
            call = table.call
            calls.append(call)
            for seat in NINE:                                 # every page answers
                page = pages[seat][0]
                while (task := table.task(seat)) is not None and not task.chosen:
                    shows(page, task.step)
                    no_box_at_night(lang, pages, [seat], f"round {played}, {call}")
                    actor = table.dealt[seat - 1] == call
                    buttons = page.locator("#options button")
                    expect(buttons).to_have_count(len(task.options), timeout=WAIT_MS)
                    if played == 1 and call == "seer" and actor:
                        shoot(page, f"{lang}-onenight-4-night.png")
                        held_shot(page, f"{lang}-onenight-5-night-held.png")
                    for i in range(task.pick):                # the first options shown
                        buttons.nth(i).click(timeout=WAIT_MS)
                    box_hears(pilot, lambda s=seat, k=task, t=table: t.task(s) != k)
                covered(page)
            pilot.until(lambda c=call, t=table: t.call != c or not t.open, step=1.0)
        assert calls, "no call of the night reached the phones"
        pilot.until(lambda: game.phase is Phase.DISCUSSION)
        pilot.press(Button.VOTE)                              # the table votes now
        pilot.until(lambda t=table: t.voting)
        wolf = next((s for s in NINE if table.dealt[s - 1] == "werewolf"), 1)
        for seat in NINE:
            vote = wolf if seat != wolf else wolf % 9 + 1
            page = pages[seat][0]
            button = page.locator("#options").get_by_role("button", name=name(lang, vote),
                                                         exact=True)
            if seat == 1 and played == 1:
                button.wait_for(timeout=WAIT_MS)
                shoot(page, f"{lang}-onenight-6-vote.png")
            button.click(timeout=WAIT_MS)
            box_hears(pilot, lambda s=seat, v=vote, t=table: t.votes.get(s) == v)
        pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
        verdict = game.verdict
        assert verdict is not None and verdict.dead[:1] == (wolf,)
        won = [tr(lang, NIGHT_WINS[t]) for t in verdict.teams] or [tr(lang, "Nobody wins.")]
        for page, _problems in pages.values():                # the verdict and the night drawn
            expect(page.locator("#title")).to_have_text(tr(lang, "Verdict"), timeout=WAIT_MS)
            for line in won:
                expect(page.locator("#lines")).to_contain_text(line, timeout=WAIT_MS)
            pictures(page, NINE)
            covered(page)
        if played == 1:
            shoot(first, f"{lang}-onenight-7-verdict.png")
            shoot(first, f"{lang}-onenight-8-picture.png", full_page=True)
            night = first.locator("#night")
            night.locator(".night-toggle").click(timeout=WAIT_MS)    # the list, one tap away
            expect(night.locator(".night-list")).to_contain_text(tr(lang, "What happened:"),
                                                                 timeout=WAIT_MS)
        no_script_errors(pages)
        pilot.press(Button.START)                             # Done: the next round's deal
        box_hears(pilot, lambda t=table: game.table is not None and game.table is not t)
        seated_once(pilot, NINE)                              # nobody joined again
    for seat, (page, problems) in pages.items():
        expect(page.locator("#seat")).to_be_visible(timeout=WAIT_MS)
        assert page.inner_text("#refused") == "" and problems == [], seat


# ======================================================= the timed game
TIMED_WINS = {"town": "The Town wins", "wolves": "The Wolves win", "draw": "A draw"}


@pytest.mark.parametrize("lang", langs("timed"))
def test_the_timed_game_on_nine_phones(tmp_path, pilots, browser, lang):  # noqa: F811
    from wolfbox.newd3.game import Stage
    from wolfbox.newd3.roles import is_wolf_team, role_name
    from wolfbox.newd3.turns import Kind
    config = start(tmp_path, "newd3", lang)
    pilot = box_for(pilots, config, lang, warm=False)
    pilot.settle()
    game = pilot.box.flow.active
    pages = join(browser, pilot, lang, "timed", NINE)
    box_hears(pilot, lambda: game.phones == frozenset(NINE))
    seated_once(pilot, NINE)
    game.rng = random.Random(7)                               # the same deal every run
    pilot.press(Button.START)
    wolves = [s for s in NINE if is_wolf_team(game.seats[s - 1])]
    town = [s for s in NINE if s not in wolves]
    actors = [s for s in town + wolves if game.seats[s - 1] not in ("sheep", "noble", "wolf")]

    def view(seat: int):
        with speaking(lang):
            return game.phone_view(seat, pilot.clock.now)

    def message(seat: int) -> tuple[str, str]:
        with speaking(lang):
            return game.message(seat)

    pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
    for seat, (page, _problems) in pages.items():             # the look window: each its card
        with speaking(lang):
            card = role_name(game.seats[seat - 1])
        assert look(page) == card, seat
    held_shot(pages[1][0], f"{lang}-timed-2-card.png")

    def living() -> list[int]:
        return [s for s in NINE if s not in game.dead]

    def tap(seat: int, target: int, done) -> None:
        page = pages[seat][0]
        task = view(seat).task
        assert task is not None
        shows(page, task.step)
        page.locator("#options").get_by_role("button", name=name(lang, target),
                                             exact=True).click(timeout=WAIT_MS)
        box_hears(pilot, done)

    def day(voters: list[int], out: int, shot: bool = False) -> None:
        pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=600, step=0.5)
        pilot.press(Button.VOTE, hold=2.1)                    # hold: vote now
        pilot.until(lambda: game.stage is Stage.VOTE, limit=10)
        if shot:
            shows(pages[voters[0]][0], view(voters[0]).task.step)
            shoot(pages[voters[0]][0], f"{lang}-timed-3-vote.png")
        for voter in voters:
            tap(voter, out, lambda v=voter: game.phone_votes.get(v) == out)
        pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
        pilot.press(Button.START)                             # the table checks: OK

    def night(victim: int, shot: bool = False) -> None:
        pilot.until(lambda: game.night_task() is Kind.PLOT, limit=120, step=0.5)
        alive = living()
        pack = [w for w in wolves if w in alive]
        for seat in alive:                                    # the Wolves plot, the rest decoys
            target = victim if seat in pack else alive[-1]
            tap(seat, target, lambda s=seat, t=target: game.marks.get(s) == t)
        no_box_at_night(lang, pages, alive, f"night {game.night}, the plot")
        tap(pack[-1], pack[0], lambda: game.knives[len(pack) - 1] == pack[0])
        if shot:
            held_shot(pages[pack[0]][0], f"{lang}-timed-4-plot.png")
        pilot.until(lambda: game.night_task() is Kind.ACT, limit=60, step=0.5)
        for seat in alive:                                    # everyone answers
            target = next(s for s in reversed(alive) if s != seat and s != victim)
            if shot and seat == actors[0]:
                shows(pages[seat][0], view(seat).task.step)
                shoot(pages[seat][0], f"{lang}-timed-5-task.png")
                held_shot(pages[seat][0], f"{lang}-timed-6-task-held.png")
            tap(seat, target, lambda s=seat, t=target: game.marks.get(s) == t)
        no_box_at_night(lang, pages, alive, f"night {game.night}, the actions")
        pilot.until(lambda: game.turns[game.turn_index].kind is Kind.READ
                    and game.turn_stage == "wait", limit=120, step=0.5)
        for seat in alive:                                    # each its message, at once
            page = pages[seat][0]
            expect(page.locator("#task")).to_be_hidden(timeout=WAIT_MS)
            expect(page.locator("#secret")).to_contain_text(message(seat)[1], timeout=WAIT_MS)
            covered(page)
        no_box_at_night(lang, pages, alive, f"night {game.night}, the messages")
        if shot:
            held_shot(pages[actors[0]][0], f"{lang}-timed-7-message.png")
        pilot.until(lambda: game.stage is Stage.DAWN, limit=120, step=0.5)

    pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
    day(town[:3], wolves[0], shot=True)                       # day 1: short of a majority
    assert not game.dead
    victim = next(s for s in town if s not in actors)
    night(victim, shot=True)
    day([s for s in living() if s != wolves[0]], wolves[0])   # day 2: a Wolf out
    night(next(s for s in town if s not in game.dead and s != victim))
    day([s for s in living() if s != wolves[1]], wolves[1])   # day 3: the other
    pilot.until(lambda: game.stage is Stage.END, limit=60, step=0.5)
    assert game.winner == "town"
    won = tr(lang, TIMED_WINS[game.winner])
    assert pilot.view.title.startswith(won)                   # the box's end screen
    for page, _problems in pages.values():                    # and every phone's
        expect(page.locator("#title")).to_contain_text(won, timeout=WAIT_MS)
        pictures(page, NINE)                                  # the nights, drawn
        covered(page)
    shoot(pages[1][0], f"{lang}-timed-8-end.png")
    shoot(pages[1][0], f"{lang}-timed-9-picture.png", full_page=True)
    no_script_errors(pages)


# ====================================================== the Mayor's game
PLAYERS = range(1, 9)
MAYOR = 9
MAYOR_WINS = {"village": "The village wins", "werewolves": "The werewolves win"}


class Mayor:
    """The Mayor's console page: a tap on the words the console shows now,
    in the box's language (a tap on what is marked already is left out:
    it would rightly change nothing)."""

    def __init__(self, pilot, game, page, lang: str) -> None:
        self.pilot, self.game, self.page, self.lang = pilot, game, page, lang

    def task(self):
        with speaking(self.lang):
            return self.game.phone_view(MAYOR, self.pilot.clock.now).task

    def words(self, option: int, words: str) -> str:
        if words == tr(self.lang, "Seat {seat}", seat=option):
            return name(self.lang, option)
        return words

    def shows_now(self) -> None:
        task = self.task()
        expect(self.page.locator("#options button")).to_have_text(
            [self.words(i, w) for i, w in task.options], timeout=WAIT_MS)
        expect(self.page.locator("#actions button")).to_have_text(
            [w for _i, w in task.actions], timeout=WAIT_MS)

    def tap(self, words: str) -> None:
        from wolfbox.darkarts import console
        task = self.task()
        if any(words == self.words(o, w) and o in task.chosen for o, w in task.options):
            return
        self.shows_now()
        before = console.step(self.game)
        self.page.locator("#task").get_by_role("button", name=words, exact=True).click(
            timeout=WAIT_MS)
        box_hears(self.pilot, lambda: console.step(self.game) != before)
        if self.game.busy():
            self.shows_now()

    def say(self, msgid: str) -> None:
        self.tap(tr(self.lang, msgid))


@pytest.mark.parametrize("lang", langs("mayor"))
def test_the_mayors_game_on_eight_phones_and_the_console(tmp_path, pilots, browser, lang):  # noqa: F811
    from wolfbox.darkarts import console
    from wolfbox.darkarts.model import Stage
    from wolfbox.darkarts.roles import role_name
    config = start(tmp_path, "dark_arts", lang, mayor_players=8)
    config.night.scale = 0.1                                  # short nights: the day is tested
    pilot = box_for(pilots, config, lang, warm=False)
    pilot.settle()
    game = pilot.box.flow.active
    url, pin = join_details(pilot)
    pages = join(browser, pilot, lang, "mayor", PLAYERS)
    box_hears(pilot, lambda: game.phones == frozenset(PLAYERS))
    seated_once(pilot, PLAYERS)
    game.rng = random.Random(1)                               # the same deal every run
    pilot.press(Button.START)                                 # the box deals; seat 9 opens
    assert game.stage is Stage.DEAL
    mayor_page, mayor_problems = open_phone(browser, url)
    mayor_page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    mayor_page.fill("#pin", pin)
    mayor_page.fill("#name", "Mo")                           # the Mayor by a name
    mayor_page.locator("#seats button").nth(MAYOR - 1).click(timeout=WAIT_MS)
    box_hears(pilot, lambda: re.fullmatch(r"\d{4}", pilot.box.flow.view(pilot.clock.now).big))
    code = pilot.box.flow.view(pilot.clock.now).big           # the box asks with a code ...
    expect(mayor_page.locator("#refused")).to_contain_text(code, timeout=WAIT_MS)   # ... the page's
    shoot(mayor_page, f"{lang}-mayor-2-console-join.png")
    pilot.press(Button.START)                                 # the Mayor's yes, on the box
    mayor_page.wait_for_selector("#seat:not([hidden])", timeout=WAIT_MS)
    box_hears(pilot, lambda: MAYOR in game.phones)
    mayor = Mayor(pilot, game, mayor_page, lang)
    assert game.stage is Stage.DEAL                           # the look window, before the night
    for seat, (page, _problems) in pages.items():             # each its card, held
        with speaking(lang):
            card = role_name(game.dealt[seat - 1])
        assert look(page) == card, seat
    held_shot(pages[1][0], f"{lang}-mayor-3-look.png")
    assert not mayor_page.is_visible("#cover")                # the Mayor holds no card
    shoot(mayor_page, f"{lang}-mayor-4-console-deal.png")
    everyone = {**pages, MAYOR: (mayor_page, mayor_problems)}

    def quiet() -> None:
        pilot.until(lambda: game.speech.line is None, limit=600, step=0.25)

    shots: set[str] = set()

    def once(moment: str) -> bool:
        new = moment not in shots
        shots.add(moment)
        return new

    for _turn in range(400):
        stage = game.stage
        if stage is Stage.END:
            break
        if stage in (Stage.DEAL, Stage.NIGHT):
            if stage is Stage.NIGHT:
                no_box_at_night(lang, pages, game.ring.living(), f"night {game.night}")
            pilot.until(lambda stage=stage: game.stage is not stage, limit=3000, step=5.0)
        elif stage is Stage.LOVERS:
            no_box_at_night(lang, pages, PLAYERS, "the Lovers marked")
            for seat in (3, 5):
                mayor.tap(name(lang, seat))
                mayor.say("Lover")
            if once("lovers"):
                shoot(mayor_page, f"{lang}-mayor-5-lovers.png")
            mayor.say("Done")
        elif stage is Stage.DAWN:
            mayor.say("No more deaths" if game.dawn_deaths else "Nobody died")
        elif stage in (Stage.CONFIRM, Stage.RESULT):
            mayor.say("OK")
        elif stage is Stage.DISCUSSION:
            quiet()
            mayor.say("Accuse")
        elif stage is Stage.ACCUSE:
            seat = next(s for s in game.ring.living() if s != game.previous_accused)
            mayor.tap(name(lang, seat))
            if once("accuse"):
                shoot(mayor_page, f"{lang}-mayor-6-accuse.png")
            mayor.say("Accuse")
        elif stage is Stage.SECOND:
            quiet()
            mayor.say("Seconded")
        elif stage is Stage.DEFENCE:
            quiet()
            mayor.say("Vote")
        elif stage is Stage.HANDS:
            voters = sorted(console.voters(game))
            for seat in voters:                               # every hand up, on its page
                page = pages[seat][0]
                button = page.locator("#options").get_by_role(
                    "button", name=tr(lang, "Hand up: lynch"), exact=True)
                button.wait_for(timeout=WAIT_MS)
                if once("hands"):
                    shoot(page, f"{lang}-mayor-7-hands.png")
                button.click(timeout=WAIT_MS)
                box_hears(pilot, lambda s=seat: game.hand_votes.get(s) is True)
            pilot.until(lambda: game.stage is Stage.RESULT, limit=600, step=0.5)
            assert game.hands == len(voters)                  # the box counted the pages
        elif stage is Stage.ROLE:
            mayor.tap(look(pages[game.dying][0]))             # the card, read off its page
            mayor.say("OK")
        elif stage is Stage.SHOT:
            mayor.tap(name(lang, game.ring.living()[0]))
            mayor.say("Shot")
    assert game.stage is Stage.END, game.stage
    won = tr(lang, MAYOR_WINS[game.winner])
    assert pilot.view.title.startswith(won)                   # the box's end screen
    for page, _problems in everyone.values():                 # and every phone's
        expect(page.locator("#title")).to_contain_text(won, timeout=WAIT_MS)
    shoot(pages[1][0], f"{lang}-mayor-8-end.png")
    shoot(mayor_page, f"{lang}-mayor-9-console-end.png")
    no_script_errors(everyone)

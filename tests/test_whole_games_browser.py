"""Whole games on phones in a real browser (issue 22, item 9): each game
of the box played from its start screen to its end screen by phone pages
in Debian's Chromium, driven by Playwright, against the real box on its
fake clock and the real server on loopback. Every choice a player makes
is a tap in a page. For each game: no page ever had a script error, every
secret any page was sent names its own card (as the game dealt it) and no
other, a card shows only while its cover is held, and the end screen
names the winner the game itself found: on the box, and on every phone
(each game keeps its phones seated through its end screen). Skipped where
Chromium or Playwright is missing, as test_phones_browser is."""

from __future__ import annotations

import random

from test_mayor_phones_box import messages_by_seat, play_to_the_end
from test_mayor_phones_browser import Console, console_seated, on_the_page, seated
from test_phones_box import box_hears, join_details, sent  # noqa: F401 (a fixture)
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    hold_cover,
    open_phone,
    playwright,
    pytestmark,
    seat_phones,
    shoot,
)

from helpers import phones_config
from wolfbox.buttons import Button

__all__ = ["CHROMIUM", "pytestmark"]       # skipped as test_phones_browser is

expect = playwright.expect


# ------------------------------------------------------------ the pages
def covered(page) -> None:
    """The secret is hidden: nobody holds the cover."""
    expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)


def look(page) -> str:
    """Hold the cover, read the card (the secret's large first line), let go."""
    covered(page)
    hold_cover(page)
    card = page.inner_text("#secret strong")
    page.mouse.up()
    covered(page)
    return card


def option(page, words: str):
    """The option button that reads exactly `words`."""
    return page.locator("#options").get_by_role("button", name=words, exact=True)


def shows(page, step: str) -> None:
    """Wait until the page's buttons are those of the task `step`: a busy
    machine may not have drawn the box's new task yet, and the old task's
    buttons, with the same words, would answer a step that has passed."""
    expect(page.locator("#options")).to_have_attribute("data-step", step, timeout=WAIT_MS)


def tap(pilot, page, words: str, heard, step: str | None = None) -> None:
    """Tap `words` on the page (the buttons of task `step`, when given);
    the box acts on it; the page marks it: on its button, or behind the
    cover where the page has one (issue 29)."""
    if step is not None:
        shows(page, step)
    button = option(page, words)
    button.click(timeout=WAIT_MS)
    box_hears(pilot, heard)
    if page.is_visible("#cover"):
        expect(page.locator("#choice")).to_contain_text(words, timeout=WAIT_MS)
        expect(page.locator("#options button.chosen")).to_have_count(0)
    else:
        expect(button).to_have_class("chosen", timeout=WAIT_MS)


def end_screens(pages, won: str) -> list[int]:
    """Each page shows `won` in its title, or the lobby: the seats whose
    page shows the lobby instead of the end screen."""
    lobby = []
    for seat, (page, _problems) in pages.items():
        either = page.locator("#lobby:not([hidden])").or_(
            page.locator("#seat:not([hidden]) #title", has_text=won))
        expect(either.first).to_be_visible(timeout=WAIT_MS)
        if page.locator("#lobby").is_visible():
            lobby.append(seat)
        else:
            covered(page)
    return lobby


def no_script_errors(pages) -> None:
    assert {seat: problems for seat, (_page, problems) in pages.items()} == \
        {seat: [] for seat in pages}


def secrets_sent(sent, seat: int) -> list[list[str]]:  # noqa: F811
    """Every secret the server sent `seat`'s page, in order."""
    return [m["secret"] for m in messages_by_seat(sent)[seat]
            if m["t"] == "view" and m["secret"]]


# ======================================================= the timed game
TIMED_SEATS = range(1, 10)
TIMED_WINS = {"town": "The Town wins", "wolves": "The Wolves win", "draw": "A draw"}


def test_a_whole_timed_game_on_nine_browsers(tmp_path, pilots, browser, sent):  # noqa: F811
    """The deal on the phones, every day's vote and every night (the
    Wolves' plot with their marks, the actions, the messages) tapped in
    nine pages, to the Town's win."""
    from wolfbox.newd3 import said
    from wolfbox.newd3.game import Stage
    from wolfbox.newd3.roles import is_wolf_team, role_name
    from wolfbox.newd3.turns import Kind
    pilot = pilots.start(phones_config(tmp_path, "newd3"), said.all_lines(), warm=False)
    pilot.settle()
    pages = seat_phones(browser, pilot.view.join, TIMED_SEATS)
    game = pilot.box.flow.active
    box_hears(pilot, lambda: game.phones == frozenset(TIMED_SEATS))
    game.rng = random.Random(7)                               # the same deal every run
    pilot.press(Button.START)
    wolves = [s for s in TIMED_SEATS if is_wolf_team(game.seats[s - 1])]
    town = [s for s in TIMED_SEATS if s not in wolves]
    actors = [s for s in town + wolves if game.seats[s - 1] not in ("sheep", "noble", "wolf")]

    pilot.until(lambda: game.turn_stage == "wait", limit=120, step=0.5)
    for seat, (page, _problems) in pages.items():             # the deal: each its card
        assert look(page) == role_name(game.seats[seat - 1])
    shoot(pages[1][0], "en-whole-timed-deal.png")

    def living() -> list[int]:
        return [s for s in TIMED_SEATS if s not in game.dead]

    def step(seat: int) -> str:
        """The step of the task the box gives `seat`'s phone now."""
        task = game.phone_view(seat, pilot.clock.now).task
        assert task is not None
        return task.step

    def day(voters: list[int], out: int) -> None:
        """Talk cut short; `voters` tap `out` on their phones."""
        pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=600, step=0.5)
        pilot.press(Button.VOTE, hold=2.1)                    # hold: vote now
        pilot.until(lambda: game.stage is Stage.VOTE, limit=10)
        for voter in voters:
            tap(pilot, pages[voter][0], f"P{out} · {out}",
                lambda v=voter: game.phone_votes.get(v) == out, step(voter))
        pilot.until(lambda: game.stage is Stage.RESULT, limit=120, step=0.5)
        pilot.press(Button.START)                             # the table checks: OK

    told: list[dict[int, tuple[str, str]]] = []               # each night's messages

    def night(victim: int) -> None:
        pilot.until(lambda: game.night_task() is Kind.PLOT, limit=120, step=0.5)
        alive = living()
        pack = [w for w in wolves if w in alive]
        for seat in alive:                                    # the Wolves plot, the rest decoys
            target = victim if seat in pack else alive[-1]
            tap(pilot, pages[seat][0], f"P{target} · {target}",
                lambda s=seat, t=target: game.marks.get(s) == t, step(seat))
        tap(pilot, pages[pack[-1]][0], f"P{pack[0]} · {pack[0]}",     # the knife: the first Wolf
            lambda: game.knives[len(pack) - 1] == pack[0], step(pack[-1]))
        if len(pack) == 2:                                    # the partner sees it, live
            partner = pages[pack[0]][0]
            expect(partner.locator("#secret")).to_contain_text(
                f"P{pack[1]} · {pack[1]}, your partner: victim: P{victim} · {victim} · "
                f"knife: P{pack[0]} · {pack[0]}",
                timeout=WAIT_MS)
            hold_cover(partner)
            shoot(partner, "en-whole-timed-plot.png", full_page=True)
            partner.mouse.up()
            covered(partner)
        pilot.until(lambda: game.night_task() is Kind.ACT, limit=60, step=0.5)
        for seat in alive:                                    # everyone answers
            target = next(s for s in reversed(alive) if s != seat and s != victim)
            tap(pilot, pages[seat][0], f"P{target} · {target}",
                lambda s=seat, t=target: game.marks.get(s) == t, step(seat))
        pilot.until(lambda: game.turns[game.turn_index].kind is Kind.READ
                    and game.turn_stage == "wait", limit=120, step=0.5)
        for seat in alive:                                    # each its message, at once
            page = pages[seat][0]
            expect(page.locator("#task")).to_be_hidden(timeout=WAIT_MS)
            expect(page.locator("#secret")).to_contain_text(game.message(seat)[1],
                                                            timeout=WAIT_MS)
            covered(page)
        reader = pages[actors[0]][0]
        assert game.message(actors[0])[1] in hold_cover(reader)
        reader.mouse.up()
        covered(reader)
        pilot.until(lambda: game.stage is Stage.DAWN, limit=120, step=0.5)
        told.append({seat: game.message(seat) for seat in alive})

    pilot.until(lambda: game.stage is Stage.DISCUSSION, limit=300, step=0.5)
    day(town[:3], wolves[0])                                  # day 1: short of a majority
    assert not game.dead
    victim = next(s for s in town if s not in actors)
    night(victim)
    day([s for s in living() if s != wolves[0]], wolves[0])   # day 2: a Wolf out
    night(next(s for s in town if s not in game.dead and s != victim))
    day([s for s in living() if s != wolves[1]], wolves[1])   # day 3: the other
    pilot.until(lambda: game.stage is Stage.END, limit=60, step=0.5)
    assert game.winner == "town" and game.night == 2
    won = TIMED_WINS[game.winner]
    assert pilot.view.title.startswith(won)                   # the box's end screen
    lobby = end_screens(pages, won)                           # and every phone's
    shoot(pages[1][0], "en-whole-timed-end.png")
    no_script_errors(pages)

    for seat in TIMED_SEATS:                                  # every secret its own
        card = role_name(game.seats[seat - 1])
        messages = {tonight[seat] for tonight in told if seat in tonight}
        for secret in secrets_sent(sent, seat):                # a message, then its card
            assert secret[0] == card or (tuple(secret[:2]) in messages
                                         and secret[2] == f"Your card: {card}"), (seat, secret)
    assert not lobby, f"seats {lobby} show the lobby, not {won!r}"


# ====================================================== the Mayor's game
MAYOR_PLAYERS = range(1, 8)
MAYOR = 8


NAMES = {seat: f"P{seat}" for seat in range(1, 10)}     # as seat_phones joins them


class Mayor(Console):
    """The console page. A tap on what is marked already is left out (it
    would rightly change nothing, and the box would have nothing to hear);
    the tap that ends the game ends the console with it."""

    def tap(self, words: str, done=None) -> None:
        from wolfbox.darkarts import console
        task = self.game.phone_view(MAYOR, self.pilot.clock.now).task
        if any(words == on_the_page(self.names, option, w) and option in task.chosen
               for option, w in task.options):
            return
        self.shows_now()
        before = console.step(self.game)
        self.page.locator("#task").get_by_role("button", name=words, exact=True).click(
            timeout=WAIT_MS)
        box_hears(self.pilot, done or (lambda: console.step(self.game) != before))
        if self.game.busy():
            self.shows_now()


MAYOR_WINS = {"village": "The village wins", "werewolves": "The werewolves win"}


def test_a_whole_mayors_game_on_seven_browsers_and_the_console(
        tmp_path, pilots, browser, sent):  # noqa: F811
    """Seven players' pages get their cards; the Mayor runs every day on the
    console page (seat 8, joined once the game starts); the hands go up
    on the players' pages; the Mayor reads each lynched card off its
    page; to a winner on every page."""
    from wolfbox.darkarts import console
    from wolfbox.darkarts import said as mayors_said
    from wolfbox.darkarts.game import Stage
    from wolfbox.darkarts.roles import role_name
    config = phones_config(tmp_path, "dark_arts")
    config.mayor_players = 7
    config.night.scale = 0.1                                  # short nights: the day is tested
    pilot = pilots.start(config, mayors_said.all_lines(7), warm=False)
    url, pin = join_details(pilot)
    game = pilot.box.flow.active
    pages = {}
    for seat in MAYOR_PLAYERS:
        page, problems = open_phone(browser, url)
        seated(page, pin, seat, f"P{seat}")
        pages[seat] = (page, problems)
    box_hears(pilot, lambda: game.phones == frozenset(MAYOR_PLAYERS))
    game.rng = random.Random(1)                               # the same deal every run
    pilot.press(Button.START)                                 # the box deals; seat 8 opens
    assert game.dealt is not None
    mayor_page, mayor_problems = open_phone(browser, url)
    mayor_page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT_MS)
    expect(mayor_page.locator("#seats button")).to_have_count(8, timeout=WAIT_MS)
    console_seated(pilot, mayor_page, pin, "Mayor")
    box_hears(pilot, lambda: MAYOR in game.phones)
    mayor = Mayor(pilot, game, mayor_page, NAMES)
    for seat, (page, _problems) in pages.items():             # the deal: each its card
        assert look(page) == role_name(game.dealt[seat - 1])
    assert not mayor_page.is_visible("#cover")                # the Mayor holds no card

    def raise_hands() -> None:
        for seat in sorted(console.voters(game)):             # every hand up, on its page
            page = pages[seat][0]
            expect(page.locator("#prompt")).to_have_text(
                f"Raise your hand to lynch P{game.accused} · {game.accused}?", timeout=WAIT_MS)
            button = page.locator("#options").get_by_role(
                "button", name="Hand up: lynch", exact=True)
            button.click(timeout=WAIT_MS)
            box_hears(pilot, lambda s=seat: game.hand_votes.get(s) is True)
            expect(button).to_have_class("chosen", timeout=WAIT_MS)

    def counted(voters) -> None:
        assert game.hands == len(voters)                       # the box counted the pages

    # The Mayor reads each death's card off the dead player's page.
    seen = play_to_the_end(pilot, game, mayor, raise_hands,
                           lambda seat: look(pages[seat][0]), counted)
    assert game.stage is Stage.END, game.stage
    assert seen >= {Stage.LOVERS, Stage.DAWN, Stage.ROLE, Stage.HANDS, Stage.RESULT}
    won = MAYOR_WINS[game.winner]
    assert pilot.view.title.startswith(won)                   # the box's end screen
    everyone = {**pages, MAYOR: (mayor_page, mayor_problems)}
    lobby = end_screens(everyone, won)                        # and every phone's
    shoot(pages[1][0], "en-whole-mayor-end.png")
    no_script_errors(everyone)

    for seat in MAYOR_PLAYERS:                                # every secret its own card
        card = [role_name(game.dealt[seat - 1]),
                "Your card for the whole game: keep it to yourself."]
        assert secrets_sent(sent, seat) and all(
            secret == card for secret in secrets_sent(sent, seat)), seat
    assert secrets_sent(sent, MAYOR) == []                   # the Mayor: no card at all
    assert not lobby, f"seats {lobby} show the lobby, not {won!r}"


# ============================================================ One Night
# Nine players and every card played whole on the phones (onenight/phones.py).
NIGHT_DECK = ["werewolf", "werewolf", "minion", "mason", "mason", "seer", "robber",
              "troublemaker", "drunk", "insomniac", "villager", "hunter"]
NIGHT_SEATS = range(1, 10)
NIGHT_WINS = {"village": "The village wins.", "werewolf": "The werewolves win.",
              "tanner": "The Tanner wins."}


def test_a_whole_one_night_on_nine_browsers(tmp_path, pilots, browser, sent):  # noqa: F811
    """Nine pages: the box deals to them, every call of the night is
    answered by a tap on every page, the pages vote, and every page shows
    the verdict and what happened."""
    from wolfbox.onenight.roles import role_name
    from wolfbox.view import Phase
    config = phones_config(tmp_path)
    config.game.deck = list(NIGHT_DECK)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(4)                               # the same deal every run
    pages = seat_phones(browser, pilot.view.join, NIGHT_SEATS)
    box_hears(pilot, lambda: game.table is not None)
    table = game.table
    assert list(table.seats) == list(NIGHT_SEATS)
    cards = {seat: f"Your card: {role_name(table.dealt[seat - 1])}" for seat in NIGHT_SEATS}
    for seat, (page, _problems) in pages.items():             # the deal: each its card
        assert look(page) == cards[seat]
    shoot(pages[1][0], "en-whole-onenight-deal.png")

    pilot.press(Button.START)
    calls: list[str] = []
    while True:
        pilot.until(lambda: game.phase is not Phase.NIGHT or table.open, step=1.0)
        if game.phase is not Phase.NIGHT:
            break
        call = table.call
        calls.append(call)
        for seat in NIGHT_SEATS:                              # every page answers
            page = pages[seat][0]
            while (task := table.task(seat)) is not None and not task.chosen:
                shows(page, task.step)
                buttons = page.locator("#options button")
                expect(buttons).to_have_text([on_the_page(NAMES, o, w) for o, w in task.options],
                                             timeout=WAIT_MS)
                for i in range(task.pick):                    # the first options shown
                    buttons.nth(i).click(timeout=WAIT_MS)
                box_hears(pilot, lambda s=seat, t=task: table.task(s) != t)
            covered(page)
        pilot.until(lambda c=call: table.call != c or not table.open, step=1.0)
    assert len(calls) == 8                                    # every call of the deck
    pilot.until(lambda: game.phase is Phase.DISCUSSION)
    pilot.press(Button.VOTE)                                  # the table votes now
    pilot.until(lambda: table.voting)
    wolf = table.dealt.index("werewolf") + 1                  # a seat dealt a Werewolf
    for seat in NIGHT_SEATS:
        vote = wolf if seat != wolf else wolf % 9 + 1
        tap(pilot, pages[seat][0], f"P{vote} · {vote}",
            lambda s=seat, v=vote: table.votes.get(s) == v)
    pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
    verdict = game.verdict
    assert verdict is not None and verdict.dead[:1] == (wolf,)
    won = [NIGHT_WINS[t] for t in verdict.teams] or ["Nobody wins."]
    for page, _problems in pages.values():                    # the verdict and what happened
        lines = page.locator("#lines")
        expect(page.locator("#title")).to_have_text("Verdict", timeout=WAIT_MS)
        for line in won:
            expect(lines).to_contain_text(line, timeout=WAIT_MS)
        night = page.locator("#night")                        # the night drawn
        expect(night.locator("svg")).to_have_count(4, timeout=WAIT_MS)
        assert all(f"P{s}" in night.locator("svg").nth(1).locator("text").all_text_contents()
                   for s in NIGHT_SEATS)
        night.locator(".night-toggle").click(timeout=WAIT_MS)  # its list, one tap away
        expect(night.locator(".night-list")).to_contain_text("What happened:", timeout=WAIT_MS)
        shown = night.locator(".night-list p").all_inner_texts()
        assert shown[-len(table.happened()):] == table.happened()
        for other in NIGHT_SEATS:                             # every card, once it is over
            assert f"P{other} · {other} was dealt the {role_name(table.dealt[other - 1])}." \
                in shown
        covered(page)
    shoot(pages[1][0], "en-whole-onenight-verdict.png", full_page=True)
    no_script_errors(pages)

    for seat in NIGHT_SEATS:                                  # every secret its own card
        assert secrets_sent(sent, seat) and all(
            secret[0] == cards[seat] for secret in secrets_sent(sent, seat)), seat

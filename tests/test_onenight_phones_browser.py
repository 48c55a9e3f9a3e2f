"""One Night on phones in a real browser (issue 22): five Chromium phones
at the real box on loopback. The box deals, each card shows only while
its cover is held; the Troublemaker taps two seats and the box swaps
them; the phones vote; every phone shows the verdict and the night drawn,
its list one tap away."""

from __future__ import annotations

import random

import pytest
from test_phones_browser import (  # noqa: F401 (the fixture)
    CHROMIUM,
    WAIT_MS,
    browser,
    caught_up,
    hold_cover,
    playwright,
    seat_phones,
    shoot,
)

from helpers import phones_config
from wolfbox.buttons import Button
from wolfbox.events import PhonesSeated
from wolfbox.onenight.flow import Flow, RoundSettings
from wolfbox.view import Phase

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

DECK = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "villager",
        "drunk"]
SEATS = range(1, 6)


def let_go(page) -> None:
    page.mouse.up()
    playwright.expect(page.locator("#secret")).to_be_hidden(timeout=WAIT_MS)


def seed_with_a_troublemaker() -> int:
    """A seed whose deal puts the Troublemaker at a seat, as the box deals."""
    for seed in range(100):
        flow = Flow(RoundSettings.for_deck(DECK), rng=random.Random(seed))
        flow.handle(PhonesSeated(frozenset(SEATS)), 0.0)
        if flow.table is not None and "troublemaker" in flow.table.dealt[:5]:
            return seed
    raise AssertionError("no seed deals the Troublemaker to a seat")


def hear(pilot, done) -> None:
    for _ in range(50):
        if done():
            return
        pilot.box.act(pilot.box.inbox.wait(0.5))
    raise AssertionError("the box never heard the phone")


def test_five_browsers_play_one_night_on_their_phones(tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(seed_with_a_troublemaker())
    pages = seat_phones(browser, pilot.view.join, SEATS)
    hear(pilot, lambda: game.table is not None)
    table = game.table
    assert "troublemaker" in table.dealt[:5]           # the seed deals her to a seat
    maker = table.dealt.index("troublemaker") + 1
    others = [s for s in SEATS if s != maker]

    page = pages[maker][0]                             # her card, while the cover is held
    caught_up(page, game.phone_view(maker, pilot.clock.now))
    hold_cover(page)
    assert "Your card: Troublemaker" in page.inner_text("#secret")
    shoot(page, "en-onenight-card.png")
    let_go(page)

    pilot.press(Button.START)
    pilot.until(lambda: table.call == "troublemaker" and table.open, step=1.0)
    for seat in SEATS:                                 # every phone: two seats to tap
        options = pages[seat][0].locator("#options button")
        playwright.expect(options).to_have_count(4, timeout=WAIT_MS)
    for seat in SEATS:                                 # eyes on the phone, not closed
        playwright.expect(pages[seat][0].locator("#lines")).to_contain_text(
            "Eyes on your own phone all night", timeout=WAIT_MS)
    caught_up(page, game.phone_view(maker, pilot.clock.now))
    hold_cover(page)
    assert "You are the Troublemaker" in page.inner_text("#secret")
    let_go(page)
    before = list(table.cards)
    a, b = others[0], others[1]
    page.locator("#options button", has_text=f"P{a} · {a}").click(timeout=WAIT_MS)
    # The first of two picks: behind the cover only, as what the box took.
    playwright.expect(page.locator("#choice")).to_have_text(f"P{a} · {a} …", timeout=WAIT_MS)
    playwright.expect(page.locator("#options button.picking")).to_have_count(0)
    page.locator("#options button", has_text=f"P{b} · {b}").click(timeout=WAIT_MS)
    hear(pilot, lambda: table.cards != before)
    assert (table.cards[a - 1], table.cards[b - 1]) == (before[b - 1], before[a - 1])
    playwright.expect(page.locator("#choice")).to_have_text(
        f"✓ P{min(a, b)} · {min(a, b)} · P{max(a, b)} · {max(a, b)}", timeout=WAIT_MS)
    playwright.expect(page.locator("#options button.chosen")).to_have_count(0)
    hold_cover(page)
    assert f"You swapped the cards of P{a} · {a} and P{b} · {b}." in page.inner_text("#secret")
    shoot(page, "en-onenight-troublemaker.png")
    let_go(page)
    decoy = pages[others[2]][0]                       # another phone: the same two taps
    hold_cover(decoy)
    assert "Not your call" in decoy.inner_text("#secret")
    shoot(decoy, "en-onenight-decoy.png")
    let_go(decoy)

    pilot.until(lambda: game.phase is Phase.DISCUSSION, step=1.0)
    pilot.press(Button.VOTE)
    pilot.until(lambda: table.voting, step=0.25)
    target = others[0]
    for seat in SEATS:
        vote = target if seat != target else maker
        caught_up(pages[seat][0], game.phone_view(seat, pilot.clock.now))
        pages[seat][0].locator("#options button", has_text=f"P{vote} · {vote}").click(
            timeout=WAIT_MS)
        hear(pilot, lambda s=seat, v=vote: table.votes.get(s) == v)
    shoot(pages[maker][0], "en-onenight-vote.png")
    pilot.until(lambda: game.phase is Phase.VERDICT, step=0.5)
    assert game.verdict is not None and target in game.verdict.dead
    for seat in SEATS:                                 # every phone: the night drawn
        night_drawn(pages[seat][0], a, b)
    shoot(pages[maker][0], "en-onenight-night-drawn.png", full_page=True)
    for seat in SEATS:                                 # the list, one tap away
        page = pages[seat][0]
        listed = page.locator("#night .night-list")
        playwright.expect(listed).to_be_hidden()
        page.locator("#night .night-toggle").click(timeout=WAIT_MS)
        playwright.expect(listed).to_contain_text("What happened:", timeout=WAIT_MS)
        playwright.expect(listed).to_contain_text(
            f"swapped the cards of P{a} · {a} and P{b} · {b}", timeout=WAIT_MS)
        playwright.expect(page.locator("#night svg").first).to_be_hidden()
    shoot(pages[maker][0], "en-onenight-what-happened.png")
    page = pages[maker][0]                             # and back to the pictures
    page.locator("#night .night-toggle").click(timeout=WAIT_MS)
    playwright.expect(page.locator("#night svg").first).to_be_visible(timeout=WAIT_MS)
    assert all(problems == [] for _page, problems in pages.values())


def night_drawn(page, a: int, b: int) -> None:
    """The page shows the night's pictures: every seat by its player's name
    in each, the four pictures' titles, the Troublemaker's swap of `a` and
    `b` as a numbered arrow, the votes as arrows, and the list hidden."""
    night = page.locator("#night")
    playwright.expect(night).to_be_visible(timeout=WAIT_MS)
    pictures = night.locator("svg")
    playwright.expect(pictures).to_have_count(4, timeout=WAIT_MS)
    titles = night.locator("h2").all_inner_texts()
    assert titles == ["The deal", "The night", "Dawn", "The votes"]
    for i in range(4):
        svg = pictures.nth(i)
        texts = svg.locator("text").all_text_contents()
        assert all(f"P{seat}" in texts for seat in SEATS), texts
        box = svg.bounding_box()
        assert box is not None and box["width"] >= 300           # drawn, not collapsed
    deal = pictures.nth(0).locator("text").all_text_contents()
    assert "Troublemaker" in deal and "Werewolf" in deal
    night_arrows = pictures.nth(1).locator("path[marker-start]")   # a swap points both ways
    assert night_arrows.count() >= 1
    assert pictures.nth(3).locator("path[marker-end]").count() == len(SEATS)  # a vote a seat
    notes = night.locator(".night-note").all_inner_texts()
    assert any(f"swapped the cards of P{a} · {a} and P{b} · {b}" in n and n[0].isdigit()
               for n in notes), notes
    playwright.expect(night.locator(".night-list")).to_be_hidden()


AURA = ["aura_seer", "seer", "werewolf", "werewolf", "villager", "villager", "robber",
        "troublemaker"]


def seed_dealing(deck, roles) -> int:
    """A seed whose deal puts every one of `roles` at a seat."""
    for seed in range(200):
        flow = Flow(RoundSettings.for_deck(deck), rng=random.Random(seed))
        flow.handle(PhonesSeated(frozenset(SEATS)), 0.0)
        if flow.table is not None and all(r in flow.table.dealt[:5] for r in roles):
            return seed
    raise AssertionError(f"no seed deals {roles} to the seats")


def test_the_aura_seer_sees_on_her_phone_who_looked_at_a_card(
        tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path)
    config.game.deck = list(AURA)
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    game.rng = random.Random(seed_dealing(AURA, ("aura_seer", "seer")))
    pages = seat_phones(browser, pilot.view.join, SEATS)
    hear(pilot, lambda: game.table is not None)
    table = game.table
    seer, aura = table.dealt.index("seer") + 1, table.dealt.index("aura_seer") + 1
    target = next(s for s in SEATS if s not in (seer, aura))
    pilot.press(Button.START)
    pilot.until(lambda: table.call == "seer" and table.open, step=1.0)
    page = pages[seer][0]
    caught_up(page, game.phone_view(seer, pilot.clock.now))
    page.locator("#options button", has_text=f"P{target} · {target}").click(timeout=WAIT_MS)
    hear(pilot, lambda: table.touched == [seer])
    pilot.until(lambda: table.call == "aura_seer" and table.open, step=1.0)
    page = pages[aura][0]
    caught_up(page, game.phone_view(aura, pilot.clock.now))
    playwright.expect(page.locator("#options button")).to_have_count(4, timeout=WAIT_MS)
    hold_cover(page)
    playwright.expect(page.locator("#secret")).to_contain_text(
        f"looked at or moved a card tonight: P{seer} · {seer}.", timeout=WAIT_MS)
    shoot(page, "en-onenight-aura-seer.png")
    let_go(page)
    other = pages[target][0]
    hold_cover(other)
    assert "Not your call" in other.inner_text("#secret")
    assert f"Seat {seer}" not in other.inner_text("#secret")
    let_go(other)
    assert all(problems == [] for _page, problems in pages.values())


def test_own_cards_each_phone_enters_its_card_turned_up(
        tmp_path, pilots, browser):  # noqa: F811
    config = phones_config(tmp_path)
    config.game.deck = list(DECK)
    config.game.cards_on_phones = False
    pilot = pilots.start(config)
    pilot.settle()
    game = pilot.box.flow.active
    pages = seat_phones(browser, pilot.view.join, SEATS)
    hear(pilot, lambda: game.own_cards())
    assert game.table is None                          # the box deals nothing
    pilot.press(Button.START)
    pilot.until(lambda: game.phase is Phase.DISCUSSION, step=1.0)
    pilot.press(Button.VOTE)
    pilot.until(lambda: game.own is not None and game.own.voting, step=0.25)
    for seat in SEATS:
        vote = 2 if seat != 2 else 1
        caught_up(pages[seat][0], game.phone_view(seat, pilot.clock.now))
        pages[seat][0].locator("#options button", has_text=f"P{vote} · {vote}").click(
            timeout=WAIT_MS)
        hear(pilot, lambda s=seat, v=vote: game.own.votes.get(s) == v)
    pilot.until(lambda: game.phase is Phase.REFEREE, step=0.5)
    dealt = ["werewolf", "seer", "robber", "villager", "troublemaker"]
    for seat, role in zip(SEATS, dealt, strict=True):
        page = pages[seat][0]
        playwright.expect(page.locator("#task")).to_contain_text(
            "Turn up your card: which is it?", timeout=WAIT_MS)
        caught_up(page, game.phone_view(seat, pilot.clock.now))
        if seat == 2:
            shoot(page, "en-onenight-own-card.png")
        page.locator("#options button", has_text=role.capitalize()).first.click(
            timeout=WAIT_MS)
        if seat < 5:
            hear(pilot, lambda s=seat: game.own.done(s))
    hear(pilot, lambda: game.phase is Phase.VERDICT)
    assert game.verdict is not None and game.verdict.dead == (2,)
    for seat in SEATS:
        playwright.expect(pages[seat][0].locator("#lines")).to_contain_text(
            "P2 · 2 dies.", timeout=WAIT_MS)
    shoot(pages[2][0], "en-onenight-own-verdict.png")
    assert all(problems == [] for _page, problems in pages.values())

"""The night script for every role, the exact order, and the deck rules."""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys

import pytest

from wolfbox.onenight.deck import DeckError, check_deck, players_for
from wolfbox.onenight.night import NIGHT_CALLS, NightOptions, night_script, setup_text
from wolfbox.onenight.presets import PRESETS, presets_for, random_deck, resolve_deck
from wolfbox.onenight.roles import ROLES

ORDER = ["sentinel", "doppelganger", "doppelganger_minion", "werewolves", "alpha_wolf",
         "mystic_wolf", "minion", "masons", "seer", "apprentice_seer",
         "paranormal_investigator", "robber", "witch", "troublemaker", "village_idiot",
         "aura_seer", "doppelganger_aura_seer", "drunk", "insomniac", "doppelganger_insomniac",
         "revealer", "doppelganger_revealer", "curator", "doppelganger_curator"]

NEVER_WAKE = {"villager", "hunter", "tanner", "bodyguard", "dream_wolf", "prince", "cursed"}


def ids(deck, **options) -> list[str]:
    return [s.id for s in night_script(deck, NightOptions(**options))]


def role_ids(deck) -> list[str]:
    return ids(deck)[1:-1]


def test_the_call_table_is_the_night_order():
    assert [c.id for c in NIGHT_CALLS] == ORDER


def test_every_role_at_once_gives_every_step_in_order():
    every = [r for r in ROLES for _ in range(ROLES[r].copies)]
    assert ids(every) == ["close_eyes", *ORDER, "wake_up"]


@pytest.mark.parametrize("deck, expected", [
    ("werewolf werewolf seer robber troublemaker villager",
     ["werewolves", "seer", "robber", "troublemaker"]),
    ("sentinel werewolf seer villager villager villager", ["sentinel", "werewolves", "seer"]),
    ("alpha_wolf werewolf seer villager villager villager villager",
     ["werewolves", "alpha_wolf", "seer"]),
    ("mystic_wolf seer robber villager villager villager", ["werewolves", "mystic_wolf", "seer",
                                                            "robber"]),
    ("dream_wolf minion seer villager villager villager", ["minion", "seer"]),
    ("werewolf mason mason drunk insomniac villager", ["werewolves", "masons", "drunk",
                                                       "insomniac"]),
    ("werewolf apprentice_seer paranormal_investigator witch village_idiot villager",
     ["werewolves", "apprentice_seer", "paranormal_investigator", "witch", "village_idiot"]),
    ("werewolf aura_seer revealer curator bodyguard prince cursed",
     ["werewolves", "aura_seer", "revealer", "curator"]),
    ("tanner hunter villager villager villager bodyguard", []),
])
def test_order_for_decks(deck, expected):
    assert role_ids(deck.split()) == expected


@pytest.mark.parametrize("partner", ["minion", "aura_seer", "insomniac", "revealer", "curator"])
def test_each_doppelganger_step_follows_its_role(partner):
    deck = ["doppelganger", "werewolf", partner, "robber", "villager", "villager"]
    steps = role_ids(deck)
    mine = f"doppelganger_{partner}"
    assert mine in steps
    if partner == "minion":
        assert steps.index("doppelganger") < steps.index(mine) < steps.index("werewolves")
    else:
        own = partner
        assert steps.index(mine) == steps.index(own) + 1
    # Without the Doppelganger, or without the partner, there is no such step.
    assert mine not in role_ids([r if r != "doppelganger" else "villager" for r in deck])
    assert mine not in role_ids([r if r != partner else "seer" for r in deck])


@pytest.mark.parametrize("role_id", sorted(ROLES))
def test_every_role_wakes_exactly_when_it_should(role_id):
    deck = [role_id, "villager", "villager", "villager"]
    steps = role_ids(deck)
    if role_id in NEVER_WAKE:
        assert steps == [] and ROLES[role_id].wake is None
    elif role_id in ("alpha_wolf", "mystic_wolf"):       # with the pack, then alone
        assert steps == ["werewolves", role_id]
    else:
        assert len(steps) == 1, steps
        assert ROLES[role_id].wake is not None


def test_every_step_has_text_and_every_call_says_close():
    every = [r for r in ROLES for _ in range(ROLES[r].copies)]
    for lone in (False, True):
        for step in night_script(every, NightOptions(lone_wolf=lone)):
            assert step.text.strip().endswith((".", "!"))
            if step.id not in ("close_eyes", "wake_up"):
                assert "close your eyes" in step.after
                assert step.seconds > 0


def test_role_calls_are_in_our_words_and_name_the_role():
    every = [r for r in ROLES for _ in range(ROLES[r].copies)]
    for step in night_script(every)[1:-1]:
        first = step.id.split("_")[0]
        assert first.lower() in step.text.lower()


@pytest.mark.parametrize("deck", [
    "werewolf werewolf seer robber troublemaker villager",
    "doppelganger alpha_wolf mystic_wolf minion robber witch villager",
    "sentinel werewolf dream_wolf minion mason mason curator revealer aura_seer",
])
def test_timing_depends_on_the_roles_only_not_on_where_cards_lie(deck):
    """The box never knows which cards are in the center; the script is the
    same whatever the deal, and each call gets its role's full time."""
    cards = deck.split()
    scripts = {tuple(night_script(list(p))) for p in itertools.islice(
        itertools.permutations(cards), 0, 200, 17)}
    assert len(scripts) == 1


@pytest.mark.parametrize("partner", ["minion", "aura_seer", "insomniac", "revealer", "curator"])
def test_a_doppelganger_repeat_call_gets_its_partner_roles_time(partner):
    """She acts as the role she copied, so she gets that role's time: set the
    partner's time to an odd value and the Doppelganger's own to another."""
    deck = ["doppelganger", "werewolf", partner, "robber", "villager", "villager"]
    steps = {s.id: s.seconds for s in night_script(deck, NightOptions(
        action_seconds={partner: 17, "doppelganger": 23}))}
    assert steps[f"doppelganger_{partner}"] == 17
    assert steps[partner] == 17
    assert steps["doppelganger"] == 23


def test_action_time_scale_and_override():
    deck = "werewolf werewolf seer robber troublemaker villager".split()
    steps = {s.id: s.seconds for s in night_script(deck, NightOptions(
        scale=0.5, action_seconds={"seer": 30}))}
    assert steps["seer"] == 15 and steps["robber"] == 5 and steps["werewolves"] == 5
    assert steps["close_eyes"] == 2


def test_roles_with_more_to_do_get_more_time():
    for slow in ("doppelganger", "witch", "paranormal_investigator"):
        assert ROLES[slow].action_seconds > ROLES["seer"].action_seconds


def test_dream_wolf_thumb_in_werewolves_and_minion_calls():
    deck = "werewolf dream_wolf minion seer villager villager".split()
    steps = {s.id: s for s in night_script(deck)}
    assert "Dream Wolf" in steps["werewolves"].text
    assert "thumb" in steps["werewolves"].text
    assert "Dream Wolf" in steps["minion"].text
    plain = {s.id: s for s in night_script("werewolf werewolf minion seer villager villager"
                                           .split())}
    assert "Dream" not in plain["werewolves"].text + plain["minion"].text


def test_lone_wolf_is_on_by_default_002_and_a_table_may_turn_it_off_001():
    """002 states the lone wolf as a rule; 001 as an option a table may leave out."""
    deck = "werewolf werewolf seer robber troublemaker villager".split()
    on = night_script(deck)[1].text
    off = night_script(deck, NightOptions(lone_wolf=False))[1].text
    assert "only werewolf" in on and "only werewolf" not in off
    alpha = "alpha_wolf werewolf seer robber villager villager villager".split()
    assert "center werewolf card" in night_script(alpha)[1].text
    assert "center werewolf card" in night_script(alpha, NightOptions(lone_wolf=False))[1].text
    assert any("center werewolf card" in line for line in setup_text(alpha))
    assert not any("center werewolf card" in line for line in setup_text(deck))


def test_doppelganger_is_told_to_act_at_once_for_the_roles_that_do():
    base = ("doppelganger werewolf seer robber troublemaker drunk insomniac mason mason "
            "villager").split()
    text = night_script(base)[1].text
    at_once, later = text.split("do that role's action now")
    assert "If you saw the Seer, Robber, Troublemaker or Drunk," in at_once
    assert "werewolf or a Mason, you will wake with them" in later
    assert later.endswith("If you saw the Insomniac, you will be called again.")
    daybreak = night_script(base[:-1] + ["witch"])[1].text
    assert "If you saw the Seer, Robber, Witch, Troublemaker or Drunk," in daybreak


# The roles a Doppelganger copies and acts as at once, and those whose copy
# is called again later (000's rules, not read from the code under test).
ACT_AT_ONCE = {"Sentinel", "Alpha Wolf", "Mystic Wolf", "Seer", "Apprentice Seer",
               "Paranormal Investigator", "Robber", "Witch", "Troublemaker", "Village Idiot",
               "Drunk"}
CALLED_AGAIN = {"Minion", "Aura Seer", "Insomniac", "Revealer", "Curator"}


def _named(text: str, pattern: str) -> set[str]:
    found = re.search(pattern, text)
    return set(re.split(r", | or ", found.group(1))) if found else set()


@pytest.mark.parametrize("seed", range(30))
def test_the_doppelgangers_call_names_only_the_roles_the_deck_holds(seed):
    """Issue 19.15: her call names what the deck can give her and nothing
    else (the deck is public: this tells the table nothing it cannot see)."""
    rng = random.Random(seed)
    pool = [r for r in ROLES for _ in range(ROLES[r].copies) if r != "doppelganger"]
    while True:
        deck = ["doppelganger", *rng.sample(pool, rng.randint(5, 9))]
        try:
            check_deck(deck)
            break
        except DeckError:
            continue
    text = {s.id: s.text for s in night_script(deck)}["doppelganger"]
    names = {ROLES[r].name for r in deck}
    assert _named(text, r"If you saw the ([^.]+?), do that role's action now") == \
        names & ACT_AT_ONCE, (deck, text)
    assert _named(text, r"If you saw the ([^.]+?), you will be called again") == \
        names & CALLED_AGAIN, (deck, text)
    assert ("Mason" in text) == ("mason" in deck)


def test_trust_no_one_no_longer_reads_every_role_of_the_box():
    """The Trust No One scenario holds the Alpha Wolf, the Robber and the
    Witch among what she can copy: those three, not sixteen."""
    deck = "doppelganger alpha_wolf werewolf dream_wolf robber witch villager".split()
    text = night_script(deck)[1].text
    assert "If you saw the Alpha Wolf, Robber or Witch, do that role's action now" in text
    for absent in ("Sentinel", "Mason", "Minion", "Aura Seer", "Curator", "Insomniac",
                   "called again"):
        assert absent not in text
    assert len(text.split()) < 75


def test_a_doppelganger_call_lasts_what_its_deck_says_wherever_her_card_lies():
    """The call's text (so its caption time) and its wait come from the deck
    alone: the same whether her card is dealt or in the center."""
    deck = "doppelganger werewolf werewolf seer robber troublemaker villager".split()
    night = night_script(deck)
    again = night_script(list(reversed(deck)))
    assert [(s.text, s.seconds) for s in night] == [(s.text, s.seconds) for s in again]


# ------------------------------------------------------------------ deck rules
@pytest.mark.parametrize("deck, players, message", [
    ("werewolf werewolf seer robber troublemaker villger", None,
     "unknown role 'villger' (did you mean 'villager'?)"),
    ("werewolf werewolf seer robber troublemaker villager", 4,
     "4 players need 7 cards (players + 3); the deck has 6"),
    ("alpha_wolf werewolf seer robber troublemaker villager", 3,
     "3 players need 7 cards (players + 4 with the alpha_wolf); the deck has 6"),
    ("alpha_wolf seer robber troublemaker villager villager villager", None,
     "alpha_wolf needs a center werewolf card"),
    ("werewolf seer robber villager villager", None,
     "a deck needs at least 6 cards (players + 3, and at least 3 players); this one has 5 cards"),
    ("werewolf seer robber", 2, "--players 2: the game needs at least 3 players"),
    ("werewolf werewolf werewolf seer robber villager", None,
     "3 × werewolf: the game has only 2 Werewolf cards"),
    ("werewolf seer seer robber villager villager", None, "2 × seer: the game has only 1"),
    ("werewolf seer robber villager villager villager villager", None,
     "4 × villager: the game has only 3"),
    ("werewolf mason seer robber villager villager", None,
     "mason: the two Mason cards are played together or not at all"),
])
def test_deck_errors_are_one_line(deck, players, message):
    with pytest.raises(DeckError) as e:
        check_deck(deck.split(), players)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("deck, warning", [
    ("werewolf seer insomniac villager villager villager", "insomniac: nothing in this deck"),
    ("seer robber troublemaker villager villager villager", "no werewolf card"),
    ("minion seer robber villager villager villager", "minion: there are no werewolves"),
    ("werewolf bodyguard seer villager villager villager", "bodyguard: recommended for five"),
])
def test_doubtful_decks_warn(deck, warning):
    assert any(warning in w for w in check_deck(deck.split()))


def test_alpha_wolf_decks_count_the_extra_card():
    deck = "alpha_wolf werewolf seer robber villager villager villager".split()
    assert check_deck(deck) == [] and players_for(deck) == 3
    assert check_deck(deck, players=3) == []


# --------------------------------------------------------------------- presets
def test_the_sheets_recommendations_are_for_their_player_counts():
    for n in range(3, 8):
        assert list(PRESETS[f"classic_{n}"].players()) == [n]
    for v in "abc":
        assert list(PRESETS[f"classic_8{v}"].players()) == [8]
    assert PRESETS["classic_3"].deck(3) == "werewolf werewolf seer robber troublemaker " \
        "villager".split()


@pytest.mark.parametrize("name, least", [("evil_transformation", 3), ("trust_no_one", 3),
                                         ("cautionary_tale", 4), ("information_society", 5),
                                         ("total_chaos", 5)])
def test_fun_scenarios_fill_with_villagers_from_their_minimum(name, least):
    preset = PRESETS[name]
    assert preset.players().start == least
    for n in preset.players():
        deck = preset.deck(n)
        assert check_deck(deck, n) is not None
        # Villagers, and with the Alpha Wolf a Werewolf for the center werewolf card.
        extra = {"werewolf"} if "alpha_wolf" in preset.core else set()
        assert set(deck) - set(preset.core) <= {"villager"} | extra
    with pytest.raises(DeckError):
        preset.deck(least - 1)


@pytest.mark.parametrize("name", ["evil_transformation", "trust_no_one", "total_chaos"])
def test_an_alpha_wolf_scenario_deals_its_listed_cards_and_adds_the_center_card_000(name):
    """000: the scenarios list what is dealt ("you need 3 more cards than players") and
    "If playing with the Alpha Wolf, position any other Werewolf card ... face down and
    perpendicular to the three center cards": one card more, a werewolf card."""
    preset = PRESETS[name]
    least = preset.players().start
    deck = preset.deck(least)
    assert len(preset.core) == least + 3                 # the listed cards are dealt
    assert sorted(deck) == sorted([*preset.core, "werewolf"])


@pytest.mark.parametrize("players", range(3, 11))
def test_every_player_count_has_decks_and_random_ones_are_valid(players):
    rng = random.Random(players)
    for _ in range(50):
        deck = random_deck(players, rng)
        check_deck(deck, players)
        wolves = sum(1 for r in deck if r in ("werewolf", "mystic_wolf", "dream_wolf"))
        assert 1 <= wolves <= 3
    if players <= 8:
        assert presets_for(players)


def test_resolve_deck_takes_preset_names_and_lists():
    assert resolve_deck("classic_5", None) == PRESETS["classic_5"].deck(5)
    assert len(resolve_deck("total_chaos", 6)) == 10
    assert resolve_deck("werewolf,werewolf,seer,robber,troublemaker,villager", 3)[2] == "seer"
    with pytest.raises(DeckError, match="is for exactly 5 players, not 6"):
        resolve_deck("classic_5", 6)


# ------------------------------------------------------------------ command line
def wolfbox(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wolfbox", *args], capture_output=True,
                          text=True, timeout=60)


def test_script_json_schema():
    result = wolfbox("script", "--deck", "evil_transformation", "--players", "4", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"deck", "players", "steps"}
    assert data["players"] == 4 and len(data["deck"]) == 8
    assert [s["id"] for s in data["steps"]][:4] == ["close_eyes", "doppelganger",
                                                    "doppelganger_minion", "werewolves"]
    for step in data["steps"]:
        assert set(step) >= {"id", "text", "seconds"}
        assert isinstance(step["id"], str) and step["text"]
        assert isinstance(step["seconds"], (int, float)) and step["seconds"] >= 0


def test_script_text_reads_like_a_narrators_sheet():
    result = wolfbox("script", "--deck", "werewolf,werewolf,seer,robber,troublemaker,villager",
                     "--lone-wolf")
    assert result.returncode == 0
    out = result.stdout
    assert "Setup:" in out and "(wait 10 s)" in out
    assert out.index("[werewolves]") < out.index("[seer]") < out.index("[robber]")
    assert "only werewolf" in out


def test_script_refuses_a_bad_deck_with_one_line():
    result = wolfbox("script", "--deck", "werewolf,werewolf,seer", "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "at least 3 players" in result.stderr
    result = wolfbox("script", "--deck", "classic_5", "--players", "7")
    assert result.returncode == 2 and "exactly 5 players" in result.stderr


def test_decks_lists_every_preset_with_player_counts():
    result = wolfbox("decks")
    assert result.returncode == 0
    for name in PRESETS:
        assert name in result.stdout
    assert re.search(r"^total_chaos +5-8 ", result.stdout, re.M)
    assert re.search(r"^total_chaos_mixed +6-10 +Total Chaos \+ other roles:", result.stdout, re.M)
    assert re.search(r"^classic_7t +7 +Classic, 7 players \(with the Tanner\):.*Tanner$",
                     result.stdout, re.M)


def test_the_seven_player_sheet_deck_offers_the_tanner_for_the_villager_001():
    """001 lists the 7-player deck's last card as "1村民(皮匠)": Villager (or Tanner)."""
    plain, tanner = PRESETS["classic_7"].deck(7), PRESETS["classic_7t"].deck(7)
    assert sorted(plain) == sorted([*[r for r in tanner if r != "tanner"], "villager"])


def test_scenarios_have_a_variant_filled_with_other_roles_000():
    """000: "you can add other roles to these sets to match the number of players"."""
    chaos = PRESETS["total_chaos_mixed"]
    assert chaos.players().start == 6                  # one player above the listed roles
    deck = chaos.deck(7)
    core = [*PRESETS["total_chaos"].core, "werewolf"]  # and the center werewolf card
    assert list(deck[:len(core)]) == core
    added = deck[len(core):]
    assert len(added) == 7 + 4 - len(core) and "villager" not in added
    assert len(set(added)) == len(added)               # each other role once
    with pytest.raises(DeckError):
        PRESETS["total_chaos_mixed"].deck(5)           # the scenario itself: not a variant


def test_decks_json_lists_every_preset_for_programs():
    result = wolfbox("decks", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [d["name"] for d in data] == list(PRESETS)
    chaos = next(d for d in data if d["name"] == "total_chaos")
    assert set(chaos) == {"name", "title", "players", "deck"}
    assert chaos["players"] == [5, 8] and chaos["title"] == "Total Chaos"
    assert len(chaos["deck"]) == 5 + 4                  # the deck at 5 players, Alpha Wolf's card


def test_script_json_has_setup_morning_and_reveal_for_the_deck():
    result = wolfbox("script", "--json", "--deck", "total_chaos")
    data = json.loads(result.stdout)
    assert any("center werewolf card" in line for line in data["setup"])
    assert any("artifact token on their card" in line for line in data["morning"])
    assert any("An artifact overrides the card" in line for line in data["reveal"])
    assert any("nobody may point at themselves" in line for line in data["reveal"])


def test_the_manuals_role_table_is_the_catalogue():
    from pathlib import Path

    from wolfbox.onenight.script import roles_table
    page = (Path(__file__).parent.parent / "docs/play/decks.md").read_text()
    assert roles_table() in page


def test_a_preset_named_in_the_config_file(tmp_path):
    config = tmp_path / "box.toml"
    config.write_text('[game]\ndeck = "trust_no_one"\nplayers = 4\nlone_wolf = true\n')
    result = wolfbox("script", "--config", str(config), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["players"] == 4 and data["lone_wolf"] is True
    assert data["deck"].count("villager") == 1      # 6 listed + the center werewolf + 1
    config.write_text('[game]\ndeck = "trust_no_one"\nplayers = 9\n')
    result = wolfbox("script", "--config", str(config))
    assert result.returncode == 2
    assert f"{config}: game.deck: preset 'trust_no_one' is for 3 to 6 players, not 9" \
        in result.stderr


@pytest.mark.parametrize("seed", range(40))
def test_every_line_of_any_deck_is_in_the_catalogue(seed):
    from wolfbox.onenight.night import all_lines
    rng = random.Random(seed)
    players = rng.randint(3, 10)
    pool = [r for r in ROLES for _ in range(ROLES[r].copies)]
    checked = 0
    catalogue = {lone: set(all_lines(NightOptions(lone_wolf=lone))) for lone in (False, True)}
    for _ in range(400):
        deck = rng.sample(pool, players + 3 + (rng.random() < 0.3))
        try:
            check_deck(deck)
        except DeckError:
            continue
        lone = rng.random() < 0.5
        for step in night_script(deck, NightOptions(lone_wolf=lone)):
            if step.id == "doppelganger":          # names the deck's roles: one a mix
                assert step.after in catalogue[lone]
                continue
            assert step.text in catalogue[lone]
            assert not step.after or step.after in catalogue[lone]
        checked += 1
    assert checked >= 10


def test_every_presets_night_is_in_the_catalogue_its_doppelganger_too():
    """`wolfbox prepare` renders the lines of every deck the picker deals,
    the Doppelganger's call (which names the deck's roles) included."""
    from wolfbox.onenight.night import all_lines
    catalogue = set(all_lines(NightOptions()))
    for preset in PRESETS.values():
        for players in preset.players():
            for step in night_script(preset.deck(players)):
                assert step.text in catalogue, (preset.name, players, step.id)


def test_a_mistyped_preset_name_is_suggested():
    with pytest.raises(DeckError, match="'total_chaoss' is neither a preset nor a role "
                                        r"\(did you mean 'total_chaos'\?\)"):
        resolve_deck("total_chaoss", None)


def test_a_wolf_who_sees_the_dream_wolf_thumb_is_not_alone_000():
    """000: "Werewolf" includes the Dream Wolf; 001/002: the lone wolf is the only werewolf."""
    deck = "werewolf dream_wolf seer robber troublemaker villager".split()
    text = night_script(deck)[1].text
    assert "only werewolf awake and see no thumb" in text
    plain = night_script("werewolf werewolf seer robber troublemaker villager".split())[1].text
    assert "thumb" not in plain


def test_a_doppelganger_who_saw_the_dream_wolf_shows_a_thumb_000():
    """000 (Doppelganger and Daybreak): the Doppelganger-Dream Wolf does not wake with the
    werewolves but puts her thumb out when they are called."""
    deck = "doppelganger werewolf dream_wolf seer robber troublemaker villager".split()
    steps = {s.id: s.text for s in night_script(deck)}
    assert "If you saw a werewolf other than the Dream Wolf, you will wake with " \
        "them. If you saw the Dream Wolf, stick out your thumb when the werewolves are " \
        "called." in steps["doppelganger"]
    masons = {s.id: s.text for s in night_script(deck[:-2] + ["mason", "mason"])}
    assert "If you saw a werewolf other than the Dream Wolf, or a Mason, you will wake with " \
        "them." in masons["doppelganger"]
    assert "a Doppelganger who saw the Dream Wolf" in steps["werewolves"]
    without = {s.id: s.text for s in night_script(
        "doppelganger werewolf werewolf seer robber troublemaker villager".split())}
    assert "Dream Wolf" not in without["doppelganger"]


def test_masons_look_for_the_other_masons_when_a_doppelganger_may_join_them():
    deck = "doppelganger werewolf werewolf mason mason seer villager".split()
    masons = {s.id: s.text for s in night_script(deck)}["masons"]
    assert "look for the other Masons." in masons
    alone = {s.id: s.text for s in night_script(
        "werewolf werewolf mason mason seer villager".split())}["masons"]
    assert "look for the other Mason." in alone


def test_with_the_curator_artifacts_are_looked_at_in_the_morning_000():
    """000 (Artifacts): when the night is over, a player with an artifact token on his
    card must look at it at once, secretly."""
    deck = "werewolf werewolf seer curator villager villager".split()
    morning = night_script(deck)[-1].text
    assert "artifact token on your card, look at it now, secretly" in morning
    plain = night_script("werewolf werewolf seer robber villager villager".split())[-1].text
    assert "artifact" not in plain

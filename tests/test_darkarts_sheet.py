"""Werewolves of the Dark Arts: the Mayor's sheet (the plan `wolfbox script` prints)."""

from __future__ import annotations

import json

from wolfbox.darkarts.rules import Setup
from wolfbox.darkarts.sheet import sheet, thresholds


def test_thresholds_from_the_table_down_to_two():
    assert thresholds(10) == {10: 5, 9: 5, 8: 4, 7: 4, 6: 3, 5: 3, 4: 2, 3: 2, 2: 1}


def test_the_sheet_is_json_and_marks_the_first_night_calls():
    setup = Setup.of(7, {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1})
    out = json.loads(json.dumps(sheet(setup)))
    assert out["mode"] == "dark_arts" and out["players"] == 7
    assert out["roles"] == {"werewolf": 2, "hunter": 1, "matchmaker": 1, "seer": 1,
                            "villager": 2}
    assert [(c["id"], c["first_night_only"]) for c in out["night"]] == [
        ("close_eyes", False), ("matchmaker", True), ("lovers", True), ("werewolf", False),
        ("seer", False), ("wake_up", False)]
    assert out["thresholds"]["7"] == 4 and out["thresholds"]["2"] == 1
    assert len(out["thresholds"]) == 6


def test_the_sheet_notes_how_to_resolve_a_night_with_004s_roles():
    """004's resolution (blocks, protection, the knife, what each learner
    sees) is the Mayor's to apply: the sheet says it for the roles dealt."""
    from wolfbox.darkarts.rules import Setup
    from wolfbox.darkarts.sheet import sheet

    assert sheet(Setup.of(9, {"werewolf": 2, "hunter": 1, "matchmaker": 1}))["notes"] == []
    notes = sheet(Setup.of(9, {"werewolf": 1, "alchemist": 1, "seer": 1}))["notes"]
    assert any(n.startswith("Alchemist: the chosen player's power fails") for n in notes)
    assert any("which of them does the killing" for n in notes)
    assert any(n.startswith("Seer: the Alchemist and the Track Reader") for n in notes)
    assert not any(n.startswith("Priest") for n in notes)


def test_the_seers_note_on_the_004_wolves_comes_only_with_one_of_them():
    from wolfbox.darkarts.rules import Setup
    from wolfbox.darkarts.sheet import sheet

    plain = sheet(Setup.of(9, {"werewolf": 2, "seer": 1}))["notes"]
    assert not any(n.startswith("Seer:") for n in plain)
    allied = sheet(Setup.of(9, {"werewolf": 1, "track_reader": 1, "seer": 1}))["notes"]
    assert any(n.startswith("Seer: the Alchemist and the Track Reader") for n in allied)


def test_a_note_that_speaks_of_the_knife_comes_with_the_knife_note():
    """Issue 19: the Priest's note speaks of the werewolf with the knife; the
    sheet says what the knife is whenever a note speaks of it, with or without
    an Alchemist or a Chef, and not when none does."""
    knife = "which of them does the killing"
    for dealt in ({"priest": 1}, {"alchemist": 1}, {"chef": 1}, {"chef": 1, "priest": 1}):
        notes = sheet(Setup.of(9, {"werewolf": 1, **dealt}))["notes"]
        assert sum(knife in n for n in notes) == 1, (dealt, notes)
    priest = sheet(Setup.of(9, {"werewolf": 1, "priest": 1}))["notes"]
    assert [n.split(":")[0] for n in priest][1:] == ["The knife", "Priest"]
    for dealt in ({"guard": 1}, {"seer": 1}, {"hunter": 1}):
        notes = sheet(Setup.of(9, {"werewolf": 1, **dealt}))["notes"]
        assert not any(knife in n or "knife" in n for n in notes), notes


def test_a_role_given_too_often_names_the_most_in_the_right_number():
    import pytest

    from wolfbox.darkarts.sheet import parse_roles
    from wolfbox.errors import UserError
    with pytest.raises(UserError) as e:
        parse_roles("werewolf,hunter,hunter", 7)
    assert str(e.value) == "--roles: hunter at most 1 time, not 2"

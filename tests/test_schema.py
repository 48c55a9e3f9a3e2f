"""The shapes the command line reads are checked by msgspec (wolfbox.schema),
whose English messages are turned into a Misfit each command words for the
table. These run real msgspec errors, so a change in msgspec's wording
that the translation into a Misfit no longer follows fails here."""

from __future__ import annotations

import msgspec
import pytest

from wolfbox.schema import Misfit, at, convert


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    card: str
    vote: int


class Table(msgspec.Struct, forbid_unknown_fields=True):
    players: list[Seat]
    marks: dict[str, str] = msgspec.field(default_factory=dict)


@pytest.mark.parametrize("data, path, kind, key", [
    ([], (), "value", ""),
    ({"players": "x"}, ("players",), "value", ""),
    ({}, (), "missing", "players"),
    ({"players": [], "tables": 2}, (), "unknown", "tables"),
    ({"players": [{"card": "a", "vote": 1}, {"card": "b"}]}, ("players", 1), "missing", "vote"),
    ({"players": [{"card": "a", "vote": "2"}]}, ("players", 0, "vote"), "value", ""),
    ({"players": [{"card": "a", "vote": True}]}, ("players", 0, "vote"), "value", ""),
    ({"players": [{"card": "a", "vote": 1, "voted": 2}]}, ("players", 0), "unknown", "voted"),
    ({"players": [], "marks": {"1": 2}}, ("marks", "..."), "value", ""),
    ({"players": [], "marks": [1]}, ("marks",), "value", ""),
])
def test_what_does_not_fit_is_named_by_where_and_what(data, path, kind, key):
    with pytest.raises(Misfit) as e:
        convert(data, Table)
    assert (e.value.path, e.value.kind, e.value.key) == (path, kind, key)


def test_a_key_of_the_wrong_kind_is_told_from_a_value():
    class Counts(msgspec.Struct):
        by_seat: dict[int, int]
    with pytest.raises(Misfit) as e:
        convert({"by_seat": {"x": 1}}, Counts)
    assert (e.value.path, e.value.kind) == (("by_seat",), "key")


def test_what_fits_comes_back_typed_and_numbers_in_quotes_do_not_fit():
    table = convert({"players": [{"card": "seer", "vote": 2}]}, Table)
    assert table == Table([Seat("seer", 2)])
    with pytest.raises(Misfit):
        convert({"players": [{"card": "seer", "vote": "2"}]}, Table)


def test_at_follows_a_path_and_stops_where_the_data_does():
    data = {"players": [{"vote": "2"}]}
    assert at(data, ("players", 0, "vote")) == "2"
    assert at(data, ("players", 3, "vote")) is None
    assert at(data, ("players", "...")) is None

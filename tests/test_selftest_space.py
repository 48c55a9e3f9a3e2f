"""Issue 29.16: `wolfbox selftest` on a fresh box reported the free space
of the home folder, not of the disk the cache will be made on."""

from __future__ import annotations

from pathlib import Path

from wolfbox.config import from_dict
from wolfbox.device.selftest import cache_space, existing_parent


def test_the_free_space_is_where_the_cache_will_be(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    card = tmp_path / "card"
    card.mkdir()
    config = from_dict({"voice": {"cache_dir": str(card / "wolfbox" / "lines")}})
    assert cache_space(config.cache_dir()).result.endswith(f"MB free at {card}")
    (card / "wolfbox" / "lines").mkdir(parents=True)
    assert cache_space(config.cache_dir()).result.endswith(
        f"MB free at {card / 'wolfbox' / 'lines'}")


def test_the_nearest_folder_that_exists_is_found(tmp_path):
    assert existing_parent(Path("/no/such/folder/here")) == Path("/")
    assert existing_parent(tmp_path / "a" / "b") == tmp_path
    (tmp_path / "file").write_text("")
    assert existing_parent(tmp_path / "file" / "x") == tmp_path     # a file holds no cache

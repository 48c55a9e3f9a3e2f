"""Issue 29.16: a catalogue with a string left open ("öffn) was loaded cut
short and said nothing. CI (.ci/run) and `make lint` run gettext's own
check on every catalogue (`make catalogues`): these tests run that target,
on the catalogues the box ships and on one spoiled as the table found it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None or shutil.which("make") is None,
                                reason="needs gettext's msgfmt and make (CI installs them)")


def catalogues(folder: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = [f"LOCALES={folder}"] if folder is not None else []
    return subprocess.run(["make", "-s", "-C", str(ROOT), "catalogues", *extra],
                          capture_output=True, text=True, timeout=120)


def test_the_shipped_catalogues_pass_gettexts_check():
    done = catalogues()
    assert done.returncode == 0, done.stderr


def test_a_string_left_open_fails_the_check(tmp_path):
    good = (ROOT / "wolfbox/locale/de.po").read_text(encoding="utf-8")
    entry = 'msgid "Undo"\nmsgstr "'
    at = good.index(entry) + len(entry)
    end = good.index('"\n', at)
    (tmp_path / "de.po").write_text(good[:at] + good[at:end][:4] + "\n" + good[end + 2:],
                                    encoding="utf-8")
    shutil.copy(ROOT / "wolfbox/locale/zh.po", tmp_path / "zh.po")
    done = catalogues(tmp_path)
    assert done.returncode != 0
    assert "de.po:" in done.stderr and "end-of-line within string" in done.stderr


def test_ci_installs_gettext_and_requires_the_check():
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert "gettext" in ci.split("apt-get install", 1)[1].split(">/dev/null", 1)[0]
    assert "\nmake catalogues" in ci

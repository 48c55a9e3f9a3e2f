"""What every check is given (`Context`: the twin, the host's wolfbox, the
image's settings, the figures the run prints) and what more than one check
knows of the box: its Python, its first line, where it keeps that line
rendered."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from twin.qemu import Shell, Twin

# A check's outcome: pass, FAIL or cannot, and one line saying what was seen.
Outcome = tuple[str, str]


def cached_line(config: Path, text: str) -> Path:
    """Where the box keeps its rendered `text`, relative to its cache folder
    (the voice's folder and the line's key: the same on the host and the
    box), from the box's own code."""
    import wolfbox.lineup  # noqa: F401  (the games' config sections)
    from wolfbox.audio.cache import cache_for
    from wolfbox.audio.voice import choose_voice
    from wolfbox.config import load
    settings = load(config)
    voice, _problem = choose_voice(settings.voice.model, settings.box.lang)
    if voice is None:
        raise RuntimeError("no voice for the image's settings")
    return Path(voice.name) / cache_for(settings, voice).path(text).name


# The box's own Python (the image's python3 is python3-minimal: no json, no wave).
GUEST_PYTHON = "/opt/wolfbox/.venv/bin/python"

# The first line a One Night round says (`wolfbox script`, step 1).
FIRST_LINE = "Night falls. Everyone, close your eyes."


@dataclass
class Context:
    """What a check is given: the running twin and what the host knows of
    the image; `figures` gathers what the run prints after the checks."""

    twin: Twin
    host: Path               # the host's wolfbox (the venv's), for screenshots
    config: Path             # the box's wolfbox.toml as the image ships it
    boot_timeout: float = 1200
    figures: dict[str, str] = field(default_factory=dict)

    @property
    def sh(self) -> Shell:
        assert self.twin.shell
        return self.twin.shell

    def show(self, unit: str, *props: str) -> dict[str, str]:
        out = self.sh.out(f"systemctl show {unit} " + " ".join(f"-p {p}" for p in props))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def saved_stage(self) -> tuple[str, int] | None:
        """The timed game's saved stage and night in the box's state.json."""
        out = self.sh.out(f"{GUEST_PYTHON} -c 'import json; g = json.load(open(\"/var/lib/wolfbox/"
                          "state.json\")).get(\"games\", {}).get(\"newd3\") or {}; "
                          "print(g.get(\"stage\", \"\"), g.get(\"night\", 0))' 2>&1")
        parts = out.split()
        return (parts[0], int(parts[1])) if len(parts) == 2 and parts[1].isdigit() else None

    def wait_active(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.show("wolfbox.service", "ActiveState", "SubState")
            if state.get("ActiveState") == "active":
                return True
            time.sleep(2)
        return False


class Check(NamedTuple):
    """One check: its title as printed (`{memory}`: the run's megabytes) and
    the function that runs it on a booted twin."""

    title: str
    run: Callable[[Context], Outcome]

"""One Night as the box makes it: from its settings, or from a round saved
before a power cut (wolfbox.mode.Kind)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..config import Section
from ..settings_screen import SettingsScreen
from . import section as one_night
from .flow import Flow
from .model import ONE_NIGHT


@dataclass(frozen=True)
class OneNight:
    """One Night's kind: the box's first game."""
    name: str = ONE_NIGHT
    section: Section = one_night.SECTION

    def new(self, settings: SettingsScreen) -> Flow:
        """A round of the deck the settings hold."""
        return Flow.from_config(settings.config, screen=settings)

    def resume(self, state: Mapping[str, Any], settings: SettingsScreen) -> Flow:
        """A deal made before START is dealt again as it was (for the same
        deck); a round begun waits on the start screen for the table's yes."""
        flow = self.new(settings)
        flow.restore(state)
        return flow


KIND = OneNight()

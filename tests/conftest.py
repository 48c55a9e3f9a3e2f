"""Shared test helpers. SDL runs on its dummy drivers everywhere in the
suite, so no test needs a screen or a sound card."""

from __future__ import annotations

import os
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
# What the box remembers goes to a scratch folder, never the real home.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="wolfbox-test-state-")
os.environ.pop("STATE_DIRECTORY", None)

import pytest

from wolfbox.config import STARTER_DECK
from wolfbox.flow import Flow, RoundSettings
from wolfbox.night import NightOptions


def make_flow(deck=STARTER_DECK, options: NightOptions | None = None, **kw) -> Flow:
    return Flow(RoundSettings.for_deck(deck, options, **kw))


@pytest.fixture
def flow() -> Flow:
    return make_flow()

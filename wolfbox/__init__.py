"""Wolfbox: a narrator box for werewolf party games.

The pure core (game flow, night script, roles, configuration) lives here;
the adapters around it live in wolfbox.device (screen and main loop),
wolfbox.audio (voice, cache, playback) and wolfbox.hardware (buttons).
"""

import os as _os

__version__ = "0.1.0"

# pygame prints a banner on import unless told not to; the box has its own voice.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

"""Narration: voices, the rendered-line cache, the renderer process, cues and playback."""

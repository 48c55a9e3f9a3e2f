"""A text for an area (Block), as fitted to it (Fit) and as drawn (Drawn):
what the painter fits and what its last draw records for the tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pygame

from .fonts import Face
from .style import Color


class Drawn(NamedTuple):
    """One line of text of the last draw."""
    text: str
    px: int                  # the font's pixel size, as given to pygame
    face: Face
    rect: pygame.Rect        # its ink, on the surface
    area: pygame.Rect        # the area it was laid out in, on the surface
    layer: int = 0           # 1: the alert, drawn over the rest on purpose


@dataclass(frozen=True)
class Fit:
    """A text laid out in an area: one list of lines per paragraph."""
    face: Face
    px: int
    paragraphs: tuple[tuple[str, ...], ...]
    height: int
    under: bool = False      # drawn below the floor: it did not fit at the floor


@dataclass(frozen=True)
class Block:
    """A text for an area: paragraphs (each starts a new line), its preferred
    size and the faces to try, widest last."""
    paragraphs: tuple[str, ...]
    pref: float
    color: Color
    faces: tuple[Face, ...] = (Face.SANS,)
    align: str = "center"
    max_lines: int | None = None
    gap: float = 4           # logical px between paragraphs, when there is room


"""Where a join card goes on one screen (`CardPlan`): plain data the
canvas, the layouts and the join card's drawing all read, so none of them
imports another to know it (device.joincard tries the plans)."""

from __future__ import annotations

from dataclasses import dataclass

QR_SHARE = 0.42          # of the middle's width, at most, for the code
QR_WIDE = 0.5            # the same where nothing else fits beside the code


@dataclass(frozen=True)
class CardPlan:
    """Where a join card goes on one screen. The code `smaller` steps (of
    QR_TRIES) from the largest module that fits to the least, in a column
    at the right: from the title's
    top to the legend, the address and who has joined at the foot of the
    content beside it; or (`across`) above them and the footer, which then
    run across the whole width. Without `notes` (NO_CARD, where nothing
    else fits), the start screen's deck notes give way. Compact: no code, the PIN and the
    address across the foot of the middle, with who has joined if `seats`
    (a screen whose own text fills it). `under_title`: the code's column
    starts under the title, which keeps the whole width (the own Wi-Fi's
    code, four modules wider than the page's, where it has no room beside
    a long title)."""
    smaller: int = 0
    across: bool = False
    notes: bool = True
    compact: bool = False
    seats: bool = True
    under_title: bool = False
    # Compact: a line saying how to get the code (HINT) above the PIN and
    # address; without `address`, that line alone.
    hint: bool = False
    address: bool = True
    # The code's most of the middle's width: wider (QR_WIDE) where the
    # screen has little else (the phones' own screen, at 320x240, with the
    # box's key in the address); without `footer`, the hint takes the
    # footer's place, the last resort of a screen full of words.
    share: float = QR_SHARE
    footer: bool = True
    # The hint at the right of the title's row, where the middle has no
    # line to spare (a page of the rules or of the end, paged to fill it).
    in_title: bool = False


NO_CARD = CardPlan(compact=True, seats=False, notes=False)   # drawn without the card

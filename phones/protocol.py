"""Every message a phone may send, checked at the door (msgspec: one
schema each, strict types, sizes capped), and the ones the box sends.

A phone's message is JSON with a "t" naming its kind. Anything else (not
JSON, an unknown kind, a field too long, a number where a text belongs)
is refused: the server drops it and logs the first of a connection once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from wolfbox.errors import MalformedMessage as MalformedMessage

MAX_MESSAGE_BYTES = 1024          # the largest message a phone has reason to send
Token = Annotated[str, msgspec.Meta(max_length=64)]
Pin = Annotated[str, msgspec.Meta(max_length=8)]
SeatNumber = Annotated[int, msgspec.Meta(ge=1, le=99)]
Name = Annotated[str, msgspec.Meta(max_length=60)]
Step = Annotated[str, msgspec.Meta(max_length=40)]
OptionId = Annotated[int, msgspec.Meta(ge=0, le=999)]     # a seat, a center card, a word
Choice = Annotated[list[OptionId], msgspec.Meta(max_length=4)]


class Seal(msgspec.Struct, tag="seal", tag_field="t", forbid_unknown_fields=True):
    """A phone's first message, the one in the clear: the public half of
    the key pair it made for this socket (seal.py). Every message after
    it, both ways, is sealed."""
    k: Annotated[str, msgspec.Meta(pattern="^[A-Za-z0-9_-]{43}$")]


class Hello(msgspec.Struct, tag="hello", tag_field="t", forbid_unknown_fields=True):
    """A phone opens the page: with the token of the seat it held, if any."""
    token: Token = ""


class Join(msgspec.Struct, tag="join", tag_field="t", forbid_unknown_fields=True):
    """A phone asks for a free seat with the PIN the box shows."""
    pin: Pin
    seat: SeatNumber
    name: Name = ""


class Choose(msgspec.Struct, tag="choose", tag_field="t", forbid_unknown_fields=True):
    """A seat's answer to its task (`step` names the task it answers)."""
    step: Step
    choice: Choice


class Cover(msgspec.Struct, tag="cover", tag_field="t", forbid_unknown_fields=True):
    """Nothing: a phone's answer to a frame of a secret window (issue
    41.3). While a choice is secret the box sends every seated phone a
    frame on its clock (server.COVER_SECONDS) and each answers every one
    with one frame, the same size, whatever its role: a tap waiting rides
    in it, else this. So the count, size and time of a phone's frames on
    the air tell nobody who acted."""


Incoming = Hello | Join | Choose | Cover
_decoder = msgspec.json.Decoder(Incoming)
_opening = msgspec.json.Decoder(Seal)
_encoder = msgspec.json.Encoder()


def read(raw: str | bytes) -> Incoming:
    """A phone's message, typed; MalformedMessage names the first problem."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(f"{len(data)} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        return _decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as e:
        raise MalformedMessage(str(e)) from None


def read_seal(raw: str | bytes) -> Seal:
    """A phone's first message (its key), typed; MalformedMessage if it is
    anything else."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(f"{len(data)} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        return _opening.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as e:
        raise MalformedMessage(f"before the seal: {e}") from None


def encode(kind: str, **fields: Any) -> bytes:
    """A message to a phone: {"t": kind, ...}."""
    return _encoder.encode({"t": kind, **fields})


# Every frame to a phone is this long, in every game, at every moment:
# the longest a seat's view grows mid-game (the Mayor's console, nine
# seats' options, in Chinese) is under half of it.
FRAME_BYTES = 4096


def padded(frames: Mapping[int, bytes]) -> dict[int, bytes]:
    """The seats' frames of one update, each padded with spaces after its
    JSON to FRAME_BYTES: a Wolf's card, a Seer's answer, a task with more
    words or a tap's mark is not longer on the air than a Villager's frame,
    nor than the frame before it. The size is fixed, not the largest of the
    update: a size taken from the frames would move whenever a seat's
    secret pushed its frame past a step (it matters once the traffic is
    encrypted; the sizes should not tell before then either). An update
    with a longer frame (a long public page) is padded whole to the next
    multiple (`oversized` says so, for the log)."""
    if not frames:
        return {}
    size = -(-max(len(f) for f in frames.values()) // FRAME_BYTES) * FRAME_BYTES
    return {seat: frame + b" " * (size - len(frame)) for seat, frame in frames.items()}


def framed(frame: bytes) -> bytes:
    """One frame padded as `padded` pads a seat's view: every frame the box
    seals (a lobby, a refusal, a token) is a multiple of FRAME_BYTES long,
    so a sealed frame tells nothing by its size."""
    return padded({0: frame})[0]


# A phone pads each message it seals to this (the most a message may be):
# a tap on seat 10 is not a byte longer on the air than a tap on seat 9.
PHONE_FRAME_BYTES = MAX_MESSAGE_BYTES


def oversized(frames: Mapping[int, bytes]) -> bool:
    """Whether padded `frames` outgrew FRAME_BYTES (their size could tell)."""
    return any(len(f) > FRAME_BYTES for f in frames.values())

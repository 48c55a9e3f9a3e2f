"""Every frame between the box and a phone, sealed (issue 31, item 3).

The box makes a key pair when its phones' server starts, kept in memory
only; its public half is in the QR code's address, in the fragment
(`#k=...`: a browser never sends a fragment over the network), and sent in
the clear as a socket opens (a phone that typed the address has no
fragment). The page makes a key pair of its own for every socket, sends
its public half in the clear, and from then on every frame, both ways, is
a NaCl secretbox (XSalsa20-Poly1305) under the socket's own key: the two
halves' X25519 key hashed with a random the box sent with its key as the
socket opened (issue 41.1: a phone's key replayed on a new socket got the
same key, and the counts start again at 0, so a recorded hello took a
seat). A fresh random 24-byte nonce each frame, and inside it a count, so
a frame replayed, reordered, dropped or sent back to its sender does not
open, on its socket or any other. tweetnacl on the page
(`nacl.box.before`, `nacl.hash`, `nacl.secretbox`) and libsodium here
(PyNaCl) make and read the same bytes.

Why these pieces: a plain-http page has no WebCrypto (it needs a secure
origin) and no TLS certificate a phone would trust for a box on a private
address; a key pinned by the QR code gives the phone what a certificate
would, and the socket's own key pair keeps what one socket carried closed
to anyone who later learns another's.
"""

from __future__ import annotations

import base64
import binascii
import re
import secrets

from nacl.encoding import RawEncoder
from nacl.exceptions import CryptoError
from nacl.hash import sha512
from nacl.public import Box, PrivateKey, PublicKey
from nacl.secret import SecretBox

from wolfbox.errors import Unsealable as Unsealable

KEY_BYTES = 32
CHALLENGE_BYTES = 16                  # the box's fresh random for each socket
NONCE_BYTES = 24
TAG_BYTES = 16
COUNT_BYTES = 8
OVERHEAD = NONCE_BYTES + TAG_BYTES + COUNT_BYTES     # a sealed frame is this much longer
# The box's counts have the top bit set, a phone's have not: a frame sent
# back to the side that sealed it never opens there.
BOX_SIDE = 1 << (8 * COUNT_BYTES - 1)
KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{43}")           # 32 bytes, base64url, unpadded
CHALLENGE_TEXT = re.compile(r"[A-Za-z0-9_-]{21}[AQgw]")   # 16 bytes, base64url, unpadded


def text(key: bytes) -> str:
    """A key as the page and the QR code carry it: base64url, unpadded."""
    return base64.urlsafe_b64encode(key).rstrip(b"=").decode()


def key_of(value: str) -> bytes:
    """The 32 bytes `text` gave; Unsealable for anything else."""
    if not KEY_TEXT.fullmatch(value):
        raise Unsealable("not a key")
    try:
        return base64.urlsafe_b64decode(value + "=")
    except (binascii.Error, ValueError):
        raise Unsealable("not a key") from None


def challenge_of(value: str) -> bytes:
    """The socket's random as the box's key message carries it (`text` of
    CHALLENGE_BYTES); Unsealable for anything else."""
    if not CHALLENGE_TEXT.fullmatch(value):
        raise Unsealable("not a challenge")
    return base64.urlsafe_b64decode(value + "==")


class BoxKey:
    """The box's key pair: made when the server starts, never written."""

    def __init__(self) -> None:
        self._private = PrivateKey.generate()
        self.public = text(bytes(self._private.public_key))

    def channel(self, phone_key: str, challenge: bytes) -> Channel:
        """The box's end of a socket whose phone sent `phone_key`, after the
        box sent it `challenge` (fresh for the socket: `challenge()`)."""
        return Channel(self._private, key_of(phone_key), box=True, challenge=challenge)


def challenge() -> bytes:
    """A socket's own random, sent with the box's key as the socket opens."""
    return secrets.token_bytes(CHALLENGE_BYTES)


class Channel:
    """One socket's sealing, at one end (`box`: the box's). Frames are
    sealed and opened in the order they travel (a socket keeps order)."""

    def __init__(self, mine: PrivateKey, theirs: bytes, box: bool, challenge: bytes) -> None:
        if len(challenge) != CHALLENGE_BYTES:
            raise Unsealable("not a challenge")
        try:
            shared = Box(mine, PublicKey(theirs)).shared_key()
        except (CryptoError, ValueError, TypeError):      # a weak or malformed key
            raise Unsealable("not a usable key") from None
        # The socket's key: the two key pairs' shared key hashed with the
        # box's random for this socket. A phone's key replayed on another
        # socket meets another random, so nothing recorded on one socket
        # opens on another, even with the same phone key and counts from 0
        # (tweetnacl: nacl.hash(before ‖ challenge), its first 32 bytes).
        key = sha512(shared + challenge, encoder=RawEncoder)[:SecretBox.KEY_SIZE]
        self._box = SecretBox(key)
        self._sent = BOX_SIDE if box else 0
        self._heard = 0 if box else BOX_SIDE

    def seal(self, message: bytes) -> bytes:
        """`message` sealed, with the next count: nonce, tag, ciphertext."""
        count = self._sent.to_bytes(COUNT_BYTES, "big")
        self._sent += 1
        return bytes(self._box.encrypt(count + message))

    def open(self, frame: bytes) -> bytes:
        """The message in `frame`; Unsealable if it does not open or is not
        the next one the other end sealed."""
        if len(frame) < OVERHEAD:
            raise Unsealable(f"{len(frame)} bytes, shorter than a sealed frame")
        try:
            plain = self._box.decrypt(frame)
        except CryptoError:
            raise Unsealable("a frame that does not open (tampered, or another key)") from None
        count = int.from_bytes(plain[:COUNT_BYTES], "big")
        if count != self._heard:
            raise Unsealable("a frame out of its order (replayed, or from the other side)")
        self._heard += 1
        return plain[COUNT_BYTES:]

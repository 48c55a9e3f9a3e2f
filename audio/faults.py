"""What went wrong with the voice, in words for the table, said once.

The renderer process and the cache meet the same few faults (a full disk,
a read-only card, a folder the box cannot write to, a broken voice). The
worker sends a short kind code rather than a sentence, so the words are
chosen, and translated, in the box's own process.
"""

from __future__ import annotations

import errno
import logging
import threading
from collections.abc import Callable

from wolfbox.i18n import N_, _

log = logging.getLogger("wolfbox.audio")

# Kinds of fault that are about where lines are stored, not about a line:
# the line is kept and tried again after a pause.
DISK_KINDS = frozenset({"disk-full", "read-only", "no-permission", "not-a-folder", "disk"})


def os_error_kind(e: OSError) -> str:
    """The kind of a storage error, as the worker reports it."""
    return {errno.ENOSPC: "disk-full", errno.EDQUOT: "disk-full", errno.EROFS: "read-only",
            errno.EACCES: "no-permission", errno.EPERM: "no-permission",
            errno.ENOTDIR: "not-a-folder", errno.EEXIST: "not-a-folder",
            errno.EISDIR: "not-a-folder"}.get(e.errno or 0, "disk")


SHORT_STORAGE = N_("Cannot store voice lines: see the log")
SHORT_SOUND_TROUBLE = N_("Sound trouble: captions only")


class Fault(str):
    """A fault's full message (for the log) that also carries its meaning in
    a few words (`short`, for the screen): the table needs to know what it
    means for the game, the owner needs the detail."""
    short: str

    def __new__(cls, detail: str, short: str) -> Fault:
        fault = super().__new__(cls, detail)
        fault.short = short
        return fault


def describe_storage(kind: str, where: object, detail: str) -> str:
    """One line about why new lines cannot be stored, for the table."""
    reason = {
        "disk-full": _("the disk is full"),
        "read-only": _("the card is read-only"),
        "no-permission": _("the box may not write there"),
        "not-a-folder": _("it is not a folder"),
    }.get(kind, detail)
    return Fault(_("voice lines cannot be stored in {where} ({reason}): lines not yet rendered "
                   "stay captions").format(where=where, reason=reason),
                 _(SHORT_STORAGE))


def log_once() -> Callable[[str], None]:
    """The default `report`: each distinct message is logged once as a warning,
    so a fault that repeats every line does not flood the journal."""
    said: set[str] = set()
    lock = threading.Lock()

    def report(message: str) -> None:
        with lock:
            if message in said:
                return
            said.add(message)
        log.warning("%s", message)
    return report

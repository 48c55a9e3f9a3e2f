"""A small mutation run (`make mutants`, in CI): each mutant is a real
break that once passed the whole suite (issue 42.12); the tests named with
it must now fail on it. A mutant whose text is no longer in its file is an
error too, so the list is kept true as the code moves.

Each mutant is put into the file in place, its tests run, and the file is
written back as it was, whatever happens; a file with changes not yet
committed is refused, so a developer's edit is never at stake.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    why: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTANTS = (
    Mutant("every frame sealed under one fixed nonce (XSalsa20 reuses its keystream)",
           "phones/seal.py",
           "return bytes(self._box.encrypt(count + message))",
           "return bytes(self._box.encrypt(count + message, bytes(NONCE_BYTES)))",
           ("tests/test_phones_sealed.py::"
            "test_no_two_frames_share_a_nonce_so_no_keystream_is_used_twice",)),
    Mutant("a socket's key made without the box's random for it (a replay opens elsewhere)",
           "phones/seal.py",
           "key = sha512(shared + challenge, encoder=RawEncoder)",
           "key = sha512(shared, encoder=RawEncoder)",
           ("tests/test_phones_sealed.py::test_frames_recorded_on_one_socket_open_on_no_other",)),
    Mutant("a message in the clear taken after the phone's key",
           "phones/server.py",
           'raise protocol.MalformedMessage("a message in the clear after the phone\'s key")',
           "return protocol.read(raw)",
           ("tests/test_phones_sealed.py::"
            "test_nothing_but_the_phones_key_is_heard_in_the_clear",)),
    Mutant("a seat freed on the box, not written for a power cut",
           "phones/server.py",
           "        if self.room.free(seat):\n            self._seated()",
           "        if self.room.free(seat):\n            self.changed(Seated(self.room.pin, "
           "self.room.names(), (), self.room.wrong))",
           ("tests/test_phones_sealed.py::"
            "test_a_seat_freed_on_the_box_is_free_after_a_power_cut_too",)),
    Mutant("the game's exception barrier catching a stop (SIGTERM, Ctrl-C)",
           "device/loop.py",
           "        try:\n            call()\n        except Exception as e:",
           "        try:\n            call()\n        except BaseException as e:  # type: ignore",
           ("tests/test_game_bug.py::"
            "test_a_stop_raised_inside_a_game_stops_the_box_and_is_never_taken_for_a_bug",)),
    # Issue 42.1: every call into a game behind the barrier, at startup too.
    Mutant("the phones' views asked of the game outside the barrier",
           "device/phonelink.py",
           "            self.barrier(follow)",
           "            follow()",
           ("tests/test_game_faults.py::test_a_fault_in_the_first_calls_of_a_resumed_game"
            "[one_night-phone_view-phones]",)),
    Mutant("the game's lines asked at build (the game resumed) outside the barrier",
           "device/app.py",
           "        box.in_game(lambda: narrator.warm(flow.lines()))",
           "        narrator.warm(flow.lines())",
           ("tests/test_game_faults.py::test_a_fault_in_the_first_calls_of_a_resumed_game"
            "[dark_arts-checkpoint-buttons]",)),
    Mutant("the loop's first pass outside the barrier",
           "device/loop.py",
           "        \"\"\"Run until quit, or until `until()` is true (tests).\"\"\"\n"
           "        self._settled()",
           "        \"\"\"Run until quit, or until `until()` is true (tests).\"\"\"\n"
           "        self._advance()\n        self.refresh()",
           ("tests/test_game_faults.py::test_a_fault_in_a_new_boxs_first_calls"
            "[1st-newd3-view-buttons]",)),
    Mutant("a frame of the failed game left on the screen",
           "device/loop.py",
           "            if self._failures == failures:",
           "            if True:",
           ("tests/test_game_faults.py::test_a_fault_mid_round[newd3-phone_view-phones]",)),
    Mutant("a game that fails even anew ending the box (systemd restarts into it)",
           "device/app.py",
           "        if given_up >= len(names):",
           "        if given_up:",
           ("tests/test_game_faults.py::"
            "test_a_game_that_cannot_show_its_start_screen_leaves_the_box_to_another"
            "[newd3-view-buttons]",)),
    Mutant("the twin's sound check taking a flat wav for the line",
           "image/twin/media.py",
           "out=numpy.zeros_like(num), where=den > 0)",
           "out=numpy.ones_like(num), where=den > 0)",
           ("tests/test_boot_check.py::test_silence_is_not_the_line",)),
)


def dirty(path: str) -> bool:
    """Whether `path` has changes git has not committed (no git: never)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--", path], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    return bool(out.strip())


def run(mutant: Mutant) -> str | None:
    """None when the tests caught the mutant, else why not (one line)."""
    path = ROOT / mutant.path
    text = path.read_text()
    if text.count(mutant.old) != 1:
        return f"its text is {text.count(mutant.old)} times in {mutant.path}, not once: " \
               "update lint/mutants.py"
    if dirty(mutant.path):
        return f"{mutant.path} has uncommitted changes: commit or stash them first"
    try:
        path.write_text(text.replace(mutant.old, mutant.new))
        tests = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly",
             "-p", "no:cacheprovider",
             "-n", "0", *mutant.tests], cwd=ROOT, capture_output=True, text=True)
    finally:
        path.write_text(text)
    if tests.returncode == 1:
        return None                     # a test failed: caught
    if tests.returncode == 0:
        return "survived: its tests passed"
    tail = (tests.stdout + tests.stderr).strip().splitlines()[-1:] or ["?"]
    return f"its tests could not run (pytest exit {tests.returncode}): {tail[0]}"


def main() -> int:
    missed = 0
    for mutant in MUTANTS:
        why = run(mutant)
        print(f"mutant: {mutant.why}: " + ("caught" if why is None else why), flush=True)
        missed += why is not None
    print(f"mutants: {len(MUTANTS) - missed} of {len(MUTANTS)} caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

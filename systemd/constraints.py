"""Print systemd/constraints.txt: the exact versions of Wolfbox's runtime
dependencies (and theirs) in the running environment.

The installer pins these so a Pi gets the versions the tests passed with,
not whatever the index holds on the day. Dev tools (the `dev` extra), the
Pi-only pin drivers (python3-lgpio or its wheel: install.sh picks) and the
venv's own tools are left out: setuptools (colorzero needs it) and pip come
with the venv or Debian's python3-setuptools, in whatever version that
system has (Debian Bookworm's 66.1.1, a python.org build's 65.5.0).
"""

from __future__ import annotations

import importlib.metadata as md

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

HEADER = """\
# The exact versions install.sh installs into /opt/wolfbox: the runtime
# dependencies of Wolfbox and theirs, as the test suite last ran them.
# Regenerate from a venv that passes `make test` (dev tools left out):
#   .venv/bin/python systemd/constraints.py > systemd/constraints.txt"""


VENV_TOOLS = {"pip", "setuptools", "wheel"}


def runtime_pins(root: str = "wolfbox") -> list[str]:
    pins: dict[str, str] = {}
    todo = [Requirement(r) for r in md.requires(root) or []]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue                                   # extras: dev tools, Pi drivers
        key = canonicalize_name(req.name)
        if key in pins or key in VENV_TOOLS:
            continue
        dist = md.distribution(req.name)
        pins[key] = f"{dist.metadata['Name']}=={dist.version}"
        todo += [Requirement(r) for r in dist.requires or []]
    return [pins[k] for k in sorted(pins)]


if __name__ == "__main__":
    print(HEADER)
    print("\n".join(runtime_pins()))

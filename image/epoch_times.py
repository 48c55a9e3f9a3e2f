"""A debugfs script that sets every inode's atime and ctime under a root
to SOURCE_DATE_EPOCH (make image, after mke2fs -d).

mke2fs -d copies each file's atime and ctime as the build left them: the
times dpkg unpacked and the build touched them, which no `touch` can set
back (a ctime is the kernel's clock). Two builds of one commit then
differed in every inode of the root. Paths with a double quote or a
newline (none in the image) are left as they are: debugfs cannot be
given them.

    python3 image/epoch_times.py ROOT EPOCH > times.debugfs
    debugfs -w -f times.debugfs root.img
"""

from __future__ import annotations

import os
import sys


def lines(root: str, epoch: int) -> list[str]:
    """The debugfs commands, in a fixed order."""
    out: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(folder, root)
        for path in ["/" if rel == "." else "/" + rel] + [
                ("/" if rel == "." else "/" + rel + "/") + name for name in sorted(files)]:
            if '"' in path or "\n" in path:
                continue
            out += [f'sif "{path}" {field} @{epoch}' for field in ("atime", "ctime")]
        # Symbolic links to folders are listed in dirs but not walked into.
        for name in dirs:
            full = os.path.join(folder, name)
            if os.path.islink(full):
                path = ("/" if rel == "." else "/" + rel + "/") + name
                if '"' not in path and "\n" not in path:
                    out += [f'sif "{path}" {field} @{epoch}' for field in ("atime", "ctime")]
    return out


if __name__ == "__main__":
    sys.stdout.write("".join(line + "\n" for line in lines(sys.argv[1], int(sys.argv[2]))))

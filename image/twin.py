"""The image's twin, run by make boot-check (image/boot-check.sh) and the
release workflow: `python image/twin.py --work ... --only b,c,...`. The code
is the package beside this file, image/twin/ (its run.py's `main`; the
checks one module each in image/twin/checks/), which this folder on the
path makes importable as `twin`."""

from __future__ import annotations

import sys

from twin.run import main

if __name__ == "__main__":
    sys.exit(main())

"""The games this box has: the one module that names every game's package.

Each game owns its part of the config file (its `section.py`); this
module hands those parts to wolfbox.config, which knows no game, in the
order the config file lists them. Whatever makes a Config imports this
first: the command line and the device do, and so do the tests.
"""

from __future__ import annotations

from .config import register
from .darkarts import section as mayor
from .newd3 import section as timed
from .onenight import section as one_night

for _section in (one_night.SECTION, mayor.SECTION, timed.SECTION):
    register(_section)

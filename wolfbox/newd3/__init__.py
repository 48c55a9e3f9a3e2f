"""The timed nine-player game of 004 (the "NewD3" setups), pure code.

Nine seats, two of them on the Wolf team, one of nine fixed setups dealt in
secret. This package holds only what the rules decide, so the box, the
command line and the tests all ask the same code: nothing here reads a
clock, waits, touches a screen, a pin, a sound card or a file.

- roles.py: the ten role ids, their teams, names and night abilities
- setups.py: the nine setups A1..C3 and which one a deal is
- resolve.py: one night's actions resolved in 004's order, and the open
  cases 004 leaves to us, decided
- rules.py: the day vote's strict majority, the win check, phase lengths
- tracker.py: which setups the roles of the dead still allow
- turns.py: the deal's and every night's turns, and their windows
- said.py: every line the game says besides the turns' calls
- game.py: the mode the box runs (deal, nights, dawn, day, resume)
- sheet.py: the plan `wolfbox script --mode newd3` prints
"""

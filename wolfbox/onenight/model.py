"""One Night's names shared by its round (flow.py) and its screens
(screen.py)."""

ONE_NIGHT = "one_night"               # this mode's name, in settings (wolfbox.games)
# A night step's stages in the round: say the call, wait for the action,
# say the closing line.
SPEAK, WAIT, AFTER = "speak", "wait", "after"
# The longest discussion the box runs: the most the config sets, and the
# most NEXT adds up to (a checkpoint never holds more time than this).
LONGEST_DISCUSSION = 3600

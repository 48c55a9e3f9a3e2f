"""One Night's names shared by its round (flow.py) and its screens
(screen.py)."""

ONE_NIGHT = "one_night"               # this mode's name, in settings (wolfbox.games)
# A night step's stages in the round: say the call, wait for the action,
# say the closing line.
SPEAK, WAIT, AFTER = "speak", "wait", "after"

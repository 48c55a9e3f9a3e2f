"""Werewolves of the Dark Arts: a game of many nights, with the box as the
Town Mayor's partner (issue 11).

The Mayor runs the table and does not play; the box narrates the night,
keeps the book of the dead, says who may be accused, counts the hands a
lynch needs and decides when a side has won. The rules are those of the
source document 003 (the day phase); the optional extra roles and their
night calls are those 004 names.

Pure, like One Night's flow: nothing here reads a clock, touches a screen,
a pin or a sound card.

- roles.py: the roles this mode offers, their names and teams
- seats.py: the seat ring (who sits where, who is dead and as what)
- rules.py: the lynch threshold, who may be accused, the chains of deaths,
  the win check
- night.py: the night calls in their fixed order, with their times
- book.py: the game log (deaths, accusations, votes)
- game.py: the state machine (setup, night, dawn, the day, the end)
- sheet.py: the Mayor's sheet (night calls, thresholds) for `wolfbox script`
"""

"""One Night Ultimate Werewolf (with Daybreak and the Bonus roles): the
round's flow, the night script, the roles, decks and presets, the referee
and the table's entry of a finished game. A game of its own, as the Mayor's
(wolfbox.darkarts) and the timed game (wolfbox.newd3) are."""

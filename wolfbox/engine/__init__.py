"""What every game does the same way, written once: the games compose
these pieces (a game has a `Speech`), they do not inherit them, so each
game's own rules and stages stay in its own package."""

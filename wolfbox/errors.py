"""The one exception type for bad input from a person (options, config,
deck, key names): the command prints its message as one line and exits 2."""


class UserError(ValueError):
    pass

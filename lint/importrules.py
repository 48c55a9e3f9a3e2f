"""import-linter contract types of our own (see .importlinter).

`core`: a forbidden contract whose sources are every module of a package
except the adapters named, so a module added anywhere in the core is held
to the contract from its first line: nobody has to remember to list it.

`games` and `shared`: the games are read from wolfbox.lineup (each
Kind's package), so a game listed there is held to them from its first
line, and no contract names a game.
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.domain import fields
from importlinter.domain.helpers import module_expressions_to_modules


def game_packages() -> list[str]:
    """Each game's package, from its Kind in wolfbox.lineup (the package
    its kind.py is in)."""
    from wolfbox import lineup
    return sorted({type(kind).__module__.rpartition(".")[0] for kind in lineup.KINDS.values()})


def _listed(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class CoreContract(ForbiddenContract):
    """Forbidden imports for `source_modules` (wildcards welcome) minus the
    `adapters` and everything under them."""

    adapters = fields.SetField(subfield=fields.ModuleExpressionField())

    def check(self, graph, verbose):  # type: ignore[no-untyped-def]
        everything = module_expressions_to_modules(graph, self.source_modules)  # type: ignore
        outside = module_expressions_to_modules(graph, self.adapters,  # type: ignore
                                                as_packages=True)
        parse = fields.ModuleExpressionField().parse
        self.source_modules = {parse(m.name) for m in everything - outside}
        return super().check(graph, verbose)


class GamesContract(IndependenceContract):
    """No game's package imports another's: the games' packages are
    wolfbox.lineup's, never listed here."""

    def __init__(self, name: str, session_options: dict[str, Any],
                 contract_options: dict[str, Any]) -> None:
        super().__init__(name, session_options,
                         {**contract_options, "modules": game_packages()})


class SharedContract(CoreContract):
    """What the games share imports no game: a `core` contract whose
    adapters and forbidden modules are those given plus every game's
    package (wolfbox.lineup)."""

    def __init__(self, name: str, session_options: dict[str, Any],
                 contract_options: dict[str, Any]) -> None:
        games = game_packages()
        options = {**contract_options,
                   "adapters": _listed(contract_options.get("adapters")) + games,
                   "forbidden_modules": _listed(contract_options.get("forbidden_modules"))
                   + games}
        super().__init__(name, session_options, options)

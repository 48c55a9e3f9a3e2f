"""import-linter contract types of our own (see .importlinter).

`core`: a forbidden contract whose sources are every module of a package
except the adapters named, so a module added anywhere in the core is held
to the contract from its first line: nobody has to remember to list it.
"""

from __future__ import annotations

from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.domain import fields
from importlinter.domain.helpers import module_expressions_to_modules


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

"""What the walker's helpers may use of it, so that they need not import `walker`, which
imports them: `launch`, `branches`, `calls`, `classes`, `helpers` and `mutations` are handed
the `walker.PyWalker` of the file, typed by the `Walking` protocol; and the records it keeps
of the file's functions and classes."""

from __future__ import annotations

from dataclasses import field
from typing import Protocol

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.core.launches import ExtractResult, FixtureBase, Launch
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.evaluator import Evaluator
    from speclint.frontends.python.positions import Positions
    from speclint.frontends.python.values import Env, Val
    from speclint.frontends.shell.embedded import ArgvItem, Budget

MAX_CALLS = 256
MAX_STATEMENTS = 20_000
MAX_FIXTURE_READS = 32
MAX_LOOP_PASSES = 256


@dataclass(slots=True)
class Helper:
    """A function defined in the file, with what it can see where it is defined."""

    node: py.FunctionDef
    outer: Env
    """The enclosing function's values (empty for a module-level or class-level function)."""
    owner: ClassInfo | None = None
    positions: Positions | None = None
    """For a method of SGLang's source (`fixtures`): its positions, and the imports of its module."""
    imports: dict[str, str] | None = None


@dataclass(slots=True)
class ClassInfo:
    """A class of the file: `self.X` / `cls.X` values its methods set, and its methods."""

    name: str
    attrs: dict[str, Val] = field(default_factory=dict)
    """'@self.X' -> value, from the class body and the methods walked so far."""
    methods: dict[str, Helper] = field(default_factory=dict)
    span: Span | None = None
    """The class's name where it is defined."""
    bases: list[str] = field(default_factory=list)
    """The names of its bases as written (`class TestMTP(ServerBase)`)."""
    body: dict[str, Val] = field(default_factory=dict)
    """'@self.X' -> value set in the class body itself (what a subclass inherits)."""
    fixture: FixtureBase | None = None
    """For a class of SGLang's source (`fixtures`): which fixture base of which release."""
    external: dict[str, ClassInfo] = field(default_factory=dict)
    full: dict[str, Val] | None = None
    """'@self.X' -> value of the class body and the bodies it inherits, as the class is
    defined (`classes`; None for SGLang's fixture classes)."""
    decorated: bool = False
    """The class statement has decorators (`@dataclass`: its constructor sets `self.X`)."""
    """Bases read from SGLang's source, by the name the class statement writes."""


@dataclass(slots=True)
class HelperBudget:
    """What is left for helper calls in one file, shared by the walkers of its helpers."""

    calls: int = MAX_CALLS
    statements: int = MAX_STATEMENTS
    fixture_reads: int = MAX_FIXTURE_READS
    """SGLang fixture bases still to read (`fixtures`: each is parsed once per class naming it)."""
    loop_passes: int = MAX_LOOP_PASSES
    """Loop bodies still to walk once per element (`comprehensions`; nested loops multiply)."""


SETUP_METHODS = ("setUpClass", "setup_class", "setUp", "setup_method", "__init__", "setUpModule")
"""Methods walked first in their class: they set the `self.X` values the others read."""


class Walking(Protocol):
    """A `walker.PyWalker`, as its helpers see it (its docstrings say what each holds)."""

    text: str
    path: str
    pos: Positions
    result: ExtractResult
    budget: Budget
    imports: dict[str, str]
    env: Env
    deferred: list[Helper]
    in_function: bool
    stopped: bool
    functions: dict[str, Helper]
    owner: ClassInfo | None
    active: frozenset[py.FunctionDef]
    helper_budget: HelperBudget
    module_env: Env | None
    returns: list[Val] | None
    function: py.FunctionDef | None
    alternatives: bool
    classes: list[ClassInfo]
    looping: int
    call_sites: dict[py.FunctionDef, tuple[Helper, list[tuple[Span, dict[str, Val]]]]]
    launches_of: dict[py.FunctionDef, list[Launch]]
    launch_owner: dict[int, ClassInfo]

    def evaluator(self) -> Evaluator: ...

    def helper_walker(self) -> Walking: ...

    def block(self, statements: Sequence[py.Node]) -> None: ...

    def if_statement(self, node: py.If, top: py.If | None) -> None: ...

    def assign(self, target: py.BaseExpression, value: Val) -> None: ...

    def assign_unknown(self, target: py.Node, reason: str) -> None: ...

    def walk_function(
        self, helper: Helper, record: bool = False, bound: dict[str, Val] | None = None
    ) -> None: ...

    def add_argv(
        self,
        call: py.Call | py.Return,
        items: list[Val],
        env: dict[str, Word] | None,
        prefix: Sequence[ArgvItem] = (),
        image: tuple[str | None, Span | None] | None = None,
    ) -> None: ...

    def add_shell(self, value: Val, env: dict[str, Word] | None) -> None: ...

    def add_kwargs(self, call: py.Call, entry: str, pairs: list[tuple[Word, Word]]) -> None: ...

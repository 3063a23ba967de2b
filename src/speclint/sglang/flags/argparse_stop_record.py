"""Where SGLang's argparse stops a launch (`argparse_stop.argparse_stop` finds it): a module of
its own, so that a launch argparse accepts does not make its record class."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.sglang.flags.argv import ArgProblem


@dataclass(frozen=True, slots=True)
class ArgparseStop:
    """Where SGLang's argparse ends a launch before SGLang sees any value: `check` runs only
    the parse-stage rules on it (`help`: only the help rule) and `explain` says so first."""

    kind: str
    """'help' (prints the help, exit 0) or 'error' (prints usage and the error, exit 2)."""
    span: Span
    message: str
    problem: ArgProblem | None = None

"""What SGLang's parser rejects in a launch's argv (`argv.parse_argv` records each): a module of
its own, so that a launch without a problem does not make its record class."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.sglang.flags.flag_use import FlagUse


@dataclass(frozen=True, slots=True)
class ArgProblem:
    """Something SGLang's parser rejects. `kind` names it for the rule that reports it."""

    kind: str
    """'unknown-option', 'ambiguous-option', 'missing-value', 'invalid-type',
    'invalid-choice', 'unexpected-argument', 'ignored-explicit-argument'."""
    span: Span
    text: str
    use: FlagUse | None = None
    detail: str = ""

"""Where SGLang's argparse stops a launch before SGLang sees any value (`--help`, a missing or
invalid value, an ambiguous or unknown option, a missing required flag), in argparse's own
order: read from the problems `argv.parse_argv` found."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.sglang.flags.argparse_stop_record import ArgparseStop as ArgparseStop
    from speclint.sglang.flags.argv import ArgProblem, ParsedArgs


_AT_CONSUME = frozenset({"missing-value", "invalid-type", "invalid-choice", "ignored-explicit-argument"})
_AFTER_CONSUME = ("unknown-option", "unexpected-argument")


def argparse_stop(parsed: ParsedArgs) -> ArgparseStop | None:
    """The first thing argparse stops at, in its own order (CPython 3.11 `_parse_known_args`):
    an ambiguous option anywhere (options are classified before any is consumed); then, word
    by word, `-h/--help` or a flag whose value is missing or invalid; then a missing required
    flag (`_parse_known_args` raises it before returning the words it left); then unrecognized
    arguments (`parse_args`, on those words). None when argparse accepts the words."""
    problems = parsed.problems
    if not problems:  # (most launches: only `-h/--help` can stop them)
        for use in parsed.uses:
            if use.spec is not None and use.spec.action == "help":
                return _stop("help", use.span, f"`{use.written}` prints SGLang's help and exits 0")
        return None
    ambiguous = [p for p in problems if p.kind == "ambiguous-option"]
    if ambiguous:
        first = min(ambiguous, key=_problem_order)
        matches = ", ".join(first.use.candidates) if first.use is not None else ""
        return _stop("error", first.span, f"ambiguous option: {first.text} could match {matches}", first)
    consumed: list[tuple[int, ArgparseStop]] = []
    refused_uses = {id(p.use) for p in problems if p.use is not None}
    for use in parsed.uses:
        if use.spec is not None and use.spec.action == "help" and id(use) not in refused_uses:
            consumed.append(
                (
                    use.position,
                    _stop("help", use.span, f"`{use.written}` prints SGLang's help and exits 0"),
                )
            )
            break
    for problem in problems:
        if problem.kind in _AT_CONSUME and problem.use is not None:
            detail = problem.detail or problem.kind.replace("-", " ")
            consumed.append(
                (
                    problem.use.position,
                    _stop(
                        "error",
                        problem.span,
                        f"argument {problem.use.matched or problem.text}: {detail}",
                        problem,
                    ),
                )
            )
    if consumed:
        return min(consumed, key=lambda item: item[0])[1]
    required = [p for p in problems if p.kind == "missing-required"]
    if required:
        return _stop("error", required[0].span, required[0].detail or "missing required", required[0])
    found = [p for p in problems if p.kind in _AFTER_CONSUME]
    if found:
        first = min(found, key=_problem_order)
        words = " ".join(p.text for p in sorted(found, key=_problem_order))
        return _stop("error", first.span, f"unrecognized arguments: {words}", first)
    others = [p for p in problems if p.kind != "ambiguous-option"]
    if others:
        first = min(others, key=_problem_order)
        return _stop("error", first.span, first.detail or first.kind.replace("-", " "), first)
    return None


def required_first(parsed: ParsedArgs) -> str | None:
    """argparse's message for a missing required flag when the launch also has words it would
    call unrecognized: `_parse_known_args` stops at the required flag before `parse_args` looks
    at those words, so 'the following arguments are required: ...' is what argparse prints."""
    for problem in parsed.problems:
        if problem.kind == "missing-required":
            return problem.detail
    return None


def _problem_order(problem: ArgProblem) -> tuple[int, int, int]:
    position = problem.use.position if problem.use is not None else -1
    return (problem.span.line, problem.span.column, position)


def _stop(kind: str, span: Span, message: str, problem: ArgProblem | None = None) -> ArgparseStop:
    """An `ArgparseStop`: its record class is made when a launch first stops (most do not)."""
    import speclint.sglang.flags.argparse_stop_record as record

    return record.ArgparseStop(kind, span, message, problem)


def __getattr__(name: str) -> object:
    """`ArgparseStop`, imported from its own module when first asked for here."""
    if name != "ArgparseStop":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from speclint.sglang.flags.argparse_stop_record import ArgparseStop

    return ArgparseStop

"""FLG005 invalid-flag-value: values argparse cannot convert to the flag's type."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import ClassVar

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse
    from speclint.sglang.flags.schema import FlagSpec


class InvalidValue(Rule):
    """## What it does
    Finds values that argparse cannot convert to the flag's type: an integer flag given
    `eight`, a float written with a comma.

    ## Why it matters
    argparse stops the launch with `invalid int value` (or float, or JSON).

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --mem-fraction-static 0,8
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --mem-fraction-static 0.8
    ```
    """

    code = "FLG005"
    gates = ("problem:invalid-type",)
    stage = "parse"
    name = "invalid-flag-value"
    severity = Severity.ERROR
    summary = "A value argparse cannot convert to the flag's type (an int flag given `8x`)."
    invalid: ClassVar[tuple[Example, ...]] = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size eight",
            at="1:57",
            says="`eight` is not a valid value for `--tp-size`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --mem-fraction-static 0,8",
            at="1:69",
            says="`0,8` is not a valid value for `--mem-fraction-static`",
            fixed=NO_FIX,
        ),
    )
    valid: ClassVar[tuple[Example | str, ...]] = (
        "python -m sglang.launch_server --model-path m --tp-size 8 --mem-fraction-static 0.8",
    )
    problem_kind = "invalid-type"

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != self.problem_kind or use is None or use.spec is None:  # its flag
                continue
            message = (
                f"`{problem.text}` is not a valid value for `{use.matched}`: argparse stops "
                f"the launch with 'argument {use.matched}: {problem.detail}'"
            )
            yield self.report(
                ctx.path,
                problem.span,
                message,
                self.hint(use, use.spec),
                word_notes(use.value_words[0] if use.value_words else use.word),
            )

    def hint(self, use: FlagUse, spec: FlagSpec) -> str:
        return f"`{use.matched}` takes a value of type {spec.type}"

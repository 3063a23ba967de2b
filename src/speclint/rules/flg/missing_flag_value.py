"""FLG004 missing-flag-value: a flag that needs a value got none."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.core.notes import Note
    from speclint.core.words import Word
    from speclint.rules.base import LaunchContext


class MissingValue(Rule):
    """## What it does
    Finds flags that take a value but are followed by another flag or by nothing.

    ## Why it matters
    argparse stops the launch with `expected one argument`. A common cause is a variable that
    expands to nothing (`--tp-size $TP` with `TP` unset, unquoted).

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size --mem-fraction-static 0.8
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size 2 --mem-fraction-static 0.8
    ```
    """

    code = "FLG004"
    gates = ("problem:missing-value",)
    stage = "parse"
    name = "missing-flag-value"
    severity = Severity.ERROR
    summary = "A flag that takes a value is followed by another flag or nothing: argparse stops the launch."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size",
            at="1:47",
            says="`--tp-size` needs a value and gets none",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path --tp-size 2",
            at="1:32",
            says="`--model-path` needs a value and gets none",
            fixed=NO_FIX,
        ),
    )
    valid = ("python -m sglang.launch_server --model-path m --tp-size 2",)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != "missing-value" or use is None:  # a missing value has its flag
                continue
            message = (
                f"`{use.written}` needs a value and gets none: argparse stops the launch "
                f"with 'argument {use.matched}: {problem.detail}'"
            )
            yield self.report(
                ctx.path, problem.span, message, f"give `{use.matched}` a value", _notes(use.word)
            )


def _notes(word: Word) -> list[Note]:
    """Where the word's text was written, and what a dash or space pasted into it is."""
    notes = word_notes(word)
    if word.lookalikes:
        from .typed_chars import lookalike_notes

        notes += lookalike_notes((word,))
    return notes

"""FLG010 unexpected-argument: a word argparse cannot attach to any flag."""

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


class UnexpectedArgument(Rule):
    """## What it does
    Finds words argparse cannot attach to a flag: a second value after a one-value flag, a
    value given to a switch (`--enable-mixed-chunk=true`), a stray `--`.

    ## Why it matters
    argparse stops the launch with `unrecognized arguments` or `ignored explicit argument`.
    When a required flag (`--model-path`) is missing too, argparse prints `the following
    arguments are required` instead: it checks those before the words it could not attach.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --enable-mixed-chunk=true
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --enable-mixed-chunk
    ```
    """

    code = "FLG010"
    gates = ("problem:unexpected-argument", "problem:ignored-explicit-argument")
    stage = "parse"
    name = "unexpected-argument"
    severity = Severity.ERROR
    summary = (
        "A word that is not a flag nor a flag's value (a stray value, a value given to a "
        "switch): argparse stops the launch."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 2 4",
            at="1:59",
            says="`4` is not attached to any flag",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --enable-mixed-chunk=true",
            at="1:47",
            says="`--enable-mixed-chunk` is a switch and takes no value",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --tp-size 2 4",
            at="1:44",
            says="argparse stops the launch with 'the following arguments are required: --model-path/--model' (it checks those before 'unrecognized arguments')",
            fixed=NO_FIX,
        ),
    )
    valid = ("python -m sglang.launch_server --model-path m --tp-size 2 --enable-mixed-chunk",)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            if problem.kind == "unexpected-argument":
                text = problem.text or ""
                blank = not text.strip()  # a line end of its own (`shlex.split` of `\` at a line end)
                message = (
                    f"{repr(text) if blank or not text.isprintable() else f'`{text}`'} is not attached "
                    f"to any flag: argparse stops the launch with {stops_with(ctx)}"
                )
                fix = (
                    "remove the `\\` before the line end: `shlex.split` reads it as escaping the line "
                    "end, which becomes a word of its own"
                    if blank and "\n" in text
                    else "remove it, or add the flag it is the value of"
                )
                notes: list[Note] = []
                if not text.isascii():  # a dash or space pasted in for `-` or a space
                    from .typed_chars import lookalike_notes

                    notes = lookalike_notes(w for w in ctx.launch.args if w.span == problem.span)
                yield self.report(ctx.path, problem.span, message, fix, notes)
            elif problem.kind == "ignored-explicit-argument" and problem.use is not None:
                use = problem.use
                message = (
                    f"`{use.matched}` is a switch and takes no value: argparse stops the "
                    f"launch with '{problem.detail}'"
                )
                yield self.report(
                    ctx.path,
                    problem.span,
                    message,
                    f"write `{use.matched}` alone (or leave it out for false)",
                    word_notes(use.word) + _typed(use.word),
                )


def stops_with(ctx: LaunchContext) -> str:
    """What argparse prints for a word it leaves over: 'unrecognized arguments', unless a
    required flag is missing too, which `_parse_known_args` reports first."""
    memo = ctx.memo
    if "required_first" not in memo:  # (once a launch: a launch may hold thousands of stray words)
        from speclint.sglang.flags.argparse_stop import required_first

        memo["required_first"] = required_first(ctx.parsed)
    required = memo["required_first"]
    if required:
        return f"'{required}' (it checks those before 'unrecognized arguments')"
    return "'unrecognized arguments'"


def _typed(word: Word) -> list[Note]:
    if not word.lookalikes:
        return []
    from .typed_chars import lookalike_notes

    return lookalike_notes((word,))

"""FLG011 missing-required-flag: a launch without `--model-path`."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.core.notes import Note
    from speclint.rules.base import LaunchContext


class MissingRequired(Rule):
    """## What it does
    Finds launches without the flags SGLang requires (`--model-path` or its alias `--model`).

    ## Why it matters
    argparse stops with `the following arguments are required`. With `sglang serve` on
    0.5.23 a first word that is not a flag is taken as the model path.

    ## Example
    ```bash
    python -m sglang.launch_server --tp-size 2
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2
    ```
    """

    code = "FLG011"
    gates = ("problem:missing-required",)
    stage = "parse"
    name = "missing-required-flag"
    severity = Severity.ERROR
    summary = "A flag SGLang requires (`--model-path`) is missing: argparse stops the launch."
    invalid = (
        Example(
            "python -m sglang.launch_server --tp-size 2",
            at="1:1",
            says="the launch has no --model-path/--model",
            fixed=NO_FIX,
        ),
    )
    valid = ("python -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct",)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            if problem.kind == "missing-required":
                message = f"the launch has no {problem.text}: argparse stops it with '{problem.detail}'"
                first = problem.text.split("/")[0]
                pasted = [word for word in ctx.launch.args if word.lookalikes]
                notes: list[Note] = []
                if pasted:  # `–-model-path` (an en dash): argparse did not read the flag
                    from .typed_chars import lookalike_notes

                    notes = lookalike_notes(pasted)
                yield self.report(
                    ctx.path,
                    ctx.launch.span,
                    message,
                    f"add `{first} <local folder or Hugging Face id>`",
                    notes,
                )

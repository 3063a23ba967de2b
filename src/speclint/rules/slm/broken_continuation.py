"""SLM002 broken-continuation: a comment, a trailing space or a missing `\\` ends a continued
command early."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import FileContext


class BrokenContinuation(Rule):
    """## What it does
Finds `\\`-continued commands cut short by a comment line or by a space after the
backslash, and launch lines that end without the `\\` while the next line holds more of
their flags (`--speculative-algorithm ...`), or the tail of a line a paste wrapped (a number,
the rest of a path ending in `/`, or the rest of a word, starting with a capital letter) and
then flags.

## Why it matters
Bash joins `\\`+newline, so a comment line inside a continued command swallows the rest
of that line and ends the command: the flags on the following lines run as a separate
(failing) command and never reach SGLang, which starts with its defaults. A line that
ends without `\\` ends the command the same way.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama \\
  # draft model
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/llama-eagle3
```

## Use instead
```bash
# draft model
python -m sglang.launch_server --model-path /models/llama \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/llama-eagle3
```
"""

    code = "SLM002"
    gates = ("diagnostic:broken-continuation",)
    name = "broken-continuation"
    severity = Severity.ERROR
    summary = (
        "A comment line (or a space after `\\`, or a missing `\\`) inside a continued command "
        "ends it: the flags on the following lines never reach SGLang."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m \\\n"
            "  # draft settings\n"
            "  --speculative-algorithm EAGLE3 --speculative-draft-model-path d\n",
            at="2:3",
            says="this comment ends the `\\`-continued command above it",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m \\\n"
            "  --tp 2\n"
            "  --speculative-algorithm EAGLE3 --speculative-draft-model-path d\n",
            at="2:8",
            says="this line ends the command without a `\\`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "# draft settings\n"
        "python -m sglang.launch_server --model-path m \\\n"
        "  --speculative-algorithm EAGLE3 --speculative-draft-model-path d\n",
    )

    def check_file(self, ctx: FileContext) -> Iterator[Finding]:
        for diagnostic in ctx.diagnostics:
            if diagnostic.kind == "broken-continuation":
                missing = "ends the command without a `\\`" in diagnostic.message
                wrapped = "(the rest of a wrapped line?)" in diagnostic.message
                yield self.report(
                    ctx.path,
                    diagnostic.span,
                    diagnostic.message,
                    "end this line with ` \\` so that the command goes on to the next line"
                    if missing
                    else "join the next line to this one (the paste split one line in two)"
                    if wrapped
                    else "move the comment above the command, and end continued lines "
                    "with `\\` and no trailing space",
                )

"""SPD004 ngram-ignores-topk: NGRAM overwrites --speculative-eagle-topk."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class NgramIgnoresTopk(Rule):
    """## What it does
Finds NGRAM launches that set `--speculative-eagle-topk`.

## Why it matters
`_handle_ngram` always overwrites `speculative_eagle_topk` with
`--speculative-ngram-max-bfs-breadth` (default 10), silently. The topk you wrote has no
effect; the BFS breadth is the knob.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --speculative-eagle-topk 4
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --speculative-ngram-max-bfs-breadth 4
```
"""

    code = "SPD004"
    gates = ("adjusted:speculative_eagle_topk",)
    name = "ngram-ignores-topk"
    severity = Severity.WARNING
    rests_on = (RESOLUTION,)
    summary = "NGRAM ignores --speculative-eagle-topk: SGLang uses --speculative-ngram-max-bfs-breadth."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM"
            " --speculative-eagle-topk 2",
            at="1:102",
            says="`--speculative-eagle-topk 2` has no effect with NGRAM",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM"
        " --speculative-ngram-max-bfs-breadth 2",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        change = ctx.resolution.adjustment("speculative_eagle_topk") if ctx.resolution else None
        if change is None or change.handler != "_handle_ngram":
            return
        if not ctx.config.given("speculative_eagle_topk"):
            return
        breadth = "speculative_ngram_max_bfs_breadth"
        message = (
            f"`{ctx.written('speculative_eagle_topk')}` has no effect with NGRAM: SGLang "
            f"sets speculative_eagle_topk to {ctx.option(breadth).rstrip('=')} = "
            f"{change.effective}, silently"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_eagle_topk"),
            message,
            f"remove it; write `{ctx.set_to(breadth, change.asked)}` to change the breadth",
        )

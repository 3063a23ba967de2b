"""SPD002 partial-speculative-params: steps, topk and draft tokens must come all together or not at all."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_TRIPLE = ("speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens")


class PartialSpeculativeParams(Rule):
    """## What it does
Finds EAGLE-family launches that give some, but not all, of `--speculative-num-steps`,
`--speculative-eagle-topk` and `--speculative-num-draft-tokens`.

## Why it matters
SGLang auto-chooses the three together only when `--speculative-num-steps` is missing,
and then asserts the other two are missing too: topk or draft tokens without steps stops
the launch with a bare `AssertionError` (no message). Steps without topk passes the assert
but, from 0.5.6.post2 on, crashes on `speculative_eagle_topk > 1` with
`TypeError: '>' not supported between instances of 'NoneType' and 'int'`.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-eagle-topk 4 --speculative-num-draft-tokens 16
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 16
```
"""

    code = "SPD002"
    gates = ("rejection",)
    name = "partial-speculative-params"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = (
        "Only some of steps / topk / draft tokens are given: SGLang stops with an "
        "AssertionError or TypeError."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path d --speculative-num-draft-tokens 8",
            at="1:142",
            says="--speculative-num-draft-tokens is given without --speculative-num-steps",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path d --speculative-num-steps 3",
            "0.5.23",
            at="1:135",
            says="--speculative-num-steps is given without --speculative-eagle-topk",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path d",
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path d --speculative-num-steps 3"
        " --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if rejection is None or not rejection.handler.startswith("_handle_eagle_family"):
            return
        if rejection.exception not in ("AssertionError", "TypeError"):
            return
        given = [f for f in _TRIPLE if ctx.config.given(f)]
        missing = [f for f in _TRIPLE if f not in given]
        if not given or ctx.config.uncertain:
            return
        names = ", ".join(ctx.option(f) for f in missing)
        if rejection.exception == "AssertionError":
            message = (
                "SGLang stops this launch with a bare AssertionError: "
                f"{', '.join(ctx.option(f) for f in given)} is given without "
                f"{ctx.option('speculative_num_steps')}, and SGLang only auto-chooses "
                "steps, topk and draft tokens all together"
            )
        else:
            message = (
                f"SGLang {ctx.version.version} stops this launch with \"TypeError: '>' "
                "not supported between instances of 'NoneType' and 'int'\": "
                f"{ctx.option('speculative_num_steps')} is given without "
                f"{ctx.option('speculative_eagle_topk')}"
            )
        yield self.report(
            ctx.path,
            ctx.span_of(given[0]),
            message,
            f"also give {names}, or remove all three to let SGLang choose",
            claims=(REJECTION,),
        )

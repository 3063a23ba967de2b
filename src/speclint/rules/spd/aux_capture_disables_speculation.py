"""SPD010 aux-capture-disables-speculation: --enable-return-aux-hidden-states turns speculation off."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class AuxCaptureDisablesSpeculation(Rule):
    """## What it does
Finds `--enable-return-aux-hidden-states` together with `--speculative-algorithm` on
SGLang 0.5.23.

## Why it matters
With the flag, `handle_aux_hidden_state_capture` resets `speculative_algorithm` to None:
the algorithm only names which layers to capture (EAGLE3, DFLASH, DSPARK), and the server
runs without speculative decoding, silently. This is right for collecting training data
for a drafter, and wrong for a serving launch that also wants speculation.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --enable-return-aux-hidden-states
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64
```
"""

    code = "SPD010"
    gates = ("adjusted:speculative_algorithm",)
    name = "aux-capture-disables-speculation"
    severity = Severity.WARNING
    rests_on = (RESOLUTION,)
    summary = (
        "--enable-return-aux-hidden-states turns speculative decoding off (releases with "
        "the aux-capture handler)."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm"
            " EAGLE3 --enable-return-aux-hidden-states",
            "0.5.23",
            at="1:78",
            says="--enable-return-aux-hidden-states makes SGLang reset",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm"
            " EAGLE3 --speculative-draft-model-path d",
            "0.5.23",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        change = ctx.resolution.adjustment("speculative_algorithm") if ctx.resolution else None
        if change is None or change.handler != "_handle_aux_hidden_state_capture":
            return
        capture = ctx.option("enable_return_aux_hidden_states")
        message = (
            f"{capture} makes SGLang reset speculative_algorithm "
            f"from {change.asked} to None: the server captures {change.asked}-style hidden "
            "states and runs without speculative decoding, silently"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("enable_return_aux_hidden_states"),
            message,
            f"drop {capture} for a speculative server",
        )

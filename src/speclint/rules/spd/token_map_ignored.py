"""SPD006 token-map-ignored: EAGLE3 drafts carry their own vocabulary map."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import DRAFTER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class TokenMapIgnored(Rule):
    """## What it does
Finds `--speculative-token-map` on EAGLE3 launches.

## Why it matters
EAGLE3 drafts map their reduced vocabulary with the `d2t` tensor in their own weights.
SGLang (0.5.6.post2 and later, `EagleDraftWorker.init_token_map`) ignores the flag and
logs `Speculative token map specified, but EAGLE3 models already have this. Ignoring the
specified token map.` The file you pass has no effect.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-token-map /models/hot_token_ids.pt
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64
```
"""

    code = "SPD006"
    gates = ("given:speculative_token_map",)
    name = "token-map-ignored"
    severity = Severity.WARNING
    rests_on = (DRAFTER,)
    summary = "--speculative-token-map is ignored with EAGLE3 (the draft's d2t map is used)."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path d --speculative-token-map t.pt",
            at="1:135",
            says="`--speculative-token-map t.pt` is ignored with EAGLE3",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
        " --speculative-draft-model-path d --speculative-token-map t.pt",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        if not ctx.release.eagle3_ignores_token_map:
            return  # the release's EAGLE worker has no such branch (or it was not read)
        if ctx.speculative_algorithm != "EAGLE3" or not ctx.config.given("speculative_token_map"):
            return
        message = (
            f"`{ctx.written('speculative_token_map')}` is ignored with EAGLE3: SGLang "
            "uses the draft's own `d2t` vocabulary map and logs that it ignores the file"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_token_map"),
            message,
            f"remove {ctx.option('speculative_token_map')}",
        )

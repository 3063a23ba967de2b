"""SPD003 speculative-caps-running-requests: speculation without --max-running-requests runs 48."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class SpeculativeCapsRunningRequests(Rule):
    """## What it does
Finds speculative launches that do not set `--max-running-requests`.

## Why it matters
With any EAGLE-family algorithm (NEXTN and STANDALONE included) or NGRAM, SGLang sets
`max_running_requests` to 48 when it is not given (`_handle_eagle_family`,
`_handle_ngram`). Without speculation the limit comes from the KV-cache capacity, often
thousands. 48 is global: with `--attn-dp-size 8` each attention-DP worker admits 6.
SGLang logs one warning (0.4.10.post2: nothing), and throughput at high concurrency
drops with no other sign.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 128
```
"""

    code = "SPD003"
    gates = ("adjusted:max_running_requests",)
    name = "speculative-caps-running-requests"
    severity = Severity.WARNING
    rests_on = (RESOLUTION,)
    summary = "Speculative decoding without --max-running-requests: SGLang caps it at 48."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM",
            at="1:71",
            says="speculative decoding (NGRAM) without --max-running-requests",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path d",
            at="1:71",
            says="speculative decoding (EAGLE3) without --max-running-requests",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM"
        " --max-running-requests 256",
        "python -m sglang.launch_server --model-path m",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        change = ctx.resolution.adjustment("max_running_requests") if ctx.resolution else None
        if change is None or change.effective != 48 or ctx.config.maybe_given("max_running_requests"):
            return
        algorithm = ctx.speculative_algorithm
        silent = " (silently)" if not change.logged else " (it logs one warning)"
        cap = ctx.option("max_running_requests")
        message = (
            f"speculative decoding ({algorithm}) without {cap}: SGLang "
            f"sets max_running_requests to 48{silent}, whatever the KV cache could hold"
        )
        attn_dp = ctx.resolved.effective.get("attn_dp_size")
        if isinstance(attn_dp, int) and attn_dp > 1:
            message += f"; with {ctx.set_to('attn_dp_size', attn_dp)} that is {48 // attn_dp} per worker"
        yield self.report(
            ctx.path, ctx.span_of("speculative_algorithm"), message, f"set {cap} to the concurrency you serve"
        )

"""SPD009 sglang-rejects-config: any other combination SGLang's resolution raises on."""

from __future__ import annotations

from speclint.resolve.parallel import DATA_PARALLEL_HANDLERS
from speclint.rules.base import LaunchContext, Rule, Severity
from speclint.rules.spd_helpers import flag_span

# Rejections that have their own, more specific rule.
_PARALLEL_FIELDS = {"tp_size", "dp_size", "attn_dp_size", "enable_dp_attention"}
_SPECIFIC = ("Unknown speculative algorithm", "trtllm_mha backend only supports", "with page_size")


class SglangRejectsConfig(Rule):
    """## What it does
Reports launches that SGLang's argument resolution refuses, for the combinations speclint
models that no more specific rule covers: STANDALONE or NGRAM with attention data
parallelism, DFLASH without a draft model, `--enable-return-aux-hidden-states` with a
draft model or a non-EAGLE3 algorithm, NGRAM on an unsupported device.

## Why it matters
SGLang raises (`ValueError`, `AssertionError`) before loading the model, often after a
container start and a scheduler wait. The message says which combination and why.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --attn-dp-size 2 --tp-size 2
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --tp-size 2
```
"""

    code = "SPD009"
    name = "sglang-rejects-config"
    severity = Severity.ERROR
    summary = "A flag combination SGLang's argument resolution raises on."
    invalid = ("python -m sglang.launch_server --model-path m --speculative-algorithm DFLASH",)
    valid = ("python -m sglang.launch_server --model-path m --speculative-algorithm DFLASH"
             " --speculative-draft-model-path d",)

    def check(self, ctx: LaunchContext):
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if rejection is None or rejection.exception in ("AssertionError", "TypeError") \
                and rejection.handler.startswith("_handle_eagle_family"):
            return
        if any(marker in rejection.message for marker in _SPECIFIC) or ctx.config.uncertain:
            return
        if rejection.handler in DATA_PARALLEL_HANDLERS and set(rejection.fields) & _PARALLEL_FIELDS:
            return  # the parallelism rules (PAR) report these with the layout
        field = next((f for f in rejection.fields if ctx.config.given(f)),
                     "speculative_algorithm")
        message = (f"SGLang {ctx.version.version} refuses this launch in {rejection.handler}: "
                   f"{rejection.exception}: {rejection.message}")
        yield self.report(ctx.path, flag_span(ctx, field), message,
                          "change the flags named in SGLang's message")

"""SPD005 missing-draft-model: EAGLE/EAGLE3 with no draft path on a target without MTP layers."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

# Dense targets with no MTP head: SGLang loads the target checkpoint a second time as the
# draft (ModelConfig.from_server_args falls back to model_path) and crashes at lm-head /
# embedding init (sgl-project/sglang#36528: Qwen2ForCausalLM has no set_embed; a Llama
# target has no hot_token_id).
PLAIN_TARGETS = ("LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM", "MistralForCausalLM")


class MissingDraftModel(Rule):
    """## What it does
Finds EAGLE or EAGLE3 launches without `--speculative-draft-model-path` whose target (read
from its config.json) is a dense model with no MTP layers: Llama, Qwen2, Qwen3, Mistral.

## Why it matters
SGLang raises nothing during argument resolution. Without a draft path it loads the
target checkpoint a second time as the draft, then crashes while wiring the draft's
embedding and LM head (sgl-project/sglang#36528), after the weights were loaded twice.
Only targets that carry their own MTP layers (DeepSeek-V3, GLM-4.5, ...) work without a
draft path. The rule needs the target's config.json on disk (see `--model-config`).

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "SPD005"
    name = "missing-draft-model"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "EAGLE/EAGLE3 without a draft model on a target that has no MTP layers."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
            " --speculative-algorithm EAGLE",
            at="1:107",
            says="EAGLE without --speculative-draft-model-path on a LlamaForCausalLM",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path fixtures/models/deepseek-v3"
        " --speculative-algorithm NEXTN",
        "python -m sglang.launch_server --model-path /not/on/disk --speculative-algorithm EAGLE",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        algorithm = ctx.speculative_algorithm
        if algorithm not in ("EAGLE", "EAGLE3") or ctx.resolved.rejection is not None:
            return
        if ctx.config.maybe_given("speculative_draft_model_path"):
            return
        arch = ctx.target.architecture if ctx.target else None
        if arch not in PLAIN_TARGETS:
            return
        draft = ctx.option("speculative_draft_model_path")
        message = (
            f"{algorithm} without {draft} on a {arch} target: "
            f"{arch} has no MTP layers, so SGLang loads the target checkpoint again as "
            "the draft and the launch crashes after loading the weights twice"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_algorithm"),
            message,
            f"add {draft} pointing at the EAGLE draft",
        )

"""DRF003 aux-layer-out-of-range: EAGLE-3 aux layer ids the target does not have."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import eagle3_launch
from speclint.sglang import DRAFTER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_LLAMA = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --speculative-algorithm EAGLE3 --max-running-requests 64"
    " --speculative-draft-model-path fixtures/models/"
)


class AuxLayerOutOfRange(Rule):
    """## What it does
Finds EAGLE-3 drafters whose `eagle_config.eagle_aux_hidden_state_layer_ids` make SGLang
capture a layer the target does not have.

## Why it matters
The target's `set_eagle3_layers_to_capture` turns the ids into decoder layers whose input
is captured: id + 1 for Llama-style targets (llama.py, qwen2.py, ... every release read);
for DeepSeek-V2/V3, Kimi-K2.5 and GLM-4-MoE-Lite from 0.5.14, + 1 only when the first id
is 1, otherwise as-is (`deepseek_v2.py`); GPT-OSS in 0.5.23 keeps them as-is when the
largest is the depth. Nothing checks the result against `num_hidden_layers`:
- targets whose hook indexes `self.layers[id]` (Qwen2/3-MoE, Qwen3-Next, Qwen3.5) raise
  IndexError at load;
- the others never reach the layer: with some ids missing the concatenated width no longer
  matches `fc` and the launch fails at the first forward or CUDA-graph capture; with all of
  them missing the drafter gets the last hidden state and acceptance is about zero, silently.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-ids-out-of-range
```

## Use instead
```bash
# ids [1, 15, 28]: layers 2, 16, 29 of 32 are captured
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "DRF003"
    gates = ("drafter:EAGLE3/EAGLE3",)
    name = "aux-layer-out-of-range"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "EAGLE-3 aux layer ids that make SGLang capture a layer the target does not have."
    invalid = (
        Example(
            _LLAMA + "eagle3-llama-ids-out-of-range",
            at="1:171",
            says="eagle_aux_hidden_state_layer_ids [1, 15, 31] include [31]",
            fixed=NO_FIX,
        ),
    )
    valid = (
        _LLAMA + "eagle3-llama-3.1-8b-instruct",
        "python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5"
        " --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = eagle3_launch(ctx)
        if launch is None or launch.target is None:
            return
        # modules, not names: `from M import name` here asks M for a `__path__` on each call
        import speclint.sglang.checkpoints.aux_layers as aux_layers
        import speclint.sglang.checkpoints.drafter as drafter

        ids = drafter.aux_layer_ids(launch.draft)
        arch = ctx.target.architecture if ctx.target is not None else None
        version = ctx.version.version
        capture = aux_layers.aux_capture(version, arch, launch.target.num_hidden_layers, ids)
        if (
            ids is None
            or capture is None
            or not capture.missing
            or not drafter.uses_aux_hidden_state(launch.draft)
        ):
            return
        depth = capture.num_layers
        bad = [i for i, layer in zip(ids, capture.layers) if layer in capture.missing]
        if aux_layers.indexes_layers(version, arch):
            effect = f"{arch}'s capture hook indexes its layers, so the launch fails with IndexError at load"
        elif len(capture.missing) == len(capture.layers):
            effect = (
                "no aux state is ever captured: the drafter gets the last hidden state, fc "
                "is skipped and acceptance is about zero, silently"
            )
        else:
            effect = (
                f"only {len(capture.layers) - len(capture.missing)} of {len(capture.layers)} "
                "aux states are captured, so the width no longer matches fc and the launch "
                "fails at the first forward or CUDA-graph capture"
            )
        message = (
            f"the drafter's eagle_aux_hidden_state_layer_ids {ids} include {bad}: with "
            f"{capture.how}, SGLang captures before layers {capture.layers}, but the "
            f"target ({arch}) has {depth} layers; {effect}"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            f"use ids below {depth - 1} in eagle_config (SGLang's default in the "
            f"drafter's convention is [1, {depth // 2 - 1}, {depth - 4}])",
        )

"""DRF002 eagle-drafter-with-eagle3: an EAGLE-1/2 drafter served with EAGLE3."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import Example, Rule
from speclint.rules.drafter import algorithm_edit, draft_launch, evidence_text, written_algorithm
from speclint.sglang import DRAFTER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_LLAMA = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --max-running-requests 64 --speculative-draft-model-path "
)


class EagleDrafterWithEagle3(Rule):
    """## What it does
Finds EAGLE-1/2 drafters (`LlamaForCausalLMEagle`, `Qwen2ForCausalLMEagle`,
`MistralForCausalLMEagle`, `MistralLarge3ForCausalLMEagle`, or a local `fc.weight` that is
2 × hidden wide with no EAGLE-3 keys in the config) served with
`--speculative-algorithm EAGLE3`.

## Why it matters
An EAGLE-1/2 head's `fc` is `Linear(2 × hidden, hidden)` over `[embedding; hidden]`
(`llama_eagle.py`, `qwen2_eagle.py`). With EAGLE3 the target concatenates three aux hidden
states and the worker takes the EAGLE-3 paths (hot-token map, aux capture), so the launch
fails with a shape error or an AttributeError once the weights are loaded (reference B1).

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle-llama-3.1-8b-instruct
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle-llama-3.1-8b-instruct
```
"""

    code = "DRF002"
    gates = ("drafter:EAGLE3/EAGLE",)
    name = "eagle-drafter-with-eagle3"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "An EAGLE-1/2 drafter served with EAGLE3: its fc cannot take the aux hidden states."
    invalid = (
        Example(
            _LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE3",
            at="1:208",
            says="`--speculative-algorithm EAGLE3` with an EAGLE-1/2 drafter",
            fixed=_LLAMA + ("fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE"),
        ),
        Example(
            _LLAMA + "fixtures/models/eagle-llama-weights-only --speculative-algorithm EAGLE3",
            at="1:205",
            says="`--speculative-algorithm EAGLE3` with an EAGLE-1/2 drafter",
            fixed=_LLAMA + ("fixtures/models/eagle-llama-weights-only --speculative-algorithm EAGLE"),
        ),
    )
    valid = (
        _LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE",
        _LLAMA + "fixtures/models/eagle3-llama-3.1-8b-instruct --speculative-algorithm EAGLE3",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE":
            return
        asked = ctx.set_to("speculative_algorithm", written_algorithm(ctx))
        message = (
            f"`{asked}` with an EAGLE-1/2 drafter "
            f"({launch.draft_name}: {evidence_text(launch.kind)}): its fc takes "
            "[embedding; hidden] (2 × hidden), but EAGLE3 feeds it the target's "
            "concatenated aux hidden states; the launch fails once the weights are loaded"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_algorithm"),
            message,
            f"write `{ctx.set_to('speculative_algorithm', 'EAGLE')}`",
            fix=algorithm_edit(ctx, "EAGLE"),
        )

"""DRF001 eagle3-drafter-needs-eagle3: an EAGLE-3 drafter served with EAGLE or NEXTN."""

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

_KIMI = (
    "python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5"
    " --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5"
)
_LLAMA = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --max-running-requests 64 --speculative-draft-model-path "
)


class Eagle3DrafterNeedsEagle3(Rule):
    """## What it does
Finds EAGLE-3 drafters served with `--speculative-algorithm EAGLE` or `NEXTN`. A drafter is
EAGLE-3 when its architecture is an `*Eagle3` class (`LlamaForCausalLMEagle3`,
`Eagle3DeepseekV2ForCausalLM`), when its config has `eagle_config` or `draft_vocab_size`,
or when `fc.weight` in its local safetensors is n × hidden wide with n ≥ 3 (some published
EAGLE-3 drafters say `LlamaForCausalLM`; the weights still tell).

## Why it matters
SGLang builds the draft module from the drafter's `architectures`, but only the algorithm
decides whether the target captures the aux hidden states the drafter was trained on:
capture is gated on `is_eagle3()` in every release read (`ModelRunner.__init__` in
0.4.10.post2 and 0.5.6.post2, `model_runner.py` in 0.5.14,
`spec_aux_hidden_state.py::_resolve_eagle_aux_hidden_state` in 0.5.23), and NEXTN is an
alias of EAGLE. The target then hands over only its last layer's hidden state. The
drafter's `fc` expects n × hidden (`llama_eagle3.py` / `kimi_k25_eagle3.py`) and is skipped
when the width equals the embedding's (`if hidden_states.shape[-1] != embeds.shape[-1]`),
so the drafter runs on features it never saw: acceptance length about 1, slower than no
speculation, and SGLang says nothing (sgl-project/sglang#21272 was closed unmerged).

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "DRF001"
    gates = ("drafter:EAGLE/EAGLE3",)
    name = "eagle3-drafter-needs-eagle3"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "An EAGLE-3 drafter served with EAGLE or NEXTN: aux hidden states are never captured."
    invalid = (
        Example(
            _KIMI + " --speculative-algorithm EAGLE",
            at="1:159",
            says="`--speculative-algorithm EAGLE` with an EAGLE-3 drafter",
            fixed=_KIMI + " --speculative-algorithm EAGLE3",
        ),
        Example(
            _KIMI + " --speculative-algorithm NEXTN",
            "0.5.14",
            at="1:159",
            says="`--speculative-algorithm NEXTN`",
            fixed=_KIMI + " --speculative-algorithm EAGLE3",
        ),
        Example(
            _LLAMA + "fixtures/models/eagle3-llama-weights-only --speculative-algorithm EAGLE",
            at="1:206",
            says="`--speculative-algorithm EAGLE` with an EAGLE-3 drafter",
            fixed=_LLAMA + ("fixtures/models/eagle3-llama-weights-only --speculative-algorithm EAGLE3"),
        ),
    )
    valid = (
        _KIMI + " --speculative-algorithm EAGLE3",
        _LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE",
        _LLAMA + "/not/on/disk --speculative-algorithm EAGLE",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE" or launch.kind.kind != "EAGLE3":
            return
        from speclint.sglang.checkpoints.drafter import fc_aux_count, input_hidden

        draft, target = launch.draft, launch.target
        count, width = fc_aux_count(draft, ctx.version.version), input_hidden(draft)
        target_hidden = target.hidden_size if target is not None else None
        effect = "the target passes only its last layer's hidden state"
        if width and target_hidden:
            effect = (
                f"its fc expects {count} × {width} = {count * width} but gets the last "
                f"layer's {target_hidden}"
            )
            if target_hidden == draft.hidden_size:
                effect += (
                    ", so fc is skipped and the drafter runs on features it was not "
                    "trained on: acceptance is about zero, and SGLang says nothing"
                )
            else:
                effect += " and the launch fails with a shape error"
        else:
            effect += ": fc is skipped and acceptance is about zero, and SGLang says nothing"
        asked = written_algorithm(ctx)
        alias = " (an alias of EAGLE)" if asked.upper() == "NEXTN" else ""
        message = (
            f"`{ctx.set_to('speculative_algorithm', asked)}`{alias} with an EAGLE-3 drafter "
            f"({launch.draft_name}: {evidence_text(launch.kind)}): SGLang captures aux "
            f"hidden states only for EAGLE3; {effect}"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_algorithm"),
            message,
            f"write `{ctx.set_to('speculative_algorithm', 'EAGLE3')}`",
            fix=algorithm_edit(ctx, "EAGLE3"),
        )

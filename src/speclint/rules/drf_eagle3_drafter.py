"""DRF001 eagle3-drafter-needs-eagle3 / DRF002 eagle-drafter-with-eagle3: algorithm vs drafter."""

from __future__ import annotations

from speclint.sglang import DRAFTER
from speclint.rules.base import Edit, literal_word, Example, LaunchContext, Rule, Severity
from speclint.rules.drf_helpers import algorithm_span, draft_launch, evidence_text, written_algorithm

_KIMI = ("python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5"
         " --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5")
_LLAMA = ("python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
          " --max-running-requests 64 --speculative-draft-model-path ")


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
    name = "eagle3-drafter-needs-eagle3"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "An EAGLE-3 drafter served with EAGLE or NEXTN: aux hidden states are never captured."
    invalid = (
        _KIMI + " --speculative-algorithm EAGLE",
        Example(_KIMI + " --speculative-algorithm NEXTN", "0.5.14"),
        _LLAMA + "fixtures/models/eagle3-llama-weights-only --speculative-algorithm EAGLE",
    )
    valid = (
        _KIMI + " --speculative-algorithm EAGLE3",
        _LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE",
        _LLAMA + "/not/on/disk --speculative-algorithm EAGLE",
    )

    def check(self, ctx: LaunchContext):
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE" or launch.kind.kind != "EAGLE3":
            return
        from speclint.models.drafter import fc_aux_count, input_hidden

        draft, target = launch.draft, launch.target
        count, width = fc_aux_count(draft, ctx.version.version), input_hidden(draft)
        target_hidden = target.hidden_size if target is not None else None
        effect = "the target passes only its last layer's hidden state"
        if width and target_hidden:
            effect = (f"its fc expects {count} × {width} = {count * width} but gets the last "
                      f"layer's {target_hidden}")
            if target_hidden == draft.hidden_size:
                effect += (", so fc is skipped and the drafter runs on features it was not "
                           "trained on: acceptance is about zero, and SGLang says nothing")
            else:
                effect += " and the launch fails with a shape error"
        else:
            effect += (": fc is skipped and acceptance is about zero, and SGLang says nothing")
        asked = written_algorithm(ctx)
        alias = " (an alias of EAGLE)" if asked.upper() == "NEXTN" else ""
        message = (f"`--speculative-algorithm {asked}`{alias} with an EAGLE-3 drafter "
                   f"({launch.draft_name}: {evidence_text(launch.kind)}): SGLang captures aux "
                   f"hidden states only for EAGLE3; {effect}")
        yield self.report(ctx.path, algorithm_span(ctx), message,
                          "write `--speculative-algorithm EAGLE3`",
                          fix=_algorithm_edit(ctx, "EAGLE3"))


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
    name = "eagle-drafter-with-eagle3"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "An EAGLE-1/2 drafter served with EAGLE3: its fc cannot take the aux hidden states."
    invalid = (_LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE3",
               _LLAMA + "fixtures/models/eagle-llama-weights-only --speculative-algorithm EAGLE3")
    valid = (_LLAMA + "fixtures/models/eagle-llama-3.1-8b-instruct --speculative-algorithm EAGLE",
             _LLAMA + "fixtures/models/eagle3-llama-3.1-8b-instruct --speculative-algorithm EAGLE3")

    def check(self, ctx: LaunchContext):
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE":
            return
        message = (f"`--speculative-algorithm {written_algorithm(ctx)}` with an EAGLE-1/2 drafter "
                   f"({launch.draft_name}: {evidence_text(launch.kind)}): its fc takes "
                   "[embedding; hidden] (2 × hidden), but EAGLE3 feeds it the target's "
                   "concatenated aux hidden states; the launch fails once the weights are loaded")
        yield self.report(ctx.path, algorithm_span(ctx), message,
                          "write `--speculative-algorithm EAGLE`",
                          fix=_algorithm_edit(ctx, "EAGLE"))


def _algorithm_edit(ctx: LaunchContext, algorithm: str) -> Edit | None:
    """Rewrite the algorithm value where it is written literally (certain: the drafter's own
    weights or config say which algorithm it was trained for)."""
    use = ctx.config.get("speculative_algorithm").use
    if use is None or len(use.value_words) != 1 or not literal_word(use.value_words[0]) \
            or not literal_word(use.word):
        return None
    word = use.value_words[0]
    return Edit(use.value_span, algorithm, f"serve the drafter with {algorithm}", word.text)

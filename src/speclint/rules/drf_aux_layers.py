"""DRF003-DRF005: the EAGLE-3 drafter's aux layer ids against the target and the release."""

from __future__ import annotations

from speclint.sglang import DRAFTER
from speclint.sglang import first_release
from speclint.rules.base import Example, LaunchContext, Rule, Severity
from speclint.rules.drf_helpers import draft_launch, draft_span

_LLAMA = ("python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
          " --speculative-algorithm EAGLE3 --max-running-requests 64"
          " --speculative-draft-model-path fixtures/models/")


def _eagle3_launch(ctx: LaunchContext):
    launch = draft_launch(ctx)
    if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE3":
        return None
    return launch


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
    name = "aux-layer-out-of-range"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "EAGLE-3 aux layer ids that make SGLang capture a layer the target does not have."
    invalid = (_LLAMA + "eagle3-llama-ids-out-of-range",)
    valid = (_LLAMA + "eagle3-llama-3.1-8b-instruct",
             "python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5"
             " --speculative-algorithm EAGLE3"
             " --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5")

    def check(self, ctx: LaunchContext):
        launch = _eagle3_launch(ctx)
        if launch is None or launch.target is None:
            return
        from speclint.models.aux_layers import aux_capture, indexes_layers
        from speclint.models.drafter import aux_layer_ids, uses_aux_hidden_state

        ids = aux_layer_ids(launch.draft)
        arch, version = ctx.target.architecture, ctx.version.version
        capture = aux_capture(version, arch, launch.target.num_hidden_layers, ids)
        if ids is None or capture is None or not capture.missing or \
                not uses_aux_hidden_state(launch.draft):
            return
        depth = capture.num_layers
        bad = [i for i, layer in zip(ids, capture.layers) if layer in capture.missing]
        if indexes_layers(version, arch):
            effect = f"{arch}'s capture hook indexes its layers, so the launch fails with IndexError at load"
        elif len(capture.missing) == len(capture.layers):
            effect = ("no aux state is ever captured: the drafter gets the last hidden state, fc "
                      "is skipped and acceptance is about zero, silently")
        else:
            effect = (f"only {len(capture.layers) - len(capture.missing)} of {len(capture.layers)} "
                      "aux states are captured, so the width no longer matches fc and the launch "
                      "fails at the first forward or CUDA-graph capture")
        message = (f"the drafter's eagle_aux_hidden_state_layer_ids {ids} include {bad}: with "
                   f"{capture.how}, SGLang captures before layers {capture.layers}, but the "
                   f"target ({arch}) has {depth} layers; {effect}")
        yield self.report(ctx.path, draft_span(ctx), message,
                          f"use ids below {depth - 1} in eagle_config (SGLang's default in the "
                          f"drafter's convention is [1, {depth // 2 - 1}, {depth - 4}])")


class AuxLayerIdsIgnored(Rule):
    """## What it does
Finds EAGLE-3 drafters that write `eagle_aux_hidden_state_layer_ids` at the top level of
config.json instead of inside `eagle_config`.

## Why it matters
SGLang reads the ids only from `eagle_config` (`eagle_config["eagle_aux_hidden_state_layer_ids"]`
in `ModelRunner` for 0.4.10.post2 to 0.5.14, `_resolve_eagle_aux_hidden_state` in 0.5.23);
a missing key is swallowed and the target captures its default layers
`[2, L//2, L-3]`, i.e. the outputs of layers `[1, L//2-1, L-4]` in the drafter's
convention. A drafter trained on other layers silently loses acceptance.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-toplevel-ids
```

## Use instead
```bash
# the ids inside eagle_config
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "DRF004"
    name = "aux-layer-ids-ignored"
    severity = Severity.WARNING
    rests_on = (DRAFTER,)
    summary = "Aux layer ids at the top level of the drafter's config: SGLang uses its defaults."
    invalid = (_LLAMA + "eagle3-llama-toplevel-ids",)
    valid = (_LLAMA + "eagle3-llama-3.1-8b-instruct",)

    def check(self, ctx: LaunchContext):
        launch = _eagle3_launch(ctx)
        if launch is None:
            return
        from speclint.models.aux_layers import aux_capture
        from speclint.models.drafter import aux_layer_ids, top_level_ids

        ids = top_level_ids(launch.draft)
        if ids is None or aux_layer_ids(launch.draft) is not None:
            return
        depth = launch.target.num_hidden_layers if launch.target is not None else None
        arch, version = ctx.target.architecture, ctx.version.version
        if depth:
            meant = aux_capture(version, arch, depth, ids)
            default = aux_capture(version, arch, depth, None)
            if meant is not None and default is not None and meant.layers == default.layers:
                return  # the ids are SGLang's default anyway
            uses = (f"its default: layers [2, {depth // 2}, {depth - 3}] captured, i.e. "
                    f"[1, {depth // 2 - 1}, {depth - 4}] in the drafter's convention")
        else:
            uses = "its default layers [2, L//2, L-3] (L: the target's depth)"
        message = (f"the drafter writes eagle_aux_hidden_state_layer_ids {ids} at the top level of "
                   f"its config.json; SGLang reads them only from eagle_config, ignores these "
                   f"and uses {uses}, silently")
        yield self.report(ctx.path, draft_span(ctx), message,
                          f'move them into config.json as "eagle_config": '
                          f'{{"eagle_aux_hidden_state_layer_ids": {ids}}}')


class AuxLayerCount(Rule):
    """## What it does
Finds EAGLE-3 drafters whose number of aux layer ids does not match the width of their
`fc`: any count other than 3 on SGLang 0.4.10.post2 and 0.5.6.post2, where `fc` is fixed at
`3 × hidden` (`llama_eagle3.py` `LlamaModel.__init__`), and from 0.5.14 a
`num_aux_hidden_states` that disagrees with the ids.

## Why it matters
The target concatenates one hidden state per id; `fc` expects its own count. The widths
differ and the launch fails at the first forward or CUDA-graph capture.

## Example
```bash
# SGLang 0.5.6.post2
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-two-ids
```

## Use instead
```bash
# SGLang 0.5.23: fc is sized from the number of ids
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-two-ids
```
"""

    code = "DRF005"
    name = "aux-layer-count"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "The number of aux layer ids does not match the drafter's fc width for the release."
    invalid = (Example(_LLAMA + "eagle3-llama-two-ids", "0.5.6.post2"),
               Example(_LLAMA + "eagle3-llama-two-ids", "0.4.10.post2"))
    valid = (Example(_LLAMA + "eagle3-llama-two-ids", "0.5.23"),
             Example(_LLAMA + "eagle3-llama-3.1-8b-instruct", "0.5.6.post2"))

    def check(self, ctx: LaunchContext):
        launch = _eagle3_launch(ctx)
        if launch is None:
            return
        from speclint.models.drafter import aux_layer_ids, fc_aux_count, uses_aux_hidden_state

        ids = aux_layer_ids(launch.draft)
        if not ids or not uses_aux_hidden_state(launch.draft):
            return
        release = ctx.release
        version = release.version
        expected = fc_aux_count(launch.draft, version)
        if expected == len(ids):
            return
        fixed = release.eagle3_aux_count_from_config is False
        why = (f"SGLang {version} sizes fc for exactly 3 aux states" if fixed else
               f"the drafter's num_aux_hidden_states says {expected}")
        message = (f"the drafter lists {len(ids)} aux layer ids {ids}, so the target passes "
                   f"{len(ids)} hidden states, but {why}: the launch fails with a shape error "
                   "at the first forward or CUDA-graph capture")
        newer = first_release(lambda r: r.eagle3_aux_count_from_config is True, after=release)
        hint = ((f"use exactly 3 ids, or SGLang {newer.version} or later" if newer else
                 "use exactly 3 ids") if fixed else "make num_aux_hidden_states match the ids")
        yield self.report(ctx.path, draft_span(ctx), message, hint)

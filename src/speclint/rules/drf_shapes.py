"""DRF006-DRF008: the drafter's hidden size and vocabulary against the target's."""

from __future__ import annotations

from speclint.rules.base import LaunchContext, Rule, Severity
from speclint.rules.drf_helpers import draft_launch, draft_span

_LLAMA = ("python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
          " --speculative-algorithm EAGLE3 --max-running-requests 64"
          " --speculative-draft-model-path fixtures/models/")


class DraftHiddenSizeMismatch(Rule):
    """## What it does
Finds EAGLE-3 drafters whose `hidden_size` differs from the target's without a
`target_hidden_size`, or whose `target_hidden_size` disagrees with the target.

## Why it matters
The drafter's `fc` takes `target_hidden_size` (else its own `hidden_size`) × the number of
aux states (`llama_eagle3.py` `LlamaModel.__init__`, all releases read). The target's
aux hidden states have the target's width, so the launch fails with a shape error at the
first forward or CUDA-graph capture.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-hidden-5120
```

## Use instead
```bash
# the drafter declares target_hidden_size 4096
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-hidden-5120-target-4096
```
"""

    code = "DRF006"
    name = "draft-hidden-size-mismatch"
    severity = Severity.ERROR
    summary = "The EAGLE-3 drafter's fc input width does not match the target's hidden size."
    invalid = (_LLAMA + "eagle3-hidden-5120", _LLAMA + "eagle3-wrong-target-hidden")
    valid = (_LLAMA + "eagle3-hidden-5120-target-4096", _LLAMA + "eagle3-llama-3.1-8b-instruct")

    def check(self, ctx: LaunchContext):
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE3":
            return
        target_hidden = launch.target.hidden_size if launch.target is not None else None
        draft_hidden = launch.draft.hidden_size
        declared = launch.draft.raw.get("target_hidden_size")
        if not target_hidden or not draft_hidden:
            return
        if declared is None:
            if draft_hidden == target_hidden:
                return
            message = (f"the drafter's hidden_size is {draft_hidden} but the target's is "
                       f"{target_hidden}, and the drafter has no target_hidden_size: its fc "
                       f"expects aux states {draft_hidden} wide and gets {target_hidden}; the "
                       "launch fails with a shape error")
            hint = f'add "target_hidden_size": {target_hidden} to the drafter\'s config.json'
        elif declared != target_hidden:
            message = (f"the drafter's target_hidden_size is {declared} but the target's "
                       f"hidden_size is {target_hidden}: its fc expects aux states {declared} "
                       f"wide and gets {target_hidden}; the launch fails with a shape error "
                       "(or the drafter was trained for another target)")
            hint = f'set "target_hidden_size": {target_hidden}, or use the drafter made for this target'
        else:
            return
        yield self.report(ctx.path, draft_span(ctx), message, hint)


class DraftVocabWithoutD2t(Rule):
    """## What it does
Finds EAGLE-3 drafters with a reduced vocabulary (`draft_vocab_size` < `vocab_size`) whose
local safetensors have no `d2t` tensor. Only the header of the weights is read.

## Why it matters
SGLang maps draft token ids to target ids with `d2t` (target id = `d2t[i] + i`), which the
drafter's `load_weights` keeps when a tensor name contains `d2t` (`llama_eagle3.py`,
`kimi_k25_eagle3.py`). Without it `hot_token_id` stays None and draft ids 0..N-1 are used as
target ids: acceptance collapses with no error (reference B3).

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-no-d2t
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-with-d2t
```
"""

    code = "DRF007"
    name = "draft-vocab-without-d2t"
    severity = Severity.ERROR
    summary = "A reduced-vocabulary EAGLE-3 drafter whose weights have no d2t map."
    invalid = (_LLAMA + "eagle3-llama-no-d2t",)
    valid = (_LLAMA + "eagle3-llama-with-d2t", _LLAMA + "eagle3-llama-3.1-8b-instruct")

    def check(self, ctx: LaunchContext):
        launch = draft_launch(ctx)
        if launch is None or launch.algorithm != "EAGLE3" or launch.kind.kind != "EAGLE3":
            return
        reduced, vocab = launch.draft.raw.get("draft_vocab_size"), launch.draft.vocab_size
        weights = launch.weights
        if not isinstance(reduced, int) or not vocab or reduced >= vocab:
            return
        if weights is None or weights.problem or not weights.names or weights.has_d2t:
            return
        files = ", ".join(weights.files)
        message = (f"the drafter's draft_vocab_size is {reduced} (of {vocab}) but its weights "
                   f"({files}) have no d2t tensor: SGLang then uses draft ids 0..{reduced - 1} as "
                   "target token ids and acceptance collapses, with no error")
        yield self.report(ctx.path, draft_span(ctx), message,
                          "re-export the drafter with its d2t map (SpecForge's export writes it)")


class DraftVocabDiffers(Rule):
    """## What it does
Finds drafters whose `vocab_size` differs from the target's.

## Why it matters
A drafter is trained on one tokenizer. SGLang does not compare the two vocabularies: on
the EAGLE-3 path the drafter's embedding is replaced by the target's (`set_embed`) and its
ids are mapped with `d2t`, so a drafter trained for another model loads and proposes tokens
that mean something else. What exactly happens beyond that was not verified; the rule is a
warning.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/qwen3-8b \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "DRF008"
    name = "draft-vocab-differs"
    severity = Severity.WARNING
    summary = "The drafter's vocabulary size differs from the target's: made for another model?"
    invalid = ("python -m sglang.launch_server --model-path fixtures/models/qwen3-8b"
               " --speculative-algorithm EAGLE3"
               " --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct",)
    valid = (_LLAMA + "eagle3-llama-3.1-8b-instruct",)

    def check(self, ctx: LaunchContext):
        launch = draft_launch(ctx)
        if launch is None or launch.kind.kind is None or launch.target is None:
            return
        draft_vocab, target_vocab = launch.draft.vocab_size, launch.target.vocab_size
        if not draft_vocab or not target_vocab or draft_vocab == target_vocab:
            return
        message = (f"the drafter's vocab_size is {draft_vocab} but the target's is {target_vocab}: "
                   "the drafter was probably trained for another model's tokenizer, and its "
                   "token ids will not mean the same thing")
        yield self.report(ctx.path, draft_span(ctx), message,
                          "use a drafter trained for this target")

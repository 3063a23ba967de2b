"""DRF007 draft-vocab-without-d2t: a reduced drafter vocabulary without its d2t map."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import draft_launch

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
    gates = ("drafter:EAGLE3/EAGLE3",)
    name = "draft-vocab-without-d2t"
    severity = Severity.ERROR
    summary = "A reduced-vocabulary EAGLE-3 drafter whose weights have no d2t map."
    invalid = (
        Example(
            _LLAMA + "eagle3-llama-no-d2t",
            at="1:171",
            says="the drafter's draft_vocab_size is 32000",
            fixed=NO_FIX,
        ),
    )
    valid = (_LLAMA + "eagle3-llama-with-d2t", _LLAMA + "eagle3-llama-3.1-8b-instruct")

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
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
        message = (
            f"the drafter's draft_vocab_size is {reduced} (of {vocab}) but its weights "
            f"({files}) have no d2t tensor: SGLang then uses draft ids 0..{reduced - 1} as "
            "target token ids and acceptance collapses, with no error"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            "re-export the drafter with its d2t map (SpecForge's export writes it)",
        )

"""DRF008 draft-vocab-differs: the drafter's vocabulary against the target's."""

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
    gates = ("drafter",)
    name = "draft-vocab-differs"
    severity = Severity.WARNING
    summary = "The drafter's vocabulary size differs from the target's: made for another model?"
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b"
            " --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct",
            at="1:132",
            says="the drafter's vocab_size is 128256 but the target's is 151936",
            fixed=NO_FIX,
        ),
    )
    valid = (_LLAMA + "eagle3-llama-3.1-8b-instruct",)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = draft_launch(ctx)
        if launch is None or launch.kind.kind is None or launch.target is None:
            return
        draft_vocab, target_vocab = launch.draft.vocab_size, launch.target.vocab_size
        if not draft_vocab or not target_vocab or draft_vocab == target_vocab:
            return
        message = (
            f"the drafter's vocab_size is {draft_vocab} but the target's is {target_vocab}: "
            "the drafter was probably trained for another model's tokenizer, and its "
            "token ids will not mean the same thing"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            "use a drafter trained for this target",
        )

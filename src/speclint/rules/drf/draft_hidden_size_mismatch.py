"""DRF006 draft-hidden-size-mismatch: the drafter's hidden size against the target's."""

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
    gates = ("drafter:EAGLE3/EAGLE3",)
    name = "draft-hidden-size-mismatch"
    severity = Severity.ERROR
    summary = "The EAGLE-3 drafter's fc input width does not match the target's hidden size."
    invalid = (
        Example(
            _LLAMA + "eagle3-hidden-5120",
            at="1:171",
            says="the drafter's hidden_size is 5120 but the target's is 4096",
            fixed=NO_FIX,
        ),
        Example(
            _LLAMA + "eagle3-wrong-target-hidden",
            at="1:171",
            says="target_hidden_size is 5120 but the target's hidden_size is 4096",
            fixed=NO_FIX,
        ),
    )
    valid = (_LLAMA + "eagle3-hidden-5120-target-4096", _LLAMA + "eagle3-llama-3.1-8b-instruct")

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
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
            message = (
                f"the drafter's hidden_size is {draft_hidden} but the target's is "
                f"{target_hidden}, and the drafter has no target_hidden_size: its fc "
                f"expects aux states {draft_hidden} wide and gets {target_hidden}; the "
                "launch fails with a shape error"
            )
            hint = f'add "target_hidden_size": {target_hidden} to the drafter\'s config.json'
        elif declared != target_hidden:
            message = (
                f"the drafter's target_hidden_size is {declared} but the target's "
                f"hidden_size is {target_hidden}: its fc expects aux states {declared} "
                f"wide and gets {target_hidden}; the launch fails with a shape error "
                "(or the drafter was trained for another target)"
            )
            hint = f'set "target_hidden_size": {target_hidden}, or use the drafter made for this target'
        else:
            return
        yield self.report(ctx.path, ctx.span_of("speculative_draft_model_path"), message, hint)

"""DRF005 aux-layer-count: the number of aux layer ids against the drafter's fc width."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import eagle3_launch
from speclint.sglang import DRAFTER, first_release

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
    gates = ("drafter:EAGLE3/EAGLE3",)
    name = "aux-layer-count"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "The number of aux layer ids does not match the drafter's fc width for the release."
    invalid = (
        Example(
            _LLAMA + "eagle3-llama-two-ids",
            "0.5.6.post2",
            at="1:171",
            says="the drafter lists 2 aux layer ids [1, 28]",
            fixed=NO_FIX,
        ),
        Example(
            _LLAMA + "eagle3-llama-two-ids",
            "0.4.10.post2",
            at="1:171",
            says="the drafter lists 2 aux layer ids [1, 28]",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(_LLAMA + "eagle3-llama-two-ids", "0.5.23"),
        Example(_LLAMA + "eagle3-llama-3.1-8b-instruct", "0.5.6.post2"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = eagle3_launch(ctx)
        if launch is None:
            return
        # modules, not names: `from M import name` here asks M for a `__path__` on each call
        import speclint.sglang.checkpoints.drafter as drafter

        ids = drafter.aux_layer_ids(launch.draft)
        if not ids or not drafter.uses_aux_hidden_state(launch.draft):
            return
        release = ctx.release
        version = release.version
        expected = drafter.fc_aux_count(launch.draft, version)
        if expected == len(ids):
            return
        fixed = release.eagle3_aux_count_from_config is False
        why = (
            f"SGLang {version} sizes fc for exactly 3 aux states"
            if fixed
            else f"the drafter's num_aux_hidden_states says {expected}"
        )
        message = (
            f"the drafter lists {len(ids)} aux layer ids {ids}, so the target passes "
            f"{len(ids)} hidden states, but {why}: the launch fails with a shape error "
            "at the first forward or CUDA-graph capture"
        )
        newer = first_release(lambda r: r.eagle3_aux_count_from_config is True, after=release)
        hint = (
            (f"use exactly 3 ids, or SGLang {newer.version} or later" if newer else "use exactly 3 ids")
            if fixed
            else "make num_aux_hidden_states match the ids"
        )
        yield self.report(ctx.path, ctx.span_of("speculative_draft_model_path"), message, hint)

"""DRF004 aux-layer-ids-ignored: aux layer ids where SGLang does not read them."""

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
    gates = ("drafter:EAGLE3/EAGLE3",)
    name = "aux-layer-ids-ignored"
    severity = Severity.WARNING
    rests_on = (DRAFTER,)
    summary = "Aux layer ids at the top level of the drafter's config: SGLang uses its defaults."
    invalid = (
        Example(
            _LLAMA + "eagle3-llama-toplevel-ids",
            at="1:171",
            says="the drafter writes eagle_aux_hidden_state_layer_ids [2, 16, 29]",
            fixed=NO_FIX,
        ),
    )
    valid = (_LLAMA + "eagle3-llama-3.1-8b-instruct",)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = eagle3_launch(ctx)
        if launch is None:
            return
        # modules, not names: `from M import name` here asks M for a `__path__` on each call
        import speclint.sglang.checkpoints.aux_layers as aux_layers
        import speclint.sglang.checkpoints.drafter as drafter

        ids = drafter.top_level_ids(launch.draft)
        if ids is None or drafter.aux_layer_ids(launch.draft) is not None:
            return
        depth = launch.target.num_hidden_layers if launch.target is not None else None
        arch = ctx.target.architecture if ctx.target is not None else None
        version = ctx.version.version
        if depth:
            meant = aux_layers.aux_capture(version, arch, depth, ids)
            default = aux_layers.aux_capture(version, arch, depth, None)
            if meant is not None and default is not None and meant.layers == default.layers:
                return  # the ids are SGLang's default anyway
            uses = (
                f"its default: layers [2, {depth // 2}, {depth - 3}] captured, i.e. "
                f"[1, {depth // 2 - 1}, {depth - 4}] in the drafter's convention"
            )
        else:
            uses = "its default layers [2, L//2, L-3] (L: the target's depth)"
        message = (
            f"the drafter writes eagle_aux_hidden_state_layer_ids {ids} at the top level of "
            f"its config.json; SGLang reads them only from eagle_config, ignores these "
            f"and uses {uses}, silently"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            f'move them into config.json as "eagle_config": {{"eagle_aux_hidden_state_layer_ids": {ids}}}',
        )

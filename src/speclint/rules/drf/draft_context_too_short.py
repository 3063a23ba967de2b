"""DRF009 draft-context-too-short: the drafter is built with the target's context length."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import LONGER_CONTEXT_ENV as ENV
from speclint.rules.drafter import draft_launch, longer_context_allowed
from speclint.sglang import DRAFTER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_LAUNCH = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --speculative-algorithm EAGLE3 --max-running-requests 64"
    " --speculative-draft-model-path fixtures/models/eagle3-llama-2k-context"
)


class DraftContextTooShort(Rule):
    """## What it does
Finds drafters whose derived context length is shorter than the target's: the target's
`--context-length` when given, else the context SGLang derives from the target's config.

## Why it matters
The draft worker builds the drafter's ModelConfig with the target's context length
(`EAGLEWorker.__init__` sets `server_args.context_length` to the target's `context_len` in
0.4.10.post2 and 0.5.6.post2; `eagle_worker_v2.py` in 0.5.14; `draft_worker_common.py` /
`eagle_worker_v2.py` in 0.5.23). `ModelConfig._derive_context_length` derives the drafter's
own length with `get_context_length` (the first of max_sequence_length, seq_length,
max_seq_len, model_max_length, max_position_embeddings, times `rope_scaling.factor` unless
the scaling has `original_max_position_embeddings` or is llama3-type) and, when the
target's is longer, raises `ValueError: ... Target model's context_length (N) is greater
than the derived context_length (M) ...` (0.5.6.post2 and later). With
`SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1` it only warns and overrides the drafter's
max_position_embeddings (then this rule reports info). In 0.4.10.post2 the variable
defaults to true, so the override is the default there (info) unless it is set to false.
SpecForge drafters often say `max_position_embeddings: 2048`.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-2k-context
```

## Use instead
```bash
# or run with SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 (reported as info)
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 --context-length 2048 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-2k-context
```
"""

    code = "DRF009"
    gates = ("drafter",)
    name = "draft-context-too-short"
    severity = Severity.ERROR
    rests_on = (DRAFTER,)
    summary = "The drafter's context length is shorter than the target's: SGLang refuses to start."
    invalid = (
        Example(
            _LAUNCH,
            at="1:171",
            says="SGLang stops with `ValueError: ... Target model's context_length",
            fixed=NO_FIX,
        ),
        Example(
            "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 " + _LAUNCH,
            at="1:215",
            says="SGLang warns and overrides the drafter's max_position_embeddings",
            fixed=NO_FIX,
        ),
        Example(
            _LAUNCH,
            "0.4.10.post2",
            at="1:171",
            says="SGLang warns and overrides the drafter's max_position_embeddings",
            fixed=NO_FIX,
        ),
    )
    valid = (
        _LAUNCH + " --context-length 2048",
        "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
        " --speculative-algorithm EAGLE3 --max-running-requests 64"
        " --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = draft_launch(ctx)
        if launch is None:
            return
        draft = launch.draft.derived_context_length()
        if draft is None:
            return
        draft_len, draft_how = draft
        asked = ctx.config.value("context_length") if ctx.config.knows("context_length") else None
        if isinstance(asked, int) and not isinstance(asked, bool):
            target_len, target_how = asked, f"`{ctx.set_to('context_length', asked)}`"
        elif (
            asked is None
            and launch.target is not None
            and (derived := launch.target.derived_context_length()) is not None
        ):
            target_len, target_how = derived[0], f"derived from the target's {derived[1]}"
        else:
            return
        if target_len <= draft_len:
            return
        allowed = longer_context_allowed(ctx)
        if allowed is None:
            return  # the variable is set to something speclint cannot read
        base = (
            f"the drafter's derived context length is {draft_len} ({draft_how}) but the "
            f"target's is {target_len} ({target_how})"
        )
        notes = ctx.note("context_length", "the target's context length")
        drafter_len = ctx.set_to("context_length", draft_len)
        if allowed:
            message = (
                base + f": SGLang warns and overrides the drafter's max_position_embeddings "
                f"to {target_len} ({ENV} is on); positions past {draft_len} are ones the "
                "drafter was not trained on"
            )
            yield self.report(
                ctx.path,
                ctx.span_of("speculative_draft_model_path"),
                message,
                f"pass `{drafter_len}` to stay within what the drafter was trained on",
                notes,
                Severity.INFO,
            )
            return
        message = (
            base + ": SGLang stops with `ValueError: ... Target model's context_length "
            f"({target_len}) is greater than the derived context_length ({draft_len})` "
            "while loading the drafter"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            f"pass `{drafter_len}`, or set {ENV}=1 to override the drafter's limit",
            notes,
        )

"""DRF014 context-length-exceeds-model: --context-length longer than the model's own."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import LONGER_CONTEXT_ENV as ENV
from speclint.rules.drafter import longer_context_allowed
from speclint.rules.precedence import REJECTION
from speclint.sglang.resolve.hardware_flags import plain_int

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_LAUNCH = "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --context-length 65536"


class ContextLengthExceedsModel(Rule):
    """## What it does
    Finds `--context-length` values greater than the context length SGLang derives from the
    target's config.json (`get_context_length`: the first of max_sequence_length, seq_length,
    max_seq_len, model_max_length, max_position_embeddings, times `rope_scaling.factor` unless
    the scaling has `original_max_position_embeddings` or is llama3-type).

    ## Why it matters
    `ModelConfig._derive_context_length` raises `ValueError: ... User-specified context_length
    (N) is greater than the derived context_length (M) ...` while SGLang resolves the launch,
    unless `SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1` is set (an `env`/`VAR=` prefix or an
    `export` in the script counts); then it only warns, and positions past M are ones the
    model was not trained on (reported as info). In 0.4.10.post2 the variable defaults to true.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --context-length 65536
    ```

    ## Use instead
    ```bash
    # or SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 to run past it on purpose (info)
    python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --context-length 40960
    ```
    """

    code = "DRF014"
    name = "context-length-exceeds-model"
    severity = Severity.ERROR
    summary = "--context-length is longer than the model's derived context: SGLang refuses it."
    invalid = (
        Example(
            _LAUNCH,
            at="1:87",
            says="stops with `ValueError: ... User-specified context_length (65536)",
            fixed=NO_FIX,
        ),
        Example(
            "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 " + _LAUNCH,
            at="1:131",
            says="so SGLang only warns and runs with 65536",
            fixed=NO_FIX,
        ),
        # info there: the variable defaults to true
        Example(
            _LAUNCH, "0.4.10.post2", at="1:87", says="so SGLang only warns and runs with 65536", fixed=NO_FIX
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path fixtures/models/qwen3-8b --context-length 32768",
        "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=0 python -m sglang.launch_server"
        " --model-path fixtures/models/qwen3-8b",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        if not ctx.config.knows("context_length") or not ctx.config.known("context_length"):
            return
        asked = plain_int(ctx.config.value("context_length"))
        target = ctx.target.config if ctx.target is not None else None
        if asked is None or target is None:
            return
        derived = target.derived_context_length()
        if derived is None or asked <= derived[0]:
            return
        allowed = longer_context_allowed(ctx)
        if allowed is None:
            return  # the variable is set to something speclint cannot read
        limit, how = derived
        span, asked_text = ctx.span_of("context_length"), ctx.set_to("context_length", asked)
        limit_text = ctx.set_to("context_length", limit)
        if allowed:
            yield self.report(
                ctx.path,
                span,
                f"{asked_text} is greater than the "
                f"context length {limit} SGLang derives from the model ({how}); "
                f"{ENV} is on, so SGLang only warns and runs with {asked}: "
                "positions past it are ones the model was not trained on",
                f"use `{limit_text}` unless the model really supports more",
                severity=Severity.INFO,
            )
            return
        yield self.report(
            ctx.path,
            span,
            f"{asked_text} is greater than the context "
            f"length {limit} SGLang derives from the model ({how}): SGLang "
            f"{ctx.version.version} stops with `ValueError: ... User-specified "
            f"context_length ({asked}) is greater than the derived context_length "
            f"({limit})`",
            f"use `{limit_text}` (or less), or set {ENV}=1 to run past the model's limit on purpose",
            claims=(REJECTION,),
        )

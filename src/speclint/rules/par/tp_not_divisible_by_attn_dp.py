"""PAR002 tp-not-divisible-by-attn-dp: SGLang asserts tp_size % (attention-DP size) == 0."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.parallel import DATA_PARALLEL_HANDLERS
from speclint.sglang.resolve.result import MLA_PREFILL_CP

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class TpNotDivisibleByAttnDp(Rule):
    """## What it does
Finds launches whose `--tp-size` is not a multiple of the attention data-parallel size:
`--attn-dp-size` in SGLang 0.5.23 (including the `--dp-size N --enable-dp-attention`
spelling it rewrites to `--attn-dp-size N`), `--dp-size` with `--enable-dp-attention` in
0.5.14, 0.5.6.post2 and 0.4.10.post2.

## Why it matters
Attention-DP groups split the TP ranks, so SGLang stops in its data-parallelism handler
with a bare `assert` (`assert cfg.tp_size % cfg.attn_dp_size == 0` in 0.5.23's
`handle_data_parallelism`, `assert self.tp_size % self.dp_size == 0` in the older
releases): an `AssertionError` with no message, after the model config was read. A missing
`--tp-size` counts as 1.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 6 \\
  --attn-dp-size 4
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --attn-dp-size 4
```
"""

    code = "PAR002"
    gates = ("rejection",)
    name = "tp-not-divisible-by-attn-dp"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "--tp-size is not a multiple of the attention-DP size: SGLang's assert stops the launch."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 6 --attn-dp-size 4",
            "0.5.23",
            at="1:57",
            says="--tp-size 6 is not a multiple of the attention-DP size 4 (--attn-dp-size 4)",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 6 --dp-size 4 --enable-dp-attention",
            "0.5.23",
            at="1:57",
            says="the attention-DP size 4 (--dp-size 4 with --enable-dp-attention)",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 6 --dp-size 4 --enable-dp-attention",
            "0.5.6.post2",
            at="1:57",
            says="the attention-DP size 4 (--dp-size 4 with --enable-dp-attention)",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --dp-size 2 --enable-dp-attention",
            "0.4.10.post2",
            at="1:57",
            says="(the default: no --tp-size) is not a multiple of the attention-DP size 2",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --tp-size 8 --attn-dp-size 4", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --tp-size 6 --dp-size 4", "0.5.6.post2"),
        Example(
            "python -m sglang.launch_server --model-path dummy --tp-size 6 --dp-size 4 --enable-dp-attention",
            "0.5.14",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if (
            rejection is None
            or rejection.handler not in DATA_PARALLEL_HANDLERS
            or rejection.exception != "AssertionError"
            or "tp_size" not in rejection.fields
        ):
            return
        size_field = rejection.fields[1]
        if not all(ctx.known(f) for f in ("tp_size", size_field, "dp_size")):
            return
        effective = ctx.resolved.effective
        tp, size = effective["tp_size"], effective[size_field]
        if not (isinstance(tp, int) and isinstance(size, int)):
            return  # not reached: the assertion is only modelled on two known sizes
        version = ctx.version.version
        statement = (
            "assert cfg.tp_size % cfg.attn_dp_size == 0"
            if ctx.release.traits.separate_attn_dp_size
            else "assert self.tp_size % self.dp_size == 0"
        )
        source = (
            ctx.written("dp_size")
            if (size_field == "attn_dp_size" and not ctx.given("attn_dp_size"))
            else ctx.written(size_field)
        )
        origin = size_field if ctx.given(size_field) else "dp_size"
        tp_text = (
            ctx.written("tp_size", tp)
            if ctx.given("tp_size")
            else f"tp_size {tp} (the default: no {ctx.option('tp_size')})"
        )
        switch = f" with {ctx.set_to('enable_dp_attention', True)}"
        if any(
            a.cause == MLA_PREFILL_CP and a.field in (size_field, "enable_dp_attention")
            for a in ctx.resolved.adjustments
        ):
            switch = (
                f", made attention DP by {ctx.option('enable_prefill_cp')}'s MLA context "
                "parallelism (the DeepSeek model override)"
            )
        message = (
            f"{tp_text} is not a multiple of the attention-DP size {size} ({source}"
            f"{switch if origin == 'dp_size' else ''}): SGLang "
            f"{version} stops in {rejection.handler} on `{statement}` (AssertionError, "
            "no message)"
        )
        where = ctx.span_of("tp_size" if ctx.given("tp_size") else origin)
        notes = ctx.note(origin, "the attention-DP size is set here") if ctx.given("tp_size") else []
        multiple = size * max(1, -(-tp // size))
        yield self.report(
            ctx.path,
            where,
            message,
            f"use a {ctx.option('tp_size')} that is a multiple of {size} "
            f"(e.g. {multiple}), or an attention-DP size that divides {tp}",
            notes,
            claims=(REJECTION,),
        )

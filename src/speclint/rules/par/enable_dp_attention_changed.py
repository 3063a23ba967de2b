"""PAR003 enable-dp-attention-changed: SGLang rewrites, drops or refuses `--enable-dp-attention`."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.frontends.recognise import ROUTER_ENTRY
from speclint.rules.base import NO_FIX, Example, Placeholder, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.co_launch import HANDLER as CO_LAUNCH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_Verdict = tuple[str, str, Severity]
"""(message, fix hint, severity) of one way the flag is changed."""


def _deprecated(ctx: LaunchContext) -> str:
    return f"`{_switch(ctx)}` is deprecated in SGLang {ctx.release.version} (a warning at parse time)"


class EnableDpAttentionChanged(Rule):
    """## What it does
Reports `--enable-dp-attention` where SGLang does not take it as written:

- **0.5.23** deprecates it. `handle_deprecated_dp_attention` rewrites
  `--dp-size 8 --enable-dp-attention` to `--attn-dp-size 8 --dp-size 1`. With
  `--dp-size 1` that leaves attention DP off, and next to an `--attn-dp-size` above 1 the
  flag does nothing. argparse prints `'--enable-dp-attention' is deprecated and will be
  removed in a future release. Use '--attn-dp-size <dp-size>' instead.`
- **0.5.14 and 0.5.6.post2**: with `--dp-size 1` (the default), `_handle_data_parallelism`
  turns it off, and `--enable-dp-lm-head` with it, without a log line.
- **0.4.10.post2**: with `--dp-size 1`, `__post_init__` stops with `AssertionError: Please
  set a dp-size > 1. You can use 1 < dp-size <= tp-size` (reported as an error).

Which of these applies follows the release's resolution, as `speclint explain` shows it: a
release whose resolution was not read follows the closest older one that was, and the
refusal is then a warning that says "unverified for SGLang X".

This rule replaces the generic deprecated-flag (FLG008) finding for this flag, so that the
rewrite is shown once.

## Why it matters
The flag reads as "attention DP on", but what runs is decided by `--dp-size` (or
`--attn-dp-size`): a launch that forgot `--dp-size` runs plain tensor parallelism, with the
memory and throughput of that layout, and nothing says so.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --dp-size 8 --enable-dp-attention
```

```bash
# SGLang 0.5.6.post2
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --enable-dp-attention
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --attn-dp-size 8
```

```bash
# SGLang 0.5.6.post2
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --dp-size 8 --enable-dp-attention
```
"""

    code = "PAR003"
    gates = ("written:enable_dp_attention",)
    name = "enable-dp-attention-changed"
    severity = Severity.WARNING
    rests_on = (RESOLUTION,)
    summary = (
        "--enable-dp-attention is rewritten to --attn-dp-size, silently dropped with "
        "--dp-size 1, or refused, as the release's resolution does."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --dp-size 8 --enable-dp-attention",
            "0.5.23",
            at="1:71",
            says="`--dp-size 8 --enable-dp-attention` to `--attn-dp-size 8 --dp-size 1`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --enable-dp-attention",
            "0.5.23",
            at="1:59",
            says="to `--attn-dp-size 1 --dp-size 1`, so attention DP stays off",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --attn-dp-size 8"
            " --enable-dp-attention",
            "0.5.23",
            at="1:76",
            says="next to `--attn-dp-size 8` it does nothing",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --enable-dp-attention",
            "0.5.6.post2",
            at="1:59",
            says="is turned off by SGLang 0.5.6.post2's _handle_data_parallelism",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --enable-dp-attention",
            "0.4.10.post2",
            at="1:59",
            says="SGLang 0.4.10.post2 stops in __post_init__ with AssertionError",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --tp-size 8 --attn-dp-size 8", "0.5.23"),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --dp-size 8 --enable-dp-attention",
            "0.5.14",
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --enable-dp-attention $EXTRA_ARGS",
            "0.5.6.post2",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        setting = ctx.setting("enable_dp_attention")
        use = setting.use if setting is not None else None  # given: the flag that sets it
        if setting is None or use is None or setting.dynamic or ctx.resolution is None:
            return
        # which resolution step handles the flag: the release's traits (as `explain` shows)
        traits = ctx.release.traits
        rewrites = traits.separate_attn_dp_size
        sizes = ("dp_size", "attn_dp_size") if rewrites else ("dp_size",)
        if not all(ctx.known(field) for field in sizes):
            if rewrites:  # still deprecated (FLG008 defers to this rule)
                n = Placeholder("N")
                asked = ctx.join(ctx.set_to("dp_size", n), _switch(ctx))
                yield self.report(
                    ctx.path,
                    use.span,
                    _deprecated(ctx) + f": SGLang rewrites `{asked}` to `{_rewrite(ctx, n)}`",
                    f"write {ctx.set_to('attn_dp_size', n)} instead of {asked}",
                )
            return
        where = use.span
        found = (
            self._rewritten
            if rewrites
            else self._refused
            if traits.parallel_steps == "post_init"
            else self._dropped
        )
        result = found(ctx)
        if result is not None:
            message, fix, severity = result
            claims = (REJECTION,) if severity == Severity.ERROR else ()  # the refusal
            yield self.report(
                ctx.path,
                where,
                message,
                fix,
                ctx.note("dp_size", f"{ctx.option('dp_size')} is set here"),
                severity,
                claims=claims,
            )

    @staticmethod
    def _rewritten(ctx: LaunchContext) -> _Verdict:
        change = ctx.resolved.adjustment("attn_dp_size")
        effective = ctx.resolved.effective
        asked_attn = ctx.config.value("attn_dp_size")
        dp_written = ctx.written("dp_size", 1)
        head = _deprecated(ctx)
        if asked_attn != 1:
            return (
                f"{head}, and next to `{ctx.written('attn_dp_size')}` it does nothing: "
                f"attn_dp_size stays {effective['attn_dp_size']}",
                f"remove {_switch(ctx)}",
                Severity.WARNING,
            )
        asked = ctx.join(dp_written, _switch(ctx))
        workers = ctx.resolved.adjustment("dp_size")
        if change is None and workers is not None and workers.handler == CO_LAUNCH:
            return (  # sglang-router's co-launcher: each worker resolves with dp_size 1
                f"{head}: `{ROUTER_ENTRY}` starts {workers.asked} workers and gives each "
                f"dp_size 1 before SGLang resolves it, so each worker rewrites "
                f"`{ctx.join(ctx.set_to('dp_size', 1), _switch(ctx))}` to `{_rewrite(ctx, 1)}` "
                "and attention DP stays off (attn_dp_size = 1)",
                f"give each worker's attention-DP width as {ctx.set_to('attn_dp_size', Placeholder('N'))}"
                f" (--dp-size counts the workers), or drop {_switch(ctx)}",
                Severity.WARNING,
            )
        if change is None:  # --dp-size 1: attn_dp_size stays 1
            return (
                f"{head}: it rewrites `{asked}` to `{_rewrite(ctx, 1)}`, so attention DP "
                "stays off (attn_dp_size = 1)",
                f"give the attention-DP width as {ctx.set_to('attn_dp_size', Placeholder('N'))}"
                f", or drop {_switch(ctx)}",
                Severity.WARNING,
            )
        size = effective["attn_dp_size"]
        return (
            f"{head}: SGLang rewrites `{asked}` to `{_rewrite(ctx, size)}` "
            f"(attn_dp_size = {size}, dp_size = 1)",
            f"write `{ctx.set_to('attn_dp_size', size)}` and drop `{dp_written}` and `{_switch(ctx)}`",
            Severity.WARNING,
        )

    @staticmethod
    def _dropped(ctx: LaunchContext) -> _Verdict | None:
        change = ctx.resolved.adjustment("enable_dp_attention")
        if change is None or change.effective is not False:
            return None
        dp_written = ctx.written("dp_size", 1)
        return (
            f"`{_switch(ctx)}` with `{dp_written}` is turned off by SGLang "
            f"{ctx.release.version}'s _handle_data_parallelism without a log line: "
            "enable_dp_attention = False, the launch runs plain tensor parallelism",
            f"set {ctx.option('dp_size')} to the number of attention-DP groups (a divisor "
            f"of {ctx.option('tp_size')}), or drop {_switch(ctx)}",
            Severity.WARNING,
        )

    @staticmethod
    def _refused(ctx: LaunchContext) -> _Verdict | None:
        rejection = ctx.resolved.rejection
        if rejection is None or "enable_dp_attention" not in rejection.fields:
            return None
        dp_written = ctx.written("dp_size", 1)
        return (
            f"`{_switch(ctx)}` with `{dp_written}`: SGLang {ctx.release.version} stops in "
            f"__post_init__ with {rejection.exception}: {rejection.message.strip()}",
            f"set {ctx.option('dp_size')} to the number of attention-DP groups (1 < dp-size "
            f"<= tp-size), or drop {_switch(ctx)}",
            Severity.ERROR,
        )


def _switch(ctx: LaunchContext) -> str:
    return ctx.set_to("enable_dp_attention", True)


def _rewrite(ctx: LaunchContext, size: object) -> str:
    """What SGLang rewrites the deprecated pair to: `--attn-dp-size N --dp-size 1`."""
    return ctx.join(ctx.set_to("attn_dp_size", size), ctx.set_to("dp_size", 1))

"""VER001 flag-removed: a flag an earlier SGLang release accepted, gone from the checked one."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.rules.drift import drift_edit, drift_of, names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.rules.drift import Drift
    from speclint.sglang.flags.argv import ArgProblem


class FlagRemoved(Rule):
    """## What it does
Finds flags (and `sgl.Engine(...)` / `ServerArgs(...)` keywords) that an earlier SGLang
release accepted but the checked release rejects, and says which release last accepted
them and what replaces them: the flag SGLang renamed it to, the flags it was split into,
or that it was removed. When SGLang's own deprecation path stored the old flag's value
into exactly one new flag, the finding carries that rewrite as a fix.

## Why it matters
Launch scripts outlive the release they were written for. After an upgrade argparse
stops at the first retired flag with `unrecognized arguments` (a keyword launch with a
`TypeError`), one flag per attempt; speclint names them all at once, with the
replacement.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --stream-output \
  --disable-piecewise-cuda-graph
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --incremental-streaming-output \
  --cuda-graph-backend-prefill disabled
```
"""

    code = "VER001"
    gates = ("problem:unknown-option",)
    stage = "parse"
    name = "flag-removed"
    severity = Severity.ERROR
    summary = "A flag an earlier SGLang release accepted, removed or renamed in the checked one."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --stream-output",
            "0.5.23",
            at="1:47",
            says="`--stream-output` was last accepted by SGLang 0.5.19",
            fixed=("python -m sglang.launch_server --model-path m --incremental-streaming-output"),
        ),
        Example(
            "python -m sglang.launch_server --model-path m --enable-ep-moe",
            "0.5.23",
            at="1:47",
            says="`--enable-ep-moe` was last accepted by SGLang 0.5.4",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --stream-output", "0.5.19"),
        Example("python -m sglang.launch_server --model-path m --speculative-adaptive", "0.5.6.post2"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        target = ctx.version.version
        keyword = ctx.launch.kwargs_style
        for problem in ctx.parsed.problems:
            if problem.kind != "unknown-option":
                continue
            drift = drift_of(problem, ctx)
            if drift is None or drift.kind != "removed":
                continue
            yield self._finding(ctx, problem, drift, target, keyword)

    def _finding(
        self, ctx: LaunchContext, problem: ArgProblem, drift: Drift, target: str, keyword: bool
    ) -> Finding:
        removal = drift.removal
        if keyword:
            what = (
                f"`{drift.written}` is not a ServerArgs field in SGLang {target} (it was "
                f"the field of `{drift.meant}` up to {drift.last}): the launch fails with "
                "TypeError: unexpected keyword argument"
            )
        else:
            what = (
                f"`{drift.written}` was last accepted by SGLang {drift.last}; {target} stops "
                "the launch with 'unrecognized arguments'"
            )
        if removal is not None:
            how = removal.describe()
            if removal.deprecated_since and removal.kind != "split":
                how += f" (deprecated since {removal.deprecated_since})"
            what += f": it {how}"
        if drift.replacements and keyword:
            what += "; write " + names(drift.replacements)
        elif removal is not None and removal.kind == "split":
            what += "; write the one you mean (or both)"
        if removal is not None and removal.note and not drift.certain:
            what += f". SGLang's note: {removal.note.rstrip('.')}"
        if drift.replacements:
            hint = "write " + names(drift.replacements) + " instead"
        else:
            hint = f"remove it, or run SGLang {drift.last}"
        fix = drift_edit(drift, problem, keyword)
        use = problem.use
        return self.report(
            ctx.path, problem.span, what, hint, word_notes(use.word) if use is not None else (), fix=fix
        )

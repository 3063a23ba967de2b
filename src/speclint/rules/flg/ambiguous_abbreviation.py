"""FLG002 ambiguous-abbreviation: a prefix that matches several flags; argparse refuses it."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.rules.drift import drift_edit, drift_of, names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class AmbiguousAbbreviation(Rule):
    """## What it does
Finds abbreviated flags that match more than one SGLang flag of the checked release.

## Why it matters
argparse accepts any unique prefix of a flag. When SGLang adds a flag with the same
prefix, the abbreviation becomes ambiguous and argparse stops the launch with
`ambiguous option: ... could match ...`. Scripts that worked for years break this way:
when the word meant one flag in an earlier release, the finding says which flag, up to
which release, and what to write now (from the flag history); when that is one flag
(SGLang's own deprecated alias stored into it, or the abbreviation just needs spelling
out) it carries the rewrite as a fix. `--cuda-graph-max-bs` was a flag up to 0.5.19 (from
0.5.14 a deprecated alias of `--cuda-graph-max-bs-decode`, after the split into
`--cuda-graph-max-bs-decode` and `--cuda-graph-max-bs-prefill`); `--speculative-draft`
abbreviated `--speculative-draft-model-path` up to 0.5.1.post3.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --cuda-graph-max-bs 8 \
  --speculative-algorithm EAGLE --speculative-draft /models/llama-eagle
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --cuda-graph-max-bs-decode 8 \
  --speculative-algorithm EAGLE --speculative-draft-model-path /models/llama-eagle
```
"""

    code = "FLG002"
    gates = ("problem:ambiguous-option",)
    stage = "parse"
    name = "ambiguous-abbreviation"
    severity = Severity.ERROR
    summary = "An abbreviated flag that matches several SGLang flags: argparse stops the launch."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8",
            "0.5.23",
            at="1:47",
            says="`--cuda-graph-max-bs` is ambiguous in SGLang 0.5.23",
            fixed="python -m sglang.launch_server --model-path m --cuda-graph-max-bs-decode 8",
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-draft d",
            "0.5.23",
            at="1:47",
            says="`--speculative-draft` is ambiguous in SGLang 0.5.23",
            fixed=("python -m sglang.launch_server --model-path m --speculative-draft-model-path d"),
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-num 4",
            "0.5.23",
            at="1:47",
            says="`--speculative-num` is ambiguous in SGLang 0.5.23",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --cuda-graph-max-bs-decode 8", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8", "0.5.6.post2"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != "ambiguous-option" or use is None:  # an ambiguous flag's use
                continue
            matches = use.candidates
            shown = ", ".join(f"`{m}`" for m in matches[:6]) + (
                f" and {len(matches) - 6} more" if len(matches) > 6 else ""
            )
            message = (
                f"`{problem.text}` is ambiguous in SGLang {ctx.version.version}: it could "
                f"match {shown}; argparse stops the launch with 'ambiguous option'"
            )
            hint = "write the full flag name you mean: " + ", ".join(matches[:3])
            drift = drift_of(problem, ctx)  # what it meant in an earlier release
            fix = None
            if drift is not None:
                message += (
                    f". SGLang accepted it up to {drift.last}"
                    if drift.meant == drift.written
                    else f". It meant `{drift.meant}` up to SGLang {drift.last}"
                )
                if drift.removal is not None:
                    message += f"; it {drift.removal.describe()}"
                if drift.replacements:
                    message += "; write " + names(drift.replacements)
                    hint = "write " + names(drift.replacements)
                fix = drift_edit(drift, problem, ctx.launch.kwargs_style)
            yield self.report(ctx.path, problem.span, message, hint, word_notes(use.word), fix=fix)

"""FLG002 ambiguous-abbreviation: a prefix that matches several flags; argparse refuses it."""

from __future__ import annotations

from speclint.rules.base import Example, LaunchContext, Rule, Severity, word_notes


class AmbiguousAbbreviation(Rule):
    """## What it does
Finds abbreviated flags that match more than one SGLang flag of the checked release.

## Why it matters
argparse accepts any unique prefix of a flag. When SGLang adds a flag with the same
prefix, the abbreviation becomes ambiguous and argparse stops the launch with
`ambiguous option: ... could match ...`. This is how `--cuda-graph-max-bs` broke in
0.5.23 when it was split into `--cuda-graph-max-bs-decode` and `--cuda-graph-max-bs-prefill`.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --cuda-graph-max-bs 8
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/llama --cuda-graph-max-bs-decode 8
```
"""

    code = "FLG002"
    name = "ambiguous-abbreviation"
    severity = Severity.ERROR
    summary = "An abbreviated flag that matches several SGLang flags: argparse stops the launch."
    invalid = (
        Example("python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --speculative-draft d", "0.5.23"),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --cuda-graph-max-bs-decode 8", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --cuda-graph-max-bs 8", "0.5.6.post2"),
    )

    def check(self, ctx: LaunchContext):
        for problem in ctx.parsed.problems:
            if problem.kind != "ambiguous-option":
                continue
            matches = problem.use.candidates
            shown = ", ".join(f"`{m}`" for m in matches[:6]) + (
                f" and {len(matches) - 6} more" if len(matches) > 6 else "")
            message = (f"`{problem.text}` is ambiguous in SGLang {ctx.version.version}: it could "
                       f"match {shown}; argparse stops the launch with 'ambiguous option'")
            yield self.report(ctx.path, problem.span, message,
                              "write the full flag name you mean: " + ", ".join(matches[:3]),
                              word_notes(problem.use.word))

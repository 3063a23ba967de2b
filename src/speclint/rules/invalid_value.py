"""FLG005 invalid-flag-value and FLG006 invalid-choice: values argparse refuses."""

from __future__ import annotations

from speclint.rules.base import Example, LaunchContext, Rule, Severity, word_notes


class InvalidValue(Rule):
    """## What it does
Finds values that argparse cannot convert to the flag's type: an integer flag given
`eight`, a float written with a comma.

## Why it matters
argparse stops the launch with `invalid int value` (or float, or JSON).

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --mem-fraction-static 0,8
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --mem-fraction-static 0.8
```
"""

    code = "FLG005"
    stage = "parse"
    name = "invalid-flag-value"
    severity = Severity.ERROR
    summary = "A value argparse cannot convert to the flag's type (an int flag given `8x`)."
    invalid = (
        "python -m sglang.launch_server --model-path m --tp-size eight",
        "python -m sglang.launch_server --model-path m --mem-fraction-static 0,8",
    )
    valid = ("python -m sglang.launch_server --model-path m --tp-size 8 --mem-fraction-static 0.8",)
    problem_kind = "invalid-type"

    def check(self, ctx: LaunchContext):
        for problem in ctx.parsed.problems:
            if problem.kind != self.problem_kind:
                continue
            use = problem.use
            message = (f"`{problem.text}` is not a valid value for `{use.matched}`: argparse stops "
                       f"the launch with 'argument {use.matched}: {problem.detail}'")
            yield self.report(ctx.path, problem.span, message, self.hint(use),
                              word_notes(use.value_words[0] if use.value_words else use.word))

    def hint(self, use) -> str:
        return f"`{use.matched}` takes a value of type {use.spec.type}"


class InvalidChoice(InvalidValue):
    """## What it does
Finds values outside a flag's choices for the checked release, including case: SGLang
0.5.6.post2 and older accept only upper-case `--speculative-algorithm` names.

## Why it matters
argparse stops the launch with `invalid choice`.

## Example
```bash
# SGLang 0.5.6.post2
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm eagle3 \\
  --speculative-draft-model-path /models/llama-eagle3
```

## Use instead
```bash
# SGLang 0.5.6.post2
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3
```
"""
    code = "FLG006"
    name = "invalid-choice"
    severity = Severity.ERROR
    summary = "A value outside the flag's choices: argparse stops the launch."
    invalid = (
        Example("python -m sglang.launch_server --model-path m --speculative-algorithm eagle3"
                " --speculative-draft-model-path d", "0.5.6.post2"),
        "python -m sglang.launch_server --model-path m --load-format safetensor",
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
                " --speculative-draft-model-path d", "0.5.6.post2"),
        "python -m sglang.launch_server --model-path m --load-format safetensors",
    )
    problem_kind = "invalid-choice"

    def hint(self, use) -> str:
        shown = [str(c) for c in use.spec.choices]
        choices = ", ".join(shown[:12]) + (f", … ({len(shown) - 12} more)" if len(shown) > 12
                                           else "")
        written = use.value_words[0].text if len(use.value_words) == 1 else None
        import difflib

        lowered = {choice.lower(): choice for choice in shown}
        close = difflib.get_close_matches(written.lower(), list(lowered), n=1, cutoff=0.6) \
            if written else []
        if close:
            return f"did you mean `{lowered[close[0]]}`? (choices: {choices})"
        return f"use one of: {choices}"

"""FLG006 invalid-choice: values outside a flag's choices."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example
from speclint.rules.flg.invalid_flag_value import InvalidValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.flags.argv import FlagUse
    from speclint.sglang.flags.schema import FlagSpec


class InvalidChoice(InvalidValue):
    """## What it does
Finds values outside a flag's choices for the checked release, including case: SGLang
0.5.6.post2 and older accept only upper-case `--speculative-algorithm` names.

A choice the release adds only under an environment variable (0.5.19+:
`--sampling-backend token_oracle` with `SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE` true) is
valid where the launch's environment sets that variable true.

In a keyword launch (`sgl.Engine(attention_backend="flashinfers")`, `ServerArgs(...)`) no
argparse runs: a value outside the command line's choices is a warning at the keyword's
value, as nothing refuses it where the settings are made and what SGLang does with it later
is not read.

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
    gates = ("problem:invalid-choice",)
    name = "invalid-choice"
    severity = Severity.ERROR
    summary = "A value outside the flag's choices: argparse stops the launch."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm eagle3"
            " --speculative-draft-model-path d",
            "0.5.6.post2",
            at="1:71",
            says="`eagle3` is not a valid value for `--speculative-algorithm`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --load-format safetensor",
            at="1:61",
            says="`safetensor` is not a valid value for `--load-format`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --sampling-backend token_oracle",
            "0.5.23",
            at="1:66",
            says="`token_oracle` is not a valid value for `--sampling-backend`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE=1 python -m sglang.launch_server --model-path m"
            " --sampling-backend token_oracle",
            "0.5.23",
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
            " --speculative-draft-model-path d",
            "0.5.6.post2",
        ),
        "python -m sglang.launch_server --model-path m --load-format safetensors",
    )
    problem_kind = "invalid-choice"

    def keyword_hint(self, use: FlagUse, spec: FlagSpec) -> str:
        import ast

        written = use.value_words[0].text if len(use.value_words) == 1 else None
        value = ast.literal_eval(written) if written is not None else None  # (a literal: it was read)
        return self.hint(use, spec, value if isinstance(value, str) else None)

    def hint(self, use: FlagUse, spec: FlagSpec, given: str | None = None, version: str = "") -> str:
        shown = [str(c) for c in spec.choices or ()]  # an invalid choice: the flag has choices
        choices = ", ".join(shown[:12]) + (f", … ({len(shown) - 12} more)" if len(shown) > 12 else "")
        written = given or (use.value_words[0].text if len(use.value_words) == 1 else None)
        if spec.env_choices and written is not None:
            from speclint.sglang.flags.env_choices import condition

            found = condition(spec, written)
            if found is not None:  # (refused: the variable is not true in the launch's environment)
                return (
                    f"this release adds `{written}` to the choices only when {found[0]} is true in the "
                    f"server's environment (default {str(found[1]).lower()}): set {found[0]}=1 for "
                    f"the launch, or use one of: {choices}"
                )
        import difflib

        lowered = {choice.lower(): choice for choice in shown}
        close = difflib.get_close_matches(written.lower(), list(lowered), n=1, cutoff=0.6) if written else []
        if close:
            return f"did you mean `{lowered[close[0]]}`? (choices: {choices})"
        return f"use one of: {choices}"

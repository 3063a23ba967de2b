"""FLG014 deprecated-choice: a flag value the chosen SGLang release still accepts but calls
deprecated, replacing it at start-up (`--tool-call-parser qwen25`)."""

from __future__ import annotations

from speclint.core.edits import Edit
from speclint.core.findings import Severity
from speclint.rules.base import Example, Rule, literal_word, word_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class DeprecatedChoice(Rule):
    """## What it does
    Finds flag values that the checked SGLang release accepts but calls deprecated, and names
    the value SGLang's own warning gives instead (read from each release's source:
    `--tool-call-parser qwen25` and `glm45` from 0.5.3.post1, `--attention-backend compressed`
    from 0.5.19, `tokenspeed_mla` in 0.5.23).

    ## Why it matters
    SGLang logs a deprecation warning at start-up and runs with another value than the one
    written; a later release may drop the old name, and the launch then stops with `invalid
    choice`.

    ## Example
    ```bash
    # SGLang 0.5.23
    python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --tool-call-parser qwen25
    ```

    ## Use instead
    ```bash
    # SGLang 0.5.23
    python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --tool-call-parser qwen
    ```
    """

    code = "FLG014"
    gates = (
        "given:attention_backend",
        "given:decode_attention_backend",
        "given:prefill_attention_backend",
        "given:speculative_draft_attention_backend",
        "given:tool_call_parser",
    )
    stage = "parse"
    name = "deprecated-choice"
    severity = Severity.WARNING
    summary = "A deprecated flag value: SGLang warns at start-up and uses the value it names instead."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tool-call-parser qwen25",
            "0.5.23",
            at="1:66",
            says="`--tool-call-parser qwen25` is deprecated in SGLang 0.5.23",
            fixed="python -m sglang.launch_server --model-path m --tool-call-parser qwen",
        ),
        Example(
            "python -m sglang.launch_server --model-path m --attention-backend=compressed",
            "0.5.19",
            at="1:67",
            says="SGLang's warning names `dsv4` instead",
            fixed="python -m sglang.launch_server --model-path m --attention-backend=dsv4",
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --tool-call-parser qwen", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --tool-call-parser qwen25", "0.5.3"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        from speclint.sglang.deprecated_choices import deprecated_choices

        version = ctx.version.version
        for field, replaced in (deprecated_choices(version) or {}).items():
            setting = ctx.setting(field)
            use = setting.use if setting is not None and not setting.dynamic else None
            if use is None or use.spec is None or not isinstance(use.value, str):
                continue
            new = replaced.get(use.value)
            if new is None or (use.spec.choices and use.value not in use.spec.choices):
                continue  # (not a choice at all: invalid-choice says so)
            flag = use.matched or use.written
            word = use.value_words[0] if len(use.value_words) == 1 else None
            span = use.value_span or use.span
            fix = (
                Edit(span, new, f"write `{new}`", use.value)
                if literal_word(word) and use.value_span is not None
                else None
            )
            yield self.report(
                ctx.path,
                span,
                f"`{flag} {use.value}` is deprecated in SGLang {version}: it logs a warning at "
                f"start-up and SGLang's warning names `{new}` instead",
                f"write `{flag} {new}`",
                word_notes(word) if word is not None else (),
                fix=fix,
            )

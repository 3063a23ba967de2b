"""SLM003 unused-suppression: a `# speclint: disable=` comment that suppresses nothing."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import FileContext


class UnusedSuppression(Rule):
    """## What it does
    Finds `# speclint: disable=...` comments that suppress nothing: the finding they were
    written for is gone, or the code or name is misspelt.

    ## Why it matters
    A stale suppression hides the next real finding of that rule on the same command. ruff
    reports these as RUF100 for the same reason.

    ## Example
    ```bash
    # speclint: disable=SPD001
    python -m sglang.launch_server --model-path /models/llama --tp-size 2
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size 2
    ```
    """

    code = "SLM003"
    name = "unused-suppression"
    severity = Severity.WARNING
    summary = "A `# speclint: disable=` comment that suppresses nothing."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 2  # speclint: disable=FLG003\n",
            at="1:60",
            says="this suppression of `FLG003` suppresses nothing",
            fixed=NO_FIX,
        ),
        Example(
            "# speclint: disable=no-such-rule\npython -m sglang.launch_server --model-path m\n",
            at="1:1",
            says="`no-such-rule` in this suppression is not a speclint rule",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --tp 2  # speclint: disable=FLG003\n",
        "# speclint: disable=abbreviated-flag\npython -m sglang.launch_server --model-path m \\\n  --tp 2\n",
    )

    def check_suppressions(self, ctx: FileContext) -> Iterator[Finding]:
        known = {key for rule in ctx.enabled_rules for key in (rule.code.lower(), rule.name)}
        for suppression in ctx.suppressions:
            for key in suppression.keys:
                if key in suppression.used:
                    continue
                if key.lower() != "all" and key.lower() not in known:
                    from speclint.rules import rule_by_key

                    if rule_by_key(key) is not None:
                        continue  # the rule exists but is not selected in this run
                    message = f"`{key}` in this suppression is not a speclint rule code or name"
                else:
                    message = f"this suppression of `{key}` suppresses nothing"
                yield self.report(ctx.path, suppression.span, message, "remove it (or fix the rule code)")

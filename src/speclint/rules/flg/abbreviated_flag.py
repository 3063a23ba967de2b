"""FLG003 abbreviated-flag: a unique prefix argparse silently expands today."""

from __future__ import annotations

from speclint.core.findings import Edit, Severity
from speclint.rules.base import Example, Rule, literal_word, word_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class AbbreviatedFlag(Rule):
    """## What it does
    Finds flags written as a unique prefix of the real flag (`--speculative-algo` for
    `--speculative-algorithm`, `--tp` for `--tp-size`).

    ## Why it matters
    argparse expands unique prefixes silently, so the launch works today. The next SGLang
    release that adds a flag with the same prefix turns it into an `ambiguous option` error,
    found only when the new image is deployed. Spelling the flag out costs nothing.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp 2
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size 2
    ```
    """

    code = "FLG003"
    opt_in = True
    stage = "parse"
    name = "abbreviated-flag"
    severity = Severity.INFO
    summary = (
        "An abbreviated flag: argparse expands a unique prefix today, and rejects it "
        "once SGLang adds another flag with that prefix."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algo EAGLE3"
            " --speculative-draft-model-path d",
            at="1:47",
            says="`--speculative-algo` abbreviates `--speculative-algorithm`",
            fixed=(
                "python -m sglang.launch_server --model-path m --speculative-algorithm "
                "EAGLE3 --speculative-draft-model-path d"
            ),
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path d",
        "python -m sglang.launch_server --model m --tp-size 2",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for use in ctx.parsed.uses:
            if use.how != "prefix" or use.matched is None:  # a prefix matched one flag
                continue
            message = (
                f"`{use.written}` abbreviates `{use.matched}`: SGLang {ctx.version.version} "
                "accepts it, but any new flag starting with the same text makes it an "
                "'ambiguous option' error (as `--cuda-graph-max-bs` became)"
            )
            fix = (
                Edit(use.span, use.matched, f"spell out `{use.matched}`", use.written, safe=True)
                if literal_word(use.word)
                else None
            )
            yield self.report(
                ctx.path, use.span, message, f"write `{use.matched}`", word_notes(use.word), fix=fix
            )

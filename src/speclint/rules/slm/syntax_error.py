"""SLM001 syntax-error: the front-end could not read part of the file."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import FileContext


class SyntaxError_(Rule):
    """## What it does
    Reports files, or parts of files, that speclint cannot parse (a shell syntax error, an
    unterminated quote or `$(`), and files too large to lint. Valid bash that speclint's shell
    parser (tree-sitter-bash) cannot read, a `$NAME` as the offset of `${x:offset}`, is a
    warning that says so, never "bash would refuse"; so is a Helm template that is not YAML
    even with its template actions set aside (Helm renders it first). So is text that looks
    like shell but is not run by one: SGLang's `launch_server_cmd("...")` splits its text on
    whitespace, so a `$MODEL`, quotes or `#` there reach SGLang as those characters. So is a
    launch after a `pip install sglang==X` that only some paths run, where speclint cannot
    check it once per path: the release it runs is not known.

    ## Why it matters
    A launch inside the broken part is not checked, so a clean result would be a false
    promise. Bash would also refuse or misread the script.
    A variable as that offset (`${GPUS:$i:4}`) is not reported: speclint reads it as
    `${GPUS: i:4}`, the same arithmetic, which its parser reads; only a special or
    positional parameter there (`${@:$#}`, `${x:$1}`) is.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size "2
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size "2"
    ```
    """

    code = "SLM001"
    gates = (
        "diagnostic:syntax-error",
        "diagnostic:unsupported-input",
        "diagnostic:file-too-large",
        "diagnostic:doc-syntax-error",
        "diagnostic:parser-gap",
        "diagnostic:template-gap",
        "diagnostic:split-not-shell",
        "diagnostic:release-uncertain",
    )
    name = "syntax-error"
    severity = Severity.ERROR
    summary = "The file does not parse; launches in the broken part are not checked."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 2 $(\n",
            at="1:59",
            says="syntax error: `$(` is never closed",
            fixed=NO_FIX,
        ),
    )
    valid = ("python -m sglang.launch_server --model-path m --tp-size 2\n",)
    kinds = (
        "syntax-error",
        "unsupported-input",
        "file-too-large",
        "doc-syntax-error",
        "parser-gap",
        "template-gap",
        "split-not-shell",
        "release-uncertain",
    )

    def check_file(self, ctx: FileContext) -> Iterator[Finding]:
        for diagnostic in ctx.diagnostics:
            if diagnostic.kind in self.kinds:
                # a code block in documentation is often an excerpt: a warning, not an error
                # (speclint's own parser failing on valid bash: a warning too)
                severity = Severity.WARNING if diagnostic.kind in _WARNINGS else None
                yield self.report(
                    ctx.path,
                    diagnostic.span,
                    diagnostic.message,
                    _HELP.get(diagnostic.kind, _HELP["syntax-error"]),
                    severity=severity,
                )


_WARNINGS = ("doc-syntax-error", "parser-gap", "template-gap", "split-not-shell", "release-uncertain")

_HELP = {
    "syntax-error": "fix the syntax; speclint checks what it can parse",
    "doc-syntax-error": "fix the code block, or tag it `text` if it is not meant to run; "
    "speclint checks what it can parse",
    "parser-gap": "write the offset in braces (`${@:${#}}`) so that speclint reads the rest",
    "split-not-shell": "SGLang starts the text's words as written: put values in with f-string fields "
    '(`f"... --model-path {model}"`), leave out quotes and comments, and give the port as `port=`',
    "release-uncertain": "install one release on every path (the `pip install` before the branch), "
    "or say which with --sglang-version",
    "template-gap": "lint what Helm renders (`helm template CHART > rendered.yaml`) to check every launch",
    "file-too-large": "split the file, or keep generated data out of launch scripts "
    "(speclint reads files up to 1 MiB and 1000 launches per file)",
}

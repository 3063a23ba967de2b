"""SLM001 syntax-error: the front-end could not read part of the file."""

from __future__ import annotations

from speclint.rules.base import FileContext, Rule, Severity


class SyntaxError_(Rule):
    code = "SLM001"
    name = "syntax-error"
    severity = Severity.ERROR
    summary = "The file does not parse; launches in the broken part are not checked."
    invalid = ("python -m sglang.launch_server --model-path m --tp-size 2 $(\n",)
    valid = ("python -m sglang.launch_server --model-path m --tp-size 2\n",)
    kinds = ("syntax-error", "unsupported-input", "file-too-large")

    def check_file(self, ctx: FileContext):
        for diagnostic in ctx.diagnostics:
            if diagnostic.kind in self.kinds:
                yield self.report(ctx.path, diagnostic.span, diagnostic.message,
                                  "fix the syntax; speclint checks what it can parse")

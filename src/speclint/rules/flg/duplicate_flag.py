"""FLG007 duplicate-flag: one field set twice with different values; argparse keeps the last."""

from __future__ import annotations

from speclint.core.findings import Edit, Note, Severity
from speclint.core.spans import Span
from speclint.rules.base import Example, Rule, literal_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse

_REPEATABLE = ("append", "append_const", "count")


class DuplicateFlag(Rule):
    """## What it does
Finds a setting given twice with different values, through the same flag or an alias
(`--tp 4 ... --tensor-parallel-size 8`).

A value that a `--config` file sets and the command line sets again is reported as info
(SGLang puts the file's flags first on purpose, so that the command line wins). So is a
default written in a shell function's launch that the function's caller overrides through
`"$@"` (`serve() { python -m sglang.launch_server --port 30000 "$@"; }; serve --port
30001`), without a fix: the body is shared by its callers.

## Why it matters
argparse keeps the last value without a word. Long launch scripts assembled from
variables and arrays often set a flag in two places, and the one that wins is not the
one the reader sees first.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --tp-size 4 \
  --mem-fraction-static 0.8 --tp-size 8
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --tp-size 8 \
  --mem-fraction-static 0.8
```
"""

    code = "FLG007"
    gates = ("repeated-flag",)
    stage = "parse"
    name = "duplicate-flag"
    severity = Severity.WARNING
    summary = "The same setting given twice with different values: the last one wins silently."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 4 --mem-fraction-static 0.8 --tp-size 8",
            at="1:47",
            says="`--tp-size 4` is overridden by `--tp-size 8` on line 1",
            fixed=("python -m sglang.launch_server --model-path m --mem-fraction-static 0.8 --tp-size 8"),
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp 4 --tensor-parallel-size 8",
            at="1:47",
            says="`--tp 4` is overridden by `--tensor-parallel-size 8` on line 1",
            fixed="python -m sglang.launch_server --model-path m --tensor-parallel-size 8",
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --tp-size 8",
        "python -m sglang.launch_server --model-path m --tp-size 8 --tp-size 8",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        seen: dict[str, list[FlagUse]] = {}
        for use in ctx.parsed.uses:
            if use.spec is None or use.how in ("ambiguous", "unknown"):
                continue
            if use.spec.action in _REPEATABLE:
                continue
            seen.setdefault(use.spec.dest, []).append(use)
        for dest, uses in seen.items():
            if len(uses) < 2 or any(u.dynamic for u in uses):
                continue
            values = [self._shown(u) for u in uses]
            if len(set(values)) < 2:
                continue
            last = uses[-1]
            for earlier in uses[:-1]:
                if self._shown(earlier) == values[-1]:
                    continue
                if earlier.span.file is not None and last.span.file is None:
                    # a --config file's value replaced on the command line: how SGLang
                    # meant the two to combine (the command line wins)
                    yield self.report(
                        ctx.path,
                        earlier.span,
                        (
                            f"`{earlier.written} {self._shown(earlier)}` from the --config file is "
                            f"replaced by `{last.written} {values[-1]}` on the command line: SGLang "
                            f"runs with {dest} = {values[-1]}"
                        ),
                        "",
                        [Note(last.span, "the command line value wins")],
                        Severity.INFO,
                    )
                    continue
                launch = ctx.launch.span
                if not _within(last.span, launch) and _within(earlier.span, launch):
                    # a default in a function body, overridden by its caller's argument
                    # (`serve() { python -m ... --port 30000 "$@"; }; serve --port 30001`):
                    # how the script means them to combine; the body is shared, no fix
                    yield self.report(
                        ctx.path,
                        earlier.span,
                        (
                            f"`{earlier.written} {self._shown(earlier)}` is overridden by the caller's "
                            f"`{last.written} {values[-1]}` on line {last.span.line}: SGLang runs "
                            f"with {dest} = {values[-1]}"
                        ),
                        "",
                        [Note(last.span, "the caller's value wins")],
                        Severity.INFO,
                    )
                    continue
                message = (
                    f"`{earlier.written} {self._shown(earlier)}` is overridden by "
                    f"`{last.written} {values[-1]}` on line {last.span.line}: argparse "
                    f"keeps the last value, so SGLang runs with {dest} = {values[-1]}"
                )
                yield self.report(
                    ctx.path,
                    earlier.span,
                    message,
                    f"remove one of the two `{last.matched}` flags",
                    [Note(last.span, "this later value wins")],
                    fix=self._removal(earlier),
                )

    @staticmethod
    def _removal(use: FlagUse) -> Edit | None:
        """Delete the overridden `--flag value ` (with the one blank after it), when it is
        written literally on one line; the edit does not apply if no blank follows."""
        words = (use.word, *use.value_words)
        if not all(literal_word(w) for w in words) or use.word.span.line != words[-1].span.end_line:
            return None
        text = " ".join(w.text or "" for w in words)  # literal: every text is known
        first, last = use.word.span, words[-1].span
        if last.end_column - first.column != len(text):
            return None  # quoted or escaped: the written text differs from the words
        span = Span(first.line, first.column, last.end_line, last.end_column + 1)
        return Edit(span, "", f"remove the overridden `{text}`", text + " ", safe=True)

    @staticmethod
    def _shown(use: FlagUse) -> str:
        if use.value_words:
            return " ".join(w.text or "" for w in use.value_words)
        return use.written


def _within(span: Span, outer: Span) -> bool:
    return span.file == outer.file and outer.contains(span)

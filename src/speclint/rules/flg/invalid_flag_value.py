"""FLG005 invalid-flag-value: values argparse cannot convert to the flag's type."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import ClassVar

    from speclint.core.findings import Finding
    from speclint.core.spans import Span
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse
    from speclint.sglang.flags.schema import FlagSpec


class InvalidValue(Rule):
    """## What it does
    Finds values that argparse cannot convert to the flag's type: an integer flag given
    `eight`, a float written with a comma, a token count SGLang reads with its own
    `human_readable_int` (0.5.10+: `--context-length 32k` or `16Ki`) written `32K`, JSON its
    `parse_cuda_graph_config_arg` refuses (0.5.14+ `--cuda-graph-config`: not JSON, a phase or
    a key the release does not have), the retired CUDA-graph backend `tc_piecewise` (0.5.22+).

    In a keyword launch (`sgl.Engine(tp_size="2")`, `ServerArgs(...)`) no argparse runs: a
    str where the command line converts the value to a number is a warning at the keyword's
    value, as nothing converts or refuses it where the settings are made and what SGLang does
    with it later is not read.

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
    gates = ("problem:invalid-type",)
    stage = "parse"
    name = "invalid-flag-value"
    severity = Severity.ERROR
    summary = "A value argparse cannot convert to the flag's type (an int flag given `8x`)."
    invalid: ClassVar[tuple[Example, ...]] = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size eight",
            at="1:57",
            says="`eight` is not a valid value for `--tp-size`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --mem-fraction-static 0,8",
            at="1:69",
            says="`0,8` is not a valid value for `--mem-fraction-static`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --context-length 32K",
            at="1:64",
            says="argument --context-length: Invalid integer value: '32K'",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --cuda-graph-backend-decode tc_piecewise",
            at="1:75",
            says="tc_piecewise was removed; select breakable, full, or disabled",
            fixed=NO_FIX,
        ),
    )
    valid: ClassVar[tuple[Example | str, ...]] = (
        "python -m sglang.launch_server --model-path m --tp-size 8 --mem-fraction-static 0.8",
        "python -m sglang.launch_server --model-path m --context-length 32k --max-total-tokens 1Mi",
        """python -m sglang.launch_server --model-path m --cuda-graph-config '{"decode": {"max_bs": 64}}'""",
    )
    problem_kind = "invalid-type"

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != self.problem_kind or use is None or use.spec is None:  # its flag
                continue
            if ctx.launch.kwargs_style:
                yield self._keyword(ctx, problem.span, problem.text, problem.detail, use, use.spec)
                continue
            message = (
                f"`{problem.text}` is not a valid value for `{use.matched}`: argparse stops "
                f"the launch with 'argument {use.matched}: {problem.detail}'"
            )
            yield self.report(
                ctx.path,
                problem.span,
                message,
                self.hint(use, use.spec, version=ctx.version.version),
                word_notes(use.value_words[0] if use.value_words else use.word),
            )

    def hint(self, use: FlagUse, spec: FlagSpec, given: str | None = None, version: str = "") -> str:
        if spec.type == "other":  # (one of SGLang's functions converts it: `value_types`)
            from speclint.sglang.flags.value_types import converted_dests, hint

            function = converted_dests(version).get(spec.dest, "human_readable_int")
            if function != "human_readable_int":
                return hint(function, use.matched or spec.canonical, version)
            return (
                f"`{use.matched}` takes an integer, or one with an SI suffix (`32k`, `1.5M`) or an "
                "IEC suffix (`16Ki`, `1Mi`), case-sensitive"
            )
        return f"`{use.matched}` takes a value of type {spec.type}"

    def _keyword(
        self, ctx: LaunchContext, span: Span, text: str, detail: str, use: FlagUse, spec: FlagSpec
    ) -> Finding:
        """A keyword launch's value (`sgl.Engine(tp_size="two")`): no argparse refuses it
        where the settings are made, and what SGLang does with it later is not read, so a
        warning that says so."""
        version = ctx.version.version
        message = (
            f"`{text}` is not a valid value for `{use.written}` ({spec.canonical}): {detail}; "
            f"`{ctx.launch.entry}(...)` takes keywords without argparse, so nothing refuses it "
            f"where the settings are made, and what SGLang does with it later is unverified for "
            f"SGLang {version}"
        )
        return self.report(
            ctx.path,
            span,
            message,
            self.keyword_hint(use, spec),
            word_notes(use.value_words[0]) if use.value_words else (),
            severity=Severity.WARNING,
        )

    def keyword_hint(self, use: FlagUse, spec: FlagSpec) -> str:
        import ast

        written = use.value_words[0].text if len(use.value_words) == 1 else None
        given = ast.literal_eval(written) if written is not None else None  # (a literal: it was read)
        kind = "int" if spec.type == "other" else spec.type  # (`other`: human_readable_int's int)
        try:  # (as argparse's int / float / human_readable_int would convert the str)
            if spec.type == "other" and isinstance(given, str):
                from speclint.sglang.flags.value_types import human_readable_int

                value: object = human_readable_int(given)[0]
            else:
                value = (int if kind == "int" else float)(given) if isinstance(given, str) else None
        except ValueError:
            value = None
        if value is not None:
            return f"write the {kind} without quotes: `{use.written}={value!r}`"
        return f"pass `{use.written}` a{'n' if kind == 'int' else ''} {kind}, not a str"

"""Values of SGLang's keyword APIs (`sgl.Engine(attention_backend="flashinfers")`,
`ServerArgs(**settings)`) are checked against the release's flag schema as the command
line's are, under the same codes (before: only CLI flags were, and such a file said "All
checks passed"). No argparse runs for keywords, so each is a warning at the value that says
nothing refuses it where the settings are made."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("python/keyword_values.py")


def _found(text: str) -> list[tuple[str, int, int, str, str, str]]:
    lines = text.splitlines()
    out = []
    for f in lint_text(text, str(FILE.path)).findings:
        s = f.span
        out.append(
            (
                f.code,
                s.line,
                s.column,
                lines[s.line - 1][s.column - 1 : s.end_column - 1],
                f.severity.label,
                f.message,
            )
        )
    return out


def test_each_refused_value_is_a_warning_at_the_keywords_value() -> None:
    assert [f[:5] for f in _found(FILE.text)] == [
        ("FLG006", 12, 75, "BACKEND", "warning"),  # attention_backend=BACKEND ("flashinfers")
        ("FLG005", 12, 92, '"2"', "warning"),  # tp_size="2"
        ("FLG006", 14, 71, '"fp9"', "warning"),  # "quantization": "fp9" in ServerArgs(**settings)
    ]


def test_the_message_says_which_value_which_field_and_that_nothing_refuses_it() -> None:
    backend, tp, quantization = (f[5] for f in _found(FILE.text))
    assert backend == (
        "`'flashinfers'` is not a valid value for `attention_backend` (--attention-backend): not one of "
        "the command line's choices; `sglang.Engine(...)` takes keywords without argparse, so nothing "
        "refuses it where the settings are made, and what SGLang does with it later is unverified for "
        "SGLang 0.5.23"
    )
    assert tp.startswith(
        "`'2'` is not a valid value for `tp_size` (--tp-size): a str where the command line converts "
        "the value to int; `sglang.Engine(...)` takes keywords"
    )
    assert "`ServerArgs(...)` takes keywords without argparse" in quantization


def test_the_hint_names_the_fix() -> None:
    findings = lint_text(FILE.text, str(FILE.path)).findings
    assert [f.fix_hint.split(" (choices")[0] for f in findings] == [
        "did you mean `flashinfer`?",
        "write the int without quotes: `tp_size=2`",
        "did you mean `fp8`?",
    ]
    notes = [[(n.span.line, n.span.column, n.message) for n in f.notes] for f in findings]
    assert notes[0] == [(11, 11, "value assigned here")]


def test_a_choice_the_environment_enables_is_refused_without_it() -> None:
    without = FILE.text.replace('os.environ["SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE"] = "1"', "pass")
    added = [f[:5] for f in _found(without)][3:]
    assert added == [("FLG006", 20, 54, '"token_oracle"', "warning")]


def test_a_release_pinned_by_the_user_is_the_one_named() -> None:
    from speclint.settings.options import LintOptions

    result = lint_text(FILE.text, str(FILE.path), LintOptions(sglang_version="0.5.6.post2"))
    backend = [f for f in result.findings if f.code == "FLG006"][0]
    assert backend.message.endswith("unverified for SGLang 0.5.6.post2")

"""Flags SGLang converts with its own `human_readable_int` (0.5.10+: `--context-length 32k`):
a value it refuses stops the launch (FLG005, before: "All checks passed"), one it reads is
known as the number SGLang makes of it; older releases' `type=int` still refuses `32k`."""

from __future__ import annotations

import pytest
from regenerated import assert_regenerates, use_tools

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.flags.argv import parse_argv
from speclint.sglang.flags.launch_config import LaunchConfig
from speclint.sglang.flags.schema import load_schema, supported_versions
from speclint.sglang.flags.value_types import _FILE, converted_dests, human_readable_int


def _lint(flags: str, version: str = "0.5.23") -> list[tuple[str, int, int, str]]:
    text = f"python -m sglang.launch_server --model-path m {flags}\n"
    options = LintOptions(sglang_version=version, read_pyproject=False)
    return [
        (f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "t.sh", options).findings
    ]


def test_a_count_sglang_refuses_stops_the_launch_at_its_value():
    (finding,) = [f for f in _lint("--context-length many") if f[0] == "FLG005"]
    assert finding[1:3] == (1, 64)
    assert finding[3] == (
        "`many` is not a valid value for `--context-length`: argparse stops the launch with "
        "'argument --context-length: Invalid integer value: 'many'. Use a plain integer, SI suffixes "
        "(1k, 1M), or IEC suffixes (1Ki, 1Mi). Suffixes are case-sensitive.'"
    )


def test_decimals_with_an_iec_suffix_are_refused_with_sglang_s_words():
    (finding,) = [f for f in _lint("--max-total-tokens 1.5Mi") if f[0] == "FLG005"]
    assert "Decimals are not allowed with IEC suffixes like 'Mi'" in finding[3]
    assert "an SI value such as '1.5M'" in finding[3]


@pytest.mark.parametrize(
    "flags", ["--context-length 32k", "--max-prefill-tokens 16Ki", "--max-total-tokens 2.5M"]
)
def test_counts_with_suffixes_pass_on_releases_that_read_them(flags):
    assert [f for f in _lint(flags) if f[0] == "FLG005"] == []


def test_a_suffix_is_refused_where_the_release_parses_an_int():
    (finding,) = [f for f in _lint("--context-length 32k", "0.5.9") if f[0] == "FLG005"]
    assert "invalid int value: '32k'" in finding[3]


@pytest.mark.parametrize(
    ("written", "value"),
    [("32k", 32000), ("25.6k", 25600), ("1Mi", 1048576), (" 4096 ", 4096), ("1_000", 1000)],
)
def test_the_value_is_the_number_sglang_makes(written, value):
    schema = load_schema("0.5.23")
    words = [
        Word(t, Span(1, 1 + 20 * i, 1, 1 + 20 * i + len(t)))
        for i, t in enumerate(["--context-length", written])
    ]
    assert (
        LaunchConfig(
            parse_argv(
                schema, [Word("--model-path", Span(1, 200, 1, 212)), Word("m", Span(1, 213, 1, 214)), *words]
            )
        ).value("context_length")
        == value
    )


def test_which_releases_convert_which_flags_is_read_from_each_release():
    newest = converted_dests("0.5.23")
    assert newest["context_length"] == newest["max_total_tokens"] == "human_readable_int"
    assert "context_length" not in converted_dests("0.5.9")  # (type=int there)
    assert set(_FILE.versions()) == set(supported_versions())


def test_a_release_whose_function_converts_otherwise_is_not_verified():
    """The generator runs each release's own function: one that words an error otherwise (or
    reads another suffix) does not convert as speclint does, and its flags stay unconverted."""
    use_tools()
    from gen_sglang_value_types import _runs_alike

    source = (
        "def human_readable_int(value):\n"
        "    value = value.strip()\n"
        "    try:\n        return int(value)\n"
        "    except ValueError:\n        raise argparse.ArgumentTypeError(f'bad: {value}')\n"
    )
    assert not _runs_alike(source, "human_readable_int")
    assert _runs_alike(_sglang_s_own(), "human_readable_int")


def _sglang_s_own() -> str:
    """The function as 0.5.23 writes it (from its wheel), else skipped."""
    from regenerated import SGLANG_WHEELS

    use_tools()
    import zipfile

    from gen_sglang_value_types import _function_source

    wheels = sorted(SGLANG_WHEELS.glob("sglang-0.5.23-*.whl")) if SGLANG_WHEELS.is_dir() else []
    if not wheels:
        pytest.skip("SGLang 0.5.23's wheel is not cached")
    with zipfile.ZipFile(wheels[0]) as archive:
        source = _function_source(archive, "human_readable_int")
    assert source is not None
    return source


def test_speclint_s_conversion_is_what_sglang_s_function_gives_on_the_battery():
    use_tools()
    from gen_sglang_value_types import BATTERY

    assert human_readable_int("1.0Mi") == (
        None,
        "Decimals are not allowed with IEC suffixes like 'Mi'. Use an integer IEC value such as "
        "'1Mi', or an SI value such as '1.0M'.",
    )
    assert len(BATTERY) > 50


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_value_types():
    use_tools()
    from gen_sglang_value_types import OUT, build, dump

    versions = list(supported_versions())
    assert_regenerates(OUT, versions, lambda: dump(build(versions)))


def test_a_keyword_launch_given_a_count_as_a_str_is_warned_with_the_number():
    text = 'import sglang as sgl\nllm = sgl.Engine(model_path="m", context_length="32k")\n'
    options = LintOptions(sglang_version="0.5.23", read_pyproject=False)
    (finding,) = [f for f in lint_text(text, "t.py", options).findings if f.code == "FLG005"]
    assert (finding.span.line, finding.span.column, finding.severity.label) == (2, 49, "warning")
    assert "converts the value to int (SGLang's human_readable_int)" in finding.message
    assert finding.fix_hint == "write the int without quotes: `context_length=32000`"

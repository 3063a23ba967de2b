"""argparse checks required flags (`_parse_known_args`) before it looks at the words it could
not attach (`parse_args`: 'unrecognized arguments'): a launch without --model-path and with a
stray word or an unknown flag stops with 'the following arguments are required', and FLG010,
FLG001 and `explain` say so; with --model-path they say 'unrecognized arguments'."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from speclint.engine import lint_text

REQUIRED = "'the following arguments are required: --model-path/--model'"


def _argparse_says(argv: list[str]) -> str:
    """What CPython's argparse itself prints for such a parser (the order the test relies on)."""
    parser = argparse.ArgumentParser(prog="launch_server")
    parser.add_argument("--model-path", "--model", required=True)
    parser.add_argument("--tp-size", type=int)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
        parser.parse_args(argv)
    return err.getvalue().splitlines()[-1]


def test_cpython_argparse_reports_the_required_flag_before_the_stray_word() -> None:
    assert _argparse_says(["--tp-size", "2", "4"]).startswith(
        "launch_server: error: the following arguments are required"
    )


@pytest.mark.parametrize(
    ("args", "code", "word"),
    [("--tp-size 2 4", "FLG010", "4"), ("--tp-size 2 --tp-sise 4", "FLG001", "--tp-sise")],
)
def test_without_model_path_the_required_message_comes_first(args: str, code: str, word: str) -> None:
    text = f"python -m sglang.launch_server {args}\n"
    findings = lint_text(text, "serve.sh").findings
    (finding,) = [f for f in findings if f.code == code]
    assert finding.span.column == text.index(f" {word}") + 2
    assert f"argparse stops the launch with {REQUIRED}" in finding.message
    assert "(it checks those before 'unrecognized arguments')" in finding.message
    assert any(f.code == "FLG011" for f in findings)


@pytest.mark.parametrize(("args", "code"), [("--tp-size 2 4", "FLG010"), ("--tp-sise 4", "FLG001")])
def test_with_model_path_the_stray_word_stops_with_unrecognized_arguments(args: str, code: str) -> None:
    text = f"python -m sglang.launch_server --model-path /m {args}\n"
    (finding,) = [f for f in lint_text(text, "serve.sh").findings if f.code == code]
    assert finding.message.endswith("argparse stops the launch with 'unrecognized arguments'") or (
        "with 'unrecognized arguments'; did you mean" in finding.message
    )
    assert "required" not in finding.message


def test_explain_names_the_required_flag_as_where_argparse_stops(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text("python -m sglang.launch_server --tp-size 2 4\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-m", "speclint", "explain", str(script)], capture_output=True, text=True, env=env
    ).stdout
    assert (
        "stops this launch before any resolution: error: the following arguments are required: "
        "--model-path/--model" in out
    )

"""`speclint [check] [options] FILE...` read without click (`speclint.cli.plain`): the same
options click would give `check`, the same output, and nothing heavy imported on the way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from speclint_runs import clean_environment, dataclasses_imports, run_speclint

from speclint.cli.commands import check as click_check
from speclint.cli.plain import check_options, defaults
from speclint.core import recipes

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"

PLAIN = [
    ["a.sh"],
    ["check", "a.sh", "b.sh"],
    ["--no-cache", "a.sh"],
    ["a.sh", "--exit-zero", "-q", "b.sh"],
    ["--output-format", "json", "a.sh"],
    ["--output-format=sarif", "a.sh"],
    ["--select", "SPD,FLG001", "--select=DRF", "--ignore", "SPD003", "a.sh"],
    ["--extend-select", "FLG003", "--fail-on", "error", "a.sh"],
    ["--color", "never", "--statistics", "--show-fixes", "a.sh"],
    ["--fix", "--unsafe-fixes", "a.sh"],
    ["--diff", "a.sh"],
    ["--no-respect-gitignore", "--exclude", "vendor", "--extend-exclude", "build,dist", "dir"],
    ["--respect-gitignore", "--isolated", "dir"],
    ["--doc-url-base", "https://example.com/rules", "a.sh"],
    ["--stdin-filename", "x.sh", "-"],
    ["--", "--odd-name.sh", "a.sh"],
    ["--select=", "a.sh"],
    ["--output-format", "text", "--output-format", "concise", "a.sh"],
]
NOT_PLAIN = [
    [],
    ["--help"],
    ["-h"],
    ["--version"],
    ["explain", "a.sh"],
    ["rules"],
    ["--sglang-version", "0.5.6", "a.sh"],
    ["--model-config", "m=/x", "a.sh"],
    ["--config", "speclint.toml", "a.sh"],
    ["-o", "out.txt", "a.sh"],
    ["--cache-dir", "/tmp/c", "a.sh"],
    ["--output-format", "yaml", "a.sh"],
    ["--color", "sometimes", "a.sh"],
    ["--exit-zero=1", "a.sh"],
    ["--unknown-option", "a.sh"],
    ["--exit", "a.sh"],
    ["-qq", "a.sh"],
    ["--select", "-q", "a.sh"],
    ["--select"],
    ["--exit-zero"],
]


def click_options(argv: list[str]) -> dict[str, object]:
    args = argv[1:] if argv and argv[0] == "check" else argv
    with click_check.make_context("check", list(args)) as ctx:
        return dict(ctx.params)


@pytest.mark.parametrize("argv", PLAIN, ids=" ".join)
def test_plain_command_lines_read_as_click_reads_them(argv):
    assert check_options(argv, {}) == click_options(argv)


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=lambda argv: " ".join(argv) or "nothing")
def test_anything_else_goes_to_click(argv):
    assert check_options(argv, {}) is None


def test_every_option_of_check_has_its_default():
    assert set(defaults()) == {param.name for param in click_check.params}


@pytest.mark.parametrize("variable", ["SPECLINT_OUTPUT_FORMAT", "SPECLINT_CACHE_DIR"])
def test_options_given_through_the_environment_go_to_click(variable):
    assert check_options(["a.sh"], {variable: "json"}) is None


def _speclint(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_speclint(*args, env=env)


def test_the_plain_path_prints_what_click_prints():
    """The same report and exit code whether click reads the command line or not (an
    environment variable click reads sends the second run through click)."""
    plain = _speclint("--no-cache", "--color", "never", str(FIXTURE))
    through_click = _speclint(
        "--no-cache", "--color", "never", str(FIXTURE), env={"SPECLINT_OUTPUT_FORMAT": "text"}
    )
    assert plain.returncode == through_click.returncode == 1
    assert plain.stdout == through_click.stdout and "SPD001" in plain.stdout
    assert plain.stderr == through_click.stderr == ""


def test_a_mistake_still_gets_clicks_message():
    result = _speclint("--no-cache", "--exit-zer", str(FIXTURE))
    assert result.returncode == 2
    assert "No such option" in result.stderr and "--exit-zero" in result.stderr  # did you mean


def _modules_after(code: str, folder: Path) -> set[str]:
    # printed at exit (the command ends its process when it is done: process_end.leave)
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n" + code
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=folder,
        env=clean_environment(),
        timeout=120,
        check=False,
    )
    return {name.split(".")[0] for name in result.stderr.strip().splitlines()[-1].split()}


def test_linting_a_shell_file_imports_nothing_it_does_not_need(tmp_path):
    """A pre-commit hook or an editor pays every import on every run: one shell file (in a
    project whose pyproject.toml configures other tools) loads neither click nor the Python,
    YAML, TOML or Markdown parsers, nor pydantic, SQLite, typing, inspect or the `json` package
    (JSON is read through `_json` alone) (beyond what Python itself loads at start here)."""
    (tmp_path / "launch.sh").write_text(FIXTURE.read_text())
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "serving"\n\n[tool.ruff]\nline-length = 100\n'
    )
    linted = _modules_after(
        "import runpy, sys\n"
        "sys.argv = ['speclint', '--no-cache', 'launch.sh']\n"
        "try:\n    runpy.run_module('speclint', run_name='__main__')\nexcept SystemExit:\n    pass\n",
        tmp_path,
    )
    assert "speclint" in linted and "tree_sitter" in linted
    started = _modules_after("pass", tmp_path)
    heavy = {
        "click",
        "libcst",
        "pydantic",
        "yaml",
        "markdown_it",
        "sqlite3",
        "difflib",
        "typing",
        "ast",
        "dis",
        "tomllib",
        "json",
    }
    if not recipes.served():  # (`dataclasses` makes every class: what it imports is needed)
        heavy -= dataclasses_imports()
    assert (linted - started) & heavy == set()

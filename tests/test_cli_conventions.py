"""Issue 16, "conventions to add": what ruff users expect, as they see it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from speclint import __version__
from speclint.cli import main

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = "python -m sglang.launch_server"
DUPLICATE = f"{LAUNCH} --model-path m --tp 2 --port 1 --port 2\n"


def run(*args: str, env: dict | None = None, cwd: Path = ROOT, input: str | None = None):
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "SPECLINT_DOCS_URL")}
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        cwd=cwd,
        input=input,
        timeout=60,
    )


@pytest.fixture()
def script(tmp_path) -> Path:
    path = tmp_path / "a.sh"
    path.write_text(DUPLICATE)
    return path


# --- colour ----------------------------------------------------------------------------------


def test_colour_is_off_when_piped_and_follows_color_no_color_force_color(script):
    assert "\x1b[" not in run(str(script)).stdout  # a pipe: no colour
    always = run("--color", "always", str(script)).stdout
    assert "\x1b[1;33mFLG007\x1b[0m" in always  # the code in the warning colour
    assert "\x1b[" in run(str(script), env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run(str(script), env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" in run("--color", "always", str(script), env={"NO_COLOR": "1"}).stdout
    assert "\x1b[" not in run("--color", "never", str(script), env={"FORCE_COLOR": "1"}).stdout
    machine = run("--color", "always", "--output-format", "json", str(script)).stdout
    assert "\x1b[" not in machine and json.loads(machine)


# --- documentation URLs ----------------------------------------------------------------------


def test_each_finding_links_its_rule_page(script, tmp_path):
    default = f"https://github.com/speclint/speclint/blob/v{__version__}/rules/duplicate-flag.md"
    text = run(str(script)).stdout
    assert text.count(f"= docs: {default}") == 1  # once per rule
    finding = json.loads(run("--output-format", "json", str(script)).stdout)[0]
    assert finding["url"] == default
    sarif = json.loads(run("--output-format", "sarif", str(script)).stdout)
    rules = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["FLG007"]["helpUri"] == default
    base = "https://mirror.example/speclint/rules"
    assert f"= docs: {base}/duplicate-flag.md" in run("--doc-url-base", base, str(script)).stdout
    from_env = run("--output-format", "json", str(script), env={"SPECLINT_DOCS_URL": base})
    assert json.loads(from_env.stdout)[0]["url"] == f"{base}/duplicate-flag.md"
    # the default points at pages that exist in this repository
    assert (ROOT / "rules" / "duplicate-flag.md").is_file()


# --- statistics, quiet, settings, summaries ----------------------------------------------------


def test_statistics_count_per_rule(tmp_path):
    (tmp_path / "a.sh").write_text(DUPLICATE * 3 + f"{LAUNCH} --model-path m --bogus\n")
    done = run("--statistics", "a.sh", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == "3\tFLG007\t[*] duplicate-flag"
    assert lines[1] == "1\tFLG001\t    unknown-flag"
    assert lines[2].startswith("Found 4 findings (1 error, 3 warnings): 4 launches in 1 file")
    assert done.returncode == 1


def test_quiet_prints_findings_only(script):
    done = run("-q", str(script))
    assert done.returncode == 1 and "FLG007" in done.stdout
    assert "Found " not in done.stdout and "fixable" not in done.stdout
    fixed = run("-q", "--fix", str(script))
    assert fixed.stderr == "" and fixed.returncode == 0
    assert run("--quiet", str(script)).stdout == ""  # nothing left to say


def test_concise_output_ends_with_the_summary_line(script):
    lines = run("--output-format", "concise", str(script)).stdout.splitlines()
    assert lines[0].startswith(f"{script}:1:54: FLG007 [*] [warning]")
    assert lines[1].startswith("Found 1 finding (1 warning): 1 launch in 1 file")
    assert lines[2] == "[*] 1 fixable with the `--fix` option."


def test_show_settings_says_where_each_setting_comes_from(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.speclint]\nignore = ["SPD003"]\nfail-on = "error"\nextend-exclude = ["legacy"]\n'
    )
    (tmp_path / "a.sh").write_text(DUPLICATE)
    done = run("--show-settings", "--sglang-version", "0.5.14", "a.sh", cwd=tmp_path)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "Settings for a.sh"
    assert lines[1] == f"  configuration file: {tmp_path / 'pyproject.toml'}"
    rows = {line.split()[0]: line for line in lines[2:]}
    assert rows["ignore"].endswith(f"SPD003  [{tmp_path / 'pyproject.toml'}]")
    assert rows["fail-on"].endswith(f"error  [{tmp_path / 'pyproject.toml'}]")
    assert rows["sglang-version"].endswith("0.5.14  [command line]")
    assert "FLG003" not in rows["select"] and rows["select"].endswith(
        "[default rule set (opt-in rules left out)]"
    )
    assert rows["extend-exclude"].endswith(f"legacy  [{tmp_path / 'pyproject.toml'}]")
    assert rows["respect-gitignore"].endswith("true  [default]")


# --- the default rule set --------------------------------------------------------------------


def test_noisy_info_rules_are_opt_in(tmp_path):
    (tmp_path / "a.sh").write_text(
        f"{LAUNCH} --model-path /no/model --tp 2 "
        "--speculative-algorithm EAGLE --speculative-draft-model-path "
        "/no/draft --max-running-requests 8\n"
    )
    default = run("--output-format", "json", "a.sh", cwd=tmp_path)
    assert {f["code"] for f in json.loads(default.stdout)} == set()
    summary = run("a.sh", cwd=tmp_path).stdout
    assert summary.startswith("No findings: 1 launch in 1 file")  # not "All checks passed"
    assert (
        "drafter checks skipped for 1 launch (model config.json not on disk: "
        "`--extend-select DRF011` says which)"
    ) in summary
    opted = run("--output-format", "json", "--extend-select", "FLG003,DRF011", "a.sh", cwd=tmp_path)
    assert {f["code"] for f in json.loads(opted.stdout)} == {"FLG003", "DRF011"}
    everything = run("--output-format", "json", "--select", "ALL", "a.sh", cwd=tmp_path)
    assert {f["code"] for f in json.loads(everything.stdout)} == {"FLG003", "DRF011"}
    (tmp_path / "pyproject.toml").write_text('[tool.speclint]\nextend-select = ["FLG003"]\n')
    configured = run("--output-format", "json", "a.sh", cwd=tmp_path)
    assert {f["code"] for f in json.loads(configured.stdout)} == {"FLG003"}


def test_opt_in_rules_say_so_on_their_page():
    page = CliRunner().invoke(main, ["rule", "FLG003"]).output
    assert "Not in the default rule set: `--extend-select FLG003`" in page
    assert "Not in the default rule set" not in CliRunner().invoke(main, ["rule", "FLG001"]).output


# --- shell completion ------------------------------------------------------------------------


def test_shell_completion_works_as_the_readme_says():
    readme = (ROOT / "README.md").read_text()
    assert 'eval "$(_SPECLINT_COMPLETE=bash_source speclint)"' in readme
    entry = Path(sys.executable).with_name("speclint")  # the installed console script
    if not entry.exists():
        pytest.skip("speclint is not installed as a console script here")
    env = {k: v for k, v in os.environ.items() if not k.startswith("_SPECLINT")}

    def complete(**extra: str) -> str:
        return subprocess.run(
            [str(entry)], capture_output=True, text=True, timeout=60, env={**env, **extra}
        ).stdout

    assert "complete -o nosort -F _speclint_completion speclint" in complete(_SPECLINT_COMPLETE="bash_source")
    assert complete(_SPECLINT_COMPLETE="zsh_source").startswith("#compdef speclint")
    assert "plain,--statistics" in complete(
        _SPECLINT_COMPLETE="bash_complete", COMP_WORDS="speclint check --sta", COMP_CWORD="2"
    )

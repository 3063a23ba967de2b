"""Configuration files: discovery (closest wins), precedence, --config, --isolated, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from speclint_runs import run_speclint

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = "python -m sglang.launch_server --model-path m --tp 2 --speculative-algorithm NGRAM\n"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_speclint(*args, cwd=cwd, timeout=60)


def codes(result) -> set[str]:
    return {f["code"] for f in json.loads(result.stdout)}


def test_pyproject_tool_section_and_closest_file_wins(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.speclint]\nignore = ["FLG003"]\n')
    (tmp_path / "a.sh").write_text(LAUNCH)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "speclint.toml").write_text('extend-select = ["FLG003"]\nignore = ["SPD003"]\n')
    (sub / "b.sh").write_text(LAUNCH)
    top = run("--output-format", "json", "a.sh", cwd=tmp_path)
    assert codes(top) == {"SPD003"}
    nested = run("--output-format", "json", "sub/b.sh", cwd=tmp_path)
    assert codes(nested) == {"FLG003"}  # no merging: the closest file alone decides


def test_same_folder_precedence_dot_file_first(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.speclint]\nignore = ["SPD003"]\n')
    (tmp_path / "speclint.toml").write_text('ignore = ["FLG003", "SPD003"]\n')
    (tmp_path / ".speclint.toml").write_text('select = ["FLG003"]\n')
    (tmp_path / "a.sh").write_text(LAUNCH)
    assert codes(run("--output-format", "json", "a.sh", cwd=tmp_path)) == {"FLG003"}


def test_pyproject_without_a_speclint_table_is_skipped(tmp_path):
    (tmp_path / "speclint.toml").write_text('ignore = ["FLG003"]\n')
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (sub / "a.sh").write_text(LAUNCH)
    assert codes(run("--output-format", "json", "pkg/a.sh", cwd=tmp_path)) == {"SPD003"}


def test_another_tools_pyproject_is_not_parsed_but_one_that_may_configure_speclint_is(tmp_path):
    """A pyproject.toml that never says `speclint` cannot configure it: it is not parsed (TOML's
    imports cost a tenth of a one-file run), even when another tool's section is broken. One
    that may (the name as written, or escaped in a quoted key) is read, and a broken one is
    still exit 2 with the reason."""
    (tmp_path / "speclint.toml").write_text('ignore = ["FLG003"]\n')
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "a.sh").write_text(LAUNCH)
    (sub / "pyproject.toml").write_text("[tool.other]\nline-length = [100\n")  # not TOML
    assert codes(run("--output-format", "json", "pkg/a.sh", cwd=tmp_path)) == {"SPD003"}
    (sub / "pyproject.toml").write_text('[tool."spec\\u006cint"]\nignore = ["SPD003"]\n')
    assert codes(run("--output-format", "json", "pkg/a.sh", cwd=tmp_path)) == set()  # read: the closest
    (sub / "pyproject.toml").write_text('[tool.speclint]\nignore = ["SPD003"\n')
    result = run("pkg/a.sh", cwd=tmp_path)
    assert result.returncode == 2 and "pyproject.toml: invalid TOML" in result.stderr


def test_command_line_overrides_and_config_and_isolated(tmp_path):
    (tmp_path / "speclint.toml").write_text('ignore = ["FLG003"]\nfail-on = "error"\n')
    (tmp_path / "a.sh").write_text(LAUNCH)
    assert run("a.sh", cwd=tmp_path).returncode == 0  # only a warning left, fail-on error
    assert run("--fail-on", "warning", "a.sh", cwd=tmp_path).returncode == 1
    assert (
        codes(run("--output-format", "json", "--select", "FLG003", "a.sh", cwd=tmp_path)) == set()
    )  # ignore from the file still applies
    assert codes(run("--output-format", "json", "--isolated", "a.sh", cwd=tmp_path)) == {
        "SPD003"
    }  # FLG003 is opt-in
    assert codes(run("--output-format", "json", "--isolated", "--select", "ALL", "a.sh", cwd=tmp_path)) == {
        "FLG003",
        "SPD003",
    }
    other = tmp_path / "other.toml"
    other.write_text('select = ["SPD"]\n')
    assert codes(run("--output-format", "json", "--config", str(other), "a.sh", cwd=tmp_path)) == {"SPD003"}


def test_per_file_ignores_and_version(tmp_path):
    (tmp_path / "speclint.toml").write_text(
        'sglang-version = "0.5.6.post2"\n[per-file-ignores]\n"legacy/*.sh" = ["FLG003"]\n'
    )
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.sh").write_text(LAUNCH.replace("--tp 2", "--tp 2 --cuda-graph-max-bs 8"))
    (tmp_path / "new.sh").write_text(LAUNCH)
    assert codes(
        run("--output-format", "json", "--extend-select", "FLG003", "legacy/old.sh", cwd=tmp_path)
    ) == {"SPD003"}
    assert "FLG003" in codes(
        run("--output-format", "json", "--extend-select", "FLG003", "new.sh", cwd=tmp_path)
    )


def test_models_mapping_from_the_config(tmp_path):
    configs = tmp_path / "model-configs"
    (configs / "llama").mkdir(parents=True)
    (configs / "llama" / "config.json").write_text(
        (ROOT / "fixtures/models/llama-3.1-8b-instruct/config.json").read_text()
    )
    (tmp_path / "speclint.toml").write_text('[models]\n"/models/llama" = "model-configs/llama"\n')
    (tmp_path / "a.sh").write_text(
        "python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE\n"
    )
    result = run("explain", "--output-format", "json", "a.sh", cwd=tmp_path)
    [launch] = json.loads(result.stdout)
    assert launch["target_architecture"] == "LlamaForCausalLM"


def test_broken_config_is_exit_2_with_the_reason(tmp_path):
    (tmp_path / "a.sh").write_text(LAUNCH)
    (tmp_path / "speclint.toml").write_text('ignore = ["FLG003"\n')
    result = run("a.sh", cwd=tmp_path)
    assert result.returncode == 2 and "speclint.toml: invalid TOML" in result.stderr
    (tmp_path / "speclint.toml").write_text('ignroe = ["FLG003"]\n')
    result = run("a.sh", cwd=tmp_path)
    assert result.returncode == 2 and "unknown key `ignroe`" in result.stderr
    (tmp_path / "speclint.toml").write_text('fail-on = "sometimes"\n')
    assert run("a.sh", cwd=tmp_path).returncode == 2
    (tmp_path / "speclint.toml").write_text('sglang-version = "latest-ish"\n')
    assert "not an SGLang version" in run("a.sh", cwd=tmp_path).stderr


def test_version_precedence_cli_then_config_then_image_then_pin(tmp_path):
    (tmp_path / "requirements.txt").write_text("sglang==0.5.14\n")
    (tmp_path / "a.sh").write_text(
        "docker run lmsysorg/sglang:v0.5.6.post2 python3 -m sglang.launch_server --model-path m\n"
    )
    (tmp_path / "b.sh").write_text("python3 -m sglang.launch_server --model-path m\n")
    summary = lambda *a: run(*a, cwd=tmp_path).stdout.splitlines()[-1]  # noqa: E731
    assert "SGLang 0.5.6.post2 (from the image" in summary("a.sh")
    assert "SGLang 0.5.14 (" in summary("b.sh") and "requirements.txt" in summary("b.sh")
    (tmp_path / "speclint.toml").write_text('sglang-version = "0.5.10"\n')
    assert "SGLang 0.5.10 (from [tool.speclint] sglang-version" in summary("a.sh")
    assert "SGLang 0.5.23 (from --sglang-version" in summary("--sglang-version", "0.5.23", "a.sh")


def test_a_fifo_named_like_a_config_file_is_an_error_not_a_hang(tmp_path):
    import os

    os.mkfifo(tmp_path / "speclint.toml")
    (tmp_path / "a.sh").write_text(LAUNCH)
    result = run("a.sh", cwd=tmp_path)
    assert result.returncode == 2 and "speclint.toml: cannot read" in result.stderr


def test_output_format_from_the_working_folder_configuration(tmp_path):
    """`output-format` in the configuration of the folder speclint runs in applies."""
    import subprocess

    (tmp_path / "speclint.toml").write_text('output-format = "concise"\nextend-select = ["FLG003"]\n')
    (tmp_path / "launch.sh").write_text("python -m sglang.launch_server --model-path m --tp 2\n")
    ran = subprocess.run(
        [sys.executable, "-m", "speclint", "--no-cache", "launch.sh"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.stdout.startswith("launch.sh:1:47: FLG003 [*] [info]"), ran.stdout
    assert "^" not in ran.stdout  # no source excerpt: the concise format


def test_each_file_of_one_run_gets_its_own_folders_settings_however_its_path_is_written(tmp_path):
    """The settings found for a folder are kept by the folder as written: `sub/../b.sh` and
    `sub/b.sh` are in different folders, `./sub/b.sh` and `sub/b.sh` in the same one."""
    (tmp_path / "pyproject.toml").write_text('[tool.speclint]\nignore = ["FLG003"]\n')
    (tmp_path / "a.sh").write_text(LAUNCH)
    (tmp_path / "b.sh").write_text(LAUNCH)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "speclint.toml").write_text('extend-select = ["FLG003"]\nignore = ["SPD003"]\n')
    (sub / "b.sh").write_text(LAUNCH)
    names = ["sub/b.sh", "sub/../b.sh", "./sub/b.sh", "a.sh", str(sub / "b.sh")]
    result = run("--output-format", "json", *names, cwd=tmp_path)
    found = sorted((finding["path"], finding["code"]) for finding in json.loads(result.stdout))
    assert found == sorted(
        [
            ("sub/b.sh", "FLG003"),
            ("sub/../b.sh", "SPD003"),
            ("./sub/b.sh", "FLG003"),
            ("a.sh", "SPD003"),
            (str(sub / "b.sh"), "FLG003"),
        ]
    )

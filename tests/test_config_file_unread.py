"""`--config FILE` whose file is not on disk: SGLang merges the file's flags in front of the
command line, so what the launch runs with is not known. It is said (SLM004 at the file's
name), never "All checks passed" (before: passed silently, `explain` alone said it)."""

from __future__ import annotations

from speclint_runs import run_speclint


def test_a_config_file_not_on_disk_is_said_not_read(tmp_path):
    (tmp_path / "serve.sh").write_text("python -m sglang.launch_server --config config.yaml\n")
    done = run_speclint("--no-cache", "serve.sh", cwd=tmp_path)
    assert done.stdout.splitlines()[0] == (
        "serve.sh:1:41: SLM004 [info] launch only partly read: speclint cannot know a word that may "
        "hold any flags (flags merged from the --config file config.yaml (not found on disk)); checks "
        "that need this value did not run"
    )
    assert "All checks passed" not in done.stdout and "1 launch only partly read" in done.stdout


def test_a_config_file_on_disk_is_merged_and_checked(tmp_path):
    (tmp_path / "serve.sh").write_text("python -m sglang.launch_server --config config.yaml\n")
    (tmp_path / "config.yaml").write_text("model-path: m\ntp-size: two\n")
    done = run_speclint("--no-cache", "serve.sh", cwd=tmp_path)
    assert "SLM004" not in done.stdout and "FLG005" in done.stdout

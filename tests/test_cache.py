"""The result cache (`.speclint_cache`): a re-run over unchanged files reuses the stored
findings; every input a result depends on invalidates it; damaged or foreign entries are
never trusted; unreadable files are never cached."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import speclint.engine
from speclint.runner import cache as cache_module
from speclint.runner.workers import lint_job
from speclint.settings.files import Settings
from speclint.settings.merge import CommandLine, options_for

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "fixtures" / "models"
TOPK1 = (ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh").read_text()


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json")) if folder.exists() else []


def _job(path: Path, cache_dir: Path, cli: CommandLine = CommandLine()):
    if not cli.select:  # every rule, the opt-in ones (DRF011, FLG003) too
        cli = dataclasses.replace(cli, select=("ALL",))
    return (str(path), options_for(str(path), cli, Settings()), False, str(cache_dir))


@pytest.fixture
def no_lint(monkeypatch):
    """Make any real lint fail: a result must then come from the cache."""
    def refuse(*args, **kwargs):
        raise AssertionError("linted again instead of using the cache")
    monkeypatch.setattr(speclint.engine, "lint_text", refuse)


def _codes(result) -> list[str]:
    return [f"{f.code}@{f.span.line}:{f.span.column}" for f in result.findings]


def test_unchanged_file_comes_from_the_cache(tmp_path, monkeypatch):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    first, error = lint_job(_job(script, folder))
    assert error is None and len(_entries(folder)) == 1
    monkeypatch.setattr(speclint.engine, "lint_text", lambda *a, **k: pytest.fail("linted again"))
    again, error = lint_job(_job(script, folder))
    assert error is None
    assert _codes(again) == _codes(first) and "SPD001@9:87" in _codes(again)
    assert [f.message for f in again.findings] == [f.message for f in first.findings]
    assert again.lines == first.lines
    assert [s.version.version for s in again.contexts] == [s.version.version for s in first.contexts]


def test_changed_content_is_linted_again(tmp_path):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    script.write_text(TOPK1.replace("--speculative-num-draft-tokens 16", "--speculative-num-draft-tokens 2"))
    result, _ = lint_job(_job(script, folder))
    assert not any(code.startswith("SPD001") for code in _codes(result))
    assert len(_entries(folder)) == 2


@pytest.mark.parametrize("other", [
    CommandLine(ignore=("SPD001",)),          # the settings that apply to the file
    CommandLine(sglang_version="0.5.6.post2"),  # the SGLang release
    CommandLine(model_configs=(("/models/Kimi-K2.5", str(MODELS / "kimi-k2.5")),)),
])
def test_other_settings_are_other_entries(tmp_path, other):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    before, _ = lint_job(_job(script, folder))
    after, _ = lint_job(_job(script, folder, other))
    assert len(_entries(folder)) == 2
    assert _codes(after) != _codes(before) or [f.message for f in after.findings] != \
        [f.message for f in before.findings]


def test_speclint_version_is_part_of_the_key(tmp_path, monkeypatch):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    lint_job(_job(script, folder))
    monkeypatch.setattr("speclint.__version__", "999.0")
    cache_module.code_fingerprint.cache_clear()
    try:
        lint_job(_job(script, folder))
    finally:
        cache_module.code_fingerprint.cache_clear()
    assert len(_entries(folder)) == 2


def _drafter_launch(tmp_path: Path) -> tuple[Path, Path]:
    target, draft = tmp_path / "target", tmp_path / "draft"
    shutil.copytree(MODELS / "llama-3.1-8b-instruct", target)
    shutil.copytree(MODELS / "eagle3-llama-3.1-8b-instruct", draft)
    script = tmp_path / "launch.sh"
    script.write_text(f"python -m sglang.launch_server --model-path {target} "
                      f"--speculative-algorithm EAGLE --speculative-draft-model-path {draft} "
                      "--speculative-num-steps 3 --speculative-eagle-topk 1 "
                      "--speculative-num-draft-tokens 4 --max-running-requests 8\n")
    return script, draft


def test_a_changed_model_config_invalidates(tmp_path, no_lint, monkeypatch):
    script, draft = _drafter_launch(tmp_path)
    folder = tmp_path / "cache"
    monkeypatch.undo()  # lint for real the first time
    first, _ = lint_job(_job(script, folder))
    assert "DRF001" in {f.code for f in first.findings}  # EAGLE with an EAGLE-3 drafter
    config = json.loads((draft / "config.json").read_text())
    config["architectures"] = ["LlamaForCausalLMEagle"]
    (draft / "config.json").write_text(json.dumps(config))
    second, _ = lint_job(_job(script, folder))
    assert "DRF001" not in {f.code for f in second.findings}


def test_a_model_config_that_appears_invalidates(tmp_path):
    script, draft = _drafter_launch(tmp_path)
    folder = tmp_path / "cache"
    saved = (draft / "config.json").read_text()
    (draft / "config.json").unlink()
    first, _ = lint_job(_job(script, folder))
    assert "DRF011" in {f.code for f in first.findings}  # configs not on disk
    (draft / "config.json").write_text(saved)
    second, _ = lint_job(_job(script, folder))
    assert "DRF011" not in {f.code for f in second.findings}
    assert "DRF001" in {f.code for f in second.findings}


@pytest.mark.parametrize("damage", [
    b"\x00\xffnot json",
    b'{"format": 1, "key": "someone-else", "depends": [], "result": {}}',
    None,  # a well-formed entry that asks for a class speclint never builds from a file
])
def test_damaged_or_foreign_entries_are_not_trusted(tmp_path, damage):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    first, _ = lint_job(_job(script, folder))
    (entry,) = _entries(folder)
    if damage is None:
        stored = json.loads(entry.read_text())
        stored["result"]["findings"][1][1] = "Popen"
        entry.write_text(json.dumps(stored))
    else:
        entry.write_bytes(damage)
    again, error = lint_job(_job(script, folder))
    assert error is None and _codes(again) == _codes(first)
    assert json.loads(entry.read_text())["format"] == 1  # rewritten whole


def test_a_file_that_cannot_be_read_is_never_cached(tmp_path):
    folder = tmp_path / "cache"
    not_a_file = tmp_path / "folder.sh"
    not_a_file.mkdir()
    result, error = lint_job(_job(not_a_file, folder))
    assert result is not None and result.error == "not a regular file"
    assert _entries(folder) == []


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "speclint", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "SPECLINT_CACHE_DIR"})


def test_cli_cache_folder_options(tmp_path):
    (tmp_path / "launch.sh").write_text(TOPK1)
    first = _cli("launch.sh", cwd=tmp_path)
    default = tmp_path / ".speclint_cache"
    assert len(_entries(default)) == 1
    assert (default / ".gitignore").read_text().splitlines()[-1] == "*"
    again = _cli("launch.sh", cwd=tmp_path)
    assert again.stdout == first.stdout and again.returncode == first.returncode == 1
    shutil.rmtree(default)
    _cli("--no-cache", "launch.sh", cwd=tmp_path)
    assert not default.exists()
    _cli("--cache-dir", "elsewhere", "launch.sh", cwd=tmp_path)
    assert len(_entries(tmp_path / "elsewhere")) == 1 and not default.exists()
    (tmp_path / "speclint.toml").write_text('cache-dir = "configured"\n')
    _cli("launch.sh", cwd=tmp_path)
    assert len(_entries(tmp_path / "configured")) == 1 and not default.exists()


def test_the_same_file_named_two_ways_prints_the_name_given(tmp_path, monkeypatch):
    script, folder = tmp_path / "launch.sh", tmp_path / "cache"
    script.write_text(TOPK1)
    monkeypatch.chdir(tmp_path)
    relative, _ = lint_job(_job(Path("launch.sh"), folder))
    absolute, _ = lint_job(_job(script, folder))
    assert {f.path for f in relative.findings} == {"launch.sh"}
    assert {f.path for f in absolute.findings} == {str(script)}

"""The hook in .pre-commit-hooks.yaml works with the real pre-commit (`pre-commit try-repo`).

Needs pre-commit (in the test extras) and PyPI to build the hook's environment; skipped
without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        },
    )


@pytest.mark.skipif(not Path(PRE_COMMIT).exists(), reason="pre-commit is not installed")
def test_pre_commit_try_repo_runs_the_hook(tmp_path):
    if not (ROOT / ".git").exists():
        pytest.skip("needs speclint's own git checkout")
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh", project / "launch.sh")
    (project / "ok.sh").write_text("python -m sglang.launch_server --model-path m --tp-size 2\n")
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-qm", "launch scripts")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    bad = subprocess.run(
        [PRE_COMMIT, "try-repo", str(ROOT), "speclint", "--files", "launch.sh"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    if "Could not fetch" in bad.stdout + bad.stderr or "ConnectionError" in bad.stdout:
        pytest.skip("no package index to build the hook environment")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "speclint" in bad.stdout and "Failed" in bad.stdout
    assert "launch.sh:9:87: SPD001 [warning]" in bad.stdout
    good = subprocess.run(
        [PRE_COMMIT, "try-repo", str(ROOT), "speclint", "--files", "ok.sh"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout


def _readme_block(after: str) -> str:
    """The first ```yaml block after the line containing `after` in the README."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index(after)
    block = readme[readme.index("```yaml\n", start) + len("```yaml\n") :]
    return block[: block.index("```")]


@pytest.mark.skipif(not Path(PRE_COMMIT).exists(), reason="pre-commit is not installed")
def test_readme_pre_commit_snippet_runs_as_written(tmp_path):
    """The README's `.pre-commit-config.yaml`, with only the repository URL pointed at a
    local clone of this repository (the tag the snippet names is made there when missing)."""
    import yaml

    if not (ROOT / ".git").exists():
        pytest.skip("needs speclint's own git checkout")
    snippet = _readme_block("pre-commit (`.pre-commit-config.yaml`)")
    config = yaml.safe_load(snippet)
    (repo,) = config["repos"]
    # a repository holding this working tree (what is being tested), tagged as the README says
    clone = tmp_path / "speclint-clone"
    # the files git would commit (tracked, and new ones it does not ignore): no venvs, caches or links
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-qm", "working tree")
    _git(clone, "tag", repo["rev"])
    project = tmp_path / "project"
    project.mkdir()
    (project / ".pre-commit-config.yaml").write_text(snippet.replace(repo["repo"], str(clone)))
    shutil.copy(ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh", project / "launch.sh")
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-qm", "launch scripts")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    ran = subprocess.run(
        [PRE_COMMIT, "run", "--all-files"], cwd=project, capture_output=True, text=True, env=env, timeout=600
    )
    if "Could not fetch" in ran.stdout + ran.stderr or "ConnectionError" in ran.stdout:
        pytest.skip("no package index to build the hook environment")
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "launch.sh:9:87: SPD001 [warning]" in ran.stdout

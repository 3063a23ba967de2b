"""The package as users get it: sdist + wheel build, `twine check`, the wheel installed in a
fresh virtualenv, and the GitHub Action's own steps run as the action runs them.

Marked `packaging` (they build and install: about a minute, need the package index or a
pip cache); `.ci/run` runs them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.packaging
ROOT = Path(__file__).resolve().parent.parent
BAD = (ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh").read_text()
GOOD = "python -m sglang.launch_server --model-path /models/m --tp-size 2\n"


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kwargs)


def _venv(where: Path) -> Path:
    made = _run(sys.executable, "-m", "venv", where)
    assert made.returncode == 0, made.stderr
    return where / "bin"


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = _run(sys.executable, "-m", "build", "--outdir", out, ROOT)
    if built.returncode != 0 and "Could not fetch" in built.stdout + built.stderr:
        pytest.skip("no package index to build with")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def test_sdist_and_wheel_pass_twine_check(dist):
    files = sorted(p.name for p in dist.iterdir())
    assert any(f.endswith(".whl") for f in files) and any(f.endswith(".tar.gz") for f in files)
    checked = _run(sys.executable, "-m", "twine", "check", "--strict", *dist.iterdir())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_wheel_holds_every_package_file(dist):
    wheel = next(dist.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    source = ROOT / "src"
    wanted = {
        str(p.relative_to(source)).replace(os.sep, "/")
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc" and ".egg-info" not in str(p)
    }
    assert wanted - names == set()


def test_wheel_installs_and_runs_in_a_fresh_venv(dist, tmp_path):
    from speclint import __version__

    bin_dir = _venv(tmp_path / "venv")
    wheel = next(dist.glob("*.whl"))
    installed = _run(bin_dir / "python", "-m", "pip", "install", "-q", wheel)
    assert installed.returncode == 0, installed.stderr[-3000:]
    version = _run(bin_dir / "speclint", "--version")
    assert version.returncode == 0
    assert re.fullmatch(
        rf"speclint {re.escape(__version__)} \(SGLang 0\.4\.0 to \S+, \d+ releases\)\n", version.stdout
    ), version.stdout
    (tmp_path / "launch.sh").write_text(BAD)
    linted = _run(bin_dir / "speclint", tmp_path / "launch.sh", cwd=tmp_path)
    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert "launch.sh:9:87: SPD001 [warning]" in linted.stdout


def _action_steps() -> list[dict]:
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    return action["runs"]["steps"]


def _run_action(project: Path, tmp_path: Path, inputs: dict[str, str]) -> list[subprocess.CompletedProcess]:
    """Run the action's `run:` steps in order, as the runner does: inputs through each step's
    `env`, GITHUB_PATH lines added to PATH for the next steps, GITHUB_OUTPUT collected."""
    import yaml

    defaults = {
        k: str(v.get("default", ""))
        for k, v in yaml.safe_load((ROOT / "action.yml").read_text())["inputs"].items()
    }
    values = {**defaults, **inputs}
    github_path, github_output = tmp_path / "github_path", tmp_path / "github_output"
    github_path.write_text("")
    github_output.write_text("")
    done = []
    for step in _action_steps():
        if "run" not in step:
            continue
        env = {
            **os.environ,
            "GITHUB_ACTION_PATH": str(ROOT),
            "RUNNER_TEMP": str(tmp_path),
            "GITHUB_PATH": str(github_path),
            "GITHUB_OUTPUT": str(github_output),
            "INPUT_PYTHON": sys.executable,
        }
        extra = [line for line in github_path.read_text().splitlines() if line]
        env["PATH"] = os.pathsep.join([*reversed(extra), env["PATH"]])
        for name, expression in (step.get("env") or {}).items():
            key = re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", expression).group(1)
            env[name] = values[key]
        done.append(
            subprocess.run(
                [step["shell"], "-c", step["run"]],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
        )
        if done[-1].returncode != 0:
            break
    return done


def test_action_steps_annotate_and_write_sarif(tmp_path):
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    (project / "scripts" / "bad.sh").write_text(BAD)
    (project / "scripts" / "ok.sh").write_text(GOOD)
    install, lint = _run_action(project, tmp_path, {"paths": "scripts", "sarif": "true"})
    assert install.returncode == 0, install.stderr[-3000:]
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "::warning file=scripts/bad.sh,line=9,col=87" in lint.stdout
    sarif = json.loads((project / "speclint.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert any(r["ruleId"] == "SPD001" for r in results)
    assert "sarif-file=speclint.sarif" in (tmp_path / "github_output").read_text()


def test_action_fail_on_error_passes_warnings(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "bad.sh").write_text(BAD)
    install, lint = _run_action(project, tmp_path, {"paths": "bad.sh", "fail-on": "error"})
    assert install.returncode == 0, install.stderr[-3000:]
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "::warning file=bad.sh" in lint.stdout
    assert not (project / "speclint.sarif").exists()


def test_readme_action_snippet_runs_as_written(tmp_path):
    """The README's workflow: its speclint step's `with:` inputs, run through the action."""
    import yaml

    readme = (ROOT / "README.md").read_text()
    start = readme.index("GitHub Actions: the composite action")
    block = readme[readme.index("```yaml\n", start) + 8 :]
    workflow = yaml.safe_load(block[: block.index("```")])
    steps = workflow["jobs"]["speclint"]["steps"]
    (step,) = [s for s in steps if s.get("uses", "").split("@")[0].endswith("/speclint")]
    inputs = {
        key: str(value).lower() if isinstance(value, bool) else str(value)
        for key, value in step["with"].items()
    }
    project = tmp_path / "project"
    for folder in inputs["paths"].split():
        if not folder.endswith(".md"):
            (project / folder).mkdir(parents=True)
    (project / "scripts" / "serve.sh").write_text(BAD)
    (project / "README.md").write_text("# serving\n\n```bash\n" + GOOD + "```\n")
    install, lint = _run_action(project, tmp_path, inputs)
    assert install.returncode == 0, install.stderr[-3000:]
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "::warning file=scripts/serve.sh,line=9,col=87" in lint.stdout
    assert (project / "speclint.sarif").exists()

"""`ray job submit --runtime-env-json '{"env_vars": {...}}' -- COMMAND`: the entrypoint runs
with the runtime environment's `env_vars` set (Ray's runtime_env), not the script's."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

SCRIPT = FixtureFile("shell/ray_job_submit.sh")


def test_the_runtime_env_vars_are_the_launch_environment():
    (gpus,) = [f for f in SCRIPT.findings() if f[0] == "PAR001"]
    assert gpus[1:3] == (4, 3)
    assert gpus[3].startswith("--runtime-env-json=")
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in gpus[4]
    (launch,) = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert {name: word.text for name, word in launch.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/data/hf",
    }


def test_without_a_runtime_env_the_script_variables_do_not_reach_the_job():
    text = (
        "export CUDA_VISIBLE_DEVICES=0\n"
        "ray job submit --address http://h:8265 -- python3 -m sglang.launch_server --model-path /m --tp-size 2\n"
    )
    assert not [f for f in lint_text(text, "job.sh").findings if f.code == "PAR001"]

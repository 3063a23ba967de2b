"""KubeRay's RayJob: `spec.entrypoint` is submitted to the Ray cluster as `ray job submit`
runs it, in the head group's image, with `runtimeEnvYAML`'s `env_vars` set. Before, the file
was reported as naming the launcher with no launch found (SLM005)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

JOB = FixtureFile("k8s/rayjob_entrypoint.yaml")


def test_the_entrypoint_is_read_as_a_launch():
    found = JOB.findings()
    assert not [f for f in found if f[0] == "SLM005"]
    (steps,) = [f for f in found if f[0] == "SPD002"]
    assert steps[1:4] == (8, 151, "3")
    assert "--speculative-num-steps is given without --speculative-eagle-topk" in steps[4]


def test_the_runtime_env_and_head_image_are_the_launch_s():
    (launch,) = extract_file(str(JOB.path), JOB.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2"
    assert {name: word.text for name, word in launch.env.items()} == {"CUDA_VISIBLE_DEVICES": "0"}
    (gpus,) = [f for f in JOB.findings() if f[0] == "PAR001"]
    assert gpus[1:3] == (9, 19)
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in gpus[4]

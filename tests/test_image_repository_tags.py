"""Which image tags name an SGLang release: an `sglang` repository's (`lmsysorg/sglang`, a mirror
behind a registry with a port, a rebuild such as `chutes/sglang`), not an image whose name only
contains "sglang" (`runpod/worker-sglang:2.0.2` is RunPod's worker 2.0.2, not SGLang 2.0.2).
Before, the worker's tag was read as SGLang 2.0.2 ("newer than every release speclint knows"),
and a mirror behind `registry:5000/` was not read at all (its name was cut at the port's colon)."""

from __future__ import annotations

from pathlib import Path

from speclint_runs import run_speclint

from speclint.sglang.flags.versions import version_from_image

LAUNCH = "python3 -m sglang.launch_server --model-path /m --tp-size 2"


def _summary(tmp_path: Path, image: str) -> str:
    script = tmp_path / "serve.sh"
    script.write_text(f"docker run --gpus all {image} \\\n  {LAUNCH}\n")
    run = run_speclint("--no-cache", str(script), cwd=tmp_path)
    assert run.returncode in (0, 1), run.stderr
    return run.stdout


def test_sglang_repositories_name_their_release() -> None:
    assert version_from_image("registry.local:5000/sglang:0.5.10.post1") == "0.5.10.post1"
    assert version_from_image("docker.io/lmsysorg/sglang:v0.5.6.post2-cu126") == "0.5.6.post2"
    assert (
        version_from_image("123456789012.dkr.ecr.us-west-2.amazonaws.com/sglang:0.4.9-gpu-py312") == "0.4.9"
    )


def test_an_image_only_named_after_sglang_names_no_release() -> None:
    for image in (
        "runpod/worker-sglang:2.0.2",
        "runpod/worker-sglang:v0.4.1stable",
        "myorg/sglang-custom:1.2.0",
        "lmsysorg/sglang-router:v0.2.1",
    ):
        assert version_from_image(image) is None, image


def test_a_mirror_behind_a_registry_port_is_read(tmp_path: Path) -> None:
    out = _summary(tmp_path, "registry.local:5000/sglang:0.5.10.post1")
    assert (
        "checked against SGLang 0.5.10.post1 (from the image registry.local:5000/sglang:0.5.10.post1 at "
        in out
    )


def test_a_worker_image_tag_is_said_not_read(tmp_path: Path) -> None:
    out = _summary(tmp_path, "runpod/worker-sglang:2.0.2")
    assert "names 2.0.2" not in out  # was: "the image runpod/worker-sglang:2.0.2 names 2.0.2, newer than ..."
    assert (
        "the image runpod/worker-sglang:2.0.2 is not an `sglang` repository, so its tag is not read as an "
        "SGLang release; set --sglang-version to the SGLang it runs"
    ) in out

"""`bash -lc -- 'CODE'` (KubeRay's `command: ["/bin/bash", "-lc", "--"]` with the script in
`args:`) runs CODE: `--` ends bash's options (it was read as the script, and the launch in
CODE was never found). A container file on disk (`apptainer exec /opt/sglang.sif ...`) names
no SGLang release: it was read as the image `sglang:latest`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import findings_at

from speclint.sglang.flags.versions import version_from_image

SPEC = (
    "--speculative-algorithm EAGLE --speculative-num-steps 1 --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens 16"
)


def test_bash_lc_double_dash_runs_the_script_that_follows() -> None:
    line = f"bash -lc -- 'python3 -m sglang.launch_server --model-path /m {SPEC}'"
    assert ("SPD001", 1, line.rindex("16") + 1, "16") in findings_at(line + "\n", "run.sh")


def test_a_kuberay_head_whose_command_ends_with_double_dash() -> None:
    script = f"python3 -m sglang.launch_server --model-path /m {SPEC}"
    text = (
        "apiVersion: ray.io/v1\nkind: RayService\nspec:\n  rayClusterConfig:\n    headGroupSpec:\n"
        "      template:\n        spec:\n          containers:\n            - name: ray-head\n"
        "              image: lmsysorg/sglang:v0.5.4\n"
        '              command: ["/bin/bash", "-lc", "--"]\n'
        f"              args:\n                - {script}\n"
    )
    assert ("SPD001", 13, 19 + script.rindex("16"), "16") in findings_at(text, "rayservice.yaml")


def test_a_container_file_on_disk_names_no_release(tmp_path: Path) -> None:
    for image in ("sglang.sif", "/opt/images/sglang.sif", "./sglang_v0.5.2.sqsh", "~/sglang.img"):
        assert version_from_image(image) is None, image
    assert version_from_image("lmsysorg/sglang:v0.5.2-cu124") == "0.5.2"
    assert version_from_image("lmsysorg/sglang") is not None  # a registry image without a tag: latest
    script = tmp_path / "serve.sh"
    script.write_text("apptainer exec --nv /opt/sglang.sif python3 -m sglang.launch_server --model-path /m\n")
    run = subprocess.run(
        [sys.executable, "-m", "speclint", "--no-cache", str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "1 launch in 1 file" in run.stdout
    assert "from the image" not in run.stdout  # was: "from the image /opt/sglang.sif"
    assert "no image tag" in run.stdout

"""Under Slurm `srun`, the CUDA_VISIBLE_DEVICES a launch sees is Slurm's, not the script's.

slurmstepd builds a step's environment from the one srun sends (the caller's, or `--export`),
then Slurm's gres/gpu plugin overwrites CUDA_VISIBLE_DEVICES with the GPUs the step holds on
the node, or unsets it when it holds none, wherever gres.conf configures the node's GPUs
(src/interfaces/gres.c `gres_g_step_set_env`, src/plugins/gres/common/gres_common.c
`gres_common_gpu_set_env`); a step that asks for no GRES takes the job's request
(src/slurmctld/step_mgr.c `_copy_job_tres_to_step`). Which GPUs, and whether a site configures
them so, is not in the script: PAR001 does not compare the script's value with the launch.
"""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.frontends.shell.script import extract_shell

LAUNCH = "python -m sglang.launch_server --model-path m --tp 8"
EXPORTED = "export CUDA_VISIBLE_DEVICES=0\n"

# srun's GPU options as users write them: the option the reason names, the word it points at
FORMS = {
    "--gres=gpu:8": ("--gres=gpu:8", "--gres=gpu:8"),
    "--gres gpu:8": ("--gres=gpu:8", "gpu:8"),
    "--gres=gpu:h100:8": ("--gres=gpu:h100:8", "--gres=gpu:h100:8"),
    "--gpus=8": ("--gpus=8", "--gpus=8"),
    "-G 8": ("-G 8", "8"),
    "--gpus-per-node=8": ("--gpus-per-node=8", "--gpus-per-node=8"),
    "--gpus-per-task=8": ("--gpus-per-task=8", "--gpus-per-task=8"),
    "-N 2 --ntasks-per-node=1 --gpus-per-node 8": ("--gpus-per-node=8", "8"),
    "--tres-per-task=gres/gpu:8": ("--tres-per-task=gres/gpu:8", "--tres-per-task=gres/gpu:8"),
}


def _par001(text: str) -> list[tuple[int, int, int]]:
    return [
        (f.span.line, f.span.column, f.span.end_column)
        for f in lint_text(text, "t.sh").findings
        if f.code == "PAR001"
    ]


def test_without_srun_the_script_s_value_is_checked() -> None:
    # what the forms below would report if srun passed the caller's value on
    assert _par001(f"{EXPORTED}{LAUNCH}\n") == [(1, 29, 30)]


@pytest.mark.parametrize("form", FORMS)
def test_a_gpu_option_makes_slurm_s_value_the_launch_s(form: str) -> None:
    text = f"{EXPORTED}srun {form} {LAUNCH}\n"
    assert _par001(text) == []
    (launch,) = extract_shell(text, "t.sh").launches
    word = launch.env["CUDA_VISIBLE_DEVICES"]
    assert word.text is None
    named, pointed = FORMS[form]
    assert word.dynamic_reason == (
        f"Slurm sets CUDA_VISIBLE_DEVICES for each srun task to the GPUs it gives the step ({named}), "
        "over the caller's value, on a node whose gres.conf configures its GPUs"
    )
    line = text.splitlines()[word.span.line - 1]
    assert line[word.span.column - 1 : word.span.end_column - 1] == pointed


def test_without_a_gpu_option_the_step_takes_the_job_s_gpus() -> None:
    text = f"{EXPORTED}srun -N 1 {LAUNCH}\n"
    assert _par001(text) == []
    (launch,) = extract_shell(text, "t.sh").launches
    word = launch.env["CUDA_VISIBLE_DEVICES"]
    assert (word.text, word.span.line, word.span.column) == (None, 2, 1)  # at `srun`
    assert word.dynamic_reason is not None
    assert "the GPUs the step takes from the job's allocation" in word.dynamic_reason


@pytest.mark.parametrize("gres", ["--gres=none", "--gres=nic:1"])
def test_a_step_without_gpus_has_it_unset(gres: str) -> None:
    text = f"{EXPORTED}srun {gres} {LAUNCH}\n"
    assert _par001(text) == []
    (launch,) = extract_shell(text, "t.sh").launches
    reason = launch.env["CUDA_VISIBLE_DEVICES"].dynamic_reason
    assert (
        reason
        == f"Slurm unsets CUDA_VISIBLE_DEVICES for an srun step without GPUs ({gres}) on a node whose gres.conf configures its GPUs"
    )


@pytest.mark.parametrize(
    "script",
    [
        "srun --export=ALL,CUDA_VISIBLE_DEVICES=0 --gres=gpu:8",  # passed by srun, still overwritten
        "SLURM_EXPORT_ENV=ALL,CUDA_VISIBLE_DEVICES=0 srun -G 8",
        "CUDA_VISIBLE_DEVICES=0 srun",
    ],
)
def test_a_value_srun_passes_on_is_overwritten(script: str) -> None:
    assert _par001(f"{script} {LAUNCH}\n") == []


@pytest.mark.parametrize(
    ("script", "where"),
    [
        # set inside the task, after Slurm: the launch sees the script's value
        (f"srun --gres=gpu:8 env CUDA_VISIBLE_DEVICES=0 {LAUNCH}", (1, 44, 45)),
        (f'srun --gres=gpu:8 bash -c "CUDA_VISIBLE_DEVICES=0 {LAUNCH}"', (1, 49, 50)),
    ],
)
def test_a_value_set_inside_the_task_is_checked(script: str, where: tuple[int, int, int]) -> None:
    assert _par001(f"{script}\n") == [where]

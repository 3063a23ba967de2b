"""Slurm's own variables (srun(1) and sbatch(1), "OUTPUT ENVIRONMENT VARIABLES"), by name, and
why one is unknown: a leaf module, asked by the variable and expansion code of the shell
front-end (`slurm_task_env` says where Slurm sets them)."""

from __future__ import annotations

SLURM_VARIABLE = "__speclint_slurm"
"""In a shell Slurm runs (`srun bash -c`, `sbatch --wrap`): the hidden variable whose reason says
whose environment Slurm sets its variables in (`slurm_reason`)."""

PER_TASK = frozenset({"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURMD_NODENAME", "SLURM_TASK_PID"})
"""Set to a different value in each task (its rank, its rank on its node, its node's index,
its node's name)."""

PER_JOB = frozenset(
    {
        "SLURM_NNODES",
        "SLURM_JOB_NUM_NODES",
        "SLURM_STEP_NUM_NODES",
        "SLURM_NTASKS",
        "SLURM_NPROCS",
        "SLURM_STEP_NUM_TASKS",
        "SLURM_NTASKS_PER_NODE",
        "SLURM_TASKS_PER_NODE",
        "SLURM_JOB_NODELIST",
        "SLURM_NODELIST",
        "SLURM_STEP_NODELIST",
        "SLURM_JOB_ID",
        "SLURM_JOBID",
        "SLURM_STEP_ID",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_SUBMIT_DIR",
        "SLURM_SUBMIT_HOST",
        "SLURM_JOB_PARTITION",
        "SLURM_CPUS_ON_NODE",
        "SLURM_GPUS_ON_NODE",
    }
)
"""The same in every task of the job (or of the job step `srun` starts)."""


def slurm_reason(name: str, where: str) -> str | None:
    """Why Slurm's variable `name` is unknown in `where`; None for another variable."""
    if name not in PER_TASK and name not in PER_JOB:
        return None
    each = " (each task its own)" if name in PER_TASK else ""
    return f"${name} is set by Slurm in {where}{each}, known only when the job runs"


def named(written: str, names: frozenset[str]) -> str | None:
    """The first of `names` that `written` expands (`$NAME`, `${NAME...}`)."""
    return next((n for n in sorted(names) if f"${n}" in written or "${" + n in written), None)


def slurm_source(written: str) -> str:
    """For the reason of a value computed from text (`$(scontrol show hostnames
    "$SLURM_JOB_NODELIST" | head -n 1)`, `${SLURM_JOB_NODELIST%%,*}`): which Slurm variable
    it is computed from, when it names one; else nothing."""
    name = named(written, PER_TASK) or named(written, PER_JOB)
    return f" (from ${name}, which Slurm sets where the job runs)" if name is not None else ""

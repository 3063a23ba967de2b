"""The variables Slurm sets where a job runs (srun(1) and sbatch(1), "OUTPUT ENVIRONMENT
VARIABLES"): `$SLURM_PROCID`, `$SLURM_NODEID`, `$SLURM_NNODES`, `$SLURM_JOB_NODELIST`...
in each task `srun` starts and in a batch script (`sbatch --wrap`). Their values are known only
when the job runs, and some differ from task to task: a launch that uses them for
`--node-rank`, `--nnodes` or `--dist-init-addr` is read with those values unknown, the reason
naming the variable, never a value guessed. Written in the arguments of `srun` itself (`srun
python -m sglang.launch_server --node-rank $SLURM_NODEID`), a task's own variable is expanded
by the shell that runs `srun`, before any task starts: every task gets that shell's one value,
which the reason says.
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg

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


SLURM_VARIABLE = "__speclint_slurm"
"""In a shell Slurm runs (`srun bash -c`, `sbatch --wrap`): the variable whose reason says
whose environment Slurm sets its variables in (`slurm_reason`)."""


def with_slurm(env: dict[str, Word], where: str) -> dict[str, Word]:
    """`env` as the environment of a command Slurm runs (`where`: whose, for the reason)."""
    from speclint.frontends.shell.docker_env_files import ContainerEnv

    found = env if isinstance(env, ContainerEnv) else ContainerEnv(env)
    found.slurm = where
    return found


def slurm_reason(name: str, where: str) -> str | None:
    """Why Slurm's variable `name` is unknown in `where`; None for another variable."""
    if name not in PER_TASK and name not in PER_JOB:
        return None
    each = " (each task its own)" if name in PER_TASK else ""
    return f"${name} is set by Slurm in {where}{each}, known only when the job runs"


def expanded_before_tasks(args: list[Arg], start: int, srun: Word) -> list[Arg]:
    """`args` with each word from `start` on (the command `srun` runs) whose unknown value
    comes from a task's own Slurm variable written there (`--node-rank $SLURM_NODEID`) saying
    that the shell running `srun` expands it once, for every task."""
    from speclint.frontends.shell.expand import Arg

    out = list(args)
    for k in range(start, len(args)):
        arg = args[k]
        if arg.word.text is not None or arg.node is None or arg.node.text is None:
            continue
        written = arg.node.text.decode("utf-8", "replace")
        name = _named(written, PER_TASK) or _named(written, PER_JOB)
        if name is None:
            continue
        line = srun.span.line
        reason = (
            f"${name} is expanded by the shell that runs `srun` (line {line}) before srun starts "
            f"its tasks: every task gets that shell's one value, not its own (each task's is set by Slurm "
            "in the task, known only when the job runs)"
            if name in PER_TASK
            else f"${name} is expanded by the shell that runs `srun` (line {line}): the value Slurm "
            "sets where that shell runs, known only when the job runs"
        )
        word = arg.word
        out[k] = Arg(
            Word(None, word.span, word.origin, dynamic_reason=reason, splat=word.splat, prefix=word.prefix),
            arg.node,
        )
    return out


def _named(written: str, names: frozenset[str]) -> str | None:
    """The first of `names` that `written` expands (`$NAME`, `${NAME...}`)."""
    return next((n for n in sorted(names) if f"${n}" in written or "${" + n in written), None)


def slurm_source(written: str) -> str:
    """For the reason of a value computed from text (`$(scontrol show hostnames
    "$SLURM_JOB_NODELIST" | head -n 1)`, `${SLURM_JOB_NODELIST%%,*}`): which Slurm variable
    it is computed from, when it names one; else nothing."""
    name = _named(written, PER_TASK) or _named(written, PER_JOB)
    return f" (from ${name}, which Slurm sets where the job runs)" if name is not None else ""

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
from speclint.frontends.shell.slurm_names import PER_JOB, PER_TASK, named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg


def with_slurm(env: dict[str, Word], where: str) -> dict[str, Word]:
    """`env` as the environment of a command Slurm runs (`where`: whose, for the reason)."""
    from speclint.frontends.shell.docker_env_files import ContainerEnv

    found = env if isinstance(env, ContainerEnv) else ContainerEnv(env)
    found.slurm = where
    return found


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
        name = named(written, PER_TASK) or named(written, PER_JOB)
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

"""The `CUDA_VISIBLE_DEVICES` a Slurm `srun` task gets: Slurm's, not the caller's.

Read from Slurm's source (src/slurmd/slurmstepd/slurmstepd_job.c, src/interfaces/gres.c
`gres_g_step_set_env`, src/plugins/gres/common/gres_common.c `gres_common_gpu_set_env`,
src/slurmctld/step_mgr.c `_copy_job_tres_to_step`): slurmstepd builds the step's environment
from the one srun sends (`--export`), then calls every GRES plugin on it. The gpu plugin
overwrites `CUDA_VISIBLE_DEVICES` with the GPUs the step holds on the node, or unsets it when
the step holds none (`--gres=none`, or a job without GPUs), wherever the node's gres.conf
configures GPUs with the NVIDIA environment flag (the default for `Name=gpu`; AutoDetect=nvml
sets it). A step whose srun line requests no GRES takes the job's GPU request. Whether a
site configures GPUs so, and which GPUs the step gets, cannot be read from the script: the
value is unknown.
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.launcher_options import Value

VISIBLE = "CUDA_VISIBLE_DEVICES"
# srun options that ask GPUs for the step (src/srun/opt.c: --gres, --gpus / -G,
# --gpus-per-node, --gpus-per-socket, --gpus-per-task, --tres-per-task, --ntasks-per-gpu)
GPU_OPTIONS = frozenset(
    {"--gres", "--gpus", "-G", "--gpus-per-node", "--gpus-per-socket", "--gpus-per-task"}
    | {"--tres-per-task", "--ntasks-per-gpu"}
)
_WHERE = "on a node whose gres.conf configures its GPUs"


def slurm_visible_devices(kept: dict[str, Value], srun: Word) -> Word:
    """The unknown `CUDA_VISIBLE_DEVICES` of an srun task, pointing at the option that asks
    for GPUs (at `srun` when none does) and saying why."""
    given = sorted(
        (_Given(option, *kept[option]) for option in GPU_OPTIONS if option in kept),
        key=lambda given: (given.arg.word.span.line, given.arg.word.span.column),
    )
    asking = [option for option in given if option.asks_gpus()]
    if asking:
        reason = (
            "Slurm sets CUDA_VISIBLE_DEVICES for each srun task to the GPUs it gives the step "
            f"({asking[0].written()}), over the caller's value, {_WHERE}"
        )
        return Word(None, asking[0].arg.word.span, dynamic_reason=reason)
    gres = next((option for option in given if option.option == "--gres"), None)
    if gres is not None:  # `--gres=none`, `--gres=nic:1`: the step holds no GPU
        reason = (
            f"Slurm unsets CUDA_VISIBLE_DEVICES for an srun step without GPUs ({gres.written()}) {_WHERE}"
        )
        return Word(None, gres.arg.word.span, dynamic_reason=reason)
    reason = (
        "Slurm sets CUDA_VISIBLE_DEVICES for each srun task to the GPUs the step takes from the "
        f"job's allocation (the srun line asks for none), over the caller's value, {_WHERE}"
    )
    return Word(None, srun.span, dynamic_reason=reason)


class _Given:
    """One GPU option on the srun line, with the word that holds its value."""

    __slots__ = ("arg", "option", "value")

    def __init__(self, option: str, arg: Arg, skip: int) -> None:
        self.option = option
        self.arg = arg
        self.value = arg.word.text[skip:] if arg.word.text is not None else None

    def written(self) -> str:
        """`--gres=gpu:8`, `-G 8` (the option alone when its value is unknown)."""
        if self.value is None:
            return self.option
        return f"{self.option}{'=' if self.option.startswith('--') else ' '}{self.value}"

    def asks_gpus(self) -> bool:
        """`--gres` and `--tres-per-task` ask for GPUs only when their value names them (or
        is unknown): Slurm copies the job's request to a step whose options name no GRES."""
        if self.value is None or self.option not in ("--gres", "--tres-per-task"):
            return True
        return any(_names_gpu(item) for item in self.value.split(","))


def _names_gpu(item: str) -> bool:
    """`gpu:8`, `gpu:a100:2`, `gres/gpu:1` name GPUs; `none`, `nic:1`, `cpu:4` do not."""
    item = item.strip().lower()
    for prefix in ("gres/", "gres:"):
        item = item.removeprefix(prefix)
    return item.split(":", 1)[0] == "gpu"

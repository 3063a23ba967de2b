"""Slurm `srun` in front of SGLang: its options (from Slurm's own option table), the
environment its tasks get (`slurm_export`, `slurm_gres`) and a pyxis container image.
Imported only for a launch behind `srun`."""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable, value_word, walk_options
from speclint.frontends.shell.slurm_export import apply_export, export_from_environment
from speclint.frontends.shell.slurm_gres import GPU_OPTIONS, VISIBLE, slurm_visible_devices

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.launcher_options import Value

# Slurm srun (src/srun/libsrun/opt.c): getopt string "+A:B:c:C:d:D:e:EG:hHi:I::jJ:k::K::lL:m:
# M:n:N:o:Op:P:q:Qr:sS:t:T:uU:vVw:W:x:XZ" (letters with one colon take a value) and the long
# options declared `required_argument`; plus the pyxis container options (`--container-image`).
SRUN_SHORT_VALUE = frozenset("ABcCdDeGiJLmMnNopPqrStTUwWx")
SRUN_LONG_VALUE = frozenset(
    """account extra-node-info cpus-per-task constraint dependency chdir
    error gpus input job-name licenses distribution clusters ntasks nodes output partition
    pack-group het-group qos relative core-spec time threads uid nodelist wait exclude
    accel-bind acctg-freq bb bbf begin checkpoint checkpoint-dir comment cores-per-socket
    cpu-bind cpu_bind cpu-freq cpus-per-gpu deadline delay-boot epilog export gid gpu-bind
    gpu-freq gpus-per-node gpus-per-socket gpus-per-task gres gres-flags hint jobid launcher-opts
    mail-type mail-user mcs-label mem mem-per-cpu mem-per-gpu mem-bind mem_bind mincores mincpus
    minsockets minthreads mpi msg-timeout network ntasks-per-core ntasks-per-node
    ntasks-per-socket ntasks-per-gpu open-mode power priority profile prolog reservation
    restart-dir signal slurmd-debug sockets-per-node switches task-epilog task-prolog
    tasks-per-node thread-spec time-min threads-per-core tres-per-job tres-per-task tres-bind
    tmp wckey container container-id container-image container-mounts container-workdir
    container-name container-save container-env segment export-file""".split()
)

# `--export` (its last value) is read by `slurm_export`, the GPU options by `slurm_gres`
SRUN = OptionTable(
    value=frozenset("-" + letter for letter in SRUN_SHORT_VALUE)
    | frozenset("--" + name for name in SRUN_LONG_VALUE),
    kept=frozenset({"--container-image", "--export"}) | GPU_OPTIONS,
)


def srun_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, str | None, Word | None]:
    """Index of the command after `srun [options] [--]` (i: the first word after `srun`), and
    the pyxis `--container-image` with its word, when given. `env` becomes what the tasks get
    (`--export`, or `SRUN_EXPORT_ENV` / `SLURM_EXPORT_ENV`; unchanged when its value is unknown),
    with the `CUDA_VISIBLE_DEVICES` Slurm gives them: unknown (`slurm_gres`)."""
    srun = args[i - 1].word
    i, _, kept = walk_options(SRUN, args, i)
    _export(kept, env)
    env[VISIBLE] = slurm_visible_devices(kept, srun)
    if "--container-image" not in kept:
        return i, None, None
    arg, skip = kept["--container-image"]
    name = arg.word.text[skip:] if arg.word.text is not None else None
    if name is not None and "://" in name:
        name = name.split("://", 1)[1]
    if name is not None and "#" in name:  # pyxis `registry#image:tag`
        name = name.split("#", 1)[1]
    return i, name, arg.word


def _export(kept: dict[str, Value], env: dict[str, Word]) -> None:
    """Apply srun's `--export` list, from the option or from the caller's environment."""
    if "--export" in kept:
        arg, skip = kept["--export"]
        if arg.word.text is None:
            return
        text = arg.word.text[skip:]
        apply_export(text, lambda start, stop: value_word(arg, skip + start, skip + stop), env)
        return
    listed = export_from_environment(env)
    if listed is not None:
        apply_export(*listed, env)

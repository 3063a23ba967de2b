"""Launchers people put in front of SGLang: Slurm `srun`, MPI `mpirun`/`mpiexec`, Apptainer /
Singularity `exec`, `kubectl exec`. Each skips its own options (knowing which take a value,
from each tool's own option table) and hands the command after them back to `launch`;
options that set the launched process's environment are read into the launch's env.
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg

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

# Open MPI mpirun / MPICH and Intel MPI mpiexec: options with one value, and with two
# (`-mca NAME VALUE`, `-genv NAME VALUE`). Open MPI accepts long options with one dash too.
MPI_ONE_VALUE = frozenset(
    """np n c N H host hostfile machinefile f wdir wd path prefix
    npernode npersocket map-by bind-to rank-by ppn hosts configfile bootstrap launcher iface
    genvlist envlist output-filename rankfile rf tune app am cpus-per-proc cpus-per-rank
    report-bindings-file x display-map-file mca-param-file timeout""".split()
)
MPI_TWO_VALUES = frozenset("mca gmca genv env".split())

# apptainer / singularity exec: options that take a value (the others are switches).
APPTAINER_VALUE = frozenset(
    """-B --bind --mount --env --env-file -H --home -W --workdir --pwd -o
    --overlay --security --app -S --scratch --network --network-args --hostname --dns --add-caps
    --drop-caps --fusemount --apply-cgroups --cpus --memory --memory-reservation --memory-swap
    --cpu-shares --cpuset-cpus --cpuset-mems --blkio-weight --pem-path --no-mount --config
    --passphrase-file --pid-file --cdi-dirs --device --authfile""".split()
)
APPTAINER_CLEAN_ENV = frozenset({"-e", "--cleanenv", "-C", "--containall"})

# kubectl: global and `exec` options that take a value.
KUBECTL_VALUE = frozenset(
    """-n --namespace --context --kubeconfig --cluster --user -s --server
    --token --as --as-group --as-uid -c --container -f --filename --pod-running-timeout
    --request-timeout --certificate-authority --client-certificate --client-key
    --cache-dir -v --log-file""".split()
)


def skip_options(args: list[Arg], i: int, with_value: frozenset[str], positional: int) -> int:
    """The index after a launcher's options (`with_value` take the next word) and its
    `positional` words before the command."""
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            break
        i += 1
        if text == "--":
            break
        if text in with_value:
            i += 1
    return i + positional


def value_word(arg: Arg, skip: int) -> Word:
    """The part of `NAME=value` after `=`, with an exact span when the word is written plainly."""
    word = arg.word
    text = word.text or ""
    span = word.span
    exact = (
        arg.node is not None
        and arg.node.type == "word"
        and span.line == span.end_line
        and span.end_column - span.column == len(text)
    )
    return Word(text[skip:], span.sub(skip, len(text)) if exact else span, word.origin)


def _name_value(text: str) -> tuple[str, str] | None:
    if "=" not in text:
        return None
    name, value = text.split("=", 1)
    return (name, value) if name.replace("_", "a").isalnum() and not name[:1].isdigit() else None


def srun_command(args: list[Arg], i: int) -> tuple[int, str | None, Word | None]:
    """Index of the command after `srun [options] [--]` (i: the first word after `srun`), and
    the pyxis `--container-image` with its word, when given."""
    image: tuple[str | None, Word | None] = (None, None)
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            break
        i += 1
        if text == "--":
            break
        if text.startswith("--container-image="):
            image = (text.split("=", 1)[1], args[i - 1].word)
        elif text == "--container-image" and i < len(args):
            image = (args[i].word.text, args[i].word)
        if text.startswith("--"):
            if "=" not in text and text[2:] in SRUN_LONG_VALUE:
                i += 1
        elif len(text) == 2 and text[1] in SRUN_SHORT_VALUE:
            i += 1
    name = image[0]
    if name is not None and "://" in name:
        name = name.split("://", 1)[1]
    if name is not None and "#" in name:  # pyxis `registry#image:tag`
        name = name.split("#", 1)[1]
    return i, name, image[1]


def mpi_command(args: list[Arg], i: int, env: dict[str, Word]) -> int:
    """Index of the command after `mpirun [options]`; `-x NAME=VALUE`, `-x NAME`, `-genv` and
    `-env NAME VALUE` are read into `env`."""
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            return i
        i += 1
        if text == "--":
            return i
        name = text.lstrip("-")
        if "=" in name and text.startswith("--"):
            continue
        if name in MPI_TWO_VALUES:
            variable = args[i].word.text if i < len(args) else None
            if name in ("genv", "env") and i + 1 < len(args) and variable:
                env[variable] = args[i + 1].word
            i += 2
        elif name in MPI_ONE_VALUE:
            assignment = args[i].word.text if i < len(args) else None
            if name == "x" and assignment:
                pair = _name_value(assignment)
                if pair is not None:
                    env[pair[0]] = value_word(args[i], len(pair[0]) + 1)
            i += 1
    return i


def apptainer_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, str | None, Arg | None]:
    """For `apptainer|singularity exec [options] IMAGE COMMAND...` (i: the word after the tool):
    the command's index, the image reference and its word (None when not `exec`). `env` becomes
    what the container's process sees: the host's unless `--cleanenv`, plus `--env` values."""
    if i >= len(args) or args[i].word.text != "exec":
        return len(args), None, None
    i += 1
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            break
        i += 1
        option, value_arg, skip = text, None, 0
        if text.startswith("--") and "=" in text:
            option = text.split("=", 1)[0]
            value_arg, skip = args[i - 1], len(option) + 1
        elif text in APPTAINER_VALUE and i < len(args):
            value_arg = args[i]
            i += 1
        if text in APPTAINER_CLEAN_ENV:
            env.clear()
        if option == "--env" and value_arg is not None and value_arg.word.text:
            for part in value_arg.word.text[skip:].split(","):
                pair = _name_value(part)
                if pair is not None and "," not in value_arg.word.text[skip:]:
                    env[pair[0]] = value_word(value_arg, skip + len(pair[0]) + 1)
                elif pair is not None:
                    env[pair[0]] = Word(pair[1], value_arg.word.span, value_arg.word.origin)
    if i >= len(args):
        return i, None, None
    image = args[i].word.text
    if image is not None and image.startswith(("docker://", "oras://", "library://")):
        image = image.split("://", 1)[1]
    return i + 1, image, args[i]


def kubectl_command(args: list[Arg], i: int) -> int:
    """Index of the command run by `kubectl [options] exec [options] POD [--] COMMAND...`
    (len(args) when this is not `kubectl exec`)."""
    seen_exec = False
    pod_seen = False
    while i < len(args):
        text = args[i].word.text
        if text == "--":
            return i + 1 if seen_exec else len(args)
        if text is not None and text.startswith("-") and text != "-":
            i += 2 if text in KUBECTL_VALUE else 1
            continue
        if not seen_exec:
            if text != "exec":
                return len(args)
            seen_exec = True
        elif not pod_seen:
            pod_seen = True
        else:
            return i  # the old form without `--`
        i += 1
    return len(args)

"""Launchers people put in front of SGLang: MPI `mpirun`/`mpiexec`, Apptainer / Singularity
`exec`, `kubectl exec` (Slurm `srun` has its own module, `srun`). Each is an `OptionTable`
(which options take a value, from each tool's own option table; which set the launched
process's environment) read by `launcher_options.walk_options`; what follows the options is
handed back to `launch`.
"""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable, walk_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg

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


MPI = OptionTable(
    value=MPI_ONE_VALUE,
    two_values=MPI_TWO_VALUES,
    sets_env=frozenset({"x"}),
    sets_env_pair=frozenset({"genv", "env"}),
    any_dashes=True,
    attached=False,  # `--x=NAME=VALUE` is one word, not read
)
# `--` is read as a switch, as speclint always has (apptainer's flag parser ends the options
# there: the two differ only for options written after `--`)
APPTAINER = OptionTable(
    value=APPTAINER_VALUE,
    sets_env_list=frozenset({"--env"}),
    clears_env=APPTAINER_CLEAN_ENV,
    ends=frozenset(),
)
KUBECTL = OptionTable(value=KUBECTL_VALUE)


def mpi_command(args: list[Arg], i: int, env: dict[str, Word]) -> int:
    """Index of the command after `mpirun [options]`; `-x NAME=VALUE`, `-genv` and
    `-env NAME VALUE` are read into `env`."""
    return walk_options(MPI, args, i, env)[0]


def apptainer_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, str | None, Arg | None]:
    """For `apptainer|singularity exec [options] IMAGE COMMAND...` (i: the word after the tool):
    the command's index, the image reference and its word (None when not `exec`). `env` becomes
    what the container's process sees: the host's unless `--cleanenv`, plus `--env` values."""
    if i >= len(args) or args[i].word.text != "exec":
        return len(args), None, None
    i = walk_options(APPTAINER, args, i + 1, env)[0]
    if i >= len(args):
        return i, None, None
    image = args[i].word.text
    if image is not None and image.startswith(("docker://", "oras://", "library://")):
        image = image.split("://", 1)[1]
    return i + 1, image, args[i]


def kubectl_command(args: list[Arg], i: int) -> int:
    """Index of the command run by `kubectl [options] exec [options] POD [options] [--] COMMAND...`
    (len(args) when this is not `kubectl exec`)."""
    i, ended, _ = walk_options(KUBECTL, args, i)
    if ended or i >= len(args) or args[i].word.text != "exec":
        return len(args)
    i, ended, _ = walk_options(KUBECTL, args, i + 1)
    if ended or i >= len(args):
        return i  # `exec -- COMMAND`
    return walk_options(KUBECTL, args, i + 1)[0]  # past POD: `--`, or the old form without it

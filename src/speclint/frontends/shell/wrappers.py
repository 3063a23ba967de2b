"""Launchers people put in front of SGLang: container init processes (`tini`, `dumb-init`,
`gosu`, `su-exec`), MPI `mpirun`/`mpiexec`, Apptainer / Singularity
`exec`, `kubectl exec`, `tmux` (Slurm `srun` has its own module, `srun`). Each is an `OptionTable`
(which options take a value, from each tool's own option table; which set the launched
process's environment) read by `launcher_options.walk_options`; what follows the options is
handed back to `launch`.
"""

from __future__ import annotations

from speclint.frontends.shell.launcher_options import OptionTable, walk_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.launcher_options import Value

# Open MPI mpirun / MPICH and Intel MPI mpiexec: options with one value, and with two
# (`-mca NAME VALUE`, `-genv NAME VALUE`). Open MPI accepts long options with one dash too.
SSH_VALUE_LETTERS = frozenset("bcDEeFIiJLlmOopQRSWwBP")
"""ssh's options that take a value (`-p 22`, `-i key`): the next word is theirs."""
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


# container init processes and user switchers an image's ENTRYPOINT puts in front of its
# command: tini (tini.c's OPT_STRING "p:hvwgle:sak:": -p, -e, -k take a value), dumb-init
# (dumb-init.c's getopt_long "+hvVcr:": -r/--rewrite), `gosu USER` and `su-exec USER`
# (no options: the user is the one word before the command); each execs the command with
# its arguments and environment unchanged
INIT_WRAPPERS: dict[str, OptionTable] = {
    "tini": OptionTable(value=frozenset({"-p", "-e", "-k"})),
    "dumb-init": OptionTable(value=frozenset({"-r", "--rewrite"})),
    "gosu": OptionTable(operands=1),
    "su-exec": OptionTable(operands=1),
}

# runners of a project's environment: `TOOL run [options] COMMAND...` (the options that take a
# value; `uv run -m MODULE` is read as `python -m MODULE`)
RUNNERS: dict[tuple[str, str], frozenset[str]] = {
    ("uv", "run"): frozenset(
        {
            "--with",
            "--with-requirements",
            "--with-editable",
            "--python",
            "-p",
            "--project",
            "--directory",
            "--env-file",
            "--extra",
            "--group",
            "--only-group",
            "--package",
            "--index",
            "--default-index",
            "--index-url",
            "--extra-index-url",
            "--find-links",
            "-f",
            "--config-file",
            "--cache-dir",
            "--no-extra",
            "--no-group",
        }
    ),
    ("conda", "run"): frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    ("mamba", "run"): frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    ("micromamba", "run"): frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    ("poetry", "run"): frozenset(),
    ("pixi", "run"): frozenset({"-e", "--environment", "--manifest-path"}),
    ("pipenv", "run"): frozenset(),  # `pipenv run [OPTIONS] COMMAND [ARGS]...`: no valued options
    ("hatch", "run"): frozenset(),  # `hatch run [ENV:]ARGS...` (the environment: `hatch -e ENV`)
}

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
    """For `apptainer|singularity exec|run [options] IMAGE COMMAND...` (i: the word after the
    tool): the command's index, the image reference and its word (None for another subcommand).
    `run` passes COMMAND to the image's runscript, which for an image built from a Docker image
    without an ENTRYPOINT runs it (as `docker run IMAGE COMMAND` is read). `env` becomes what
    the container's process sees: the host's unless `--cleanenv`, plus `--env` values."""
    if i >= len(args) or args[i].word.text not in ("exec", "run"):
        return len(args), None, None
    i = walk_options(APPTAINER, args, i + 1, env)[0]
    if i >= len(args):
        return i, None, None
    image = args[i].word.text
    if image is not None and image.startswith(("docker://", "oras://", "library://")):
        image = image.split("://", 1)[1]
    return i + 1, image, args[i]


# `kubectl run NAME --image=IMAGE [options] [--] COMMAND...` (kubectl's `run` reference): the
# options that take a value; `--env NAME=VALUE` sets the container's variable (the container
# starts with the image's environment, not this shell's), `--image` picks the release.
KUBECTL_RUN = OptionTable(
    value=KUBECTL_VALUE
    | frozenset(
        """--image --env --port --labels -l --restart --overrides --image-pull-policy --annotations
        --dry-run -o --output --template --field-manager --grace-period --timeout --cascade""".split()
    ),
    sets_env=frozenset({"--env"}),
    kept=frozenset({"--image"}),
)


def kubectl_run(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, str | None, Arg | None]:
    """For `kubectl [options] run NAME [options] [--] COMMAND...` (i: the word after `run`): the
    command's index, the image and its word (`--image IMAGE` or `--image=IMAGE`); `env` gets the
    `--env` values. The words after NAME (after `--`) start the container's command, with or
    without `--command`, as `docker run IMAGE COMMAND...` is read."""
    kept: dict[str, Value] = {}
    named = False
    while i < len(args):  # options, NAME, options (kubectl takes them on either side)
        i, ended, found = walk_options(KUBECTL_RUN, args, i, env)
        kept.update(found)
        if ended or i >= len(args) or named:
            break
        named, i = True, i + 1
    if "--image" not in kept:
        return i, None, None
    arg, skip = kept["--image"]
    return i, arg.word.text[skip:] if arg.word.text is not None else None, arg


def kubectl_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, str | None, Arg | None]:
    """The index of the command run by `kubectl [options] exec [options] POD [options] [--]
    COMMAND...` or `kubectl [options] run NAME ...` (`kubectl_run`: its image too; `env`: its
    `--env` values), len(args) for any other kubectl command."""
    i, ended, _ = walk_options(KUBECTL, args, i)
    if not ended and i < len(args) and args[i].word.text == "run":
        return kubectl_run(args, i + 1, env)
    return _kubectl_exec(args, i, ended), None, None


def _kubectl_exec(args: list[Arg], i: int, ended: bool) -> int:
    if ended or i >= len(args) or args[i].word.text != "exec":
        return len(args)
    i, ended, _ = walk_options(KUBECTL, args, i + 1)
    if ended or i >= len(args):
        return i  # `exec -- COMMAND`
    return walk_options(KUBECTL, args, i + 1)[0]  # past POD: `--`, or the old form without it


# tmux (cmd-*.c `args` templates of tmux 3.4; letters before a colon take a value): the
# commands that start a shell command, and `send-keys`, whose keys are typed into a pane's
# shell. Global options before the command: `-c`, `-f`, `-L`, `-S`, `-T` take a value.
TMUX_GLOBAL = OptionTable(value=frozenset({"-c", "-f", "-L", "-S", "-T"}))
_TMUX_STARTS = {
    "new-session": "c:e:F:f:n:s:t:x:y:",  # Ac:dDe:EF:f:n:Ps:t:x:Xy:
    "new-window": "c:e:F:n:t:",  # abc:de:F:kn:PSt:
    "split-window": "c:e:F:l:p:t:",  # bc:de:fF:hIl:p:Pt:vZ
    "respawn-pane": "c:e:t:",  # c:e:kt:
    "respawn-window": "c:e:t:",  # c:e:kt:
}
_TMUX_ALIASES = {
    "new": "new-session",
    "neww": "new-window",
    "splitw": "split-window",
    "respawnp": "respawn-pane",
    "respawnw": "respawn-window",
    "send": "send-keys",
}
_SEND_KEYS = OptionTable(value=frozenset({"-c", "-N", "-t"}))  # c:FHKlMN:Rt:X
# the keys that end a typed line (tmux key names: Enter, C-m, KPEnter, C-j)
TMUX_LINE_ENDS = frozenset({"Enter", "C-m", "KPEnter", "C-j"})


def tmux_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[bool, int]:
    """For `tmux [options] COMMAND [options] ...` (i: the word after `tmux`): whether its
    words are typed keys (`send-keys`) rather than a command to start, and the index where
    they begin (len(args) when this tmux command starts nothing). `-e NAME=VALUE` goes into
    `env`, the new process's environment (otherwise the tmux server's, unknown here)."""
    i, _, _ = walk_options(TMUX_GLOBAL, args, i)
    if i >= len(args):
        return False, i
    name = args[i].word.text or ""
    name = _TMUX_ALIASES.get(name, name)
    if name == "send-keys":
        return True, walk_options(_SEND_KEYS, args, i + 1)[0]
    template = _TMUX_STARTS.get(name)
    if template is None:
        return False, len(args)
    letters = frozenset("-" + letter for letter, after in zip(template, template[1:] + " ") if after == ":")
    table = OptionTable(value=letters, sets_env=frozenset({"-e"}))  # one NAME=VALUE each
    return False, walk_options(table, args, i + 1, env)[0]


# GNU screen (screen(1), "COMMAND-LINE OPTIONS"): `screen [-opts] [cmd [args]]` starts a new
# session running cmd. Letters that take a value (attached, or the next word): -c file, -e xy,
# -h num, -p window, -s shell, -S sessionname, -t title, -T term; `-Logfile file` is a word of
# its own. -r/-R/-x reattach and -X/-Q send a command to a running session: no new command
# starts (`-R` starts one only when no session is found; not known here).
_SCREEN_VALUE_LETTERS = frozenset("cehpsStT")
_SCREEN_NOT_STARTING = frozenset("rRxXQ")
_SCREEN_NOT_STARTING_WORDS = frozenset({"-ls", "-list", "-wipe", "-v", "-version", "--version", "--help"})


def screen_command(args: list[Arg], i: int) -> int:
    """Index of the command `screen [options] COMMAND...` starts (i: the word after `screen`);
    len(args) when this screen starts no command (reattaching, `-X`, `-ls`)."""
    while i < len(args):
        text = args[i].word.text
        if text is None:
            return len(args)
        if not text.startswith("-") or text == "-":
            return i
        i += 1
        if text in _SCREEN_NOT_STARTING_WORDS:
            return len(args)
        if text == "-Logfile":
            i += 1
            continue
        letters = text[1:]
        for k, letter in enumerate(letters):
            if letter in _SCREEN_NOT_STARTING:
                return len(args)
            if letter in _SCREEN_VALUE_LETTERS:
                if k + 1 == len(letters):
                    i += 1  # the value is the next word
                break
    return i


# Ray Jobs CLI (docs.ray.io "Ray Jobs CLI API Reference", `ray job submit [OPTIONS]
# ENTRYPOINT...`, written `ray job submit -- python ...`): the options that take a value; the
# entrypoint runs on the Ray cluster, in its runtime environment, not this script's.
RAY_JOB_SUBMIT = OptionTable(
    value=frozenset(
        """--address --job-id --submission-id --runtime-env --runtime-env-json --metadata-json
        --working-dir --entrypoint-num-cpus --entrypoint-num-gpus --entrypoint-memory
        --entrypoint-resources --entrypoint-label-selector --verify --headers --log-style
        --log-color""".split()
    ),
    kept=frozenset({"--runtime-env-json"}),
)


def ray_job_command(args: list[Arg], i: int) -> tuple[int, dict[str, Word]]:
    """Index of the entrypoint of `ray job submit [options] [--] ENTRYPOINT...` (i: the word
    after `ray`; len(args) for any other ray command), and the variables its runtime
    environment sets: `--runtime-env-json`'s `env_vars` (Ray's runtime_env: "Environment
    variables to set"), each at the option's value. A `--runtime-env FILE` is not read."""
    if [arg.word.text for arg in args[i : i + 2]] != ["job", "submit"]:
        return len(args), {}
    at, _, kept = walk_options(RAY_JOB_SUBMIT, args, i + 2)
    found = kept.get("--runtime-env-json")
    if found is None:
        return at, {}
    import json

    from speclint.core.words import Word
    from speclint.frontends.shell.launcher_options import value_word

    word = value_word(*found)
    try:
        runtime = json.loads(word.text or "")
    except ValueError:
        return at, {}
    env_vars = runtime.get("env_vars") if isinstance(runtime, dict) else None
    if not isinstance(env_vars, dict):
        return at, {}
    return at, {
        name: Word(value, word.span, word.origin)
        for name, value in env_vars.items()
        if isinstance(name, str) and isinstance(value, str)
    }


# Profilers, debuggers and tracers that run a program with its own arguments unchanged, each
# documented as `TOOL [options] PROGRAM [program arguments]`: `nsys profile`, `ncu`,
# `py-spy record [options] -- PROGRAM`, `perf record|stat`, `valgrind`, `strace`, `ltrace`,
# `compute-sanitizer`, `rocprof`; `gdb`/`cuda-gdb` only with `--args PROGRAM ARGS...` (without
# it the second word is a core file). Their own option tables are long and change between
# releases; the program is the first word that is a Python interpreter (or `sglang serve`),
# which no option of theirs takes as its value.
PROFILERS = frozenset(
    {
        "nsys",
        "ncu",
        "nv-nsight-cu-cli",
        "py-spy",
        "perf",
        "valgrind",
        "strace",
        "ltrace",
        "compute-sanitizer",
        "cuda-memcheck",
        "rocprof",
        "rocprofv2",
        "rocprofv3",
        "gdb",
        "cuda-gdb",
    }
)


def profiled_command(tool: str, args: list[Arg], i: int, is_interpreter: Callable[[str], bool]) -> int:
    """Index of the program a profiler or debugger runs (i: the word after the tool), or
    len(args) when there is none to read (`gdb` without `--args`, `py-spy record --pid N`)."""
    if tool in ("gdb", "cuda-gdb"):
        texts = [arg.word.text for arg in args[i:]]
        at = next((k for k, text in enumerate(texts) if text in ("--args", "-args")), None)
        if at is None:
            return len(args)
        i += at + 1
    for k in range(i, len(args)):
        text = args[k].word.text
        following = args[k + 1].word.text if k + 1 < len(args) else None
        if text is None:
            continue
        base = text.rsplit("/", 1)[-1]
        if is_interpreter(base) or (base == "sglang" and following == "serve"):
            return k
    return len(args)

"""`docker run` / `docker exec` (and podman, nvidia-docker), `docker compose run` / `exec`
(and `docker-compose`, `podman-compose`) in front of SGLang.

Docker's own options are skipped (knowing which take a value, from docker's option table);
`-e`/`--env` are read into the container's environment, which starts empty: the host's
variables reach the container only when named. `--entrypoint` is the command's first word
(`--entrypoint ""` none: it clears the image's). `kubectl exec -i POD --` passes standard
input as `docker exec -i` does (`kubectl_stdin_command`).
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.launcher_options import OptionTable, value_word, walk_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span

_VALUE = frozenset(
    """-e --env -v --volume -p --publish --name --gpus --shm-size --ipc --network --net
    -w --workdir --entrypoint --env-file --runtime --ulimit --device --cap-add --cap-drop -u --user --mount
    --pid --label -l --security-opt --add-host --hostname -h --memory -m --cpus --platform --restart
    --log-driver --log-opt --cpuset-cpus --cpuset-mems --memory-swap --tmpfs --group-add --dns --expose
    --link --volumes-from --label-file --cidfile --stop-signal --stop-timeout --health-cmd
    --health-interval --health-retries --health-timeout --pull --cgroupns --uts --userns --sysctl
    --device-cgroup-rule --attach -a --mac-address --ip --ip6 --network-alias --memory-reservation
    --oom-score-adj --cpu-shares -c --cpu-period --cpu-quota --blkio-weight --storage-opt --isolation
    --annotation --volume-driver --domainname --detach-keys --cgroup-parent --gpus""".split()
)
_SHORT_FLAGS = set("ditP")
# Compose's global options that take a value (docs.docker.com, `docker compose` reference:
# `docker compose [OPTIONS] COMMAND`); `run`'s and `exec`'s own valued options (`-e`, `-u`,
# `-w`, `-v`, `-p`, `-l`, `--name`, `--entrypoint`, `--pull`, `--cap-add`...) are in _VALUE
# but for these two.
_COMPOSE_GLOBAL = OptionTable(
    value=frozenset(
        """--ansi --env-file -f --file --parallel --profile --progress --project-directory -p
        --project-name""".split()
    )
)
_COMPOSE_VALUE = _VALUE | {"--env-from-file", "--index"}


CONTAINER_CLIS = frozenset(
    {"docker", "podman", "nvidia-docker", "nerdctl", "docker-compose", "podman-compose", "gcloud"}
)
"""Programs that run a command in a container (`container_command`)."""


def container_command(
    base: str, args: list[Arg], i: int, host_env: dict[str, Word], path: str = ""
) -> tuple[list[Arg], dict[str, Word], tuple[str | None, Span | None] | None] | None:
    """`docker_command`, or for `gcloud` the serving container it deploys (`gcloud.py`)."""
    if base == "gcloud":
        from speclint.frontends.shell.gcloud import gcloud_command

        return gcloud_command(args, i)
    return docker_command(args, i, host_env, compose=base.endswith("-compose"), path=path, program=base)


def docker_command(
    args: list[Arg],
    i: int,
    host_env: dict[str, Word],
    compose: bool = False,
    path: str = "",
    program: str = "docker",
) -> tuple[list[Arg], dict[str, Word], tuple[str | None, Span | None] | None] | None:
    """`docker run [flags] IMAGE [COMMAND...]` (and `docker exec [flags] CONTAINER COMMAND...`,
    `docker compose [flags] run|exec [flags] SERVICE COMMAND...`; `compose`: the program was
    `docker-compose`) from `args[i]` on: the command run in the container, its environment
    and (for `docker run`) its image; None when there is no command to run. A compose
    service's image and environment are in the compose file, not read here: no image, and
    only the `-e` values. `--env-file` files are read from disk, a name relative to the folder
    of `path` (the script), by `program`'s rules (`docker_env_files`)."""
    if not compose and i < len(args) and args[i].word.text == "compose":
        compose, i = True, i + 1
    if compose:
        i = walk_options(_COMPOSE_GLOBAL, args, i)[0]
    elif i < len(args) and args[i].word.text == "container":
        i += 1
    valued = _COMPOSE_VALUE if compose else _VALUE
    verb = args[i].word.text if i < len(args) else None
    if verb not in ("run", "exec"):
        return None
    i += 1
    container_env: dict[str, Word] = {}
    env_files: list[tuple[str, Word]] = []
    entrypoint: Arg | None = None
    gpus: list[tuple[Arg, int]] = []
    while i < len(args):
        text = args[i].word.text
        if text is None or not text.startswith("-") or text == "-":
            break
        if text == "--":
            i += 1
            break
        option, value_arg, skip = text, None, 0
        if text.startswith("--") and "=" in text:
            option, _ = text.split("=", 1)
            value_arg, skip = args[i], len(option) + 1
            i += 1
        elif text.startswith("--"):
            if text in valued and i + 1 < len(args):
                value_arg = args[i + 1]
                i += 1
            i += 1
        else:
            i += 1
            for k, letter in enumerate(text[1:]):
                if letter in _SHORT_FLAGS:
                    continue
                option = "-" + letter
                if k + 2 < len(text):
                    value_arg, skip = args[i - 1], k + 2
                elif option in valued and i < len(args):
                    value_arg = args[i]
                    i += 1
                break
        if value_arg is None:
            continue
        if option in ("-e", "--env"):
            _container_env(value_arg, skip, container_env, host_env)
        elif option == "--env-file" and not compose:
            from speclint.frontends.shell.docker_env_files import env_file_word

            env_files.append((option, env_file_word(value_arg, skip)))
        elif option == "--gpus" and verb == "run" and not compose:
            gpus.append((value_arg, skip))
        elif option == "--entrypoint":
            # `--entrypoint=CMD` is CMD; `--entrypoint ""` clears the image's ENTRYPOINT, so the
            # command after the image runs as it is (Docker's `run` reference)
            entrypoint = Arg(value_word(value_arg, skip), None) if skip else value_arg
            if entrypoint.word.text == "":
                entrypoint = None
    if i >= len(args):
        return None
    image_word = args[i].word
    image = (image_word.text, image_word.span) if verb == "run" and not compose else None
    command = args[i + 1 :]
    if entrypoint is not None:
        command = [entrypoint, *command]
    if env_files or gpus:  # the files first, then every `-e` over them (docker/cli `readKVStrings`)
        from speclint.frontends.shell.docker_env_files import ContainerEnv, apply_env_files

        merged = ContainerEnv()
        apply_env_files(env_files, path, program.removeprefix("nvidia-"), host_env, merged)
        merged.update(container_env)
        if len(gpus) == 1:  # (two `--gpus` are two device requests: not counted here)
            from speclint.frontends.shell.docker_gpus import container_gpus

            merged.gpus, merged.gpus_by = container_gpus(*gpus[0], program)
        return command, merged, image
    return command, container_env, image


def _container_env(arg: Arg, skip: int, container_env: dict[str, Word], host_env: dict[str, Word]) -> None:
    """`-e NAME=value` sets NAME; `-e NAME` passes the host's NAME (unknown when not known)."""
    text = arg.word.text
    if text is None:
        return
    assignment = text[skip:]
    if "=" in assignment:
        name = assignment.split("=", 1)[0]
        container_env[name] = value_word(arg, skip + len(name) + 1)
    elif assignment in host_env:
        container_env[assignment] = host_env[assignment]
    else:
        container_env[assignment] = Word(
            None, arg.word.span, dynamic_reason=f"${assignment} is taken from the host environment"
        )


def exec_stdin_command(words: list[str | None], compose: bool = False) -> int | None:
    """For the words after `docker`/`podman`/`nerdctl` (`exec [options] CONTAINER COMMAND...`;
    `compose [options] exec [options] SERVICE COMMAND...`, and after `docker-compose` when
    `compose`): the index of COMMAND when its standard input stays open, so that a
    here-document written after the command reaches COMMAND: with `-i`/`--interactive`
    (docker's `exec` reference, "Keep STDIN open even if not attached"); compose's `exec`
    keeps it open unless `-d`/`--detach` (its reference: `--interactive` defaults to true;
    `-T` only drops the TTY). None otherwise."""
    i = 0
    if not compose and words[:1] == ["compose"]:
        compose, i = True, 1
    if compose:
        while i < len(words) and (words[i] or "").startswith("-"):  # compose's own options
            option = words[i] or ""
            i += 1 + ("=" not in option and option in _COMPOSE_GLOBAL.value)
    elif words[:1] == ["container"]:
        i = 1
    if words[i : i + 1] != ["exec"]:
        return None
    i += 1
    interactive = detached = False
    while i < len(words):
        text = words[i]
        if text is None:
            return None
        if not text.startswith("-") or text == "-":
            break
        i += 1
        if text == "--":
            break
        if text.startswith("--"):
            interactive = interactive or text in ("--interactive", "--interactive=true")
            detached = detached or text in ("--detach", "--detach=true")
            i += "=" not in text and text in _VALUE
            continue
        for k, letter in enumerate(text[1:]):
            interactive = interactive or letter == "i"
            detached = detached or letter == "d"
            if letter not in _SHORT_FLAGS and not (compose and letter == "T"):
                i += k + 2 == len(text) and "-" + letter in _VALUE
                break
    stdin_open = interactive or (compose and not detached)
    return i + 1 if stdin_open and i + 1 < len(words) else None


def kubectl_stdin_command(words: list[str | None]) -> int | None:
    """For the words after `kubectl` (`[options] exec [options] POD [options] [--]
    COMMAND...`): the index of COMMAND when `-i`/`--stdin` passes kubectl's standard input
    to it (kubectl's `exec` reference: "-i, --stdin: Pass stdin to the container"), so that a
    here-document written after the command is COMMAND's; None otherwise."""
    from speclint.frontends.shell.wrappers import KUBECTL_VALUE as _KUBECTL_VALUE

    stdin = False
    at = 0
    seen: list[str] = []  # `exec`, then POD
    while at < len(words):
        text = words[at]
        if text is None and seen == ["exec"] and "--" in words[at + 1 :]:
            text = "POD"  # `exec -i "$POD" [-c C] -- ...`: the pod's name not known, its place is
        if text is None:
            return None
        if text == "--":
            at += 1
            break
        if not text.startswith("-") or text == "-":
            if len(seen) == 2:
                break  # COMMAND, in the old form without `--`
            seen.append(text)
            if seen[0] != "exec":
                return None
            at += 1
            continue
        at += 1
        if text.startswith("--"):
            stdin = stdin or text in ("--stdin", "--stdin=true")
            at += "=" not in text and text in _KUBECTL_VALUE
            continue
        for k, letter in enumerate(text[1:]):
            stdin = stdin or letter == "i"
            if "-" + letter in _KUBECTL_VALUE:
                at += k + 2 == len(text)
                break
    if not seen or seen[0] != "exec":
        return None
    return at if stdin and at < len(words) else None

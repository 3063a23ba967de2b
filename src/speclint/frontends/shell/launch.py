"""Recognising an SGLang launch in one command's argv, through wrappers and containers.

`nohup env X=1 timeout 600 python3 -u -m sglang.launch_server --tp 8` and
`docker run --gpus all -e X=1 IMAGE python3 -m sglang.launch_server ...` both end up as a
`Launch` whose args are exactly what SGLang's argument parser receives. Builtins that change
variables (`read`, `eval`, `source`, `set -a`, function calls) are let through to
`builtin_commands`, which applies their effect.
"""

from __future__ import annotations

from speclint.core.launches import Launch
from speclint.core.words import Word
from speclint.frontends.recognise import SERVE_ENTRY, command_entry, module_entry, python_target, script_entry
from speclint.frontends.shell import wrappers
from speclint.frontends.shell.docker import CONTAINER_CLIS, container_command
from speclint.frontends.shell.env_command import env_command, sudo_command
from speclint.frontends.shell.launcher_options import skip_options
from speclint.frontends.shell.option_wrappers import OPTION_WRAPPERS
from speclint.frontends.shell.variables import BUILTINS_WITH_EFFECTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking


def _is_python(name: str) -> bool:
    """Whether `name` is a Python interpreter's: `(python|pypy)(\\d+(\\.\\d+)*t?)?` matched whole
    (python, python3, python3.11, pypy3, python3.13t), without compiling the regex at import
    (~1 M instructions of a cold run)."""
    if name.startswith("python"):
        version = name[6:]
    elif name.startswith("pypy"):
        version = name[4:]
    else:
        return False
    if not version:
        return True
    if version.endswith("t"):
        version = version[:-1]
    return all(part.isdecimal() for part in version.split("."))  # ("".isdecimal() is False)


SHELLS = {"bash", "sh", "zsh", "dash", "ksh"}

_WRAPPERS = OPTION_WRAPPERS
_RUNNERS = wrappers.RUNNERS
_PACKAGE_RUNNERS = frozenset({"uvx", "pipx", "uv"})  # (`uv tool run`, `pipx run`: `python_runners`)


_LAUNCHERS = (
    {
        "env",
        "sudo",
        "sglang",
        "ssh",
        "srun",
        "sbatch",
        "mpirun",
        "mpiexec",
        "apptainer",
        "singularity",
        "kubectl",
        "tmux",
        "screen",
        "ray",
        "xargs",
        "parallel",
        "torchrun",
        "su",
        "runuser",
        *("pm2", "systemd-run", "pip", "pip3", "hf", "vastai"),
        *("flock", "caffeinate", "enroot", "doppler"),  # (`run_wrappers.NAMES`)
        "sky",
    }
    | CONTAINER_CLIS
    | wrappers.PROFILERS
    | SHELLS
    | set(_WRAPPERS)
    | {runner for runner, _ in _RUNNERS}
    | _PACKAGE_RUNNERS
)


def may_matter(walker: Walking, name: str) -> bool:
    """Whether a command named `name` can launch SGLang or change variables (others are
    skipped without expanding their words)."""
    base = name.rsplit("/", 1)[-1]
    return (
        base in _LAUNCHERS
        or name in BUILTINS_WITH_EFFECTS
        or name in walker.functions
        or name in walker.aliases
        or _is_python(base)
    )


def recognize(walker: Walking, node: Node, args: list[Arg], prefix: dict[str, Word]) -> None:
    """Record a Launch if this command (after wrappers) starts SGLang."""
    span = walker.tm.node_span(node)
    env = walker.env.exported_words(span)
    env.update(prefix)
    unread = walker.env.vars.get("__speclint_env_file")  # (docker_env_files.ENV_FILE_VARIABLE)
    if unread is not None and unread.reason is not None:
        from speclint.frontends.shell.docker_env_files import with_unread

        env = with_unread(env, unread.reason, unread.origin)
    count = len(walker.result.launches)
    image = walker.image
    pinned = walker.env.vars.get("__speclint_pip_pin")  # this path's `pip install sglang==X`
    if pinned is not None:  # (python_runners.PIN_VARIABLE; unknown: only some paths ran it)
        image = (pinned.text, pinned.origin) if pinned.text is not None else None
    _dispatch(walker, node, span, args, 0, env, image)
    if len(walker.result.launches) == count:  # a framework forwarding prefixed SGLang flags
        import speclint.frontends.manifests.prefixed as prefixed  # (a module: `from M import name` here costs a failed lookup each call)

        launch = prefixed.prefixed_launch(walker.path, span, [a.word for a in args], env, image)
        if launch is not None:
            walker.add_launch(launch)
    if pinned is not None and pinned.text is None and len(walker.result.launches) > count:
        from speclint.frontends.shell.python_runners import uncertain_pin

        uncertain_pin(walker, span, pinned)


def _dispatch(
    walker: Walking,
    node: Node,
    span: Span,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> None:
    while i < len(args):
        text = args[i].word.text
        following = args[i + 1].word.text if i + 1 < len(args) else None
        if text is None:
            if following == "-m" or (following or "").startswith("-"):
                _python(walker, node, span, args, i, env, image)
            return
        base = text.rsplit("/", 1)[-1]
        if base in _WRAPPERS:
            i = skip_options(_WRAPPERS[base], args, i + 1)
        elif base == "env":
            i = env_command(args, i + 1, env)
        elif base in ("flock", "caffeinate", "enroot", "doppler"):
            from speclint.frontends.shell.run_wrappers import wrapped

            runs = wrapped(walker, node, base, args, i + 1, env, image)
            if runs is None:
                return
            i, env = runs
        elif base == "sudo":
            i, env = sudo_command(args, i + 1, env)  # (a container's unread env file kept)
        elif base in ("pip", "pip3") or (base == "uv" and following == "pip"):
            from speclint.frontends.shell.python_runners import record_install

            record_install(walker, args, i + (base == "uv"))
            return
        elif base in _PACKAGE_RUNNERS or (base, following) in _RUNNERS:
            from speclint.frontends.shell.python_runners import runner_command

            args, i, pin, module = runner_command(args, i)
            image = pin or image
            if module:
                _module_launch(walker, node, span, args, i, env, image)
                return
        elif _is_python(base):
            _python(walker, node, span, args, i, env, image)
            return
        elif command_entry(base, following):
            walker.add_launch(_launch(walker, span, SERVE_ENTRY, args[i + 2 :], env, image))
            return
        elif base == "gcloud" and _gcloud_ssh(walker, args, i + 1):  # `compute ssh --command CODE`
            return
        elif base in CONTAINER_CLIS:  # docker, podman, ..., gcloud's serving containers
            found = container_command(base, args, i + 1, env, walker.path)
            if found is not None:
                command, container_env, container_image = found
                _dispatch(walker, node, span, command, 0, container_env, container_image)
            return
        elif base == "vastai":  # `create instance --onstart-cmd CODE`: the instance's script
            from speclint.frontends.shell.vastai import vastai_create

            vastai_create(walker, args, i + 1)
            return
        elif base == "hf":  # `hf endpoints deploy`: an Inference Endpoint's container
            from speclint.frontends.shell.hf_endpoints import hf_endpoint

            hf_endpoint(walker, args, i + 1)
            return
        elif base == "srun":
            env = env.copy()
            from speclint.frontends.shell.srun import srun_command

            srun = args[i].word
            i, image_text, image_word = srun_command(args, i + 1, env)
            from speclint.frontends.shell.slurm_task_env import expanded_before_tasks, with_slurm

            args = expanded_before_tasks(args, i, srun)
            env = with_slurm(env, f"each task `srun` (line {srun.span.line}) starts")
            if image_word is not None:
                image = (image_text, image_word.span)
        elif base == "sbatch":  # `--wrap CMD`: a batch script of its own
            from speclint.frontends.shell.sbatch import sbatch_wrap

            sbatch_wrap(walker, args, i + 1, env, image)
            return
        elif base in ("mpirun", "mpiexec"):
            env = env.copy()
            i = wrappers.mpi_command(args, i + 1, env)
        elif base in ("apptainer", "singularity"):
            env = env.copy()
            i, image_text, image_arg = wrappers.apptainer_command(args, i + 1, env)
            if image_arg is not None:
                image = (image_text, image_arg.word.span)
        elif base == "kubectl":
            env = {}  # the pod's: `kubectl run --env` values
            i, image_text, image_arg = wrappers.kubectl_command(args, i + 1, env)
            if image_arg is not None:
                image = (image_text, image_arg.word.span)
        elif base == "screen":  # the new session's process gets this environment
            from speclint.frontends.shell.typed_lines import stuffed, type_into_screen

            typed = stuffed(args, i + 1)
            if typed is not None:
                type_into_screen(walker, typed, span)
                return
            i = wrappers.screen_command(args, i + 1)
        elif base in wrappers.PROFILERS:
            i = wrappers.profiled_command(base, args, i + 1, _is_python)
        elif base == "ray":  # the entrypoint runs on the cluster, in its runtime environment
            i, env = wrappers.ray_job_command(args, i + 1)
        elif base in ("su", "runuser"):
            from speclint.frontends.shell.user_switch import user_switch

            command_at = user_switch(walker, base, args, i + 1, env, image)
            if command_at is None:
                return
            i = command_at
        elif base in ("pm2", "systemd-run"):
            from speclint.frontends.shell.process_managers import managed_command

            managed = managed_command(walker, base, args, i + 1, env, image)
            if managed is not None:
                _dispatch(walker, node, span, managed[0], 0, managed[1], image)
            return
        elif base in SHELLS:
            from speclint.frontends.shell.shell_c import shell_c

            shell_c(walker, base, args, i + 1, env, image)
            return
        elif base == "sky":  # `sky launch|exec ... -- COMMAND`: bash on the cluster
            from speclint.frontends.shell.skypilot import sky_command

            sky_command(walker, node, span, args, i + 1, _dispatch)
            return
        elif base in ("ssh", "tmux"):
            from speclint.frontends.shell.remote_sessions import session_command

            session_command(walker, node, span, base, args, i + 1, _dispatch)
            return
        elif base == "torchrun":
            from speclint.frontends.shell.torchrun import torchrun_launch

            torchrun_launch(walker, span, args, i + 1, env, image, "torchrun")
            return
        elif base in ("xargs", "parallel"):  # a launch per input value
            from speclint.frontends.shell.templates import template_command

            template_command(walker, node, args, i + 1, base)
            return
        else:
            return


def _gcloud_ssh(walker: Walking, args: list[Arg], i: int) -> bool:
    if "ssh" not in [a.word.text for a in args[i:]]:
        return False
    from speclint.frontends.shell.remote_sessions import gcloud_ssh

    return gcloud_ssh(walker, args, i)


def _launch(
    walker: Walking,
    span: Span,
    entry: str,
    rest: list[Arg],
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> Launch:
    image_text, image_span = image if image is not None else (None, None)
    launch = Launch(walker.path, entry, span, [a.word for a in rest], dict(env), image_text, image_span)
    if getattr(env, "unread", None) is not None:  # a container's env file not read
        from speclint.frontends.shell.docker_env_files import mark_unread

        mark_unread(launch, env)
    gpus = getattr(env, "gpus", None)
    if gpus is not None:  # `docker run --gpus`
        launch.gpu_count, launch.gpu_count_by = gpus, getattr(env, "gpus_by", None)
    return launch


def _python(
    walker: Walking,
    node: Node,
    span: Span,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> None:
    """`python [interpreter options] -m MODULE args...`."""
    target = python_target([a.word.text for a in args], i + 1)
    if target is None:
        return
    kind, text, after = target
    if kind == "module":  # `-m MODULE`: SGLang's entries, and `-m pip install` records
        _module_launch(walker, node, span, args, after - 1, env, image)
        return
    entry = script_entry(text) if kind == "script" else module_entry(text)  # (`python x/launch_server.py`)
    if entry:
        walker.add_launch(_launch(walker, span, entry, args[after:], env, image))


def _module_launch(
    walker: Walking,
    node: Node,
    span: Span,
    args: list[Arg],
    j: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> None:
    module = args[j].word.text if j < len(args) else None
    entry = module_entry(module)
    if entry:
        walker.add_launch(_launch(walker, span, entry, args[j + 1 :], env, image))
    elif module == "pip":
        from speclint.frontends.shell.python_runners import record_install

        record_install(walker, args, j)
    elif module in ("torch.distributed.run", "torch.distributed.launch"):
        from speclint.frontends.shell.torchrun import torchrun_launch

        torchrun_launch(walker, span, args, j + 1, env, image, f"python -m {module}")
    elif module is not None and module.startswith("sglang.") and walker.collect:
        from speclint.frontends.shell.sglang_modules import unread_module

        unread = unread_module(module, args[j].word.span)
        if unread is not None:
            walker.result.diagnostics.append(unread)
    elif module is not None and module.startswith("dynamo.sglang.") and walker.collect:
        from speclint.frontends.shell.launcher_strings import old_dynamo_module

        walker.result.diagnostics.append(old_dynamo_module(module, args[j].word.span))

"""`sky launch [OPTIONS] [--] ENTRYPOINT...`, `sky exec [OPTIONS] CLUSTER [--] ENTRYPOINT...` and
`sky jobs launch [OPTIONS] [--] ENTRYPOINT...` (SkyPilot's CLI, sky/client/cli/command.py and
flags.py): ENTRYPOINT's words are joined with spaces and, when they do not name a YAML task
file, run as a bash command on the cluster (`Task(run=' '.join(entrypoint))`; jobs launch:
"If ENTRYPOINT points to a valid YAML file, it is read in as the task specification.
Otherwise, it is interpreted as a bash command"), with the variables `--env`/`--secret` set
(`NAME=VALUE`, or `NAME`: this shell's value) and those of `--env-file`, none of this script's
others. `sky serve up [OPTIONS] SERVICE_YAML` takes a YAML file only ("SERVICE_YAML must
point to a valid YAML file").

Read like `ssh HOST COMMAND...`: one word is shell code, several are the command's words. A
task YAML on disk (relative to the script's folder) is read as the YAML front-end reads it
(`sky_tasks`: its `run:` block, `envs:` overridden by `--env`); one not on disk is not read.
An option the subcommand does not have (as read here) or another subcommand is not read: a
command that names the launcher is then said not read, as before.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

    Dispatch = Callable[..., None]

_FLAGS = frozenset(
    {
        *("--dryrun", "--detach-run", "-d", "-no-d", "--down", "--retry-until-up", "-r"),
        *("--yes", "-y", "--no-setup", "--fast", "--async", "--no-async", "--use-spot"),
        *("--no-use-spot", "--docker"),
    }
)
"""launch's and exec's switches (`is_flag`)."""
_VALUES = frozenset(
    {
        *("--cluster", "-c", "--name", "-n", "--workdir", "--infra", "--cloud", "--region"),
        *("--zone", "--num-nodes", "--cpus", "--memory", "--disk-size", "--disk-tier"),
        *("--network-tier", "--image-id", "--env-file", "--env", "--secret", "--gpus"),
        *("--instance-type", "-t", "--ports", "--config", "--idle-minutes-to-autostop", "-i"),
        *("--wait-for", "--clone-disk-from", "--clone", "--git-url", "--git-ref"),
    }
)
"""launch's and exec's options that take a value (the next word, or `--opt=value`)."""
_JOBS_VALUES = frozenset({"--job-recovery", "--pool", "-p", "--num-jobs"})
"""`sky jobs launch`'s own options that take a value (besides `_VALUES`; its `-d` is
`--detach-run`, a switch)."""
_SERVE_VALUES = frozenset({"--service-name", "-n", "--workdir", "--infra", "--cloud", "--region"})
"""`sky serve up`'s options that take a value: `--service-name/-n` and the task options."""
_SETS_ENV = ("--env", "--secret")


def sky_command(walker: Walking, node: Node, span: Span, args: list[Arg], i: int, dispatch: Dispatch) -> None:
    """`sky ...`, its words from `args[i]` (the subcommand) on; reads nothing it cannot place."""
    sub = args[i].word.text if i < len(args) else None
    values = _VALUES
    if sub in ("jobs", "serve") and i + 1 < len(args):
        action = args[i + 1].word.text
        if (sub, action) not in (("jobs", "launch"), ("serve", "up")):
            return
        values = _VALUES | _JOBS_VALUES if sub == "jobs" else (_VALUES - {"-n", "--name"}) | _SERVE_VALUES
        sub, i = f"{sub} {action}", i + 1
    elif sub not in ("launch", "exec"):
        return
    env: dict[str, Word] = {}
    unread: tuple[str, Span] | None = None
    positional: list[Arg] = []
    i += 1
    while i < len(args):
        arg = args[i]
        text = arg.word.text
        if text is None:
            return  # an unknown word: an option or the command, not known which
        if text == "--":
            positional += args[i + 1 :]
            break
        if not text.startswith("-") or text == "-":
            positional.append(arg)
            i += 1
            continue
        key = text.split("=", 1)[0] if text.startswith("--") else text
        if key in _FLAGS and "=" not in text:
            i += 1
            continue
        if key not in values:
            return  # an option not read here: what it takes is not known
        if "=" in text:
            value, skip, i = arg, len(key) + 1, i + 1
        elif i + 1 < len(args):
            value, skip, i = args[i + 1], 0, i + 2
        else:
            return
        if key in _SETS_ENV and not _set(walker, env, value, skip):
            return
        if key == "--env-file":
            unread = (f"the variables of `--env-file {(value.word.text or '')[skip:]}`", value.word.span)
    if sub == "exec" and not any(
        (a.word.text or "").split("=", 1)[0] in ("-c", "--cluster") for a in args[:i]
    ):
        positional = positional[1:]  # CLUSTER
    if not positional:
        return
    if len(positional) == 1 and (positional[0].word.text or "").endswith((".yaml", ".yml")):
        from speclint.frontends.shell.sky_tasks import read_task_file

        read_task_file(walker, positional[0].word, env, unread, sub)
        return
    if sub == "serve up":  # a command, not a YAML file: SkyPilot refuses it
        return
    if unread is not None:
        from speclint.frontends.shell.docker_env_files import with_unread

        found = with_unread(env, *unread)
        found.unread_label = f"the environment `sky {sub}` gives the command"
        env = found
    if len(positional) == 1:
        why = f"${{name}} is not set on the cluster `sky {sub}` (line {span.line}) runs the command on"
        walker.parse_nested(positional[0], env, None, why)
    else:
        dispatch(walker, node, span, positional, 0, env, None)


def _set(walker: Walking, env: dict[str, Word], value: Arg, skip: int) -> bool:
    """`--env NAME=VALUE` / `--env NAME` (this shell's value of NAME); False when unreadable."""
    from speclint.core.words import Word
    from speclint.frontends.shell.launcher_options import value_word

    known = value.word.text if value.word.text is not None else value.word.prefix
    name, equals, _ = (known or "")[skip:].partition("=")
    if not name or not name.replace("_", "a").isalnum() or (value.word.text is None and not equals):
        return False
    if value.word.text is None:  # `--env HF_TOKEN=$HF_TOKEN`: a value not known
        env[name] = Word(None, value.word.span, dynamic_reason=value.word.dynamic_reason)
        return True
    if equals:
        env[name] = value_word(value, skip + len(name) + 1)
        return True
    local = walker.env.exported_words(value.word.span).get(name)  # (sky reads os.environ)
    env[name] = (
        Word(local.text, value.word.span, local.origin, dynamic_reason=local.dynamic_reason)
        if local is not None
        else Word(None, value.word.span, dynamic_reason=f"`--env {name}` passes this shell's ${name}")
    )
    return True

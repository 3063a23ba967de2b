"""`sky launch [OPTIONS] [--] ENTRYPOINT...` and `sky exec [OPTIONS] CLUSTER [--] ENTRYPOINT...`
(SkyPilot's CLI, sky/client/cli/command.py and flags.py): ENTRYPOINT's words are joined with
spaces and, when they do not name a YAML task file, run as a bash command on the cluster
(`Task(run=' '.join(entrypoint))`), with the variables `--env`/`--secret` set (`NAME=VALUE`, or
`NAME`: this shell's value) and those of `--env-file`, none of this script's others.

Read like `ssh HOST COMMAND...`: one word is shell code, several are the command's words. An
option SkyPilot's launch/exec do not have (as read here), another subcommand (`sky jobs launch`,
`sky serve up`), or an ENTRYPOINT that is one YAML file is not read: the command is then said
not read, as before.
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
_SETS_ENV = ("--env", "--secret")


def sky_command(walker: Walking, node: Node, span: Span, args: list[Arg], i: int, dispatch: Dispatch) -> None:
    """`sky ...`, its words from `args[i]` (the subcommand) on; reads nothing it cannot place."""
    sub = args[i].word.text if i < len(args) else None
    if sub not in ("launch", "exec"):
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
        if key not in _VALUES:
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
    if not positional or (
        len(positional) == 1 and (positional[0].word.text or "").endswith((".yaml", ".yml"))
    ):
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

"""`env` and `sudo` in front of a command: the environment the command they run gets.

`env NAME=value`, `env -i`, `env -u NAME` change it; `sudo` starts it empty unless told to
preserve it (`-E`, `--preserve-env`), then reads `NAME=value` words the same way.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.launcher_options import OptionTable, skip_options, value_word
from speclint.frontends.shell.variables import is_variable_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg


# sudo's options that take a value
SUDO = OptionTable(
    value=frozenset(
        {
            "-u",
            "-g",
            "-p",
            "-C",
            "-D",
            "-r",
            "-t",
            "-T",
            "-U",
            "-h",
            "--user",
            "--group",
            "--prompt",
            "--chdir",
            "--close-from",
            "--role",
            "--type",
            "--other-user",
            "--host",
        }
    )
)


def sudo_command(args: list[Arg], i: int, env: dict[str, Word]) -> tuple[int, dict[str, Word]]:
    """`sudo [options] [NAME=value ...] COMMAND` from `args[i]` on: the command's index and
    the environment it gets."""
    preserve = any((a.word.text or "").startswith(("-E", "--preserve-env")) for a in args[i : i + 3])
    i = skip_options(SUDO, args, i)
    if not preserve:  # (an env file the container's environment has, not read: kept unknown)
        emptied = getattr(env, "emptied", None)
        env = emptied() if emptied is not None else {}
    return env_command(args, i, env, options=False), env


def _assigned_name(arg: Arg) -> str | None:
    """NAME when an argument whose value is unknown is written `NAME=...` (`env NAME=$X`)."""
    node = arg.node
    if node is None or node.type != "concatenation" or not node.children:
        return None
    first = node.children[0]
    raw = first.text.decode("utf-8", "replace") if first.type == "word" and first.text else ""
    name = raw.split("=", 1)[0]
    return name if "=" in raw and is_variable_name(name) else None


def env_command(args: list[Arg], i: int, env: dict[str, Word], options: bool = True) -> int:
    """`env [-i] [-u NAME] NAME=value ... COMMAND`: update `env`, return the command's index."""
    while i < len(args):
        text = args[i].word.text
        if text is None:
            name = _assigned_name(args[i])
            if name is None:
                return i
            word = args[i].word  # `NAME=$UNKNOWN`: the variable is set, to an unknown value
            env[name] = Word(None, word.span, word.origin, dynamic_reason=word.dynamic_reason)
            i += 1
            continue
        if options and text in ("-i", "--ignore-environment", "-"):
            env.clear()
            if hasattr(env, "unread"):  # nor an unread env file's variables, nor Slurm's
                env.unread = env.slurm = None  # type: ignore[attr-defined]
        elif options and text in ("-u", "--unset", "-C", "--chdir"):
            if text in ("-u", "--unset") and i + 1 < len(args):
                env.pop(args[i + 1].word.text or "", None)
            i += 1
        elif options and text.startswith(("--unset=", "-u")) and len(text) > 2:
            env.pop(text.split("=", 1)[1] if "=" in text else text[2:], None)
        elif options and text.startswith("-") and text != "--":
            pass
        elif text == "--":
            options = False
        elif "=" in text and is_variable_name(text.split("=", 1)[0]):
            name = text.split("=", 1)[0]
            env[name] = value_word(args[i], len(name) + 1)
        else:
            return i
        i += 1
    return i

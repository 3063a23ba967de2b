"""Wrappers that run a command after options of their own, each read from the tool's own
option table and only from it: an option the table does not hold (or a word speclint cannot
read where an option may be) stops the reading, and the command is then said not read
(SLM005) rather than guessed, the finding naming that option or word. flock's lock file is
not part of the launch: one speclint does not know (`flock -n "$LOCK" cmd...`) is read past,
as long as it is one word.

- `flock [options] FILE COMMAND...` (util-linux flock(1): getopt_long "+sexnoFuw:E:hV?" and
  `--verbose`; the command follows the lock file; `flock FILE -c STRING` runs STRING with
  `$SHELL -c`, which is not read here).
- `caffeinate [-disu] [-t timeout] [-w pid] [utility arguments...]` (macOS caffeinate(8)).
- `enroot start [options] [--] NAME|IMAGE [COMMAND] [ARG...]` (enroot's doc/cmd/start.md):
  the container's environment is what enroot's environment configuration and the image's
  `/etc/environment` set, plus `--env KEY[=VAL]`; only the latter is read.
- `doppler run [flags] -- COMMAND...` (DopplerHQ/cli pkg/cmd/run.go and root.go, cobra
  flags): the command inherits the caller's environment plus the project's secrets, which
  are not known here. Without `--` cobra would read the command's own options as its flags,
  so only the form with `--` is read; `--command STRING` is not read.

`firejail [options] program...` stays not read: depending on its release it runs the program
directly or through `/bin/bash -c` with the arguments joined (its `--shell` option, deprecated
and reverted; firejail issue #5659), so the argv the server gets is not one fixed form.
"""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.frontends.shell.launcher_options import name_value, value_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Options:
    """A wrapper's options as its own table lists them (each as written: `-w`, `--wait`)."""

    switches: frozenset[str]
    value: frozenset[str] = _NONE
    """Options whose value is the next word, the rest of a short option's word (`-w10`) or
    what follows `=` in a long one (`--wait=10`)."""
    env: frozenset[str] = _NONE
    """Options whose value `KEY[=VAL]` exports KEY to the command (`enroot start --env`)."""
    operand: bool = False
    """The first word after the options is the wrapper's own (flock's lock file), not the
    command: it may be a value speclint does not know, as long as it is one word."""
    name: str = ""
    source: str = ""
    """The wrapper as findings name it, and where its table was read."""


FLOCK = Options(
    switches=frozenset(
        "-s --shared -e -x --exclusive -u --unlock -n --nb --nonblock -o --close -F --no-fork --verbose".split()
    ),
    value=frozenset("-w --wait --timeout -E --conflict-exit-code".split()),
    operand=True,
    name="flock",
    source="util-linux flock(1)",
)
CAFFEINATE = Options(
    switches=frozenset("-d -i -m -s -u".split()),
    value=frozenset({"-t", "-w"}),
    name="caffeinate",
    source="macOS caffeinate(8)",
)
ENROOT_START = Options(
    switches=frozenset("-r --root -w --rw".split()),
    value=frozenset("-c --conf -e --env --rc -m --mount".split()),
    env=frozenset({"-e", "--env"}),
    name="enroot start",
    source="enroot's doc/cmd/start.md",
)
DOPPLER_RUN = Options(
    switches=frozenset(
        """--no-cache --no-fallback --fallback-readonly --fallback-only --no-exit-on-write-failure
        --forward-signals --no-exit-on-missing-only-secrets --watch --silent-exit --preserve-env
        --no-check-version --no-verify-tls --no-timeout --no-dns-resolver --enable-dns-resolver
        --no-read-env --json --debug --print-config --silent""".split()
    ),
    value=frozenset(
        """-p --project -c --config --name-transformer --dynamic-ttl --fallback --passphrase
        --mount --mount-format --mount-template --mount-max-reads --only-secrets -t --token
        --api-host --dashboard-host --timeout --attempts --dns-resolver-address
        --dns-resolver-proto --dns-resolver-timeout --scope --config-dir --configuration""".split()
    ),
    name="doppler run",
    source="the Doppler CLI's pkg/cmd/run.go",
)
# (`doppler run --preserve-env=VALUE`: pflag's NoOptDefVal, a value only after `=`)
_EQUALS_ONLY = frozenset({"--preserve-env"})

NAMES = frozenset({"flock", "caffeinate", "enroot", "doppler"})


def read_options(table: Options, args: list[Arg], i: int) -> tuple[int, bool, list[tuple[Arg, int]]] | str:
    """From `args[i]` on: the index after the options (and after `--`), whether `--` ended
    them, and the values of the table's `env` options (the word and where the value starts
    in it); at an option the table does not hold or a word not known, why the reading
    stopped (for the finding that says the command was not read)."""
    env: list[tuple[Arg, int]] = []
    while i < len(args):
        arg = args[i]
        text = arg.word.text
        if text is None:
            if table.operand and not arg.word.splat:  # (`flock "$LOCK" cmd...`)
                return i, False, env
            return f"{_written(arg)} is not known, and may hold options of `{table.name}`"
        if text == "--":
            return i + 1, True, env
        if not text.startswith("-") or text == "-":
            return i, False, env
        value: tuple[Arg, int] | None = None
        if text.startswith("--"):
            key, equals, _ = text.partition("=")
            if key in table.value:
                value = (arg, len(key) + 1) if equals else _next(args, i)
                i += not equals
            elif key not in table.switches or (equals and key not in _EQUALS_ONLY):
                return _unknown(table, text if key in table.switches else key)
        else:
            key = ""
            for at, letter in enumerate(text[1:], 2):
                option = "-" + letter
                if option in table.value:
                    key = option
                    value = (arg, at) if at < len(text) else _next(args, i)
                    i += at == len(text)
                    break
                if option not in table.switches:
                    return _unknown(table, option if len(text) > 2 else text)
        if key in table.value and value is None:
            return f"`{table.name}`'s option `{key}` has no value after it"
        if key in table.env and value is not None:
            env.append(value)
        i += 1
    return i, False, env


def _unknown(table: Options, option: str) -> str:
    return (
        f"`{option}` is not an option speclint knows for `{table.name}` (its table is read from "
        f"{table.source}), so it cannot tell where the command starts"
    )


def _written(arg: Arg) -> str:
    """The word as written (its first 40 characters), for a finding."""
    text = arg.node.text if arg.node is not None else None
    if not text:
        return "a word"
    return f"`{' '.join(text.decode('utf-8', 'replace').split())[:40]}`"


def _next(args: list[Arg], i: int) -> tuple[Arg, int] | None:
    return (args[i + 1], 0) if i + 1 < len(args) else None


def wrapped(
    walker: Walking,
    node: Node,
    base: str,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> tuple[int, dict[str, Word]] | None:
    """The index of the command `base` (the word before `args[i]`) runs, and the environment
    it runs it in; None when there is none to read here (not read, or read as a script). Not
    read for a reason this module knows: said at the launcher's words, with the reason."""
    found = _wrapped(walker, base, args, i, env, image)
    if not isinstance(found, str):
        return found
    from speclint.core.diagnostics import Diagnostic
    from speclint.frontends.shell.launcher_words import launcher_in_arguments

    runs = launcher_in_arguments(node, walker.tm)
    if runs is not None and walker.collect:
        span, words = runs
        line = walker.tm.node_span(node).line
        why = f"speclint did not read the `{base}` command at line {line}: {found}"
        walker.result.diagnostics.append(Diagnostic("launch-unread", why, span))  # (a file without launches)
        message = (
            f"speclint did not read this command, which runs `{words}` through `{base}`: {found}; "
            "nothing in this launch was checked"
        )
        walker.result.diagnostics.append(Diagnostic("launcher-not-read", message, span))
    return None


def _wrapped(
    walker: Walking,
    base: str,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> tuple[int, dict[str, Word]] | str | None:
    """`wrapped`'s reading: a string says why the command was not read."""
    if base == "flock":
        found = read_options(FLOCK, args, i)
        if isinstance(found, str) or found[0] + 1 >= len(args):
            return found if isinstance(found, str) else None
        command = found[0] + 1  # after the lock file
        if args[command].word.text in ("-c", "--command"):  # `$SHELL -c STRING`, exactly one
            if command + 2 == len(args) and args[command].word.text == "-c":
                from speclint.frontends.shell.shell_c import shell_c

                shell_c(walker, "sh", args, command, env, image)  # (`$SHELL`: a POSIX shell)
            return None
        return command, env
    if base == "caffeinate":
        found = read_options(CAFFEINATE, args, i)
        return found if isinstance(found, str) else (found[0], env)
    name = args[i - 1].word
    if base == "enroot":
        if i >= len(args) or args[i].word.text != "start":
            return "speclint reads only `enroot start [options] IMAGE COMMAND...` (enroot's doc/cmd/start.md)"
        found = read_options(ENROOT_START, args, i + 1)
        if isinstance(found, str) or found[0] >= len(args):
            return found if isinstance(found, str) else None
        container: dict[str, Word] = {}
        for arg, skip in found[2]:
            text = (arg.word.text or "")[skip:]
            pair = name_value(text)
            if pair is not None:
                container[pair[0]] = value_word(arg, skip + len(pair[0]) + 1)
            elif text in env:  # `--env KEY`: the caller's value
                container[text] = env[text]
        why = (
            f"${{name}} may be set in the container by `enroot start` (line {name.span.line}) from "
            "enroot's environment configuration and the image's /etc/environment, which speclint "
            "does not read"
        )
        return found[0] + 1, _unread(container, why, name, "the container's environment")
    if base == "doppler":
        if i >= len(args) or args[i].word.text != "run":
            return "speclint reads only `doppler run [flags] -- COMMAND...` (the Doppler CLI's `run`)"
        found = read_options(DOPPLER_RUN, args, i + 1)
        if isinstance(found, str):
            return found
        if not found[1]:
            return (
                "without `--` before it, doppler's flag parser (cobra) takes the command's own "
                "options as its flags; write `doppler run [flags] -- COMMAND...`"
            )
        why = (
            f"${{name}} may be set by `doppler run` (line {name.span.line}) from the project's "
            "secrets, which speclint does not read"
        )
        return found[0], _unread(env, why, name, "doppler's secrets")
    return None


def _unread(env: dict[str, Word], why: str, at: Word, label: str) -> dict[str, Word]:
    from speclint.frontends.shell.docker_env_files import with_unread

    found = with_unread(env, why, at.span)
    found.unread_label = label  # (what SLM004 calls it)
    return found

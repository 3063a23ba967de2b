"""The options a launcher writes before the command it runs, read by one walker.

`nohup`, `timeout`, `sudo`, `srun`, `mpirun`, `apptainer exec`, `kubectl exec`... each take
options first; which of them take a value, set the launched process's environment or end the
options differs per launcher, and is said by its `OptionTable`. `walk_options` reads every
launcher's options the same way from its table, so a new launcher is a table, not a loop.
"""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.core.words import Word
from speclint.frontends.shell.variables import is_variable_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg

_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class OptionTable:
    """How one launcher writes its options (each set holds options as written: `-N`,
    `--nodes`; without their dashes when `any_dashes`)."""

    value: frozenset[str] = _NONE
    """Options whose value is the next word (or, written `--opt=value`, the rest of the word)."""
    two_values: frozenset[str] = _NONE
    """Options followed by two words (`-mca NAME VALUE`)."""
    sets_env: frozenset[str] = _NONE
    """Options whose value `NAME=VALUE` sets NAME for the command (`mpirun -x`)."""
    sets_env_list: frozenset[str] = _NONE
    """Options whose value `NAME=VALUE[,NAME=VALUE...]` sets each NAME (`apptainer --env`)."""
    sets_env_pair: frozenset[str] = _NONE
    """Two-value options whose words are NAME and VALUE (`mpiexec -genv NAME VALUE`)."""
    clears_env: frozenset[str] = _NONE
    """Switches that start the command with an empty environment (`apptainer --cleanenv`), to
    which the options that set variables add theirs wherever they are written."""
    kept: frozenset[str] = _NONE
    """Options whose (last) value the caller reads (`srun --container-image`)."""
    ends: frozenset[str] = frozenset({"--"})
    """Words that end the options (the command follows them)."""
    any_dashes: bool = False
    """`-np` and `--np` are the same option (Open MPI): the sets hold names without dashes."""
    attached: bool = True
    """`--opt=value` gives the option its value; when False, such a word is one switch."""
    operands: int = 0
    """Words after the options and before the command (`timeout DURATION`)."""


# An option's value: the word that holds it, and where in that word it starts
# (`--env=A=1`: the word itself, from 6; `--env A=1`: the next word, from 0).
Value = tuple["Arg", int]


def walk_options(
    table: OptionTable, args: list[Arg], i: int, env: dict[str, Word] | None = None
) -> tuple[int, bool, dict[str, Value]]:
    """Read the options from `args[i]` on: the index after them (and after the word that
    ended them), whether such a word did, and the values of the table's `kept` options.
    Options that set or clear the environment change `env` (when given): a clearing switch
    empties it wherever it is written, then the values the options set are added (`apptainer
    exec --env X=1 --cleanenv` keeps X, as apptainer applies `--env` after cleaning)."""
    kept: dict[str, Value] = {}
    added: dict[str, Word] = {}
    cleared = False
    ended = False
    while i < len(args):
        arg = args[i]
        text = arg.word.text
        if text is None and _unknown_value_of_plain_option(table, arg.word.prefix):
            i += 1  # `--jobid=$JOBID`: an option whose value alone is unknown, and not read
            continue
        if text is None or not text.startswith("-") or text == "-":
            break
        i += 1
        if text in table.ends:
            ended = True
            break
        if "=" in text:
            if not (table.attached and text.startswith("--")):
                continue  # one word, its value not read
            key = text.split("=", 1)[0]
            value: Value | None = (arg, len(key) + 1)
        else:
            key = text.lstrip("-") if table.any_dashes else text
            if key in table.clears_env:
                cleared = True
            if key in table.two_values:
                if key in table.sets_env_pair:
                    _set_pair(args, i, added)
                i += 2
                continue
            if key not in table.value:
                continue
            value = (args[i], 0) if i < len(args) else None
            i += 1
        if value is None:
            continue
        if key in table.kept:
            kept[key] = value
        if key in table.sets_env:
            _set_assignment(value, added)
        elif key in table.sets_env_list:
            _set_assignments(value, added)
    if env is not None:
        if cleared:
            env.clear()
        env.update(added)
    return i, ended, kept


def _unknown_value_of_plain_option(table: OptionTable, prefix: str | None) -> bool:
    """A word `--opt=` + an unknown value (`--jobid=$JOBID`) whose option the launcher only
    skips (no value read, no environment set, not one that ends the options); where `--x=...`
    is one switch the launcher's table does not read (`attached` False), any such word."""
    if prefix is None or not prefix.startswith("-") or "=" not in prefix:
        return False
    if not table.attached:
        return True
    if not prefix.startswith("--"):
        return False
    key = prefix.split("=", 1)[0]
    name = key.lstrip("-") if table.any_dashes else key
    special = table.kept | table.sets_env | table.sets_env_list | table.clears_env | table.two_values
    return name in table.value and name not in special and key not in table.ends


def skip_options(table: OptionTable, args: list[Arg], i: int) -> int:
    """The index of the command after a launcher's options and its operands."""
    return walk_options(table, args, i)[0] + table.operands


def value_word(arg: Arg, skip: int, stop: int | None = None) -> Word:
    """The part of `NAME=value` after `=` (up to `stop`, or the word's end), with an exact span
    when the word is written plainly."""
    word = arg.word
    text = word.text or ""
    stop = len(text) if stop is None else stop
    span = word.span
    exact = (
        arg.node is not None
        and arg.node.type == "word"
        and span.line == span.end_line
        and span.end_column - span.column == len(text)
    )
    return Word(text[skip:stop], span.sub(skip, stop) if exact else span, word.origin)


def name_value(text: str) -> tuple[str, str] | None:
    """`NAME=VALUE` split in two when NAME is a variable name the shell could assign (ASCII
    letters, digits and `_`): no variable SGLang or speclint reads is named otherwise."""
    name, equals, value = text.partition("=")
    return (name, value) if equals and is_variable_name(name) else None


def _set_pair(args: list[Arg], i: int, env: dict[str, Word]) -> None:
    """`-genv NAME VALUE`: NAME is the word at `i`, VALUE the next one."""
    name = args[i].word.text if i < len(args) else None
    if name and i + 1 < len(args):
        env[name] = args[i + 1].word


def _set_assignment(value: Value, env: dict[str, Word]) -> None:
    """`NAME=VALUE` (the value may hold commas: `-x NCCL_SOCKET_IFNAME=eth0,eth1`)."""
    arg, skip = value
    text = arg.word.text
    pair = name_value(text[skip:]) if text else None
    if pair is not None:
        env[pair[0]] = value_word(arg, skip + len(pair[0]) + 1)


def _set_assignments(value: Value, env: dict[str, Word]) -> None:
    """`NAME=VALUE[,NAME=VALUE...]`: one assignment points at its value, several at the word."""
    arg, skip = value
    text = arg.word.text
    if not text:
        return
    assignments = text[skip:]
    if "," not in assignments:
        _set_assignment(value, env)
        return
    for part in assignments.split(","):
        pair = name_value(part)
        if pair is not None:
            env[pair[0]] = Word(pair[1], arg.word.span, arg.word.origin)

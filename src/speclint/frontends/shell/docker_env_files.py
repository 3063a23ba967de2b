"""`docker run --env-file FILE` (podman, nerdctl): the container's variables from a file, read
from disk (a relative name from the script's folder, as the project reads the files it
follows), never run. Docker's own reader (docker/cli `opts/parse.go`, `readKVStrings`, and
`pkg/kvfile/kvfile.go`, `parseKeyValueFile`): the files in the order given, then every `-e`/
`--env` value, which wins; in a file, leading blanks are dropped, blank lines and lines that
start with `#` are skipped, `NAME=VALUE` sets NAME to the rest of the line as written (no
`$VAR` expansion, trailing blanks kept), a bare `NAME` takes the host's NAME (left out when the
host has none); a line with no name or a name with blanks makes docker refuse the file.
Quotes around a value are kept by some docker/cli releases and removed by later ones
(`trimQuotes`): such a value is unknown here. Podman reads quotes, `export NAME=` and
`NAME*` its own way (its `--env-file` reference): those lines are unknown for podman. A file
speclint cannot read leaves every variable it may set unknown, the reason naming the file.
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.variables import VarValue


class ContainerEnv(dict[str, Word]):
    """A container's environment (or a Slurm task's); `unread`: why a variable it does not
    list may still be set (an env file speclint could not read), with `{name}` for the
    variable, and `unread_at` the file's name where it is written; None: not listed means not
    set. `slurm`: whose environment Slurm sets its own variables in (`slurm_task_env`)."""

    unread: str | None = None
    unread_at: Span | None = None
    unread_label: str = "the container's environment"
    """What the environment `unread` speaks of is, as findings name it (`Launch.env_unread_label`)."""
    slurm: str | None = None
    gpus: Word | None = None
    """The GPUs `docker run --gpus` gives the container (`docker_gpus.gpus_word`), and
    `gpus_by` how findings name it (`Launch.gpu_count_by`)."""
    gpus_by: tuple[str, str] | None = None

    def marks(self) -> dict[str, VarValue]:
        """For a shell run with this environment (`Walker.walk_nested`): the hidden variables
        that say what it does not list may be set (`ENV_FILE_VARIABLE`, Slurm's
        `slurm_names.SLURM_VARIABLE`)."""
        from speclint.frontends.shell.slurm_names import SLURM_VARIABLE
        from speclint.frontends.shell.variables import VarValue

        found = {}
        if self.slurm is not None:  # Slurm's variables are set there, not known
            found[SLURM_VARIABLE] = VarValue(reason=self.slurm)
        if self.unread is not None:  # an env file not read: the shell's launches say so
            found[ENV_FILE_VARIABLE] = VarValue(reason=self.unread, origin=self.unread_at)
        return found

    def copy(self) -> ContainerEnv:
        """A copy that keeps `unread` (`dict.copy` would give a plain dict)."""
        return self.emptied(dict(self))

    def emptied(self, values: dict[str, Word] | None = None) -> ContainerEnv:
        """A new environment holding `values` (none), with the same `unread`: `sudo` without
        `-E` resets the environment, yet sudoers' `env_keep` may keep what the file set."""
        other = ContainerEnv(values or {})
        other.unread, other.unread_at, other.slurm = self.unread, self.unread_at, self.slurm
        other.unread_label = self.unread_label
        return other


ENV_FILE_VARIABLE = "__speclint_env_file"
"""In the shell a container runs (`bash -c` in `docker run --env-file F`): the variable whose
reason says why a variable may be set by an env file speclint could not read, its origin the
file's name; a launch that shell starts carries it (`with_unread`)."""


def with_unread(env: dict[str, Word], unread: str, at: Span | None) -> ContainerEnv:
    """`env` as a container's environment whose env file speclint could not read."""
    found = ContainerEnv(env)
    found.unread, found.unread_at = unread, at
    return found


def mark_unread(launch: Launch, env: dict[str, Word]) -> None:
    """Set on `launch` the word standing for what `env`'s unread source may set, and what
    findings call that environment."""
    launch.env_unread = unread_word(env)
    launch.env_unread_label = getattr(env, "unread_label", launch.env_unread_label)


def unread_word(env: dict[str, Word]) -> Word | None:
    """For a launch's environment: the word standing for every variable an env file speclint
    could not read may set (its span the file's name, its reason naming the file), or None."""
    unread = getattr(env, "unread", None)
    at = getattr(env, "unread_at", None)
    if unread is None or at is None:
        return None
    any_variable = "any variable the server reads (SGLANG_*, CUDA_VISIBLE_DEVICES...)"
    return Word(None, at, at, dynamic_reason=unread.replace("${name}", any_variable))


def apply_env_files(
    files: list[tuple[str, Word]],
    script_path: str,
    program: str,
    host_env: dict[str, Word],
    into: ContainerEnv,
) -> None:
    """Set in `into` what the env files (`(option as written, the file's word)`, in order)
    give the container, before the `-e` values are laid over them."""
    for option, word in files:
        why = _read_one(option, word, script_path, program, host_env, into)
        if why is None:
            continue
        # this file may set any variable, and replace what an earlier file set
        for name, value in list(into.items()):
            into[name] = Word(None, value.span, value.origin, dynamic_reason=why.replace("{name}", name))
        into.unread, into.unread_at = why, word.span


def _read_one(
    option: str, word: Word, script_path: str, program: str, host_env: dict[str, Word], into: ContainerEnv
) -> str | None:
    """Read one file into `into`; why any variable may be set by it when it cannot be read."""
    name = word.text
    where = f"`{option} {name if name is not None else '...'}` (line {word.span.line})"
    if name is None or "$" in name:
        return f"${{name}} may be set by {where}, whose name speclint does not know"
    if name.startswith("~"):
        return f"${{name}} may be set by {where}, a file of the user's home, which speclint does not read"
    from speclint.frontends.reading import read_named_file

    text, _, why = read_named_file(script_path, name)
    if text is None:
        return f"${{name}} may be set by {where}, which speclint could not read ({why})"
    refused = _parse(text, name, word, program, host_env, into)
    if refused is not None:
        return f"${{name}} may be set by {where}, which {program} refuses ({refused})"
    return None


def _parse(
    text: str, file: str, word: Word, program: str, host_env: dict[str, Word], into: ContainerEnv
) -> str | None:
    """The file's lines into `into`; why docker refuses the file, or None."""
    found: dict[str, Word] = {}
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.lstrip()
        if not line or line.startswith("#"):
            continue
        key, has_value, value = line.partition("=")
        if not key:
            return f"line {number} has no variable name"
        if " " in key or "\t" in key:
            if program == "podman" and key.startswith("export "):
                found[key[7:].strip()] = _unknown(word, key[7:].strip(), f"`{key}` in {file} (line {number})")
                continue
            return f"the name `{key}` on line {number} has blanks"
        if program == "podman" and (key.endswith("*") or (has_value and any(q in value for q in "'\"`"))):
            found[key.rstrip("*")] = _unknown(word, key.rstrip("*"), f"`{key}` in {file} (line {number})")
        elif not has_value:
            host = host_env.get(key)
            found[key] = (
                Word(host.text, word.span, word.origin, dynamic_reason=host.dynamic_reason)
                if host is not None
                else Word(
                    None,
                    word.span,
                    word.origin,
                    dynamic_reason=f"${key} is taken from the host environment ({file}, line {number})",
                )
            )
        elif len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            found[key] = Word(
                None,
                word.span,
                word.origin,
                dynamic_reason=f"${key} in {file} (line {number}) is quoted: some docker releases keep "
                "the quotes in the value, later ones remove them",
            )
        else:
            found[key] = Word(value, word.span, word.origin)
    into.update(found)
    return None


def _unknown(word: Word, name: str, where: str) -> Word:
    """A podman line docker's rules do not cover (quotes, `export NAME=`, `NAME*`)."""
    reason = f"${name} is set by {where}, which podman reads by its own rules (not read here)"
    return Word(None, word.span, word.origin, dynamic_reason=reason)


def env_file_word(arg: Arg, skip: int) -> Word:
    """The file name of `--env-file FILE` / `--env-file=FILE`."""
    from speclint.frontends.shell.launcher_options import value_word

    return value_word(arg, skip) if skip else arg.word

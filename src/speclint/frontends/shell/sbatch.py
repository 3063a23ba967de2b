"""Slurm `sbatch --wrap "CMD"` and `sbatch << EOF`: a batch script of its own.

sbatch(1): "Sbatch will wrap the specified command string in a simple "sh" shell script, and
submit that script to the slurm controller. When --wrap is used, a script name and arguments
may not be specified on the command line" (src/sbatch/opt.c: `--wrap` takes a required
argument, `--wrap CMD` or `--wrap=CMD`; script arguments beside it are an error). The
script is read as the shell code it is, with the caller's environment, or the one
`--export` / `SBATCH_EXPORT` gives (the list syntax of Slurm's `--export`, applied as sbatch
applies it, `slurm_export.apply_batch_export`);
Slurm sets the script's `CUDA_VISIBLE_DEVICES` itself (unknown here). sbatch(1): "If no
file name is specified on the command line, sbatch will read the script from standard
input": `sbatch [options] << EOF` submits the here-document as the batch script (its
`#SBATCH` lines are comments to the shell that runs it). Imported only for a command run by
`sbatch`.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.launcher_options import OptionTable, value_word, walk_options
from speclint.frontends.shell.slurm_export import apply_batch_export
from speclint.frontends.shell.slurm_gres import VISIBLE
from speclint.frontends.shell.srun import SRUN_LONG_VALUE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.core.spans import Span
    from speclint.frontends.shell.launcher_options import Value
    from speclint.frontends.shell.slurm_export import ValueAt
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env
    from speclint.frontends.shell.walking import Walking

# src/sbatch/opt.c: getopt string "+ba:A:B:c:C:d:D:e:F:g:hHi:IJ:kL:m:M:n:N:o:Op:P:QRsS:t:uU:vVw:Wx:"
# (letters with a colon take a value; later releases add -G, --gpus) and the long options
# declared `required_argument`; srun's long options with a value (`srun`) are the same names.
_SHORT_VALUE = frozenset("aABcCdDeFgGiJLmMnNopPStUwx")
_LONG_VALUE = SRUN_LONG_VALUE | frozenset(
    """array nodefile geometry kill-on-invalid-dep export-file workdir cluster tasks
    mail-type mail-user wrap blrts-image cnload-image conn-type ioload-image linux-image
    mloader-image ramdisk-image wait-all-nodes""".split()
)
SBATCH = OptionTable(
    value=frozenset("-" + letter for letter in _SHORT_VALUE) | frozenset("--" + name for name in _LONG_VALUE),
    kept=frozenset({"--wrap", "--export"}),
)
_VISIBLE_REASON = (
    "Slurm sets CUDA_VISIBLE_DEVICES for the batch script `sbatch` runs to the GPUs it gives "
    "the job (unset without GPUs), over the caller's value, on a node whose gres.conf "
    "configures its GPUs"
)


def sbatch_wrap(
    walker: Walking,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> None:
    """Walk the script of `sbatch [options] --wrap CMD` (i: the word after `sbatch`); nothing
    when there is no `--wrap` (the script is a file, or standard input)."""
    sbatch = args[i - 1].word
    end, _, kept = walk_options(SBATCH, args, i)
    wrap = kept.get("--wrap")
    if wrap is None and end < len(args) and args[end].word.text is None:
        wrap = _wrap_after_unknown(args, end)  # `sbatch $OPTS --wrap ...`
    if wrap is None:
        return
    env = dict(env)
    _export(kept.get("--export"), env)
    env[VISIBLE] = Word(None, sbatch.span, dynamic_reason=_VISIBLE_REASON)
    line = sbatch.span.line
    from speclint.frontends.shell.slurm_task_env import with_slurm

    env = with_slurm(env, f"the batch script of `sbatch --wrap` (line {line})")
    walker.parse_nested(
        _code(walker, *wrap),
        env,
        image,
        f"${{name}} is not passed to the batch script of `sbatch --wrap` (line {line})",
    )


def stdin_script_env(
    args: list[Arg], env: dict[str, Word], script: tuple[TextMap, dict[str, str], bool, bool] | None = None
) -> dict[str, Word] | None:
    """The environment of the batch script `sbatch [options]` reads from standard input (args:
    the command's words, `sbatch` first; env: the caller's exported variables; script: the
    script as read, its placeholders for unknown values, whether `<<-` strips its tabs and
    whether its first line starts with blanks left out of it, for its `#SBATCH --export`),
    None when the script is a file, a `--wrap`, or a word speclint cannot read stands where
    it would be."""
    end, _, kept = walk_options(SBATCH, args, 1)
    if end != len(args) or "--wrap" in kept:
        return None
    env = dict(env)
    directive = None
    if script is not None:
        from speclint.frontends.shell.sbatch_directives import directive_export

        directive = directive_export(SBATCH, *script)
    _export(kept.get("--export"), env, directive)
    env[VISIBLE] = Word(None, args[0].word.span, dynamic_reason=_VISIBLE_REASON)
    return env


def _wrap_after_unknown(args: list[Arg], i: int) -> Value | None:
    """`--wrap` after a word whose text is unknown (options in a variable): `--wrap` takes a
    value wherever it is, and no script may stand beside it, so its word is still known."""
    for k in range(i, len(args)):
        text = args[k].word.text or ""
        if text == "--wrap" and k + 1 < len(args):
            return args[k + 1], 0
        if text.startswith("--wrap="):
            return args[k], len("--wrap=")
    return None


def _code(walker: Walking, arg: Arg, skip: int) -> Arg:
    """The argument holding the script: the word after `--wrap`, or, of `--wrap="CMD"`, the
    quoted part (its characters keep their places in the file)."""
    if skip == 0:
        return arg
    node = arg.node
    if node is not None and node.type == "concatenation" and len(node.named_children) == 2:
        option, quoted = node.named_children
        if walker.tm.node_text(option) == "--wrap=" and quoted.type in ("string", "raw_string"):
            return Arg(value_word(arg, skip), quoted)
    return Arg(value_word(arg, skip), None)


def _export(
    given: Value | None, env: dict[str, Word], directive: tuple[str, ValueAt] | str | None = None
) -> None:
    """Apply `--export`'s list (else `SBATCH_EXPORT`'s, when set to a known value, else the
    batch script's `#SBATCH --export`: Slurm applies the script's options first, then the
    variables, then the command line) to `env`. A directive list speclint cannot read
    (`directive`: why) leaves no caller's value known."""
    if given is not None:
        arg, skip = given
        if arg.word.text is not None:
            text = arg.word.text[skip:]
            apply_batch_export(text, lambda start, stop: value_word(arg, skip + start, skip + stop), env)
        return
    listed = env.get("SBATCH_EXPORT")
    if listed is not None:
        if listed.text is not None:
            text = listed.text
            apply_batch_export(
                text, lambda start, stop: Word(text[start:stop], listed.span, listed.origin), env
            )
        return
    if isinstance(directive, str):
        for name, word in env.items():
            if word.text is not None:
                env[name] = Word(None, word.span, word.origin, dynamic_reason=directive)
    elif directive is not None:
        apply_batch_export(*directive, env)


def batch_script_env(tm: TextMap, env: Env) -> tuple[frozenset[Span], str] | None:
    """A script whose own `#SBATCH --export=...` lines (before its first command) give values:
    read as the batch script sbatch runs, those values set at the start, pointing at the
    `#SBATCH` line. What was assumed is said there (`mark_assumed`): sbatch reads the
    script's `--export` only when neither the sbatch command line nor SBATCH_EXPORT gives
    one. The caller's own variables stay unknown; a list without `ALL` passes none of them.
    Gives where the values are written and that note, None when the script sets none."""
    from speclint.frontends.shell.sbatch_directives import directive_export
    from speclint.frontends.shell.variables import VarValue

    directive = directive_export(SBATCH, tm, {}, False, False)
    if directive is None or isinstance(directive, str):
        return None
    listed, value_at = directive
    words: dict[str, Word] = {}
    apply_batch_export(listed, value_at, words)
    line = value_at(0, 0).span.line
    assumed = (
        f"set by `#SBATCH --export` (line {line}), as sbatch applies it when the script is "
        "submitted with no `--export` on the sbatch command line and no SBATCH_EXPORT, either of "
        "which would replace it"
    )
    for name, word in words.items():
        env.vars[name] = VarValue(
            text=word.text, reason=word.dynamic_reason, origin=word.span, exported=True, made_by=assumed
        )
    if "all" not in [item.strip().lower() for item in listed.split(",")]:
        env.unknown_template = (
            f"${{name}} is not passed to the batch script by `#SBATCH --export={listed}` (line "
            f"{line}) when it is submitted without another `--export`"
        )
    return frozenset(word.span for word in words.values()), assumed


def mark_assumed(launches: list[Launch], places: frozenset[Span], note: str) -> None:
    """The words whose value came from an `#SBATCH --export` value (`places`) say `note` at
    it, not "value assigned here"."""
    from dataclasses import replace

    for launch in launches:
        launch.args = [
            replace(word, made_by=note) if word.origin in places and word.made_by is None else word
            for word in launch.args
        ]

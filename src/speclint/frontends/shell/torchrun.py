"""`torchrun [options] -m MODULE args...`, `python -m torch.distributed.run ...` and the
deprecated `python -m torch.distributed.launch ...`.

torchrun's parser (torch/distributed/run.py `get_args_parser`) takes its own options, then the
script (with `-m`/`--module`: a module, run as `python -m` runs it) and everything after it as
the script's arguments (`nargs=REMAINDER`). Which options take a value is read from torch's
source (`torchrun_options`, tools/gen_torchrun.py); an option written otherwise (unknown to
that torch, an abbreviation argparse may find ambiguous, a word speclint cannot know) leaves
where the module starts unknown: reported (SLM005), never guessed. With `--no-python` or
`--run-path` the script is not run by `python -m` (reported). torchrun adds no
`--local-rank` to the module's arguments; `torch.distributed.launch` (launch.py: run.py's
parser plus its own `--use-env`, then run.py's `run`) does unless `--use-env` is given: its
`config_from_args` puts `--local-rank=<the worker's local rank>` before the module's own
arguments (read as the first worker's `--local-rank=0`, placed at the module name
`torch.distributed.launch`: SGLang's parser judges it as any word). Imported only for a command run by torchrun.
"""

from __future__ import annotations

from speclint.core.launches import Diagnostic, Launch
from speclint.core.words import Word
from speclint.frontends.recognise import module_entry
from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.torchrun_options import (
    LAUNCH_SWITCH,
    LAUNCH_VALUE,
    LOCAL_RANK_ARG,
    SWITCH,
    TORCH_VERSION,
    VALUE,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import Walking

_MODULE = frozenset({"-m", "--module"})
_NOT_PYTHON = frozenset({"--no-python", "--no_python", "--run-path", "--run_path"})
_VIRTUAL = frozenset({"--virtual-local-rank", "--virtual_local_rank"})
_VIRTUAL_REASON = (
    "torchrun's `--virtual-local-rank` sets CUDA_VISIBLE_DEVICES for each worker to the GPU "
    "it is assigned (torch's run.py: `CUDA_VISIBLE_DEVICES is adjusted so each worker "
    "accesses its assigned GPU at device index 0`)"
)
LEGACY = "python -m torch.distributed.launch"
"""The name of the deprecated launcher, whose own options (`--use-env`) are added to torchrun's."""
_USE_ENV = frozenset({"--use-env", "--use_env"})


def torchrun_launch(
    walker: Walking,
    span: Span,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
    name: str,
) -> None:
    """Add the launch `NAME [options] -m MODULE ...` starts, if it is one (i: the word after
    NAME)."""
    found = torchrun_module(walker, args, i, env, name)
    if found is not None:
        entry, rest, worker_env = found
        image_text, image_span = image if image is not None else (None, None)
        launch = Launch(
            walker.path, entry, span, [a.word for a in rest], dict(worker_env), image_text, image_span
        )
        if getattr(env, "unread", None) is not None:  # a container's env file not read
            from speclint.frontends.shell.docker_env_files import mark_unread

            mark_unread(launch, env)
        walker.add_launch(launch)


def torchrun_module(
    walker: Walking,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    name: str,
) -> tuple[str, list[Arg], dict[str, Word]] | None:
    """(the launch's entry, its arguments, its environment) of `NAME [options] -m MODULE
    ...` when MODULE is a launch (i: the word after NAME); None otherwise, an option speclint
    cannot read reported where it is."""
    legacy = name == LEGACY
    value_options = VALUE | LAUNCH_VALUE if legacy else VALUE
    switch_options = SWITCH | LAUNCH_SWITCH if legacy else SWITCH
    launcher = args[i - 1].word
    module = False
    use_env = False
    direct: Word | None = None
    while i < len(args):
        word = args[i].word
        text = word.text
        if text is None and (word.prefix or "").startswith("--") and "=" in (word.prefix or ""):
            text = word.prefix  # `--nproc-per-node=$N`: the option is known, only its value is not
        if text is None:
            why = word.dynamic_reason or "its value is not known"
            what = f"a word whose value speclint cannot know ({why})"
            _unread(
                walker,
                args,
                word,
                f"among its options stands {what}: where the module starts is not known",
                name,
            )
            return None
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        i += 1
        module = module or text in _MODULE
        direct = word if direct is None and text in _NOT_PYTHON else direct
        if text in _VIRTUAL:
            env = dict(env)
            env["CUDA_VISIBLE_DEVICES"] = Word(None, word.span, dynamic_reason=_VIRTUAL_REASON)
        if text in switch_options:
            use_env = use_env or text in _USE_ENV
            continue
        if text in value_options:
            i += 1
            continue
        key = text.split("=", 1)[0]
        if key in value_options and text.startswith("--") or text[:2] in value_options and len(text) > 2:
            continue  # `--nproc-per-node=8`, `-r3`
        matches = (
            sorted(o for o in value_options | switch_options if o.startswith(key))
            if text.startswith("--")
            else []
        )
        if len(matches) == 1:  # a unique prefix: argparse's abbreviation (allow_abbrev)
            use_env = use_env or matches[0] in _USE_ENV and key == text
            i += 1 if matches[0] in value_options and key == text else 0
            continue
        what = (
            f"an abbreviation that could match {', '.join(f'`{m}`' for m in matches)} which argparse "
            "refuses ('ambiguous option' on Python 3.11)"
            if matches
            else f"not an option of {'torch.distributed.launch' if legacy else 'torchrun'} in torch "
            f"{TORCH_VERSION} (read from its {'launch.py and ' if legacy else ''}run.py)"
        )
        _unread(
            walker,
            args,
            word,
            f"among its options stands `{text}`, {what}: where the module starts is not known",
            name,
        )
        return None
    if not module or i >= len(args):
        return None
    if direct is not None:  # run.py `config_from_args`
        how = (
            "runs the script as a file path (`runpy.run_path`), not as a module"
            if "run" in (direct.text or "")
            else "refuses `-m` beside it ('Don't use both the '--no-python' flag and the '--module' flag')"
        )
        _unread(walker, args, direct, f"with `{direct.text}` torchrun {how}", name)
        return None
    entry = module_entry(args[i].word.text)
    if not entry:
        return None
    rest = args[i + 1 :]
    if legacy and not use_env:  # run.py `config_from_args`: `if not use_env: cmd_args.append(...)`
        # the first worker's word (local rank 0; each worker gets its own rank), placed at the
        # module name, with it as origin so that no fix edits the text written there
        rank = Word(
            LOCAL_RANK_ARG + "0",
            launcher.span,
            launcher.span,
            made_by=(
                f"`{launcher.text}` passes `{LOCAL_RANK_ARG}<rank>` to the module before its "
                f"own arguments unless `--use-env` is given (torch {TORCH_VERSION}'s launch.py "
                "and run.py); add `--use-env` if the module does not take it"
            ),
        )
        rest = [Arg(rank, None), *rest]
    return entry, rest, env


def _unread(walker: Walking, args: list[Arg], word: Word, why: str, name: str) -> None:
    """Report a torchrun command that runs the launcher but that speclint does not read."""
    if not walker.collect:
        return
    launcher = next((a.word.text for a in args if module_entry(a.word.text)), None)
    if launcher is None:
        return
    line = word.span.line
    walker.result.diagnostics.append(  # why, for a file with no launch (its first such reason)
        Diagnostic(
            "launch-unread", f"speclint did not read the `{name}` command at line {line}: {why}", word.span
        )
    )
    walker.result.diagnostics.append(  # said at the word, beside launches read
        Diagnostic(
            "launcher-not-read",
            f"speclint did not read this `{name}` command, which runs `{launcher}`: {why}, so "
            "nothing in this launch was checked",
            word.span,
        )
    )

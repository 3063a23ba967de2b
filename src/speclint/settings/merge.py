"""The command line over the configuration file over the defaults, merged once per file (rule
selection, SGLang version, models, GPU) and per walked folder (what the walk skips)."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass
from speclint.settings.options import LintOptions, Selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.settings.files import Settings
    from speclint.settings.walk_options import WalkOptions
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


@dataclass(frozen=True)
class CommandLine:
    """What the command line says; None / () means "not given" (a config file may decide)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    sglang_version: str | None = None
    fail_on: str | None = None
    model_configs: tuple[tuple[str, str], ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    """--unsafe-fixes: --fix/--diff also apply fixes that change what the launch asks for."""
    stdin_filename: str | None = None
    """--stdin-filename: the name standard input is linted, configured and reported as."""
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    cache_dir: str | None = None
    """Where `check` keeps results for re-runs (`speclint.runner.cache`); None: no cache."""
    gpu: GpuProfile | None = None
    """From `--gpu`/`--gpus` (wins over the configuration's `gpu`)."""
    recorder: object = field(default=None, compare=False, repr=False)
    """A `speclint.runner.replay_record.Recorder` told each file's cache entry (None: no record)."""


def options_for(path: str, cli: CommandLine, settings: Settings) -> LintOptions:
    return options_with(settings.ignores_for(path), cli, settings)


def options_with(file_ignores: tuple[str, ...], cli: CommandLine, settings: Settings) -> LintOptions:
    """`options_for` a file that `per-file-ignores` gives `file_ignores` (a walk asks once
    per configuration and set of ignores, not per file)."""
    select = cli.select or settings.select
    if not select:  # ruff's way: a default rule set, opt-in rules only when selected
        from speclint.rules import default_selection

        select = default_selection()
    select += settings.extend_select + cli.extend_select
    ignore = cli.ignore + settings.ignore + file_ignores
    models = dict(settings.models)
    models.update(cli.model_configs)  # the command line wins
    gpu = cli.gpu
    if gpu is None and settings.gpu:
        from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting

        gpu = parse_gpu_setting(settings.gpu)
    return LintOptions(
        cli.sglang_version,
        Selection(select, ignore),
        tuple(models.items()),
        configured_version=settings.sglang_version,
        stdin_filename=cli.stdin_filename,
        read_pyproject=False,
        flag_prefixes=settings.flag_prefixes or None,
        gpu=gpu,
    )


def walk_options(cli: CommandLine, settings: Settings) -> WalkOptions:
    """What a folder walk skips: the command line over the configuration over the defaults."""
    from speclint.settings.walk_options import DEFAULT_EXCLUDE, WalkOptions

    exclude = cli.exclude if cli.exclude is not None else settings.exclude
    respect = cli.respect_gitignore if cli.respect_gitignore is not None else settings.respect_gitignore
    return WalkOptions(
        DEFAULT_EXCLUDE if exclude is None else exclude,
        settings.extend_exclude + cli.extend_exclude,
        True if respect is None else respect,
    )

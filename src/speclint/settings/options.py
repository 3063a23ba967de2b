"""The options one lint runs with: rule selection, SGLang version, model mapping, GPU, and what
folder walks skip. Built once (`speclint.settings.merge`) from configuration files and the
command line; the pipeline (`speclint.engine`) and the runner only receive them."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import Rule
    from speclint.settings.walk_options import DEFAULT_EXCLUDE as DEFAULT_EXCLUDE
    from speclint.settings.walk_options import WalkOptions as WalkOptions
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


@dataclass(frozen=True, slots=True)
class Selection:
    """Which rules run: `select` and `ignore` entries are codes, code prefixes or names."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @staticmethod
    def _matches(rule: Rule, key: str) -> bool:
        key = key.strip()
        return key.lower() == rule.name or rule.code.upper().startswith(key.upper()) or key.upper() == "ALL"

    def _any(self, rule: Rule, keys: tuple[str, ...]) -> bool:
        # a rule's own code among the keys (the default selection is every default code) is
        # the common case: a tuple lookup instead of matching each key
        return rule.code in keys or any(self._matches(rule, key) for key in keys)

    def enabled(self, rule: Rule) -> bool:
        if self.select and not self._any(rule, self.select):
            return False
        return not (self.ignore and self._any(rule, self.ignore))


@dataclass(frozen=True, slots=True)
class LintOptions:
    """Everything one lint runs with, built once from configuration and command line."""

    sglang_version: str | None = None
    selection: Selection = Selection()
    model_configs: tuple[tuple[str, str], ...] = ()
    """`--model-config NAME=PATH` pairs: where to find the config.json of a model the
    launch names (a folder or a config.json)."""
    configured_version: str | None = None
    """`sglang-version` from a configuration file (below --sglang-version, above image tags)."""
    stdin_filename: str | None = None
    """`--stdin-filename`: standard input is read with this file's front-end and reported
    under its name."""
    flag_prefixes: tuple[tuple[str, str], ...] | None = None
    """`[tool.speclint] flag-prefixes`: (framework, prefix) pairs over the defaults
    (`speclint.frontends.manifests.prefixed`); an empty prefix turns one off."""
    read_pyproject: bool = True
    """Read `[tool.speclint] models` from the configuration closest to the file (the API
    default; only read when a launch names a model). The CLI applies configuration files
    itself and turns this off."""
    gpu: GpuProfile | None = None
    """The GPU SGLang runs on (`--gpu`, `[tool.speclint] gpu`, NVML for `run`);
    None: every GPU-dependent field is unknown."""

    def model_mapping_for(self, path: str) -> dict[str, str]:
        """Where the user says models live for the file at `path`: with `read_pyproject` (the
        API default), the closest configuration file's `models`, then `--model-config` over
        it. Raises `ConfigError` for a broken configuration file."""
        if not self.read_pyproject:
            return dict(self.model_configs)
        from speclint.settings.files import SettingsFinder

        return {**dict(SettingsFinder().for_path(path).models), **dict(self.model_configs)}


def __getattr__(name: str) -> object:
    """`WalkOptions` and `DEFAULT_EXCLUDE`, from `settings.walk_options`: a record class costs
    ~0.5 M instructions to make, and only a folder walk needs it."""
    if name in ("WalkOptions", "DEFAULT_EXCLUDE"):
        from speclint.settings import walk_options

        return getattr(walk_options, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""One launch analysed: the release it is checked against, its flags as that release parses
them, the models it names and SGLang's resolution (`engine.analyse_launch`).

Apart from the engine so that the modules a launch needs are imported here once, on the
first launch, rather than by a function-level import on every launch (each costs about two
function calls; a launch made a dozen), and not by the engine, which a file without
launches also loads.
"""

from __future__ import annotations

from speclint.frontends.recognise import ROUTER_ENTRY, SERVE_ENTRY
from speclint.rules.base import LaunchContext, ModelRef
from speclint.sglang.checkpoints.locate import locate_model
from speclint.sglang.checkpoints.model_config import read_model_config
from speclint.sglang.flags.launch_config import configure
from speclint.sglang.flags.versions import choose_version, from_launch
from speclint.sglang.resolve import resolve
from speclint.sglang.resolve.context import context_rejection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.settings.options import LintOptions
    from speclint.sglang.flags.launch_config import LaunchConfig


def analyse_launch(path: str, launch: Launch, options: LintOptions) -> LaunchContext:
    """The flag model of one launch, ready for rules and `explain`."""
    choice = choose_version(
        options.sglang_version, launch.image, options.configured_version, None if path == "<stdin>" else path
    )
    version = choice.version
    if launch.image and launch.image_span and from_launch(choice.reason):
        where = launch.image_span  # (in another file: a KServe runtime, a Hydra group file beside)
        choice.reason += (
            f" (line {where.line})" if where.file is None else f" (line {where.line} of {where.file})"
        )
    env = launch.environment()  # (built once: argparse's env choices and resolution read it)
    config = configure(launch, version, env)
    ctx = LaunchContext(path, launch, config.parsed, config, choice)
    if launch.config_file is not None:
        from speclint.sglang.flags.config_merge import refusal

        ctx.config_refusal = refusal(launch.config_file, version)
    mapping = _model_mapping(path, config, options)
    ctx.target = target = _model_ref(config, "model_path", "revision", mapping)
    ctx.draft = _model_ref(
        config, "speculative_draft_model_path", "speculative_draft_model_revision", mapping
    )
    if launch.entry == SERVE_ENTRY and target.config is None and target.reference:  # (0.5.5+)
        target.diffusers_index = _diffusers_index(target.reference, config, mapping, version)
    ctx.gpu = options.gpu
    co_launched = launch.entry == ROUTER_ENTRY
    ctx.resolution = resolution = resolve(
        config, env, target.architecture, options.gpu, target.config, ctx.draft.config, co_launched
    )
    if resolution.rejection is None:
        resolution.rejection = context_rejection(config, env, target.config, version)
    return ctx


def _diffusers_index(
    reference: str, config: LaunchConfig, mapping: dict[str, str], version: str
) -> str | None:
    """For `sglang serve` of a model whose config.json is not on disk: the diffusers pipeline
    index that makes the release run its diffusion server (`checkpoints.diffusers`), if any."""
    from speclint.sglang.diffusion_serve import diffusers_markers

    markers = diffusers_markers(version)
    if markers is None:
        return None
    from speclint.sglang.checkpoints.diffusers import diffusers_index

    revision = config.value("revision")
    return diffusers_index(
        reference, revision if isinstance(revision, str) else None, mapping.get(reference), markers
    )


def _model_mapping(path: str, config: LaunchConfig, options: LintOptions) -> dict[str, str]:
    """Where the user says models live (`LintOptions.model_mapping_for`), asked only when the
    launch names a model. Raises `ConfigError` for a broken configuration file."""
    for name in ("model_path", "speculative_draft_model_path"):  # (a loop: no generator)
        if config.knows(name) and config.get(name).value is not None:
            return options.model_mapping_for(path)
    return dict(options.model_configs)


def _model_ref(
    config: LaunchConfig, path_field: str, revision_field: str, mapping: dict[str, str]
) -> ModelRef:
    setting = config.get(path_field) if config.knows(path_field) else None
    if setting is None or setting.dynamic or not isinstance(setting.value, str):
        return ModelRef(None)
    revision = config.value(revision_field)
    located = locate_model(setting.value, revision if isinstance(revision, str) else None, mapping)
    ref = ModelRef(setting.value, located)
    if located is not None and located.config_path:
        ref.config, ref.problem = read_model_config(located.config_path)
    return ref

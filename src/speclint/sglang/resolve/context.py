"""`ModelConfig._derive_context_length` (every modelled release): a --context-length past
the model's derived context stops the launch unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN."""

from __future__ import annotations

from speclint.sglang.resolve.hardware_flags import plain_int

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.flags.launch_config import LaunchConfig
    from speclint.sglang.resolve.rejection import Rejection

CONTEXT_TOO_LONG = "context-too-long"
_TRUE = ("true", "1", "yes", "y")


def context_rejection(
    config: LaunchConfig, env: Mapping[str, str | None], target_config: ModelConfig | None, version: str
) -> Rejection | None:
    """The ValueError SGLang raises for the target's --context-length, or None."""
    if target_config is None or not config.knows("context_length") or not config.known("context_length"):
        return None
    asked = plain_int(config.value("context_length"))
    derived = target_config.derived_context_length()
    if asked is None or derived is None or asked <= derived[0]:
        return None
    name = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"
    if name in env:
        value = env[name]
        if value is None or value.strip().lower() in _TRUE:
            return None
    else:
        from speclint.sglang import release

        if release(version).context_override_default:
            return None  # the variable defaults to true there (read from the release's source)
    from speclint.sglang.resolve.rejection import Rejection

    return Rejection(
        "ValueError",
        f"User-specified context_length ({asked}) is greater than "
        f"the derived context_length ({derived[0]}). To allow overriding this "
        f"maximum, set the env var {name}=1",
        "ModelConfig._derive_context_length",
        ("context_length",),
        CONTEXT_TOO_LONG,
    )

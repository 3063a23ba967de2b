"""Choices a release's parser adds only under an environment variable (0.5.19+: SGLang adds
`token_oracle` to `--sampling-backend`'s choices when `SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE`
is true as it builds its parser). Read per release by tools/sglang_args.py
(`FlagSpec.env_choices`); here, not in `argv`, because most launches never ask."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.sglang.flags.schema import FlagSpec


def refused(spec: FlagSpec, value: object, env: Mapping[str, str | None] | None) -> bool:
    """Whether argparse refuses `value`, which is not among `spec.choices`: True unless the
    release adds it under a variable the launch's environment `env` sets true, or sets to a
    value speclint cannot read (then the choice is not decided here: not refused)."""
    for choice, name, default, true, false in spec.env_choices:
        if choice != value:
            continue
        if env is None or name not in env:  # unset: the variable's default
            return not default
        raw = env[name]
        if raw is None:
            return False
        lowered = raw.lower()  # `EnvBool.parse`; any other value: its default, with a warning
        return not (True if lowered in true else False if lowered in false else default)
    return True


def condition(spec: FlagSpec, value: object) -> tuple[str, bool] | None:
    """(the variable, its default) under which the release adds `value` to `spec`'s choices;
    None when it never does."""
    for choice, name, default, _true, _false in spec.env_choices:
        if choice == value:
            return name, default
    return None

"""The refusal of a MoE runner's quantization assert (`_handle_moe_kernel_config`; 0.4.10-0.5.2
`__post_init__`; 0.5.19+ `handle_moe_kernel_config`, read per release), built in one place for every check that reports it (refusals_moe,
refusals_moe_runner, refusals_moe_defaults, deepseek_blackwell)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import Stop


def moe_kernel_stop(
    message: str,
    quantization: object,
    detail: str,
    fields: tuple[str, ...],
    version: str,
    where: str | None = None,
) -> Stop:
    """SGLang's AssertionError: its message as the release words it (`{quantization}` filled in,
    the line breaks of its source joined), then `detail` in parentheses: what the launch gave
    the runner and how to fix it. Raised from `where`, by default the function `version` holds
    its MoE runner asserts in (`moe_readings.moe_kernel_handler`)."""
    from speclint.sglang.moe_readings import moe_kernel_handler
    from speclint.sglang.resolve.state import Stop

    where = where or moe_kernel_handler(version)
    text = message.format(quantization=quantization).replace(" \n", " ")
    return Stop("AssertionError", f"{text} ({detail})", where, fields)

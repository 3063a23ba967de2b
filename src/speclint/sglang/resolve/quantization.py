"""`ModelConfig._verify_quantization` (configs/model_config.py): --quantization against the
target checkpoint's `quantization_config`, and against the methods the release implements.

SGLang builds the target's ModelConfig while it resolves the arguments (every recorded
release from 0.4.10.post2 on, `ReleaseTraits.quantization_verified`), so a mismatch stops
the launch before any process starts. What each release accepts (its compatible pairs, its
online requantizations, the pairs its `override_quantization_method` hooks rewrite) is read
from its wheel by tools/gen_sglang_model_config.py (`model_config_facts.quantization_pairs`);
a pair a hook may rewrite from what the launch does not say is reported as a doubt.
0.4.9-0.5.4 build that ModelConfig only for a default --mem-fraction-static, and a method the
release's CUDA registry lacks is refused too (both read from the wheels:
`speclint.sglang.model_config_facts`).
"""

from __future__ import annotations

import os

from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

_HANDLER = "ModelConfig._verify_quantization"


def verify_quantization(state: ResolutionState) -> None:
    traits, config = state.traits, state.config
    if (
        not traits.quantization_verified
        or not config.knows("quantization")
        or not config.known("quantization")
    ):
        return
    asked = config.value("quantization")
    if asked is None or (isinstance(asked, str) and asked.lower() == "gptq"):
        _hook_may_raise(state, asked)
    if not isinstance(asked, str):
        return
    from speclint.sglang.model_config_facts import (
        cuda_quantization_methods,
        quantization_compared,
        verified_only_for_default_mem_fraction,
    )

    if verified_only_for_default_mem_fraction(state.checked_version) and config.knows("mem_fraction_static"):
        if not config.known("mem_fraction_static") or config.value("mem_fraction_static") is not None:
            return  # given: `if self.mem_fraction_static is None:` skips building the ModelConfig
    asked = asked.lower()
    methods = cuda_quantization_methods(state.checked_version)
    if asked in quantization_compared(state.checked_version) and methods is not None and asked not in methods:
        return  # not a method: resolution rewrites it first (0.5.11+: `unquant` becomes None)
    raw = _checkpoint_method(state)
    method = None if raw is None else raw.lower()
    if method is not None and asked != method:
        _mismatch(state, asked, raw or method)
    if asked in traits.quantization_missing and (method is None or method == asked):
        raise Stop(
            "ValueError",
            f"Unknown quantization method: {asked}. SGLang "
            f"{state.version} does not implement it (its QUANTIZATION_METHODS lacks "
            "it although --quantization offers it).",
            _HANDLER,
            ("quantization",),
        )
    kept = method is None or _kept(state, asked, raw or method)
    if kept and state.target_config is not None and _missing_on_cuda(state, asked):
        methods = cuda_quantization_methods(state.checked_version) or ()
        instead = f"--quantization {asked}_marlin, " if f"{asked}_marlin" in methods else ""
        drop = (
            ", or drop the flag"
            if method is None
            else f"; no hook of SGLang {state.checked_version} rewrites --quantization {asked} "
            f"on this checkpoint, whose config.json says quant_method {raw!r}"
        )
        raise Stop(
            "ValueError",
            f"Unknown quantization method: {asked}. SGLang {state.checked_version} does not "
            "register it on a CUDA GPU (its QUANTIZATION_METHODS lacks it there although "
            f"--quantization offers it; use {instead}a method it registers{drop})",
            _HANDLER,
            ("quantization",),
        )


def _hook_may_raise(state: ResolutionState, asked: str | None) -> None:
    """No --quantization, or the checkpoint's own method: SGLang still runs its
    `override_quantization_method` hooks on the checkpoint, and where one of them may raise on
    its method whatever --quantization asks (read per release: `QuantizationPairs.raises` of
    any other value; 0.4.9-0.4.9.post2's `GPTQMarlinConfig.is_gptq_marlin_compatible: assert
    VLLM_AVAILABLE` on a gptq checkpoint, reached on CUDA) the launch may stop there. A warning:
    the oracle's fake GPU reads CUDA as absent when that module is imported, returns before the
    assert and accepts (seed quantization-14006, 0.4.9.post2), and a machine with vllm passes."""
    import speclint.sglang.model_config_facts as facts

    pairs = facts.quantization_pairs(state.checked_version)
    raw = _checkpoint_method(state)
    if pairs is None or raw is None or (asked is not None and asked.lower() != raw.lower()):
        return
    raised = pairs.raises("*", raw)  # what the hooks may raise on this checkpoint for any value
    if not raised or (state.gpu is not None and state.gpu.vendor != "nvidia"):
        return
    given = f"--quantization {asked}" if asked is not None else "no --quantization"
    state.doubt(
        "AssertionError",
        f"with {given} on a checkpoint whose config.json says quant_method {raw!r}, SGLang "
        f"{state.checked_version}'s `override_quantization_method` hooks run on it on a CUDA GPU "
        f"and may stop the launch: `{raised[0]}` (unverified for SGLang {state.checked_version}: "
        "its recorded run cannot reach it, and it passes where vllm is installed; install vllm, "
        "or use a release that does not assert it)",
        _HANDLER,
        ("quantization",) if asked is not None else ("model_path",),
    )


def _kept(state: ResolutionState, asked: str, raw: str) -> bool:
    """No `override_quantization_method` hook rewrites --quantization `asked` on a checkpoint
    whose `quant_method` is `raw` (read per release; a hook that may is not "kept")."""
    from speclint.sglang.model_config_facts import quantization_pairs

    pairs = quantization_pairs(state.checked_version)
    return pairs is not None and pairs.hooks(asked, raw, _checkpoint_keys(state)) == "none"


def _mismatch(state: ResolutionState, asked: str, raw: str) -> None:
    """--quantization `asked` on a checkpoint whose `quant_method` is `raw`: refused unless
    the release takes the pair as compatible, as an online requantization, or one of its
    `override_quantization_method` hooks rewrites it (read per release: a hook whose answer
    depends on what the launch does not say makes the refusal a doubt)."""
    from speclint.sglang.model_config_facts import quantization_pairs

    pairs = quantization_pairs(state.checked_version)
    method = raw.lower()
    if (
        pairs is None
        or method in pairs.parsed  # rewritten from other keys while parsing (`modelopt`)
        or asked in pairs.requantization
        or method in pairs.compatible.get(asked, ())
    ):
        return
    hooks = pairs.hooks(asked, raw, _checkpoint_keys(state))
    if hooks == "override":
        return
    message = pairs.mismatch.format(method=method, asked=asked)
    fix = (
        f" (the checkpoint's config.json says quant_method {raw!r}: drop --quantization to use it, "
        f"or name a method SGLang {state.checked_version} takes for it)"
    )
    if hooks == "maybe":
        unread = pairs.unread(asked, raw)
        why = (
            f"; unverified for SGLang {state.checked_version}: its `override_quantization_method` "
            f"hooks were not read past `{unread[0]}`, which may rewrite the pair"
            if unread
            else "; unverified: unless an `override_quantization_method` hook of SGLang "
            f"{state.checked_version} rewrites the pair from what a launch does not say (the "
            "checkpoint's other quantization keys, the GPU)"
        )
        state.doubt(
            "ValueError",
            message + fix + why,
            _HANDLER,
            ("quantization",),
        )
        return
    raised = pairs.raises(asked, raw)
    if raised:  # a hook that never rewrites the pair may end the launch before the test
        fix += (
            f"; SGLang {state.checked_version} may stop first in an `override_quantization_method` "
            f"hook, on a branch that depends on what a launch does not say: `{raised[0]}`"
        )
    raise Stop("ValueError", message + fix, _HANDLER, ("quantization",))


def _missing_on_cuda(state: ResolutionState, asked: str) -> bool:
    """`asked` is not in the release's QUANTIZATION_METHODS as read for CUDA, and the launch
    runs on CUDA (no other --device, no AMD GPU named)."""
    from speclint.sglang.model_config_facts import cuda_quantization_methods, quantization_compared

    methods = cuda_quantization_methods(state.checked_version)
    if methods is None or asked in methods or asked in quantization_compared(state.checked_version):
        return False  # not read, registered, or rewritten by resolution first (`unquant`)
    config = state.config
    if config.knows("device") and (
        not config.known("device") or config.value("device") not in (None, "cuda")
    ):
        return False
    return state.gpu is None or state.gpu.vendor == "nvidia"


def _checkpoint_keys(state: ResolutionState) -> tuple[str, ...]:
    """The keys of the quantization_config `_checkpoint_method` read."""
    quant = _quantization_config(state)
    return tuple(str(k) for k in quant) if isinstance(quant, dict) else ()


def _quantization_config(state: ResolutionState) -> object:
    """The target config.json's `quantization_config` as SGLang sees it (lifted from
    `text_config` where the release's config class for its model type does so)."""
    target = state.target_config
    if target is None:
        return None
    quant = target.raw.get("quantization_config")
    text = target.raw.get("text_config")
    if quant is None and isinstance(text, dict):
        import speclint.sglang.model_config_facts as facts

        if target.raw.get("model_type") in facts.quantization_in_text_config(state.checked_version):
            quant = text.get("quantization_config")  # SGLang's config class lifts it (kimi_k25)
        elif _copied(facts.text_config_copied(state.checked_version), state.target_architecture):
            quant = text.get("quantization_config")  # `get_config` copies it (0.4.6-0.5.10)
    return quant


def _copied(excepted: tuple[str, str] | None, architecture: str | None) -> bool:
    """`get_config` copies the text config's attributes onto the loaded config, and
    `get_hf_text_config` answers with the text config for this architecture."""
    if excepted is None:
        return False
    prefix, suffix = excepted
    arch = architecture or ""
    return not (prefix and suffix and arch.startswith(prefix) and arch.endswith(suffix))


def _checkpoint_method(state: ResolutionState) -> str | None:
    """The target config.json's `quantization_config.quant_method` (as spelt there), when the
    config is on disk and no ModelSlim description beside it takes precedence."""
    target = state.target_config
    if target is None:
        return None
    quant = _quantization_config(state)
    if not isinstance(quant, dict) or not isinstance(quant.get("quant_method"), str):
        return None
    folder = os.path.dirname(target.path)
    if os.path.exists(os.path.join(folder, "quant_model_description.json")):
        return None  # `_find_quant_modelslim_config` wins (0.5.8+)
    method: str = quant["quant_method"]
    return method

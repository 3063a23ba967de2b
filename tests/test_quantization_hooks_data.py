"""tools/sglang_quant_hooks.py: which (--quantization, checkpoint quant_method) pairs a
release's `override_quantization_method` hooks rewrite, what `_verify_quantization` accepts
besides, and which config classes lift `text_config.quantization_config`; the reading rules
checked on sources written here, the stored readings on releases the oracle checked."""

from __future__ import annotations

import os
import sys
import textwrap

from speclint.sglang.model_config_facts import quantization_in_text_config, quantization_pairs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gen_sglang_model_config import PLATFORM  # noqa: E402
from sglang_quant_hooks import Hooks  # noqa: E402
from sglang_quant_pairs import overrides_reading  # noqa: E402
from sglang_verify_quant import (  # noqa: E402
    lifted_model_types,
    mismatch_message,
    verify_constants,
)

HOOKS = textwrap.dedent(
    """
    _is_hip = is_hip()

    class QuantizationConfig:
        @classmethod
        def override_quantization_method(cls, hf_quant_cfg, user_quant):
            return None

    class MarlinLike(QuantizationConfig):
        @classmethod
        def override_quantization_method(cls, hf_quant_cfg, user_quant):
            can_convert = cls.is_compatible(hf_quant_cfg)
            if can_convert and (user_quant is None or user_quant == "marlin"):
                return cls.get_name()
            return None

        @classmethod
        def is_compatible(cls, quant_config):
            quant_method = quant_config.get("quant_method", "").lower()
            if quant_method != "awq":
                return False
            return check_supported(quant_config.get("bits"))

    class HipOnly(QuantizationConfig):
        @classmethod
        def override_quantization_method(cls, hf_quant_cfg, user_quant):
            if _is_hip and hf_quant_cfg.get("quant_method") == "modelopt":
                return "petit"
            return None

    class Named(QuantizationConfig):
        @classmethod
        def override_quantization_method(cls, hf_quant_cfg, user_quant):
            if hf_quant_cfg.get("quant_method") == "mxfp4":
                return None
            return "named" if user_quant == "named" else None
    """
)


def _reading(source: str = HOOKS) -> dict:
    reading = overrides_reading(Hooks({"q.py": source}, PLATFORM, ()), ["fp8", "marlin", "named"])
    assert reading is not None
    return reading


def test_a_hook_that_reads_an_unknown_key_may_rewrite_the_pair():
    users = _reading()["users"]
    # awq checkpoint, --quantization marlin: rewritten if the bits fit (a key the hook reads;
    # without it, the call it is passed to is not followed either)
    assert users["marlin"] == {"maybe": {"awq": {"absent": "maybe", "keys": ["bits"]}}}
    # a hook keyed on the user's method rewrites every checkpoint but the one it excludes
    assert "*" in users["named"]["override"] and "mxfp4" not in users["named"]["override"]
    # nothing rewrites fp8 on another checkpoint; the AMD-only hook is not asked on CUDA
    assert users["fp8"] == {}
    # methods are those compared on the paths a CUDA GPU takes: the AMD-only test stops first
    assert _reading()["methods"] == ["awq", "mxfp4", "named"]


def _users(source: str, users: list[str], more: dict[str, str] | None = None) -> dict:
    hooks = Hooks(
        {"pkg/q.py": HOOKS + textwrap.dedent(source)}, PLATFORM, (), None if more is None else more.get
    )
    reading = overrides_reading(hooks, users)
    assert isinstance(reading["users"], dict)
    return reading["users"]


def test_a_loop_over_a_literal_is_run_item_by_item():
    """The forms 0.4.9-0.4.9.post2 and later releases use: a loop over a list of names (with
    `break` and `else`), and over a dict's items."""
    users = _users(
        """
        NAMES = ["fp8", "w8a8_fp8"]
        ALIASES = {"fp8_e4m3": "fp8"}

        class Looping(QuantizationConfig):
            @classmethod
            def override_quantization_method(cls, hf_quant_cfg, user_quant):
                for name in NAMES:
                    if name == user_quant:
                        break
                else:
                    return None
                for alias, name in ALIASES.items():
                    if hf_quant_cfg.get("quant_method") == alias:
                        return name
                return None
        """,
        ["fp8", "marlin"],
    )
    # an fp8_e4m3 checkpoint is rewritten for the names listed, and only for them
    assert users["fp8"] == {"override": ["fp8_e4m3"]}
    assert users["w8a8_fp8"] == {"override": ["fp8_e4m3"]}
    assert "fp8_e4m3" not in str(users["marlin"]) and users["*"] == {}


def test_a_statement_not_read_leaves_only_the_pairs_that_reach_it_in_doubt():
    users = _users(
        """
        class Waiting(QuantizationConfig):
            @classmethod
            def override_quantization_method(cls, hf_quant_cfg, user_quant):
                if user_quant != "w4a8":
                    return None
                while hf_quant_cfg.get("retry"):
                    pass
                return None
        """,
        ["fp8", "w4a8"],
    )
    assert users["fp8"] == {}  # exact: it returns before the loop
    assert users["w4a8"]["maybe"]["*"] == {
        "absent": "maybe",
        "keys": [],
        "unread": ["Waiting.override_quantization_method: while hf_quant_cfg.get('retry'):"],
    }


ASSERTING = """
try:
    import vllm
    VLLM_AVAILABLE = True
except ImportError:
    VLLM_AVAILABLE = False

class Asserting(QuantizationConfig):
    @classmethod
    def override_quantization_method(cls, hf_quant_cfg, user_quant):
        if hf_quant_cfg.get("quant_method") == "gptq" and hf_quant_cfg.get("bits") is not None:
            assert VLLM_AVAILABLE, "vllm is not installed"
            if user_quant == "gptq_marlin":
                return cls.get_name()
        return None
"""


def test_an_assert_where_no_branch_rewrites_refuses_the_pair():
    """0.4.9-0.4.9.post2: GPTQMarlinConfig.is_gptq_marlin_compatible asserts VLLM_AVAILABLE
    (set by an import that may fail) once a GPTQ checkpoint has the keys it reads; a pair the
    hook never rewrites ends the launch on every branch (the assert, or the mismatch test), one
    it may rewrite stays a doubt."""
    users = _users(ASSERTING, ["fp8", "gptq_marlin"])
    statement = "Asserting.override_quantization_method: assert VLLM_AVAILABLE, 'vllm is not installed'"
    assert users["fp8"] == {"raise": {"gptq": [statement]}}
    assert users["gptq_marlin"] == {"maybe": {"gptq": {"absent": "none", "keys": ["bits"]}}}


MODELOPT = """
from pkg.utils import canonical

class ModelOptLike(QuantizationConfig):
    @classmethod
    def override_quantization_method(cls, hf_quant_cfg, user_quant):
        quant_algo = hf_quant_cfg.get("quant_algo", "").upper()
        if user_quant == "modelopt":
            method = canonical(quant_algo)
            if method is not None:
                return method
        if hf_quant_cfg.get("quant_method", "") == "modelopt_fp8":
            return "modelopt_fp8"
        return None
"""
UTILS = """
_TABLE: dict[str, str] = {"FP8": "modelopt_fp8", "NVFP4": "modelopt_fp4"}

def canonical(quant_algo):
    if not isinstance(quant_algo, str):
        return None
    return _TABLE.get(quant_algo.upper())
"""


def test_an_imported_helper_is_followed_into_its_module():
    """0.5.19+: the ModelOpt hooks map `quant_algo` with canonicalize_modelopt_quant_algo
    (sglang/srt/layers/modelopt_utils.py): a checkpoint without `quant_algo` maps to None."""
    users = _users(MODELOPT, ["modelopt"], {"pkg/utils.py": UTILS})
    assert users["modelopt"]["maybe"]["*"] == {"absent": "none", "keys": ["quant_algo"]}
    # a modelopt_fp8 checkpoint is rewritten either way; without quant_algo, to modelopt_fp8
    assert users["modelopt"]["maybe"]["modelopt_fp8"] == {"absent": "override", "keys": ["quant_algo"]}
    # without the module the call is not followed: a doubt even without the key
    users = _users(MODELOPT, ["modelopt"])
    assert users["modelopt"]["maybe"]["*"] == {"absent": "maybe", "keys": ["quant_algo"]}


MODEL_CONFIG = textwrap.dedent(
    """
    REQUANTIZATION_METHODS = ["quark_mxfp4"]

    class ModelConfig:
        def _verify_quantization(self):
            compatible_quantization_methods = {"w8a8_fp8": ["compressed-tensors"]}
            if self.quantization != quant_method:
                raise ValueError(
                    "Quantization method specified in the model config "
                    f"({quant_method}) does not match the quantization "
                    f"method specified in the `quantization` argument "
                    f"({self.quantization})."
                )
    """
)


def test_verify_constants_and_message():
    assert verify_constants(MODEL_CONFIG) == ({"w8a8_fp8": ["compressed-tensors"]}, ["quark_mxfp4"])
    assert mismatch_message(MODEL_CONFIG) == (
        "Quantization method specified in the model config ({method}) does not match the "
        "quantization method specified in the `quantization` argument ({asked})."
    )


def test_config_classes_that_lift_the_text_config_quantization():
    source = textwrap.dedent(
        """
        class KimiLike(PretrainedConfig):
            model_type = "kimi_like"

            def __init__(self, text_config=None):
                self.text_config = text_config
                if getattr(self.text_config, "quantization_config", None) is not None:
                    self.quantization_config = self.text_config.quantization_config

        class Other(PretrainedConfig):
            model_type = "other"
        """
    )
    assert lifted_model_types({"c.py": source}) == ["kimi_like"]


def test_stored_readings():
    pairs = quantization_pairs("0.5.23")
    assert pairs is not None
    assert pairs.hooks("fp8", "compressed-tensors") == "none"
    # awq_marlin on an awq checkpoint: rewritten if its bits, group size and zero point fit
    # Marlin; a checkpoint without them is not rewritten
    assert pairs.hooks("awq_marlin", "awq", ("bits", "group_size", "zero_point")) == "maybe"
    assert pairs.hooks("awq_marlin", "awq", ("quant_method",)) == "none"
    assert pairs.hooks("fp8", "modelopt_fp8") == "override"
    assert pairs.hooks("humming", "fp8") == "override"
    # --quantization modelopt: canonicalize_modelopt_quant_algo maps a missing quant_algo to
    # None, so on Kimi-K2.5's compressed-tensors config no hook rewrites it (the oracle refuses)
    kimi = ("config_groups", "format", "ignore", "kv_cache_scheme", "quant_method", "quantization_status")
    assert pairs.hooks("modelopt", "compressed-tensors", kimi) == "none"
    assert pairs.hooks("modelopt", "compressed-tensors", ("quant_algo",)) == "maybe"
    assert pairs.hooks("modelopt", "modelopt_fp4") == "override"
    assert pairs.unread("modelopt", "compressed-tensors") == ()
    # 0.4.9-0.4.9.post2 are read (an assert on VLLM_AVAILABLE left them unread before): a GPTQ
    # checkpoint with the keys GPTQMarlinConfig reads may be rewritten to gptq_marlin or fail
    # the assert; --quantization awq is never rewritten, so it is refused either way
    gptq_keys = ("bits", "group_size", "sym", "desc_act")
    for version in ("0.4.9", "0.4.9.post2"):
        old = quantization_pairs(version)
        assert old is not None
        assert old.hooks("gptq_marlin", "gptq", gptq_keys) == "maybe"
        assert old.hooks("awq", "gptq", gptq_keys) == "none"
        assert old.raises("awq", "gptq") == (
            "GPTQMarlinConfig.is_gptq_marlin_compatible: assert VLLM_AVAILABLE, 'vllm is not "
            "installed, to use gptq_marlin, please install vllm'",
        )
        assert old.hooks("awq", "gptq", ("quant_method",)) == "none"
    assert quantization_pairs("0.4.9.post3").raises("awq", "gptq") == ()  # type: ignore[union-attr]
    assert old.hooks("fp8", "compressed-tensors") == "none"
    assert "fp8" in pairs.compatible["modelopt_fp4"] and pairs.requantization == ("quark_mxfp4",)
    assert quantization_in_text_config("0.5.23") and "kimi_k25" in quantization_in_text_config("0.5.23")
    assert "kimi_k25" not in quantization_in_text_config("0.5.6.post2")
    assert quantization_pairs("9.9.9") is None

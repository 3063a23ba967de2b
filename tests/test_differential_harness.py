"""tools/oracle/differential.py's harness artefacts: refusals the fake GPU causes (the mxfp4
registry, the gptq_marlin conversion; tools/oracle/README.md) are listed with their reason,
not as missed refusals; any other refusal speclint passes still is one."""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "oracle"))

import differential  # noqa: E402

_GPTQ = (
    "Quantization method specified in the model config (gptq) does not match the quantization "
    "method specified in the `quantization` argument ({q})."
)


def _refused(argv: list[str], where: str, error: str) -> dict:
    return {
        "argv": argv,
        "gpu": "H100",
        "ok": False,
        "error_type": "ValueError",
        "where": where,
        "error": error,
    }


def test_the_fake_gpus_refusals_are_harness_artefacts():
    verify = "sglang.srt.configs.model_config:_verify_quantization"
    mxfp4 = _refused(
        ["--model-path", "fixtures/models/qwen3-8b", "--quantization", "mxfp4"],
        verify,
        "Unknown quantization method: mxfp4. Must be one of ['fp8', 'awq'].",
    )
    [(kind, reason)] = differential.classify("0.5.23", "resolve_once", mxfp4)
    assert kind == "harness artefact" and "registers mxfp4 under `if is_cuda() ...`" in reason
    for asked in ("gptq_marlin", "marlin"):
        launch = _refused(
            ["--model-path", "fixtures/models/qwen3-8b-gptq-int4", "--quantization", asked],
            verify,
            _GPTQ.format(q=asked),
        )
        [(kind, reason)] = differential.classify("0.5.8.post1", "post_init", launch)
        assert kind == "harness artefact" and "is_gptq_marlin_compatible" in reason


def test_another_refusal_speclint_passes_is_still_missed():
    launch = _refused(
        ["--model-path", "fixtures/models/qwen3-8b"], "sglang.srt.server_args:_handle_x", "boom"
    )
    assert differential.classify("0.5.23", "resolve_once", launch) == [
        ("missed refusal", "ValueError in sglang.srt.server_args:_handle_x: boom")
    ]


def test_defaults_compares_what_a_recording_lacks_with_the_argparse_default():
    """A field the recording does not keep was neither given nor changed: with `defaults`
    speclint's value is compared with the release's argparse default (here the recording's
    ep_size, which --moe-a2a-backend deepep resolves to the TP size, is dropped: SGLang's
    default 1 then differs from speclint's 8)."""
    launch = {
        "argv": ["--model-path", "fixtures/models/qwen3-8b", "--tp-size", "8", "--moe-a2a-backend", "deepep"],
        "gpu": "H100",
        "ok": True,
        "changed": {},
        "effective": {"tp_size": 8, "moe_a2a_backend": "deepep"},
    }
    assert differential.classify("0.5.23", "resolve_once", launch) == []
    values = [
        c for k, c in differential.classify("0.5.23", "resolve_once", launch, defaults=True) if k == "value"
    ]
    assert "ep_size: speclint 8, SGLang 1 (not recorded: SGLang's default)" in values

"""The real SGLang 0.5.23 behind the keyword-value warnings (`sgl.Engine(...)`'s keywords
made into `ServerArgs(**kwargs)`, no argparse): a value outside the command line's choices
is not refused where the settings are made, so speclint says so and warns, never claiming
argparse stops the launch. Runs only with ``pytest -m oracle``."""

from __future__ import annotations

import pytest
from oracle_harness import model, run_oracle

from speclint.engine import lint_text

pytestmark = pytest.mark.oracle

LLAMA = model("llama-3.1-8b-instruct")


def test_a_choice_the_command_line_refuses_is_kept_by_the_keyword_settings() -> None:
    [argv, keywords] = run_oracle(
        [
            {"argv": ["--model-path", LLAMA, "--attention-backend", "flashinfers"]},
            {"kwargs": {"model_path": LLAMA, "attention_backend": "flashinfers"}, "check": True},
        ]
    )
    assert (argv["ok"], argv["stage"], argv["error_type"]) == (False, "parse", "SystemExit")
    assert "invalid choice: 'flashinfers'" in argv["error"]
    assert keywords["ok"] and keywords["effective"]["attention_backend"] == "flashinfers"
    text = f'import sglang as sgl\nsgl.Engine(model_path="{LLAMA}", attention_backend="flashinfers")\n'
    (finding,) = lint_text(text, "offline.py").findings
    assert (finding.code, finding.severity.label) == ("FLG006", "warning")
    assert "nothing refuses it where the settings are made" in finding.message

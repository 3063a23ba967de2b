"""The typed pydantic model of a launch's configuration (Python API, JSON output)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from speclint.engine import lint_text
from speclint.sglang.flags.launch_model import LaunchConfigModel, build_model

SCRIPT = (
    "TP=8\n"
    'python -m sglang.launch_server --model-path /m --tp "$TP" \\\n'
    "  --speculative-algorithm EAGLE3 --speculative-num-draft-tokens 16 \\\n"
    '  --mem-fraction-static 0.85 --enable-mixed-chunk --port "$(cat port)"\n'
)


def test_fields_are_typed_and_carry_their_position():
    [ctx] = lint_text(SCRIPT, "x.sh").contexts
    model = build_model(ctx.config)
    assert isinstance(model, LaunchConfigModel) and model.sglang_version == "0.5.23"
    assert model.tp_size.value == 8 and model.tp_size.given and model.tp_size.flag == "--tp"
    assert (model.tp_size.position.line, model.tp_size.position.column) == (2, 53)  # "$TP"
    assert model.speculative_num_draft_tokens.value == 16
    assert model.speculative_num_draft_tokens.position.line == 3
    assert model.mem_fraction_static.value == 0.85
    assert model.enable_mixed_chunk.value is True
    assert model.max_running_requests.value is None and not model.max_running_requests.given
    assert model.uncertain is False


def test_model_is_frozen_and_validates_types():
    [ctx] = lint_text(SCRIPT, "x.sh").contexts
    model = build_model(ctx.config)
    with pytest.raises(ValidationError):
        model.tp_size = None
    with pytest.raises(ValidationError):
        LaunchConfigModel(sglang_version="0.5.23", tp_size={"value": "eight"})


def test_fields_missing_from_an_old_release_are_unset():
    [ctx] = lint_text(
        "python -m sglang.launch_server --model-path /m\n",
        "x.sh",
        __import__("speclint.settings.options", fromlist=["LintOptions"]).LintOptions(
            sglang_version="0.4.10.post2"
        ),
    ).contexts
    model = build_model(ctx.config)
    assert model.attn_dp_size.value is None and not model.attn_dp_size.given
    assert model.speculative_adaptive.value is None


def test_dynamic_values_are_marked():
    [ctx] = lint_text(SCRIPT, "x.sh").contexts
    model = build_model(ctx.config)
    assert model.uncertain is False  # a quoted $(...) is one unknown word, a value
    assert build_model(
        lint_text(SCRIPT.replace('--port "$(cat port)"', "$(cat more-args)"), "x.sh").contexts[0].config
    ).tp_size.dynamic  # unquoted and on its own: may hold more flags
    assert not build_model(
        lint_text(SCRIPT.replace('"$(cat port)"', "$(cat port)"), "x.sh").contexts[0].config
    ).tp_size.dynamic  # unquoted but the one value of --port: read as one word

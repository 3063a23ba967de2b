"""Drafter rules (DRF*) through the real CLI and lint_text: where they point, what they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from speclint.cli import main
from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
KIMI_MAPPING = [
    "--model-config",
    "/models/Kimi-K2.5=fixtures/models/kimi-k2.5",
    "--model-config",
    "/models/kimi-eagle3=fixtures/models/eagle3-kimi-k2.5",
]
LLAMA = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --max-running-requests 64 --speculative-algorithm {algo}"
    " --speculative-draft-model-path fixtures/models/{draft}\n"
)


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def _findings(text: str, version: str | None = None, code: str | None = None):
    found = lint_text(text, "launch.sh", LintOptions(sglang_version=version)).findings
    return [f for f in found if code is None or f.code == code]


def test_seed_kimi_launch_reports_the_algorithm_flag_with_the_fix():
    result = CliRunner().invoke(
        main, ["check", "--output-format", "json", "fixtures/shell/kimi_eagle_launch.sh", *KIMI_MAPPING]
    )
    assert result.exit_code == 1, result.output
    findings = json.loads(result.output)
    findings = findings["findings"] if isinstance(findings, dict) else findings
    drf = [f for f in findings if f["code"] == "DRF001"]
    assert len(drf) == 1
    (finding,) = drf
    assert (finding["line"], finding["column"], finding["end_line"], finding["end_column"]) == (
        19,
        29,
        19,
        34,
    )
    assert finding["severity"] == "error"
    assert "3 × 7168 = 21504" in finding["message"]
    assert "Eagle3DeepseekV2ForCausalLM" in finding["message"]
    assert "7168" in finding["message"] and "fc is skipped" in finding["message"]
    assert finding["fix"] == "write `--speculative-algorithm EAGLE3`"
    assert not [f for f in findings if f["code"] == "DRF011"]


def test_seed_kimi_launch_text_output_points_at_the_value_token():
    result = CliRunner().invoke(main, ["check", "fixtures/shell/kimi_eagle_launch.sh", *KIMI_MAPPING])
    line = next(l for l in result.output.splitlines() if "DRF001" in l)
    assert line.startswith("fixtures/shell/kimi_eagle_launch.sh:19:29: DRF001 [error]")
    source = (ROOT / "fixtures/shell/kimi_eagle_launch.sh").read_text().splitlines()[18]
    assert source[28:33] == "EAGLE"
    assert "help: write `--speculative-algorithm EAGLE3`" in result.output


def test_seed_kimi_launch_without_configs_says_so_once():
    result = CliRunner().invoke(
        main, ["check", "--extend-select", "DRF011", "fixtures/shell/kimi_eagle_launch.sh"]
    )
    assert result.output.count("DRF011") == 1 and "DRF001" not in result.output
    assert "--model-config /models/Kimi-K2.5=FOLDER" in result.output
    default = CliRunner().invoke(main, ["check", "fixtures/shell/kimi_eagle_launch.sh"])
    assert "DRF011" not in default.output.replace("--extend-select DRF011", "")
    assert (
        "drafter checks skipped for 1 launch (model config.json not on disk: "
        "`--extend-select DRF011` says which)"
    ) in default.output


def test_explain_shows_the_captured_aux_layers(tmp_path):
    script = tmp_path / "kimi.sh"
    script.write_text(
        (ROOT / "fixtures/shell/kimi_eagle_launch.sh")
        .read_text()
        .replace("--speculative-algorithm EAGLE ", "--speculative-algorithm EAGLE3 ")
    )
    result = CliRunner().invoke(main, ["explain", str(script), *KIMI_MAPPING])
    assert (
        "aux hidden states captured: inputs of layers [2, 30, 58] of 61, i.e. outputs of "
        "layers [1, 29, 57] (from eagle_config ids [2, 30, 58], DeepSeek convention: used "
        "as-is because the first id is not 1)"
    ) in result.output
    as_json = CliRunner().invoke(main, ["explain", "--output-format", "json", str(script), *KIMI_MAPPING])
    assert json.loads(as_json.output)[0]["aux_hidden_states_captured"]["layers"] == [2, 30, 58]


def test_nextn_names_the_alias():
    found = _findings(LLAMA.format(algo="NEXTN", draft="eagle3-llama-3.1-8b-instruct"), "0.5.14", "DRF001")
    assert found and "NEXTN` (an alias of EAGLE)" in found[0].message


def test_non_speculative_launches_do_not_report_missing_configs():
    assert not _findings("python -m sglang.launch_server --model-path /no/such/model\n", code="DRF011")


def test_aux_layer_out_of_range_names_id_depth_and_effect():
    (found,) = _findings(LLAMA.format(algo="EAGLE3", draft="eagle3-llama-ids-out-of-range"), code="DRF003")
    assert "[31]" in found.message and "32 layers" in found.message
    assert "shape" in found.message or "fails" in found.message


def test_top_level_ids_show_the_default_sglang_uses():
    (found,) = _findings(LLAMA.format(algo="EAGLE3", draft="eagle3-llama-toplevel-ids"), code="DRF004")
    assert "[2, 16, 29] captured, i.e. [1, 15, 28]" in found.message
    assert found.severity.label == "warning"


def test_context_rule_is_info_when_the_override_is_allowed():
    launch = LLAMA.format(algo="EAGLE3", draft="eagle3-llama-2k-context")
    (error,) = _findings(launch, code="DRF009")
    assert error.severity.label == "error" and "131072" in error.message and "2048" in error.message
    (info,) = _findings("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 " + launch, code="DRF009")
    assert info.severity.label == "info"
    (old_default,) = _findings(launch, "0.4.10.post2", "DRF009")
    assert old_default.severity.label == "info"
    (refused,) = _findings("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=0 " + launch, "0.4.10.post2", "DRF009")
    assert refused.severity.label == "error"


def test_unreadable_weights_do_not_fire_the_d2t_rule(tmp_path):
    draft = tmp_path / "draft"
    draft.mkdir()
    (draft / "config.json").write_text((ROOT / "fixtures/models/eagle3-llama-no-d2t/config.json").read_text())
    (draft / "model.safetensors").write_bytes(b"\xff" * 4)
    launch = LLAMA.format(algo="EAGLE3", draft="x").replace("fixtures/models/x", str(draft))
    assert not _findings(launch, code="DRF007")


def test_weights_only_eagle3_drafter_with_llama_architecture():
    launch = LLAMA.format(algo="EAGLE", draft="eagle3-llama-weights-only")
    (found,) = _findings(launch, code="DRF001")
    assert "fc.weight is [4096, 12288] (3 × hidden 4096)" in found.message
    (warning,) = _findings(LLAMA.format(algo="EAGLE3", draft="eagle3-llama-weights-only"), code="DRF010")
    assert warning.severity.label == "warning"

"""Model configs: hub-cache lookup, user mappings (CLI and pyproject), safetensors headers,
context length and aux-layer capture as SGLang computes them."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from speclint.cli import main
from speclint.engine import lint_text
from speclint.settings.options import LintOptions
from speclint.sglang.checkpoints.aux_layers import aux_capture
from speclint.sglang.checkpoints.drafter import classify_drafter
from speclint.sglang.checkpoints.locate import locate_model
from speclint.sglang.checkpoints.model_config import ModelConfig, read_model_config
from speclint.sglang.checkpoints.weights import read_header, summarise_weights

ROOT = Path(__file__).resolve().parent.parent
KIMI = ROOT / "fixtures" / "models" / "kimi-k2.5"
KIMI_DRAFT = ROOT / "fixtures" / "models" / "eagle3-kimi-k2.5"
LAUNCH = (
    "python -m sglang.launch_server --model-path moonshotai/Kimi-K2.5 --speculative-algorithm"
    " EAGLE --speculative-draft-model-path lmsys/kimi-eagle3 {extra}\n"
)


def _hub_model(
    cache: Path, model_id: str, config: Path, revision: str = "main", snapshot: str = "a" * 40
) -> Path:
    repo = cache / ("models--" + model_id.replace("/", "--"))
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    (repo / "refs" / revision).write_text(snapshot)
    folder = repo / "snapshots" / snapshot
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(config.read_text())
    return folder


def _codes(text: str, path: str = "launch.sh", **options) -> list[str]:
    return [f.code for f in lint_text(text, path, LintOptions(**options)).findings]


def test_hub_cache_lookup_with_revisions(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.chdir(tmp_path)
    _hub_model(tmp_path / "hub", "moonshotai/Kimi-K2.5", KIMI / "config.json")
    _hub_model(tmp_path / "hub", "lmsys/kimi-eagle3", KIMI_DRAFT / "config.json", "v2", "b" * 40)
    found = locate_model("moonshotai/Kimi-K2.5")
    assert found.how == "hub cache" and found.folder.endswith("a" * 40)
    assert locate_model("lmsys/kimi-eagle3").how == "not found"  # only refs/v2 exists
    assert locate_model("lmsys/kimi-eagle3", "v2").how == "hub cache"
    # without the draft revision the drafter is not found: one info finding, no DRF001
    assert _codes(LAUNCH.format(extra="")).count("DRF011") == 1
    assert "DRF001" not in _codes(LAUNCH.format(extra=""))
    codes = _codes(LAUNCH.format(extra="--speculative-draft-model-revision v2"))
    assert "DRF001" in codes and "DRF011" not in codes


def test_hf_home_is_used_without_hf_hub_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    _hub_model(tmp_path / "hf" / "hub", "moonshotai/Kimi-K2.5", KIMI / "config.json")
    assert locate_model("moonshotai/Kimi-K2.5").how == "hub cache"


def test_pyproject_mapping_nearest_above_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    project = tmp_path / "project"
    (project / "scripts" / "deep").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        f'[tool.speclint.models]\n"moonshotai/Kimi-K2.5" = "{KIMI}"\n"lmsys/kimi-eagle3" = "configs/draft"\n'
    )
    (project / "configs" / "draft").mkdir(parents=True)
    (project / "configs" / "draft" / "config.json").write_text((KIMI_DRAFT / "config.json").read_text())
    script = project / "scripts" / "deep" / "launch.sh"
    script.write_text(LAUNCH.format(extra=""))
    monkeypatch.chdir(tmp_path)  # relative mapping paths are taken from the pyproject's folder
    result = CliRunner().invoke(main, ["check", str(script)])
    assert "DRF001" in result.output and "DRF011" not in result.output
    assert result.exit_code == 1


def test_cli_mapping_wins_over_pyproject(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    (tmp_path / "pyproject.toml").write_text('[tool.speclint.models]\n"lmsys/kimi-eagle3" = "nowhere"\n')
    script = tmp_path / "launch.sh"
    script.write_text(LAUNCH.format(extra=""))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main,
        [
            "check",
            str(script),
            "--model-config",
            f"moonshotai/Kimi-K2.5={KIMI}",
            "--model-config",
            f"lmsys/kimi-eagle3={KIMI_DRAFT / 'config.json'}",
        ],
    )
    assert "DRF001" in result.output and "DRF011" not in result.output


BROKEN = [
    ("[tool.speclint.models\n", "TOML"),
    ("[tool.speclint]\nmodels = 3\n", "models"),
    ('[tool.speclint.models]\n"a" = 1\n', "a"),
]


@pytest.mark.parametrize("body, words", BROKEN)
def test_broken_pyproject_is_a_clear_error(tmp_path, monkeypatch, body, words):
    (tmp_path / "pyproject.toml").write_text(body)
    script = tmp_path / "launch.sh"
    script.write_text(LAUNCH.format(extra=""))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", str(script)])
    assert result.exit_code == 2
    assert "pyproject.toml" in result.output and words in result.output


@pytest.mark.parametrize("body, words", BROKEN)
def test_broken_pyproject_mapping_stops_the_file_in_lint_text(tmp_path, body, words):
    (tmp_path / "pyproject.toml").write_text(body)
    result = lint_text(LAUNCH.format(extra=""), str(tmp_path / "launch.sh"))
    assert result.error and "pyproject.toml" in result.error and words in result.error


def test_pyproject_mapping_only_read_when_a_launch_names_a_model(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.speclint.models\n")
    result = lint_text("python -m sglang.launch_server --port 3000\n", str(tmp_path / "x.sh"))
    assert result.error is None


def _safetensors(path: Path, tensors: dict[str, list[int]], raw: bytes | None = None) -> Path:
    header = {
        name: {"dtype": "BF16", "shape": shape, "data_offsets": [0, 0]} for name, shape in tensors.items()
    }
    data = raw if raw is not None else json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(data)) + data)
    return path


def test_safetensors_header_single_and_sharded(tmp_path):
    _safetensors(tmp_path / "model.safetensors", {"fc.weight": [4096, 12288], "d2t": [32000]})
    summary = summarise_weights(str(tmp_path))
    assert summary.fc_in_width == 12288 and summary.has_d2t
    sharded = tmp_path / "sharded"
    sharded.mkdir()
    _safetensors(sharded / "b.safetensors", {"model.fc.weight": [4096, 8192]})
    (sharded / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"model.fc.weight": "b.safetensors", "lm_head.weight": "a.safetensors"}})
    )
    summary = summarise_weights(str(sharded))
    assert summary.fc_in_width == 8192 and not summary.has_d2t
    assert summarise_weights(str(tmp_path / "nothing")) is None


def test_safetensors_header_is_bounded_and_checked(tmp_path):
    huge = tmp_path / "huge.safetensors"
    huge.write_bytes(struct.pack("<Q", 1 << 40) + b"{}")
    assert "larger than" in read_header(str(huge))[1]
    broken = _safetensors(tmp_path / "broken.safetensors", {}, raw=b"{not json")
    assert "not valid JSON" in read_header(str(broken))[1]
    short = tmp_path / "short.safetensors"
    short.write_bytes(b"\x01\x02")
    assert "too short" in read_header(str(short))[1]
    truncated = tmp_path / "truncated.safetensors"
    truncated.write_bytes(struct.pack("<Q", 100) + b"{}")
    assert "truncated" in read_header(str(truncated))[1]


def _config(**raw) -> ModelConfig:
    return ModelConfig("config.json", raw, raw.get("text_config", raw))


def test_weights_tell_the_drafter_kind_when_the_architecture_does_not(tmp_path):
    plain = _config(architectures=["LlamaForCausalLM"], hidden_size=4096)
    _safetensors(tmp_path / "model.safetensors", {"fc.weight": [4096, 12288]})
    assert classify_drafter(plain, summarise_weights(str(tmp_path))).kind == "EAGLE3"
    _safetensors(tmp_path / "model.safetensors", {"fc.weight": [4096, 8192]})
    assert classify_drafter(plain, summarise_weights(str(tmp_path))).kind == "EAGLE"
    with_keys = _config(architectures=["LlamaForCausalLM"], hidden_size=4096, draft_vocab_size=32000)
    assert classify_drafter(with_keys, summarise_weights(str(tmp_path))).kind == "EAGLE3"
    assert classify_drafter(plain, None).kind is None


@pytest.mark.parametrize(
    "raw, expected",
    [
        ({"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0}}, 131072),
        ({"max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 4.0}}, 16384),
        (
            {
                "max_position_embeddings": 4096,
                "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096},
            },
            4096,
        ),
        ({"seq_length": 8192, "max_position_embeddings": 2048}, 8192),
        ({}, None),
    ],
)
def test_derived_context_length_follows_sglang(raw, expected):
    found = _config(**raw).derived_context_length()
    assert (found[0] if found else None) == expected


def test_vision_language_target_reads_text_config():
    config, problem = read_model_config(str(KIMI / "config.json"))
    assert problem is None
    assert (config.hidden_size, config.num_hidden_layers) == (7168, 61)
    assert config.derived_context_length()[0] == 262144


@pytest.mark.parametrize(
    "version, arch, ids, layers",
    [
        ("0.5.23", "KimiK25ForConditionalGeneration", [2, 30, 58], [2, 30, 58]),
        ("0.5.23", "DeepseekV3ForCausalLM", [1, 29, 57], [2, 30, 58]),
        ("0.5.6.post2", "DeepseekV3ForCausalLM", [2, 30, 58], [3, 31, 59]),
        ("0.5.23", "LlamaForCausalLM", [1, 15, 28], [2, 16, 29]),
        ("0.5.23", "LlamaForCausalLM", None, [2, 30, 58]),
        ("0.5.23", "GptOssForCausalLM", [1, 30, 61], [1, 30, 61]),
        ("0.5.14", "GptOssForCausalLM", [1, 30, 61], [2, 31, 62]),
    ],
)
def test_aux_capture_per_target_convention(version, arch, ids, layers):
    assert aux_capture(version, arch, 61, ids).layers == layers


def test_aux_capture_unknown_for_targets_without_the_hook():
    assert aux_capture("0.4.10.post2", "DeepseekV3ForCausalLM", 61, [1, 2, 3]) is None
    assert aux_capture("0.5.23", "LlamaForCausalLM", 32, [1, 15, 31]).missing == [32]

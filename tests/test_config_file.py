"""SGLang's own `--config FILE.yaml`: followed from a launch and merged as the release merges
it (command line wins), standalone config files, ConfigMaps and `sglang_config:` sections."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from speclint.engine import lint_path, lint_text
from speclint.frontends import extract_file
from speclint.frontends.manifests.sglang_config import load_config_file
from speclint.report.text import render_findings
from speclint.settings.options import LintOptions
from speclint.sglang.flags.config_merge import merge_traits
from speclint.sglang.flags.entry import prepare_argv

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "fixtures" / "config"


def found(result) -> list[tuple[str, str, int, int]]:
    return [(f.code, os.path.basename(f.path), f.span.line, f.span.column) for f in result.findings]


def test_launch_follows_config_and_the_command_line_wins():
    result = lint_path(str(CONFIG / "serve_with_config.sh"), LintOptions(sglang_version="0.5.23"))
    # argparse stops at the unknown flags: only what parsing reports is left (issue 16)
    assert found(result) == [
        ("FLG001", "serve_with_config.sh", 3, 79),
        ("FLG007", "eagle.yaml", 5, 1),
        ("FLG001", "eagle.yaml", 7, 1),
    ]
    by_code = {(f.code, f.span.line): f for f in result.findings}
    override = by_code[("FLG007", 5)]
    assert (
        override.severity.label == "info"
        and "replaced by `--speculative-num-steps 5` on the command line" in override.message
    )
    # what SGLang would resolve past the parser (explain shows it): 5 steps from the CLI
    effective = result.contexts[0].resolution.effective
    assert effective["speculative_num_steps"] == 5
    assert effective["speculative_num_draft_tokens"] == 6
    assert "`--tp_size` is not an SGLang 0.5.23 flag" in by_code[("FLG001", 7)].message
    text = render_findings([result])
    assert "= note: " + str(CONFIG / "serve_with_config.sh") + ", line 3, column 53" in text
    assert "eagle.yaml:7:1: FLG001" in text and "7 | python3" not in text  # no excerpt from the .sh


def test_merge_order_and_booleans_per_release():
    config = load_config_file("eagle.yaml", str(CONFIG / "x.sh"))
    words = prepare_argv("python -m sglang.launch_server", [], "0.5.23")
    assert words == []
    from speclint.core.spans import Span
    from speclint.core.words import Word

    cli = [
        Word("--config", Span.point(1, 1)),
        Word("eagle.yaml", Span.point(1, 2)),
        Word("--tp", Span.point(1, 3)),
        Word("3", Span.point(1, 4)),
    ]
    texts = [w.text for w in prepare_argv("python -m sglang.launch_server", cli, "0.5.23", config)]
    assert texts == [
        "--model-path",
        "/models/llama",
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-eagle-topk",
        "1",
        "--speculative-num-steps",
        "3",
        "--speculative-num-draft-tokens",
        "16",
        "--tp_size",
        "2",
        "--enable-torch-compile",
        "--tp",
        "3",
    ]
    assert merge_traits("0.5.6.post2")["booleans"] == "bare_if_true"
    unread = [w for w in prepare_argv("python -m sglang.launch_server", cli, "0.5.6", config)]
    if merge_traits("0.5.6") is None:  # not read: booleans of store_true flags are still known
        assert "--enable-torch-compile" in [w.text for w in unread]


def test_missing_config_file_is_an_unknown_set_of_flags(tmp_path):
    script = tmp_path / "s.sh"
    script.write_text("python -m sglang.launch_server --config nowhere.yaml --tp-size 2\n")
    result = lint_path(str(script), LintOptions(sglang_version="0.5.23"))
    [ctx] = result.contexts
    assert ctx.config.uncertain and not [f for f in result.findings if f.code == "FLG011"]


def test_config_that_is_not_a_mapping_or_not_yaml(tmp_path):
    (tmp_path / "c.yaml").write_text("- a\n- b\n")
    (tmp_path / "c.json").write_text("{}")
    assert "dictionary at root level" in load_config_file("c.yaml", str(tmp_path / "s.sh")).problem
    assert "must be YAML format" in load_config_file("c.json", str(tmp_path / "s.sh")).problem


def test_standalone_config_file():
    text = (CONFIG / "standalone.yaml").read_text()
    result = lint_text(text, "standalone.yaml", LintOptions(sglang_version="0.5.23"))
    assert found(result) == [
        ("SPD003", "standalone.yaml", 4, 24),
        ("SPD004", "standalone.yaml", 5, 25),
        ("FLG020", "standalone.yaml", 6, 1),
    ]
    argv = (
        [w.text for w in result.contexts[0].parsed.words]
        if hasattr(result.contexts[0].parsed, "words")
        else None
    )
    refusal = result.findings[-1].message
    assert (
        "Unsupported config option 'enable_dp_attention' with action 'DeprecatedStoreTrueAction'" in refusal
    )
    old = lint_text(text, "standalone.yaml", LintOptions(sglang_version="0.5.6.post2"))
    assert "FLG020" not in {f.code for f in old.findings}  # 0.5.6.post2 drops `false` quietly
    assert argv is None or "--json-model-override-args" in argv


def test_a_yaml_that_merely_mentions_flags_is_not_a_config():
    assert extract_file("values.yaml", "model-path: /m\nreplicas: 2\nimage: x\nport: 1\n").launches == []


def test_configmap_holding_a_config_file():
    text = (CONFIG / "recipes" / "configmap.yaml").read_text()
    result = lint_text(text, "cm.yaml", LintOptions(sglang_version="0.5.23"))
    codes = found(result)
    assert ("FLG003", "cm.yaml", 10, 5) in codes  # `speculative-algo` abbreviates, positioned in the block
    assert ("FLG002", "cm.yaml", 11, 5) in codes  # `--cuda-graph-max-bs` is ambiguous in 0.5.23


def test_srt_slurm_sections_per_worker_mode():
    text = (CONFIG / "recipes" / "disagg_recipe.yaml").read_text()
    prefill, decode = extract_file("r.yaml", text).launches
    assert [w.text for w in prefill.args[1:5]] == [
        "--mem-fraction-static",
        "0.84",
        "--disable-radix-cache",
        "--speculative-algorithm",
    ]
    result = lint_text(text, "r.yaml", LintOptions(sglang_version="0.5.23"))
    # each worker's flags come after ones srtctl writes that are not in this file (SLM004)
    assert found(result) == [
        ("SLM004", "r.yaml", 10, 7),
        ("SLM004", "r.yaml", 17, 7),
        ("FLG001", "r.yaml", 18, 7),
    ]


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["eagle.yaml", "standalone.yaml", "attn_dp.yaml"])
def test_merge_matches_sglang_0_5_23(name):
    """The argv speclint merges equals what SGLang 0.5.23's own ConfigArgumentMerger returns."""
    from oracle_harness import oracle_python

    path = CONFIG / name
    script = (
        "import argparse, json, sys\nfrom sglang.srt.server_args import ServerArgs\n"
        "from sglang.srt.utils.server_args_config_parser import ConfigArgumentMerger\n"
        "p = argparse.ArgumentParser(); ServerArgs.add_cli_args(p)\n"
        "try:\n    print(json.dumps(ConfigArgumentMerger(p).merge_config_with_args(sys.argv[1:])))\n"
        "except ValueError as e:\n    print(json.dumps(str(e)))\n"
    )
    out = subprocess.run(
        [oracle_python(), "-c", script, "--config", str(path), "--tp-size", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(CONFIG),
    )
    real = json.loads(out.stdout.strip().splitlines()[-1])
    config = load_config_file(str(path), str(CONFIG / "x.sh"))
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.sglang.flags.config_merge import refusal

    cli = [
        Word("--config", Span.point(1, 1)),
        Word(str(path), Span.point(1, 1)),
        Word("--tp-size", Span.point(1, 1)),
        Word("3", Span.point(1, 1)),
    ]
    refused = refusal(config, "0.5.23")
    if isinstance(real, str):
        assert refused is not None and refused[1] == real
    else:
        assert refused is None
        assert [w.text for w in prepare_argv("python -m sglang.launch_server", cli, "0.5.23", config)] == real


def test_the_result_cache_sees_a_changed_config_file(tmp_path):
    (tmp_path / "c.yaml").write_text("model-path: m\ntp-size: 2\n")
    (tmp_path / "s.sh").write_text("python -m sglang.launch_server --config c.yaml\n")

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "speclint",
                "--sglang-version",
                "0.5.23",
                "--output-format",
                "concise",
                "--cache-dir",
                str(tmp_path / "cache"),
                str(tmp_path / "s.sh"),
            ],
            capture_output=True,
            text=True,
        )

    assert "FLG001" not in run().stdout
    (tmp_path / "c.yaml").write_text("model-path: m\ntp-szie: 2\n")
    assert "c.yaml:2:1: FLG001" in run().stdout


def test_regenerating_the_merge_data_from_the_cached_wheels_reproduces_it() -> None:
    from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

    use_tools()
    from gen_config_merge import OUT, build, dump, stored_versions

    versions = stored_versions(OUT)
    assert_regenerates(OUT, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))

"""A compose service's `env_file:` read from disk beside the compose file: its values are the
container's environment (the service's `environment:` winning), seen by the container's shell
(`$$TP`) and by SGLang's workers (CUDA_VISIBLE_DEVICES). Before, they were unknown ("not
assigned in this file") and the GPU check did not run."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("compose/env_file/compose.yaml")


def test_env_file_values_reach_the_container() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("PAR001", 8, 9, "sglang.env"),
        ("SLM004", 11, 103, "$$HOST"),
    ]
    assert "CUDA_VISIBLE_DEVICES=0,1 leaves 2 GPUs visible" in findings[0][4]
    assert "tp 4 makes SGLang start 4 workers" in findings[0][4]
    assert "`sglang.env` (env_file) sets HOST from other variables" in findings[1][4]


def test_environment_wins_over_env_file() -> None:
    shell, flags = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in shell.args][:4] == ["--model-path", "Qwen/Qwen3-8B", "--tp-size", "4"]
    assert shell.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert flags.env["TP"].text == "4"
    assert FILE.at(flags.env["TP"].span)[:3] == (14, 15, "sglang.env")

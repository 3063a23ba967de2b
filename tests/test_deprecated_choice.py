"""FLG014 deprecated-choice: a value SGLang still accepts but calls deprecated
(`--tool-call-parser qwen25`), read per release from SGLang's own source
(tools/gen_sglang_deprecated_choices.py -> src/speclint/sglang/data/sglang_deprecated_choices.json)."""

from __future__ import annotations

import pytest
from regenerated import SGLANG_WHEELS, assert_regenerates, use_tools

from speclint.engine import lint_text
from speclint.sglang.deprecated_choices import deprecated_choices, fields
from speclint.sglang.linedata import LineData

DATA = "src/speclint/sglang/data/sglang_deprecated_choices.json"


def _findings(source: str) -> list[tuple[str, int, int, str, str]]:
    return [
        (f.code, f.span.line, f.span.column, f.message, f.fix_hint)
        for f in lint_text(source, "serve.sh").findings
        if f.code == "FLG014"
    ]


def test_a_deprecated_tool_call_parser_names_the_replacement() -> None:
    source = (
        "docker run --gpus all lmsysorg/sglang:v0.5.23 python3 -m sglang.launch_server "
        "--model-path Qwen/Qwen2.5-7B-Instruct --tool-call-parser qwen25\n"
    )
    assert _findings(source) == [
        (
            "FLG014",
            1,
            136,
            "`--tool-call-parser qwen25` is deprecated in SGLang 0.5.23: it logs a warning at start-up "
            "and SGLang's warning names `qwen` instead",
            "write `--tool-call-parser qwen`",
        )
    ]


def test_each_release_reports_only_what_its_source_deprecates() -> None:
    launch = "lmsysorg/sglang:v{} python3 -m sglang.launch_server --model-path m --tool-call-parser glm45 --attention-backend compressed"
    by_release = {
        release: [
            message.split(":")[0]
            for _, _, _, message, _ in _findings("docker run " + launch.format(release) + "\n")
        ]
        for release in ("0.5.3", "0.5.9", "0.5.22")
    }
    assert by_release["0.5.3"] == []  # the mapping came in 0.5.3.post1
    assert by_release["0.5.9"] == ["`--tool-call-parser glm45` is deprecated in SGLang 0.5.9"]
    assert sorted(by_release["0.5.22"]) == [
        "`--attention-backend compressed` is deprecated in SGLang 0.5.22",
        "`--tool-call-parser glm45` is deprecated in SGLang 0.5.22",
    ]


def test_the_rule_gates_cover_every_field_the_data_names() -> None:
    from speclint.rules.flg.deprecated_choice import DeprecatedChoice

    assert {"given:" + field for field in fields()} <= set(DeprecatedChoice.gates)


def test_the_stored_readings() -> None:
    assert deprecated_choices("0.5.23") is not None
    assert (deprecated_choices("0.5.23") or {})["tool_call_parser"] == {"glm45": "glm", "qwen25": "qwen"}
    assert deprecated_choices("0.4.0") == {}
    assert deprecated_choices("9.9.9") is None


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_data() -> None:
    use_tools()
    from gen_sglang_deprecated_choices import build, dump

    versions = list(LineData(DATA).versions())
    assert_regenerates(DATA, versions, lambda: dump(build(versions, str(SGLANG_WHEELS))))


@pytest.mark.oracle
def test_sglang_0_5_23_warns_and_uses_the_named_value() -> None:
    from oracle_harness import model, run_oracle

    argv = ["--model-path", model("llama-3.1-8b-instruct"), "--tool-call-parser", "qwen25"]
    (out,) = run_oracle([{"argv": argv, "gpu": "H100"}])
    assert out["ok"] and out["effective"]["tool_call_parser"] == "qwen"
    assert [
        "WARNING",
        "sglang.srt.arg_groups.serving_hook",
        "The tool_call_parser 'qwen25' is deprecated. Please use 'qwen' instead.",
    ] in out["logs"]

"""llm-d's modelservice values `modelCommand: sglangServe` beside launches speclint read (a
doc's other YAML block, another container of the values file): the chart writes that
command, so it is said not read (SLM005) at `sglangServe`, not passed over by a clean run."""

from __future__ import annotations

from fixture_file import FixtureFile

NOT_READ = (
    "speclint did not read this launch: llm-d's modelservice chart renders the SGLang command for "
    "`modelCommand: sglangServe` from its own template, which is not in this file, so nothing in it "
    "was checked"
)


def test_a_doc_block_with_sglang_serve_beside_a_manifest_read() -> None:
    doc = FixtureFile("markdown/llmd_sglang_serve_beside.md")
    assert doc.findings() == [("SLM005", 20, 21, "sglangServe", NOT_READ)]


def test_a_values_file_with_one_pool_read_and_one_rendered_by_the_chart() -> None:
    values = FixtureFile("k8s/llmd_values_beside_launch.yaml")
    assert values.findings() == [("SLM005", 14, 21, "sglangServe", NOT_READ)]


def test_the_pool_with_its_own_command_is_still_checked() -> None:
    from speclint.engine import lint_text

    values = FixtureFile("k8s/llmd_values_beside_launch.yaml")
    text = values.text.replace("prefill]", "prefil]")  # a choice SGLang refuses
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, str(values.path)).findings]
    assert found == [("FLG006", 9, 66), ("SLM005", 14, 21)]


def test_vllm_serve_is_not_an_sglang_launch() -> None:
    from speclint.engine import lint_text

    values = FixtureFile("k8s/llmd_values_beside_launch.yaml")
    text = values.text.replace("modelCommand: sglangServe", "modelCommand: vllmServe")
    assert lint_text(text, str(values.path)).findings == []

"""Hydra/OmegaConf configs whose string key starts SGLang (`command: python3 -m
sglang.launch_server --port ${deployment.port} ...`): an interpolation of a value written in
the same file is read there (a finding points at the value where it is written); a resolver
(`${oc.env:...}`), a `???` value and a path the file does not hold are unknown at their place,
with the reason; the `image:` beside the command gives the SGLang release."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file


def test_a_config_group_file_reads_its_own_keys_through_the_group_path():
    fixture = FixtureFile("hydra/configs/deployment/sglang_server.yaml")
    got = fixture.findings()
    assert [g[:4] for g in got] == [
        ("FLG005", 8, 23, "8x"),
        ("SLM004", 14, 16, "${select_not_null:deployment.hf_model_handle,/checkpoint}"),
    ]
    assert got[0][4].startswith("`8x` is not a valid value for `--tp-size`")
    unread = got[1][4]
    assert "calls the OmegaConf resolver `select_not_null` when the config is loaded" in unread
    assert "`${deployment.served_model_name}` is `???` here (line 6): a value Hydra must be given" in unread
    (launch,) = extract_file(str(fixture.path), fixture.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.2" and launch.image_span is not None
    assert (launch.image_span.line, launch.image_span.column) == (4, 8)


def test_absolute_and_relative_interpolations_of_a_section_and_a_value_from_another_config():
    fixture = FixtureFile("hydra/server_section.yaml")
    got = [g for g in fixture.findings() if g[0] != "FLG003"]
    assert [g[:4] for g in got] == [
        ("SLM004", 9, 10, "${oc.env:HF_MODEL,Qwen/Qwen2.5-7B-Instruct}"),
        ("FLG005", 11, 17, "0.95x"),
    ]
    assert (
        "the value of `--nnodes` (`${cluster.nodes}` would come from `cluster/local.yaml` in the defaults "
        "list, and `cluster/local.yaml` is not on disk next to this file" in got[0][4]
    )
    assert "`${oc.env:HF_MODEL,Qwen/Qwen2.5-7B-Instruct}` is the environment variable `HF_MODEL`" in got[0][4]


def test_the_same_file_outside_its_config_group_folder_leaves_the_group_paths_unknown():
    fixture = FixtureFile("hydra/configs/deployment/sglang_server.yaml")
    result = lint_text(fixture.text, "sglang_server.yaml")
    codes = [(f.code, f.span.line, f.span.column) for f in result.findings]
    assert codes == [("SLM004", 14, 16)]
    assert "`${deployment.tensor_parallel_size}` names a value that is not set in this file" in (
        result.findings[0].message
    )


def test_a_parent_relative_interpolation_reads_from_the_mapping_above():
    text = (
        "image: lmsysorg/sglang:v0.5.2\n"
        "parallel:\n"
        "  tp: 2x\n"
        "server:\n"
        "  cmd: python -m sglang.launch_server --model-path /m --tp-size ${..parallel.tp} --port ${.port}\n"
        "  port: 30000\n"
    )
    ((code, line, column, message),) = [
        (f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "job.yaml").findings
    ]
    assert (code, line, column) == ("FLG005", 3, 7)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")

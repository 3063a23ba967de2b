"""YAML front-end: Kubernetes containers and docker-compose services as launches."""

from __future__ import annotations

from pathlib import Path

from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent


def read(name: str) -> str:
    return (ROOT / "fixtures" / name).read_text()


def test_deployment_command_args_env_and_image():
    text = read("k8s/deployment_kimi_eagle.yaml")
    [launch] = extract_file("d.yaml", text).launches
    assert launch.entry == "python -m sglang.launch_server"
    assert [w.text for w in launch.args][:4] == ["--model-path", "/models/Kimi-K2.5", "--tp-size", "8"]
    assert text_at(text, launch.args[3].span) == "8" and launch.args[3].span.line == 23
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2" and launch.image_span.line == 11
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1,2,3,4,5,6,7"
    assert launch.env["HF_TOKEN"].dynamic and "valueFrom" in launch.env["HF_TOKEN"].dynamic_reason
    result = lint_text(text, "d.yaml")
    [spd] = [f for f in result.findings if f.code == "SPD001"]
    assert (spd.span.line, spd.span.column) == (33, 16)
    assert "0.5.6.post2" in result.contexts[0].version.version


def test_bash_c_script_in_lws_block_scalar():
    text = read("k8s/bash_c_script.yaml")
    [launch] = extract_file("l.yaml", text).launches  # the busybox Job is not a launch
    flag = next(w for w in launch.args if w.text == "--speculative-num-draft-tokens")
    assert (flag.span.line, flag.span.column) == (24, 19) and text_at(text, flag.span) == flag.text
    model = launch.args[1]
    assert model.text == "/models/Kimi-K2.5" and text_at(text, model.span) == '"$MODEL"'
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2"
    assert any(f.code == "SPD001" and f.span.line == 24 for f in lint_text(text, "l.yaml").findings)


def test_compose_string_list_entrypoint_anchors_and_merges():
    text = read("compose/docker-compose.yml")
    folded, listed, wrapped = extract_file("c.yml", text).launches
    assert folded.image == "lmsysorg/sglang:v0.5.6.post2"  # from the merged anchor
    assert folded.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    steps = next(w for w in folded.args if w.text == "--speculative-num-steps")
    assert (steps.span.line, steps.span.column) == (13, 7)
    assert [w.text for w in listed.args][2:] == ["--tp-szie", "2"] and listed.env["HF_HOME"].text == "/cache"
    assert "CUDA_VISIBLE_DEVICES" not in listed.env  # its own environment replaces the merged one
    assert wrapped.image == "lmsysorg/sglang:latest" and text_at(text, wrapped.args[2].span) == "--tp"
    codes = {(f.code, f.span.line) for f in lint_text(text, "c.yml").findings}
    assert ("FLG001", 20) in codes and ("SPD001", 13) in codes


def test_invalid_yaml_is_one_diagnostic_and_plain_yaml_is_nothing():
    broken = extract_file("b.yaml", "command: [python, -m, sglang.launch_server\nother: 1\n")
    assert [d.kind for d in broken.diagnostics] == ["syntax-error"] and broken.launches == []
    assert broken.diagnostics[0].span.line == 2
    plain = extract_file("p.yaml", "a: [1, 2\n")  # no sglang: not even parsed
    assert plain.diagnostics == [] and plain.launches == []


def test_comments():
    result = extract_file("x.yaml", "# sglang deployment\nimage: 'a#b'  # speclint: ignore\n")
    assert [c[1] for c in result.comments] == ["# sglang deployment", "# speclint: ignore"]

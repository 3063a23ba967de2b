"""Kubernetes `$(VAR)` references in container command/args: expanded from the container's
literal `env:` values, unknown otherwise (never read as literal text)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
REFS = "fixtures/k8s/lws_env_references.yaml"
PER_NODE = "fixtures/k8s/lws_per_node_gpus.yaml"


def read(name: str) -> str:
    return (ROOT / name).read_text()


def found(result) -> list[tuple[str, str, int, int]]:
    return [(f.code, f.severity.label, f.span.line, f.span.column) for f in result.findings]


def value_of(launch, flag: str):
    index = [w.text for w in launch.args].index(flag)
    return launch.args[index + 1]


def test_literal_env_values_are_substituted_at_the_reference():
    text = read(REFS)
    leader, _worker = extract_file("l.yaml", text).launches
    model = value_of(leader, "--model-path")
    assert model.text == "/models/DeepSeek-V3" and text_at(text, model.span) == "$(MODEL)"
    assert (model.span.line, model.span.column) == (31, 17)
    nodes = value_of(leader, "--nnodes")
    assert nodes.text == "2" and (nodes.span.line, nodes.span.column, nodes.span.end_column) == (35, 17, 25)
    escaped = value_of(leader, "--served-model-name")  # `$$(MODEL)` is the literal `$(MODEL)`
    assert escaped.text == "$(MODEL)" and (escaped.span.line, escaped.span.column) == (41, 17)


def test_references_without_a_literal_value_are_unknown_with_a_reason():
    text = read(REFS)
    leader, _worker = extract_file("l.yaml", text).launches
    rank = value_of(leader, "--node-rank")
    assert rank.text is None and text_at(text, rank.span) == "$(RANK)"
    assert rank.dynamic_reason.startswith("`$(RANK)`: set by Kubernetes from the container's environment")
    assert "valueFrom" in rank.dynamic_reason
    address = value_of(leader, "--dist-init-addr")
    assert address.text is None and text_at(text, address.span) == "$(LWS_LEADER_ADDRESS):5000"
    assert "LWS_LEADER_ADDRESS" in address.dynamic_reason
    assert sorted(leader.env) == ["MODEL", "NODES", "RANK"]


def test_references_inside_a_bash_c_script_are_expanded_before_bash():
    text = read(REFS)
    _leader, worker = extract_file("l.yaml", text).launches
    model = value_of(worker, "--model-path")
    assert model.text == "/models/DeepSeek-V3" and text_at(text, model.span) == "$(MODEL)"
    assert (model.span.line, model.span.column) == (56, 62)
    nnodes = value_of(worker, "--nnodes")
    assert nnodes.text is None  # unquoted in the script: bash may split it (splat)
    assert (nnodes.span.line, nnodes.span.column, nnodes.span.end_column) == (57, 41, 58)
    assert nnodes.dynamic_reason == (
        "`$(LWS_GROUP_SIZE)`: set by Kubernetes from the container's environment when the pod starts"
    )
    assert sorted(worker.env) == ["MODEL"]  # no placeholder leaks into the environment


def test_lws_with_unknown_nnodes_has_no_error_and_names_the_reference():
    result = lint_text(read(REFS), "l.yaml")
    assert found(result) == [("SLM004", "info", 37, 17), ("SLM004", "info", 57, 41)]
    worker = result.findings[1].message
    assert "the value of `--nnodes` (`$(LWS_GROUP_SIZE)`: set by Kubernetes" in worker


def test_survey_shape_plain_argv_unknown_nnodes_is_not_a_gpu_error():
    """tp 16 over `$(LWS_GROUP_SIZE)` nodes with 8 GPUs per pod: not FLG005, not PAR001."""
    text = """\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
spec:
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - command:
          - python3
          - -m
          - sglang.launch_server
          - --model-path
          - /work/models
          - --tp-size
          - "16"
          - --nnodes
          - $(LWS_GROUP_SIZE)
          - --served-model-name
          - a$(b
          image: lmsysorg/sglang:v0.5.6.post2
          resources:
            limits:
              nvidia.com/gpu: "8"
"""
    [launch] = extract_file("w.yaml", text).launches
    assert value_of(launch, "--served-model-name").text == "a$(b"  # unclosed: left as written
    result = lint_text(text, "w.yaml")
    assert found(result) == [("SLM004", "info", 18, 13)]


def test_known_nnodes_compares_the_gpu_count_per_node():
    text = read(PER_NODE)
    result = lint_text(text, "p.yaml")
    assert found(result) == [("SLM004", "info", 20, 79), ("PAR001", "error", 24, 33)]
    message = result.findings[1].message
    assert "leaves 4 GPUs visible" in message and "(tp 16) / nnodes 2 makes SGLang start 8 workers" in message


def test_cli_output_on_the_lws_fixture():
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "check", "--no-cache", REFS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FLG005" not in done.stdout and "PAR001" not in done.stdout
    assert f"{REFS}:57:41: SLM004 [info]" in done.stdout


def test_script_after_env_wrapper_and_long_shell_options():
    text = """\
kind: Pod
spec:
  containers:
  - name: a
    image: lmsysorg/sglang:v0.5.6.post2
    env: [{name: TP, value: "4"}]
    command: ["/usr/bin/env", "A=1", "bash", "--login", "-ec"]
    args:
    - python3 -m sglang.launch_server --model-path m --tp-size $(TP) --port "$(P)"
"""
    [launch] = extract_file("p.yaml", text).launches
    tp, port = value_of(launch, "--tp-size"), value_of(launch, "--port")
    assert tp.text == "4" and (tp.span.line, tp.span.column, tp.span.end_column) == (9, 64, 69)
    assert port.text is None and not port.splat and text_at(text, port.span) == '"$(P)"'
    assert found(lint_text(text, "p.yaml")) == [("SLM004", "info", 9, 77)]

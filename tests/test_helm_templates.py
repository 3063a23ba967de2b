"""Helm charts' templates (YAML written as a Go template) are read as templates: each
`{{ ... }}` is a value known only when Helm renders the chart, never text of the launch; a
template is never a "YAML syntax error". These forms gave false errors before (FLG010 on
`.Values.model`, FLG005 on `{{` as --tp's value, SLM001 on `{{- if }}` lines)."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends.manifests.go_templates import is_template

SPEC_LINES = """\
            - --speculative-algorithm
            - EAGLE
            - --speculative-num-steps
            - "1"
            - --speculative-eagle-topk
            - "1"
            - --speculative-num-draft-tokens
"""
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "sglang.fullname" . }}
spec:
  template:
    spec:
      containers:
        - name: sglang
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          command:
            - python3
            - -m
            - sglang.launch_server
            - --model-path
            - {{ .Values.model | quote }}
            - --tp
            - "{{ .Values.tp }}"
            {{- if .Values.speculative }}
"""


def found(text: str, path: str = "chart/templates/deployment.yaml") -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, path, message=True)


def codes(findings: list[tuple]) -> set[str]:
    return {f[0] for f in findings}


def test_a_chart_template_is_read_its_values_unknown_and_no_yaml_error() -> None:
    text = DEPLOYMENT + SPEC_LINES + '            - "16"\n            {{- end }}\n'
    result = found(text)
    assert ("SPD001", 27, 16) in [f[:3] for f in result]  # `- "16"`: the 16 inside its quotes
    assert not codes(result) & {"SLM001", "FLG005", "FLG010"}
    partly = next(f for f in result if f[0] == "SLM004")
    assert partly[1:3] == (16, 15)  # `{{ .Values.model | quote }}`
    assert "`{{ .Values.model | quote }}` is filled in by Helm when the chart is rendered" in partly[4]


def test_helm_values_inside_a_bash_c_script_are_unknown_words_not_flags() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "      - name: sglang\n        image: lmsysorg/sglang:latest\n"
        '        command: ["/bin/bash", "-c"]\n        args:\n          - |\n'
        "            python3 -m sglang.launch_server --model-path {{ .Values.model }} \\\n"
        "              --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 8 --tp {{ .Values.tp }}\n"
    )
    result = found(text, "k8s/deployment.yaml")  # not in a chart: Helm's own actions say it
    assert not codes(result) & {"FLG005", "FLG010", "SLM001", "SLM005"}
    line = text.splitlines()[12]
    assert ("SPD001", 13, line.index(" 8 ") + 2) in [f[:3] for f in result]
    partly = next(f for f in result if f[0] == "SLM004")
    assert "`{{ .Values.model }}` is filled in by Helm" in partly[4]
    assert "`{{ .Values.tp }}` is filled in by Helm" in partly[4]


def test_only_the_if_arm_is_read_the_else_arm_never_merges_into_the_argv() -> None:
    text = (
        DEPLOYMENT
        + SPEC_LINES
        + '            - "16"\n'
        + "            {{- else }}\n"
        + "            - --speculative-num-draft-tokens\n"
        + '            - "4"\n'
        + "            {{- end }}\n"
    )
    result = found(text)
    assert ("SPD001", 27, 16) in [f[:3] for f in result]
    assert not [f for f in result if f[1] >= 29 and not f[0].startswith("SLM")]  # else arm: not read
    assert "FLG007" not in codes(result)  # (a flag given twice: both arms merged)


def test_a_template_line_that_inserts_args_makes_the_launch_partly_read() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: sglang\n          image: lmsysorg/sglang:v0.5.4\n"
        "          command: [python3, -m, sglang.launch_server, --model-path, /models/llama]\n"
        "          args:\n"
        "            {{- toYaml .Values.extraArgs | nindent 12 }}\n"
        "          resources:\n            limits:\n              nvidia.com/gpu: 1\n"
    )
    result = found(text)
    partly = [f for f in result if f[0] == "SLM004"]
    assert partly and "`{{- toYaml .Values.extraArgs | nindent 12 }}` inserts YAML" in partly[0][4]
    assert "SLM001" not in codes(result)


def test_a_template_that_is_not_yaml_even_with_its_actions_aside_is_a_warning() -> None:
    text = DEPLOYMENT + "          ports: [unclosed\n"
    findings = lint_text(text, "chart/templates/deployment.yaml").findings
    gap = [f for f in findings if f.code == "SLM001"]
    assert gap and gap[0].severity.name == "WARNING"
    assert "could not read this Helm template as YAML" in gap[0].message


def test_a_literal_go_format_string_outside_a_chart_is_not_a_template() -> None:
    compose = (
        "services:\n  sglang:\n    image: lmsysorg/sglang:v0.5.4\n"
        '    healthcheck:\n      test: ["CMD-SHELL", "docker inspect --format \'{{.State.Running}}\' x"]\n'
        "    command: python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE "
        "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 16\n"
    )
    assert not is_template(compose, "deploy/compose.yaml")
    assert is_template(compose, "chart/templates/compose.yaml")
    assert "SPD001" in codes(found(compose, "deploy/compose.yaml"))

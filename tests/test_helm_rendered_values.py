"""A chart's template read with the chart's own values.yaml (`frontends/manifests/helm_render`):
`{{ .Values.x }}` lookups, `range` over a list of flags, `toYaml` of a list, `with`, `default`,
and the `if` arm a value picks. Before, each action was an unknown value: the launch in
fixtures/helm/extra-args-chart was "only partly read" and its values file's flags "not checked"
(SLM005), so `--speculative-eagle-topk 1 ... --speculative-num-draft-tokens 16` went unseen."""

from __future__ import annotations

import shutil
from pathlib import Path

from speclint_runs import run_speclint

from speclint.engine import lint_path

CHART = Path(__file__).resolve().parent.parent / "fixtures/helm/extra-args-chart"
TEMPLATE = CHART / "templates/deployment.yaml"


def _findings(path: Path) -> list[tuple[str, str | None, int, int, str]]:
    result = lint_path(str(path))
    return [(f.code, f.span.file, f.span.line, f.span.column, f.message) for f in result.findings]


def test_range_over_extra_args_points_at_each_item_in_values() -> None:
    found = {code: rest for code, *rest in _findings(TEMPLATE)}
    assert found["SPD001"][:3] == [str(CHART / "values.yaml"), 19, 5]  # the `"16"` item
    assert found["SPD001"][3].startswith(
        "`--speculative-num-draft-tokens 16` is ignored: with `--speculative-eagle-topk 1` SGLang sets "
        "speculative_num_draft_tokens to speculative_num_steps + 1 = 2"
    )
    assert "SLM004" not in found  # every action of the launch was rendered


def test_values_fill_the_image_and_lookups(tmp_path: Path) -> None:
    run = run_speclint("explain", str(TEMPLATE))
    assert "SGLang 0.5.4 (from the image lmsysorg/sglang:v0.5.4 (line 11))" in run.stdout
    assert "--model-path Qwen/Qwen3-8B\n" in run.stdout
    assert "--port 30000\n" in run.stdout
    assert "--enable-metrics" not in run.stdout  # metrics.enabled is false: the arm is not rendered


def test_the_values_file_names_the_template_that_reads_its_flags() -> None:
    found = [f for f in _findings(CHART / "values.yaml") if f[0] == "SLM005"]
    assert len(found) == 1
    _, _, line, column, message = found[0]
    assert (line, column) == (12, 6)
    assert message.startswith(
        f"`--speculative-algorithm` is checked where the chart's template {TEMPLATE} writes this list into its launch"
    )


def test_a_template_outside_a_chart_is_not_rendered(tmp_path: Path) -> None:
    copy = tmp_path / "chart"
    shutil.copytree(CHART, copy)
    (copy / "Chart.yaml").unlink()
    codes = [code for code, *_ in _findings(copy / "templates/deployment.yaml")]
    assert "SLM004" in codes and "SPD001" not in codes  # the actions stay unknown, as before


def _chart(tmp_path: Path, values: str, args: str) -> Path:
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(values)
    template = tmp_path / "templates/server.yaml"
    template.write_text(
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: sglang\n      image: lmsysorg/sglang:v0.5.6\n"
        "      command: [python3, -m, sglang.launch_server]\n      args:\n        - --model-path\n        - /m\n"
        + args
    )
    return template


def test_with_default_else_and_toyaml(tmp_path: Path) -> None:
    values = (
        "server:\n  tp: 4\nspec:\n  enabled: false\nextra:\n  - --speculative-algorithm\n  - EAGLE\n"
        "  - --speculative-eagle-topk\n  - '1'\n  - --speculative-num-draft-tokens\n  - '8'\n"
    )
    args = (
        "        {{- with .Values.server }}\n        - --tp-size\n        - {{ .tp | quote }}\n        {{- end }}\n"
        '        - --port\n        - {{ .Values.port | default "31000" | quote }}\n'
        "        {{- if .Values.spec.enabled }}\n        - --speculative-num-steps\n        - '3'\n"
        "        {{- else }}\n        - --speculative-num-steps\n        - '1'\n        {{- end }}\n"
        "        {{- toYaml .Values.extra | nindent 8 }}\n"
    )
    template = _chart(tmp_path, values, args)
    run = run_speclint("explain", str(template))
    for flag in (
        "--tp-size 4",
        "--port 31000",
        "--speculative-num-steps 1",
        "--speculative-num-draft-tokens 8",
    ):
        assert f"    {flag}\n" in run.stdout, flag
    spd001 = [f for f in _findings(template) if f[0] == "SPD001"]
    assert [(f[1], f[2], f[3]) for f in spd001] == [(str(tmp_path / "values.yaml"), 11, 5)]


def test_a_number_helm_may_write_in_e_notation_stays_unknown(tmp_path: Path) -> None:
    template = _chart(
        tmp_path,
        "maxTokens: 1000000\n",
        "        - --max-total-tokens\n        - {{ .Values.maxTokens | quote }}\n",
    )
    slm004 = [f for f in _findings(template) if f[0] == "SLM004"]
    assert len(slm004) == 1
    assert "is a number that Helm may write in e-notation" in slm004[0][4]


def test_index_reads_a_key_with_dots_such_as_the_gpu_limit(tmp_path: Path) -> None:
    template = _chart(
        tmp_path,
        "resources:\n  limits:\n    nvidia.com/gpu: 4\n",
        "        - --tp-size\n        - '2'\n      resources:\n        limits:\n"
        '          nvidia.com/gpu: {{ index .Values.resources.limits "nvidia.com/gpu" | quote }}\n',
    )
    par001 = [f for f in _findings(template) if f[0] == "PAR001"]
    assert [(f[2], f[4]) for f in par001] == [
        (15, "the manifest's GPU count leaves 4 GPUs visible, but tp 2 uses 2 on this node: 2 GPUs stay idle")
    ]

"""Helm values files: SGLang flags in an `extraArgs:`/`args:` list that a chart's template
splices into the command are said to be unread (SLM005), never passed in silence, and no
launch is invented from them."""

from __future__ import annotations

from pathlib import Path

from speclint.engine import lint_path, lint_text

ROOT = Path(__file__).resolve().parent.parent
HELM = ROOT / "fixtures/helm"
SAYS = "reach the command through a chart's template, which speclint does not render"


def located(result) -> list[tuple[str, int, int, int]]:
    return [(f.code, f.span.line, f.span.column, f.span.end_column) for f in result.findings]


def test_values_flag_list_is_reported_unread_at_the_first_sglang_flag():
    result = lint_path(str(HELM / "values_extra_args.yaml"))
    assert result.contexts == [] and result.launch_not_found  # no launch invented
    assert located(result) == [("SLM005", 10, 6, 36)]  # "--speculative-draft-model-path"
    message = result.findings[0].message
    assert message.startswith("this file names `--speculative-draft-model-path` but speclint found no launch")
    assert SAYS in message and message.endswith("they were not checked")


def test_nested_engine_args_and_another_engines_flags():
    result = lint_path(str(HELM / "values_nested_args.yaml"))
    assert located(result) == [("SLM005", 7, 9, 33)]  # --speculative-eagle-topk under sglang
    vllm_only = 'engine:\n  args:\n    - --speculative-config\n    - \'{"method": "ngram"}\'\n'
    assert lint_text(vllm_only, "values.yaml").findings == []  # not a flag of any SGLang release


def test_flags_outside_the_launches_a_manifest_holds():
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: s\n          image: lmsysorg/sglang:v0.5.6\n"
        '          command: ["python3", "-m", "sglang.launch_server"]\n'
        '          args: ["--model-path", "/models/llama", "--speculative-algorithm", "EAGLE3"]\n'
        "---\n"
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  extra: --speculative-num-steps 5\n"
    )
    result = lint_text(text, "deploy.yaml")
    assert len(result.contexts) == 1
    unread = [f for f in result.findings if f.code == "SLM005"]
    assert [(f.span.line, f.span.column) for f in unread] == [(15, 10)]
    assert unread[0].message.startswith("SGLang's `--speculative-num-steps` is outside every launch")


def test_commented_flags_and_a_named_launcher_keep_their_findings():
    commented = "extraArgs:\n  # - --speculative-num-steps\n  - --tp\n  - '8'\n"
    assert lint_text(commented, "values.yaml").findings == []
    named = (
        "sglang:\n  command: [python3, -m, sglang.launch_server]\n"
        "  extraArgs: [--speculative-num-steps, '3']\n"
    )
    (finding,) = lint_text(named, "values.yaml").findings  # the launcher's name says more
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 2, 26)
    assert "names `sglang.launch_server` but speclint found no launch" in finding.message

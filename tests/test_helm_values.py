"""Helm values files: SGLang flags in an `extraArgs:`/`args:` list that a chart's template
splices into the command are said to be unread (SLM005), never passed in silence, and no
launch is invented from them."""

from __future__ import annotations

from pathlib import Path

from fixture_file import FixtureFile

from speclint.engine import lint_path, lint_text
from speclint.frontends import extract_file

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


CHART = "helm/sglang-server/values.yaml"


def test_values_block_naming_the_launcher_is_read_as_the_launch():
    from fixture_file import FixtureFile

    from speclint.frontends import extract_file

    values = FixtureFile(CHART)
    (launch,) = extract_file(str(values.path), values.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.6"  # image.repository:image.tag
    assert values.at(launch.image_span) == (8, 8, "v0.5.6")
    texts = [word.text for word in launch.args]
    assert texts[:8] == ["--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--tp-size", "4"] + [
        "--mem-fraction-statc",
        "0.85",
        "--port",
        "30000",
    ]  # command, then args, then extraArgs, each word where the YAML writes it
    port = launch.args[texts.index("--port")]
    assert values.at(port.span) == (21, 7, "--port")
    assert launch.env["HF_TOKEN"].text is None  # the block's `env:` list (valueFrom: unknown)
    assert launch.gpu_count is not None and launch.gpu_count.text == "2"


def test_values_launch_findings_point_into_the_values_file_with_the_template_note():
    from fixture_file import FixtureFile

    found = FixtureFile(CHART).findings()
    assert [f[:4] for f in found] == [
        ("SLM004", 12, 3, "command"),
        ("FLG001", 18, 7, "--mem-fraction-statc"),
    ]
    assert found[1][4].startswith("`--mem-fraction-statc` is not an SGLang 0.5.6 flag")
    assert "the chart's templates decide how the words of this Helm values file are used" in found[0][4]
    assert "speclint does not render templates" in found[0][4]


def test_values_files_are_read_only_in_a_chart_and_when_the_command_names_the_launcher():
    block = "image: lmsysorg/sglang:v0.5.6\nserver:\n  args: [python3, -m, sglang.launch_server, --tp-sise, '2']\n"
    in_chart = lint_text(block, "deploy/charts/sglang/values-prod.yaml")
    assert [(f.code, f.span.line, f.span.column) for f in in_chart.findings] == [
        ("SLM004", 3, 3),
        ("FLG001", 3, 45),
    ]
    lone = lint_text(block, "values.yaml")  # no Chart.yaml beside it, no chart folder
    assert [f.code for f in lone.findings] == ["SLM005"]
    other = "server:\n  command: [python3, -m, vllm.entrypoints.openai.api_server, --tp, '2']\n"
    assert lint_text(other, "charts/x/values.yaml").findings == []


def test_values_command_and_args_strings_are_split_into_words_at_their_positions():
    text = (
        "model:\n  image: {registry: docker.io, repository: lmsysorg/sglang, tag: v0.5.6}\n"
        "  command: python3 -m sglang.launch_server\n  args: >-\n    --model-path Qwen/Qwen3-8B\n"
        "    --tp-sise 2\n"
    )
    result = lint_text(text, "helm/values.yaml")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [
        ("SLM004", 3, 3),
        ("FLG001", 6, 5),
    ]
    assert result.findings[1].message.startswith("`--tp-sise` is not an SGLang 0.5.6 flag")
    from speclint.frontends import extract_file

    with_env = text + "  extraEnv:\n    SGLANG_USE_MODELSCOPE: 'true'\n"
    (launch,) = extract_file("helm/values.yaml", with_env).launches
    word = launch.env["SGLANG_USE_MODELSCOPE"]  # a mapping of names to values
    assert (word.text, word.span.line, word.span.column) == ("true", 8, 28)


def test_each_block_of_a_values_file_is_one_launch_lists_of_blocks_too():
    text = (
        "image: lmsysorg/sglang:v0.5.6\nserver:\n  command: [python3, -m, sglang.launch_server]\n"
        "  args: [--model-path, m, --tp-sise, '2']\nsidecars:\n  - name: second\n"
        "    command: [python3, -m, sglang.launch_server, --model-path, m, --tp-sise, '4']\n"
    )
    result = lint_text(text, "charts/x/values.yaml")
    assert len(result.contexts) == 2  # each block once, never again as a container
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [
        ("SLM004", 3, 3),
        ("FLG001", 4, 27),
        ("SLM004", 7, 5),
        ("FLG001", 7, 67),
    ]


GLOBAL = FixtureFile("helm/values_global_image.yaml")


def test_the_values_global_image_picks_the_release_when_no_nearer_image_does():
    found = GLOBAL.findings()
    assert [f[:4] for f in found] == [
        ("SLM004", 10, 3, "command"),
        ("FLG009", 14, 7, "--enable-dp-lm-head"),  # global.image: 0.4.6
        ("SLM004", 17, 3, "args"),
        ("FLG001", 17, 85, "--tp-sise"),  # its own image: 0.5.6
    ]
    assert "does not exist yet in SGLang 0.4.6 " in found[1][4]
    assert "is not an SGLang 0.5.6 flag" in found[3][4]
    server, router = extract_file(str(GLOBAL.path), GLOBAL.text).launches
    assert (server.image, GLOBAL.at(server.image_span)) == (
        "docker.io/lmsysorg/sglang:v0.4.6",
        (7, 10, "v0.4.6"),
    )
    assert router.image == "lmsysorg/sglang:v0.5.6"

"""A Helm chart's values file beside an SGLang image with only ordinary server flags
(`extraArgs: [--tp-size, "2"]`) yields no launch: its first SGLang flag is reported (SLM005),
so the run does not say "All checks passed" over flags it never read
(frontends/manifests/unread_flags.py)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

VALUES = FixtureFile("helm/values_plain_extra_args.yaml")
NOT_RENDERED = (
    "this file names `--tp-size` but speclint found no launch in it: flags written in YAML (a Helm "
    "values file's `extraArgs:` or `args:`) reach the command through a chart's template, which "
    "speclint does not render; they were not checked"
)


def test_the_first_server_flag_is_said_unread() -> None:
    found = [(code, line, column, text, message) for code, line, column, text, message in VALUES.findings()]
    assert found == [("SLM005", 11, 5, "--tp-size", NOT_RENDERED)]  # not the commented one, line 9


def test_the_same_list_in_a_doc_yaml_block() -> None:
    doc = (
        "# SGLang chart\n\n```yaml\nimage: lmsysorg/sglang:v0.5.9\nextraArgs:\n  - --tp-size\n  - '2'\n```\n"
    )
    found = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(doc, "README.md").findings]
    assert found == [("SLM005", 6, 5, NOT_RENDERED)]


def test_a_file_that_does_not_name_sglang_stays_quiet() -> None:
    text = "image: vllm/vllm-openai:v0.9.0\nextraArgs:\n  - --tensor-parallel-size\n  - '2'\n"
    assert lint_text(text, "values.yaml").findings == []


def test_only_options_of_an_sglang_release_count() -> None:
    text = "image: lmsysorg/sglang:v0.5.9\nextraArgs:\n  - --no-such-server-flag\n  - --port\n  - '8000'\n"
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "values.yaml").findings]
    assert found == [("SLM005", 4, 5)]

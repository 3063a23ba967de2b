"""Suppression comments: command, line and file scope, codes or names, unused ones reported."""

from __future__ import annotations

from speclint.engine import lint_text
from speclint.settings.options import LintOptions


def codes(text: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in lint_text(text, "x.sh", LintOptions()).findings]


LAUNCH = "python -m sglang.launch_server --model-path m \\\n  --tp 2 \\\n  --speculative-algorithm NGRAM\n"


def test_comment_above_a_command_covers_all_its_continued_lines():
    assert ("FLG003", 2) in codes(LAUNCH)
    assert codes("# speclint: disable=FLG003\n" + LAUNCH) == [("SPD003", 4)]


def test_names_codes_several_and_blank_or_comment_lines_between():
    text = "# speclint: disable=abbreviated-flag, SPD003\n\n# why: tested\n" + LAUNCH
    assert codes(text) == []


def test_trailing_comment_covers_only_its_line():
    text = (
        "python -m sglang.launch_server --model-path m --tp 2  # speclint: disable=FLG003\n"
        "python -m sglang.launch_server --model-path m --tp 2\n"
    )
    assert codes(text) == [("FLG003", 2)]


def test_file_level_suppression():
    text = "#!/bin/bash\n# speclint: disable-file=FLG003,SPD\n" + LAUNCH + LAUNCH
    found = codes(text)
    assert "FLG003" not in {c for c, _ in found}
    # a prefix is not a suppression key: SPD003 still reported, and the key is unused
    assert ("SPD003", 5) in found and ("SLM003", 2) in found


def test_unused_and_unknown_keys_are_reported_at_the_comment():
    result = lint_text(
        "# speclint: disable=SPD001,no-such-rule\n"
        "python -m sglang.launch_server --model-path m --tp-size 2\n",
        "x.sh",
    )
    messages = [(f.code, f.span.line, f.message) for f in result.findings]
    assert ("SLM003", 1, "this suppression of `SPD001` suppresses nothing") in messages
    assert ("SLM003", 1, "`no-such-rule` in this suppression is not a speclint rule code or name") in messages


def test_a_suppression_of_a_rule_not_selected_is_not_unused():
    result = lint_text(
        "# speclint: disable=FLG003\npython -m sglang.launch_server --model-path m --tp 2\n",
        "x.sh",
        LintOptions(
            selection=__import__("speclint.settings.options", fromlist=["Selection"]).Selection(
                ignore=("FLG003",)
            )
        ),
    )
    assert [f.code for f in result.findings] == []


def test_suppression_covers_a_finding_whose_token_sits_in_an_array_elsewhere():
    text = (
        "ARGS=(--tp 2)\n# speclint: disable=FLG003\n"
        'python -m sglang.launch_server --model-path m "${ARGS[@]}"\n'
    )
    assert codes(text) == []


K8S = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: server
          image: lmsysorg/sglang:v0.5.6.post2
          # speclint: disable=SPD003
          command: ["python3", "-m", "sglang.launch_server"]
          args:
            - --model-path
            - /m
            # speclint: disable=abbreviated-flag
            - --tp
            - "4"
            - --speculative-algorithm
            - NGRAM
"""


def test_yaml_comments_above_the_launch_and_above_a_list_item():
    assert lint_text(K8S, "deploy.yaml").findings == []
    bare = K8S.replace("          # speclint: disable=SPD003\n", "")
    assert [f.code for f in lint_text(bare, "deploy.yaml").findings] == ["SPD003"]


def test_python_trailing_and_own_line_comments():
    source = (
        "import subprocess, sys\n"
        'subprocess.run([sys.executable, "-m", "sglang.launch_server", "--model-path", "m",\n'
        '                "--tp", "2",  # speclint: disable=FLG003\n'
        '                "--mem", "0.8"])\n'
        "# speclint: disable=FLG003\n"
        'subprocess.run(["python", "-m", "sglang.launch_server", "--model", "m", "--tp", "2"])\n'
    )
    result = lint_text(source, "wrap.py")
    assert [(f.code, f.span.line) for f in result.findings] == [("FLG003", 4)]


def test_a_long_run_of_suppression_comments_stays_linear():
    """37,000 comment lines once took minutes (each looked ahead over the rest)."""
    from speclint.core.spans import Span
    from speclint.core.suppressions import apply_suppressions, parse_suppressions

    count = 20000
    lines = ["# speclint: disable=FLG001"] * count + ["python -m sglang.launch_server --model-path m"]
    comments = [(Span(i + 1, 1, i + 1, 27), lines[i]) for i in range(count)]
    suppressions = parse_suppressions(comments, lines)
    assert {s.target_line for s in suppressions} == {count + 1}
    assert apply_suppressions([], suppressions) == []

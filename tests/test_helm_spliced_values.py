"""A chart whose template splices its values' `command:` and `args:` lists whole under the
container's keys (`{{- toYaml .Values.server.args | nindent 12 }}` right under `args:`) runs
exactly the values' words: the launch in `values.yaml` is read whole and checked, not left
partly read with "the chart's templates decide" (survey11: that hid SGLang 0.5.9's
AssertionError for `--speculative-eagle-topk` without `--speculative-num-steps`). A template
that adds words, uses the block whole or through `with`, or a chart with no templates, leaves
it partly read, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

from speclint.engine import lint_path

CHART = Path(__file__).resolve().parent.parent / "fixtures/helm/spliced-chart"
DEPLOYMENT = "templates/deployment.yaml"


def _codes(folder: Path) -> list[tuple[str, int, int]]:
    result = lint_path(str(folder / "values.yaml"))
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


def test_a_spliced_values_launch_is_read_whole_and_checked() -> None:
    result = lint_path(str(CHART / "values.yaml"))
    (spd,) = [f for f in result.findings if f.code == "SPD002"]
    assert (spd.span.line, spd.span.column) == (13, 8)  # the value of --speculative-eagle-topk
    assert spd.message.startswith(
        "SGLang stops this launch with a bare AssertionError: --speculative-eagle-topk"
    )
    assert not [f for f in result.findings if f.code == "SLM004"]
    (ctx,) = result.contexts
    assert ctx.version.version == "0.5.9"


def _variant(tmp_path: Path, template: str) -> Path:
    folder = tmp_path / "chart"
    shutil.copytree(CHART, folder)
    (folder / DEPLOYMENT).write_text(template)
    return folder


def test_a_template_that_adds_words_under_args_leaves_it_partly_read(tmp_path: Path) -> None:
    text = (
        (CHART / DEPLOYMENT)
        .read_text()
        .replace(
            "nindent 12 }}\n          ports:",
            "nindent 12 }}\n            - --port\n            - '30000'\n          ports:",
        )
    )
    found = _codes(_variant(tmp_path, text))
    assert ("SLM004", 4, 3) in found and not [f for f in found if f[0] == "SPD002"]


def test_a_block_used_through_with_or_whole_leaves_it_partly_read(tmp_path: Path) -> None:
    text = (CHART / DEPLOYMENT).read_text()
    scoped = text.replace("      containers:", "      {{- with .Values.server }}\n      containers:")
    assert ("SLM004", 4, 3) in _codes(_variant(tmp_path, scoped + "      {{- end }}\n"))
    whole = text + "---\n# {{ toYaml .Values.server }}\n"
    assert ("SLM004", 4, 3) in _codes(_variant(tmp_path / "b", whole))


def test_a_chart_without_templates_leaves_it_partly_read(tmp_path: Path) -> None:
    folder = _variant(tmp_path, "")
    (folder / DEPLOYMENT).unlink()
    found = _codes(folder)
    assert ("SLM004", 4, 3) in found


def test_an_if_that_tests_the_list_around_its_splice_keeps_it_whole(tmp_path: Path) -> None:
    text = (
        (CHART / DEPLOYMENT)
        .read_text()
        .replace("          command:\n", "          {{- if .Values.server.command }}\n          command:\n")
        .replace("          args:\n", "          {{- end }}\n          args:\n")
    )
    found = _codes(_variant(tmp_path, text))
    assert ("SPD002", 13, 8) in found and not [f for f in found if f[0] == "SLM004"]

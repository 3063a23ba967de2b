"""The shared "alternative launches" mechanism (engine side): a front-end emits one Launch per
branch choice; findings are reported once, with a note saying on which branch they happen."""

from __future__ import annotations

import speclint.frontends as extract_module
from speclint.core.launches import Alternative, Condition, ExtractResult, Launch
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.engine import lint_text
from speclint.report.text import render_summary


def _words(line: int, text: str) -> list[Word]:
    words, column = [], 1
    for part in text.split(" "):
        words.append(Word(part, Span(line, column, line, column + len(part))))
        column += len(part) + 1
    return words


THEN = Condition(Span(2, 1, 2, 5), "the `then` branch at line 2 runs")
ELSE = Condition(Span(3, 1, 3, 5), "the `else` branch at line 3 runs")


def _front_end(launches):
    def extract(path, text):
        return ExtractResult(launches=list(launches))

    return extract


def _alternatives(monkeypatch, *argvs: str):
    span = Span(1, 1, 1, 40)
    conditions = (THEN, ELSE)
    launches = [
        Launch(
            "f.sh",
            "python -m sglang.launch_server",
            span,
            _words(1, argv),
            alternative=Alternative((conditions[i],), i, len(argvs)),
        )
        for i, argv in enumerate(argvs)
    ]
    monkeypatch.setattr(extract_module, "extract_file", _front_end(launches))
    return lint_text("x\n", "f.sh")


def test_a_finding_of_every_alternative_is_reported_once_without_a_branch_note(monkeypatch):
    result = _alternatives(monkeypatch, "--model-path m --tp 8", "--model-path m --tp 8")
    (finding,) = [f for f in result.findings if f.code == "FLG003"]
    assert finding.notes == []
    assert "1 launch in 1 file" in render_summary([result])


def test_a_finding_of_one_alternative_says_on_which_branch(monkeypatch):
    result = _alternatives(monkeypatch, "--model-path m --tp-size 8", "--model-path m --tp 8")
    (finding,) = result.findings
    assert finding.code == "FLG003" and (finding.span.column, finding.span.end_column) == (16, 20)
    assert [(n.span, n.message) for n in finding.notes] == [
        (ELSE.span, "when the `else` branch at line 3 runs")
    ]


def test_a_partly_read_alternative_is_counted_once_in_the_summary(monkeypatch):
    span = Span(1, 1, 1, 40)
    launches = [
        Launch(
            "f.sh",
            "python -m sglang.launch_server",
            span,
            _words(1, "--model-path m"),
            alternative=Alternative((THEN,), 0, 2),
        ),
        Launch(
            "f.sh",
            "python -m sglang.launch_server",
            span,
            _words(1, "--model-path")
            + [Word(None, Span(1, 20, 1, 26), dynamic_reason="$MODEL is not assigned")],
            alternative=Alternative((ELSE,), 1, 2),
        ),
    ]
    monkeypatch.setattr(extract_module, "extract_file", _front_end(launches))
    result = lint_text("x\n", "f.sh")
    (partly,) = [f for f in result.findings if f.code == "SLM004"]
    assert "$MODEL is not assigned" in partly.message
    assert partly.notes[-1].message == "when the `else` branch at line 3 runs"
    summary = render_summary([result])
    assert "1 launch in 1 file" in summary and "1 launch only partly read" in summary


def test_a_fix_right_on_some_branches_only_is_not_applied(monkeypatch):
    result = _alternatives(monkeypatch, "--model-path m --tp-size 8", "--model-path m --tp 8")
    (finding,) = result.findings
    assert finding.code == "FLG003" and finding.fix is None


def test_a_fix_right_on_every_branch_is_kept(monkeypatch):
    result = _alternatives(monkeypatch, "--model-path m --tp 8", "--model-path m --tp 8")
    (finding,) = [f for f in result.findings if f.code == "FLG003"]
    assert finding.fix is not None

"""What crosses a forked worker's pipe (`runner.wire`): a file's result comes back equal,
reported byte for byte as the one linted here, with the records reduced to their fields'
values only where calling the class rebuilds them."""

from __future__ import annotations

import dataclasses
import pickle

from speclint.core.findings import Finding, Severity
from speclint.core.notes import Note
from speclint.core.spans import Span
from speclint.report.stream import render
from speclint.runner import wire
from speclint.runner.workers import lint_job
from speclint.settings.options import LintOptions

SCRIPT = (
    'ARGS="--model-path m --tp-size 1"\n'
    "python -m sglang.launch_server $ARGS --mem-fraction 0.8 --enable-torch-compil\n"
)


def test_a_result_comes_back_equal_and_reported_the_same(tmp_path):
    path = tmp_path / "serve.sh"
    path.write_text(SCRIPT)
    result, error = lint_job((str(path), LintOptions(), False, None))
    assert error is None and result is not None
    assert [f.code for f in result.findings] == ["FLG003", "FLG002"]
    assert all(f.fix is not None for f in result.findings)  # Edits cross too
    note = Note(Span(1, 7, 1, 30), "--tp-size 1 is set here")
    result.findings.append(
        Finding(
            "PAR001", "visible-gpu-mismatch", Severity.INFO, str(path), Span(2, 1, 2, 5), "m", notes=[note]
        )
    )
    back, back_error = wire.loads(wire.dumps([(result, None)]))[0]
    assert back_error is None
    assert back.findings == result.findings
    assert (back.path, back.lines, back.error, back.launch_not_found) == (
        result.path,
        result.lines,
        result.error,
        result.launch_not_found,
    )
    assert type(back.findings[0].severity) is Severity
    summary = result.contexts[0]  # (a LaunchSummary has no __eq__: its slots, one by one)
    assert [[getattr(c, name) for name in summary.__slots__] for c in back.contexts] == [
        [getattr(summary, name) for name in summary.__slots__]
    ]
    for output_format in ("text", "concise", "json", "sarif"):
        assert render(output_format, [back]) == render(output_format, [result])


def test_the_request_s_options_come_back_equal():
    options = LintOptions(sglang_version="0.5.6", model_configs=(("m", "/models/m"),))
    assert wire.loads(wire.dumps([("a.sh", options, False, None)])) == [("a.sh", options, False, None)]


@dataclasses.dataclass
class _Normalised:
    name: str
    size: int

    def __post_init__(self) -> None:
        self.name = self.name.lower()


@dataclasses.dataclass
class _Derived:
    name: str
    length: int = dataclasses.field(init=False, default=0)


class _OwnInit:
    __slots__ = ("name", "size")

    def __init__(self, size: int, name: str) -> None:
        self.name, self.size = name, size


def test_only_records_their_class_rebuilds_are_reduced_to_their_fields():
    assert wire.field_reducer(Span) is not None
    assert wire.field_reducer(_Normalised) is None
    assert wire.field_reducer(_Derived) is None
    assert wire.field_reducer(_OwnInit) is None  # (its parameters are not its slots in order)
    derived = _Derived("x")
    derived.length = 3
    assert pickle.loads(pickle.dumps(derived)).length == 3  # (pickle's own way, kept)

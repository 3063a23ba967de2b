"""A shell lint without `enum` (~6 M instructions of a cold run): `Severity` is an int class
that behaves as the `IntEnum` it was, and tree-sitter's binding is set up with a stand-in
`IntEnum` for the one class it makes (`LogType`)."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from speclint_runs import last_line, run_probe

from speclint.core import patterns
from speclint.core.findings import Severity
from speclint.runner.result_codec import _decode, _encode

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"


def test_severities_are_ordered_ints_with_names():
    assert [int(severity) for severity in Severity] == [0, 1, 2] and len(Severity) == 3
    assert Severity.INFO < Severity.WARNING < Severity.ERROR and Severity.ERROR == 2
    assert [severity.name for severity in Severity] == ["INFO", "WARNING", "ERROR"]
    assert [severity.label for severity in Severity] == ["info", "warning", "error"]
    assert Severity.WARNING.value == 1 and not Severity.INFO
    assert repr(Severity.ERROR) == "<Severity.ERROR: 2>"
    assert str(Severity.ERROR) == "2" and f"{Severity.WARNING:>3}" == "  1"
    assert json.dumps({"severity": Severity.ERROR}) == '{"severity": 2}'


def test_each_severity_is_one_object():
    assert Severity(2) is Severity.ERROR and Severity["WARNING"] is Severity.WARNING
    assert Severity.parse("info") is Severity.INFO
    assert pickle.loads(pickle.dumps(Severity.WARNING)) is Severity.WARNING
    assert {Severity.ERROR: "e"}[2] == "e"
    encoded = _encode([Severity.ERROR, 2])
    assert encoded == ["l", ["e", "Severity", 2], 2]
    decoded = _decode(encoded, {"Severity": (Severity, -1)})
    assert decoded == [2, 2] and decoded[0] is Severity.ERROR and type(decoded[1]) is int


@pytest.mark.parametrize("wrong", [3, -1, "2", 1.0])
def test_a_value_that_is_no_severity_is_refused(wrong):
    with pytest.raises(ValueError, match="is not a valid Severity"):
        Severity(wrong)
    with pytest.raises(KeyError):
        Severity.parse("fatal")


PROBE = """
log_type = sys.modules["tree_sitter._binding"].LogType
print("enum" in sys.modules, repr(log_type.PARSE), repr(log_type(1)), log_type.__module__, file=sys.stderr)
"""


def test_a_shell_lint_imports_no_enum_and_tree_sitter_still_has_its_log_types(tmp_path):
    script = tmp_path / FIXTURE.name  # (no pyproject.toml above it: tomllib imports enum)
    script.write_bytes(FIXTURE.read_bytes())
    # (only PATH: an option given through the environment sends the command line to click, a
    # user's configuration file is read by tomllib, and each imports enum)
    environment = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}
    for _ in range(
        2
    ):  # (the first run in a fresh checkout fills the kept stores: it imports `re`, which imports enum)
        done = run_probe(PROBE, script, cwd=tmp_path, env={**environment, "PYTHONPATH": str(ROOT / "src")})
    assert "SPD001" in done.stdout
    if patterns.served():
        assert last_line(done) == "False <LogType.PARSE: 0> <LogType.LEX: 1> tree_sitter", done.stderr
    else:  # (`re` compiles every pattern and imports enum: tree-sitter makes its own LogType)
        assert last_line(done).startswith("True <LogType.PARSE: 0> <LogType.LEX: 1> "), done.stderr

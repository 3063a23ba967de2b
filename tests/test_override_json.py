"""`--json-model-override-args` that is not JSON: every release's `ModelConfig.__init__` runs
`json.loads` on it at start-up (tools/gen_sglang_override_json.py reads this from each wheel),
so the launch stops with `json.decoder.JSONDecodeError`. Before, speclint passed such a value
(survey 5's leftover: a trailing comma, a Python dict in single quotes)."""

from __future__ import annotations

import json
import os
import sys

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gen_sglang_override_json import override_reading  # noqa: E402

FILE = FixtureFile("shell/json_override_invalid.sh")


def test_a_value_json_refuses_is_reported_at_the_value() -> None:
    findings = FILE.findings()
    assert [(code, line, col) for code, line, col, _, _ in findings] == [
        ("SPD009", 8, 30),
        ("SPD009", 10, 30),
    ]
    assert FILE.lines[7][29:30] == "'" and FILE.lines[9][29:30] == '"'  # the value's word
    trailing, python_dict = findings[0][4], findings[1][4]
    value = FILE.lines[7][30 : FILE.lines[7].rindex("'")]
    try:  # (the reason in json's own words: 3.11 "Expecting property name enclosed in double
        json.loads(value)  # quotes: line 1 column 54", 3.13 "Illegal trailing comma ...: column 53")
    except json.JSONDecodeError as error:
        reason = str(error)
    assert trailing.startswith(
        "SGLang 0.5.23 refuses this launch in ModelConfig.__init__ (json.loads, at start-up): "
        f"json.decoder.JSONDecodeError: {reason}"
    )
    assert "keys and strings take double quotes, and no comma may end an object or a list" in trailing
    assert python_dict.startswith("SGLang 0.4.7 refuses this launch in ModelConfig.__init__")


def test_a_valid_or_unknown_value_is_not_reported() -> None:
    options = LintOptions(sglang_version="0.5.6", read_pyproject=False)
    for value in ('\'{"architectures": ["Qwen3ForCausalLM"]}\'', '"$OVERRIDE"', "'[1, 2]'"):
        text = f"python -m sglang.launch_server --model-path m --json-model-override-args {value}\n"
        assert [f.code for f in lint_text(text, "t.sh", options).findings if f.code == "SPD009"] == []


def test_the_reading_is_the_model_config_loads_in_its_own_body() -> None:
    manager = "config = ModelConfig.from_server_args(server_args)\n"
    loads = (
        "import json\nclass ModelConfig:\n    def __init__(self, model_override_args='{}'):\n"
        "        self.model_override_args = json.loads(model_override_args)\n"
    )
    guarded = loads.replace("        self.", "        if model_override_args:\n            self.")
    assert override_reading(loads, manager) == "model_config_init"
    assert override_reading(guarded, manager) == "other"  # (an `if` around it: not read here)
    assert override_reading(loads, "x = 1\n") == "other"
    assert override_reading(None, manager) == "other"

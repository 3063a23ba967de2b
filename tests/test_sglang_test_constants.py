"""Names imported from `sglang.test.test_utils` (SGLang's own tests: `popen_launch_server(
DEFAULT_MODEL_NAME_FOR_TEST, ...)`) are read as their values, which
tools/gen_sglang_test_constants.py reads from every release's wheel, where the releases agree;
a name whose value changed between releases is an unknown value saying so. Before, every such
name was "has no value known statically"."""

from __future__ import annotations

import os
import sys

from fixture_file import FixtureFile

from speclint.frontends import extract_file
from speclint.sglang.test_constants import sglang_test_constant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from gen_sglang_test_constants import constants  # noqa: E402

FILE = FixtureFile("python/sglang_test_constants.py")


def test_the_model_name_is_read_from_the_releases() -> None:
    serving, draft = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in serving.args][:2] == ["--model-path", "meta-llama/Llama-3.1-8B-Instruct"]
    assert serving.args[1].span.line == 20  # the name, where the file writes it
    assert draft.args[-1].text is None
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 23, 57, "two"),
        ("SLM004", 34, 59, "DEFAULT_EAGLE_DRAFT_MODEL_FOR_TEST"),
    ]
    assert (
        "`DEFAULT_EAGLE_DRAFT_MODEL_FOR_TEST` differs between SGLang releases' sglang.test.test_utils "
        "(`lmzheng/sglang-EAGLE-llama2-chat-7B` in 0.4.2 to 0.4.3.post2; "
        "`lmsys/sglang-EAGLE-llama2-chat-7B` in 0.4.3.post3 to"
    ) in findings[1][4]


def test_the_data_and_its_reading() -> None:
    assert sglang_test_constant("DEFAULT_MODEL_NAME_FOR_TEST") == ("meta-llama/Llama-3.1-8B-Instruct", "")
    assert sglang_test_constant("NOT_A_CONSTANT") is None
    source = 'DEFAULT_A = "x"\nDEFAULT_B = f"{A}"\nDEFAULT_C = "y"\nDEFAULT_C = "z"\nOTHER = "o"\n'
    assert constants(source) == [("DEFAULT_A", "x"), ("DEFAULT_C", "z")]

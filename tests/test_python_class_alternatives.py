"""A base class's launch read once more per subclass of the same file (SGLang's own unittest
style): each subclass's launch is either read, with its findings saying "when the class is
X", or reported as partly read with its reason and its class, never dropped in silence.
Also `if`/`elif`/`else` arms of a plain script, whose unknown values are reported likewise."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text
from speclint.report.text import render_summary


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


HEAD = (
    "import os\n"
    "import unittest\n"
    "\n"
    "from sglang.test.test_utils import DEFAULT_URL_FOR_TEST, popen_launch_server\n"
    "\n"
    "\n"
)
BASE = (  # lines 7-17
    "class TestBase(unittest.TestCase):\n"
    '    model = "meta-llama/Llama-3.1-8B-Instruct"\n'
    '    spec_args = ["--tp-size", "2", "--chunked-prefill-size", "4096"]\n'
    "\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        cls.process = popen_launch_server(\n"
    "            cls.model,\n"
    "            DEFAULT_URL_FOR_TEST,\n"
    "            timeout=600,\n"
    '            other_args=cls.spec_args + ["--mem-fraction-static", "0.7"],\n'
    "        )\n"
)


def findings(text: str):
    result = lint_text(text, "test_spec.py")
    return result, [f for f in result.findings if f.code != "DRF011"]


def where(finding) -> tuple[str, int, int]:
    return finding.code, finding.span.line, finding.span.column


def notes(finding) -> list[tuple[int, int, str]]:
    return [(n.span.line, n.span.column, n.message) for n in finding.notes]


def test_a_subclass_whose_args_are_computed_is_reported_partly_read_with_its_class():
    text = HEAD + BASE + "\n\nclass TestSub(TestBase):\n    spec_args = compute_args()\n"
    result, found = findings(text)
    (slm,) = found
    assert where(slm) == ("SLM004", 17, 24)
    assert "`compute_args(...)` is computed when the program runs" in slm.message
    assert (21, 7, "when the class is TestSub (line 21)") in notes(slm)
    assert "1 launch only partly read" in render_summary([result])


def test_a_slice_of_the_base_s_list_read_through_the_class_name_is_read():
    # [:-1] drops "4096": `--chunked-prefill-size` then takes "--tp-szie", written in TestSub
    text = (
        HEAD
        + BASE
        + '\n\nclass TestSub(TestBase):\n    spec_args = TestBase.spec_args[:-1] + ["--tp-szie", "8"]\n'
    )
    _, found = findings(text)
    assert not [f for f in found if f.code == "SLM004"]
    flg = [f for f in found if f.code == "FLG001"]
    assert [where(f) for f in flg] == [("FLG001", 22, 45)]
    assert flg[0].message.startswith("`--tp-szie` is not an SGLang")
    assert (21, 7, "when the class is TestSub (line 21)") in notes(flg[0])


def test_sliced_elements_keep_where_the_base_writes_them():
    # [1:] starts at "2": a word no flag takes, found at line 9 where TestBase writes it
    text = HEAD + BASE + "\n\nclass TestSub(TestBase):\n    spec_args = TestBase.spec_args[1:]\n"
    _, found = findings(text)
    (stray,) = [f for f in found if f.code == "FLG010"]
    assert where(stray) == ("FLG010", 9, 32)
    assert (21, 7, "when the class is TestSub (line 21)") in notes(stray)


def test_two_subclasses_unknown_for_different_reasons_each_say_theirs():
    text = (
        HEAD
        + BASE
        + "\n\nclass TestA(TestBase):\n    spec_args = compute_args()\n"
        + '\n\nclass TestB(TestBase):\n    model = os.environ["MODEL"]\n'
    )
    _, found = findings(text)
    (slm,) = found  # one per launch: TestA's reason is the message, TestB's a note at its token
    assert where(slm) == ("SLM004", 17, 24)
    assert "`compute_args(...)` is computed when the program runs" in slm.message
    assert notes(slm)[0] == (
        14,
        13,
        "when the class is TestB (line 25): launch only partly read: speclint cannot know the value "
        "of `--model-path` (an environment variable (read when the program runs)); checks that need "
        "this value did not run",
    )
    assert notes(slm)[-2:] == [
        (21, 7, "when the class is TestA (line 21)"),
        (25, 7, "when the class is TestB (line 25)"),
    ]


def test_a_subclass_setting_args_in_its_own_set_up_class_before_super_is_read():
    text = (
        HEAD + BASE + "\n\nclass TestSub(TestBase):\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        '        cls.spec_args = ["--tp-size", "4", "--enable-torch-compyle"]\n'
        "        super().setUpClass()\n"
    )
    result, found = findings(text)
    (flg,) = found
    assert where(flg) == ("FLG001", 24, 45)
    assert "`--enable-torch-compyle`" in flg.message
    assert (21, 7, "when the class is TestSub (line 21)") in notes(flg)
    assert "1 launch in 1 file" in render_summary([result])  # one launch, in two alternatives


def test_an_intermediate_class_s_super_call_and_its_subclass():
    text = (
        HEAD + BASE + "\n\nclass TestMid(TestBase):\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        '        cls.spec_args = cls.spec_args + ["--mid-flag"]\n'
        "        super().setUpClass()\n"
        '\n\nclass TestLeaf(TestMid):\n    spec_args = ["--tp-size", "8", "--leaf-flag"]\n'
    )
    _, found = findings(text)
    assert [where(f) for f in found] == [("FLG001", 24, 43), ("FLG001", 29, 37)]
    mid, leaf = found
    assert {m for _, _, m in notes(mid)} == {
        "when the class is TestMid (line 21)",
        "when the class is TestLeaf (line 28)",
    }
    assert [m for _, _, m in notes(leaf)] == ["when the class is TestLeaf (line 28)"]


def test_an_overridden_get_server_args_that_is_computed_is_reported():
    text = (
        HEAD + "class TestBase(unittest.TestCase):\n"
        "    @classmethod\n"
        "    def get_server_args(cls):\n"
        '        return ["--tp-size", "2"]\n'
        "\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        '        popen_launch_server("m", DEFAULT_URL_FOR_TEST, timeout=600, other_args=cls.get_server_args())\n'
        "\n\nclass TestSub(TestBase):\n"
        "    @classmethod\n"
        "    def get_server_args(cls):\n"
        "        return load_args()\n"
    )
    _, found = findings(text)
    (slm,) = found
    assert where(slm) == ("SLM004", 14, 80)
    assert "`load_args(...)`" in slm.message
    assert (17, 7, "when the class is TestSub (line 17)") in notes(slm)


def test_module_level_lists_sliced_and_indexed():
    text = (
        "import subprocess\n"
        'BASE_ARGS = ["--tp-size", "2", "--mem-fraction-static", "0.8"]\n'
        "TP = BASE_ARGS[1]\n"
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "m"]'
        ' + BASE_ARGS[:2] + ["--dp", TP] + BASE_ARGS[-2:] + BASE_ARGS[::2])\n'
    )
    _, found = findings(text)
    assert not [f for f in found if f.code == "SLM004"]  # every slice read
    # BASE_ARGS[::2] is ["--tp", "--mem-fraction-static"]: --tp without its value, at line 2
    assert ("FLG", 2) in {(f.code[:3], f.span.line) for f in found}


def test_a_slice_of_a_list_holding_any_number_of_words_is_not_guessed():
    text = (
        "import subprocess, sys\n"
        'ARGS = ["--tp-size", "2", *sys.argv[1:]]\n'
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "m"] + ARGS[:3])\n'
    )
    _, found = findings(text)
    (slm,) = [f for f in found if f.code == "SLM004"]
    assert "`ARGS[:3]` is computed when the program runs" in slm.message


def test_if_arms_each_unknown_for_its_own_reason_are_all_reported():
    text = (
        "import os\n"
        "import subprocess\n"
        "\n"
        'if os.environ.get("BIG"):\n'
        '    args = ["--tp-size", "8"]\n'
        'elif os.environ.get("MID"):\n'
        "    args = get_args()\n"
        "else:\n"
        '    args = ["--tp-size", "2"] + os.environ["EXTRA"].split()\n'
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "m"] + args)\n'
    )
    _, found = findings(text)
    (slm,) = found
    said = [slm.message] + [m for _, _, m in notes(slm)]
    assert any("`get_args(...)`" in m for m in said)
    assert any(
        m.startswith("when the `else` branch at line 8 runs: launch only partly read") and "EXTRA" in m
        for m in said
    )


def test_super_get_server_args_in_an_override_is_the_base_s_list():
    text = (
        HEAD + "class TestBase(unittest.TestCase):\n"
        '    tp = "2"\n'
        "\n"
        "    @classmethod\n"
        "    def get_server_args(cls):\n"
        '        return ["--tp-size", cls.tp]\n'
        "\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        '        popen_launch_server("m", DEFAULT_URL_FOR_TEST, timeout=600, other_args=cls.get_server_args())\n'
        "\n\nclass TestSub(TestBase):\n"
        '    tp = "two"\n'
        "\n"
        "    @classmethod\n"
        "    def get_server_args(cls):\n"
        '        return super().get_server_args() + ["--enable-mixed-chunks"]\n'
    )
    _, found = findings(text)
    assert not [f for f in found if f.code == "SLM004"]  # super() names TestBase's method
    bad, typo = found
    assert where(bad) == ("FLG005", 12, 30)  # TestSub's "two" as TestBase's method reads it
    assert "invalid int value: 'two'" in bad.message
    assert notes(bad) == [(20, 10, "value assigned here"), (19, 7, "when the class is TestSub (line 19)")]
    assert where(typo) == ("FLG001", 24, 46)  # `--enable-mixed-chunks`, TestSub's own word
    assert notes(typo) == [(19, 7, "when the class is TestSub (line 19)")]


def test_past_the_budget_of_inherited_walks_the_file_says_the_rest_is_not_read():
    from speclint.frontends.python.classes import MAX_INHERITED_WALKS

    subclasses = "".join(
        f'\n\nclass TestN{i}(TestBase):\n    spec_args = ["--tp-size", "{i + 1}"]\n'
        for i in range(MAX_INHERITED_WALKS + 1)
    )
    text = (
        HEAD
        + BASE.replace("    @classmethod\n", "    def test_a(self):\n        pass\n\n    @classmethod\n")
        + subclasses
    )
    result, found = findings(text)
    (too_many,) = [f for f in found if f.code == "SLM001"]
    first_unread = 7 + 14 + 3 + 4 * MAX_INHERITED_WALKS  # test_a() is not walked again: no launch
    assert (too_many.span.line, too_many.span.column) == (first_unread, 7)
    assert too_many.message.endswith(
        f"the launches TestN{MAX_INHERITED_WALKS} and the classes after it inherit (from setUpClass() on) "
        "are not read"
    )


def test_if_arms_in_the_base_s_set_up_class_and_subclasses_name_the_class():
    text = (
        HEAD + "class TestBase(unittest.TestCase):\n"
        '    extra = ["--tp-size", "2"]\n'
        "\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        '        if os.environ.get("BIG"):\n'
        '            args = cls.extra + ["--dp-size", "2"]\n'
        "        else:\n"
        "            args = cls.extra\n"
        '        popen_launch_server("m", DEFAULT_URL_FOR_TEST, timeout=600, other_args=args)\n'
        "\n\nclass TestSub(TestBase):\n    extra = compute()\n"
        '\n\nclass TestSub2(TestBase):\n    extra = ["--tp-size", "4", "--enable-mixed-chunks"]\n'
    )
    result, found = findings(text)
    slm, flg = found
    assert where(slm) == ("SLM004", 16, 80)
    assert "`compute(...)`" in slm.message
    assert notes(slm) == [(19, 7, "when the class is TestSub (line 19)")]  # on both arms
    assert where(flg) == ("FLG001", 24, 33)
    assert notes(flg) == [(23, 7, "when the class is TestSub2 (line 23)")]
    assert "1 launch in 1 file" in render_summary([result])

"""`model, tp = "m", "2"` and `[port, host] = [...]` bind each name to its element, as Python
does; a starred target or a count that does not match stays unknown. Before, every name bound
by unpacking was unknown ("assigned by unpacking")."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("python/tuple_unpacking.py")


def test_each_name_gets_its_element() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [("FLG005", 12, 83, "tp"), ("SLM004", 15, 106, "mem")]
    assert "`two` is not a valid value for `--tp-size`" in findings[0][4]
    assert "an environment variable (read when the program runs)" in findings[1][4]
    first, _second = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in first.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp-size",
        "two",
        "--port",
        "30000",
        "--host",
        "0.0.0.0",
    ]


def test_a_starred_target_or_other_counts_stay_unknown() -> None:
    for line in ('a, *b = "m", "2"', 'a, b = "m", "2", "3"', "a, b = pair"):
        text = f"import subprocess\n{line}\nsubprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', a])\n"
        (launch,) = extract_file("t.py", text).launches
        assert launch.args[1].text is None, line
    assert lint_text('a, b = "m", "2"\n', "t.py").findings == []

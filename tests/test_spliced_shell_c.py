"""`bash -c 'CODE1'"$X"'CODE2'`: code for an inner shell written as quoted parts joined into one
word, as multi-node Slurm scripts splice the head node's address in. Each part's characters keep
their places and a double-quoted expansion is its value (or an unknown value standing there), as
for one double-quoted string (before, a part whose value was unknown left the whole launch
unread, SLM005, and a known one put every finding at the word's first character)."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("shell/spliced_shell_c.sh")


def test_a_spliced_unknown_value_leaves_the_rest_of_the_code_read() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 7, 127, "$HEAD\"':'\"$PORT"),
        ("FLG001", 7, 145, "--mem-fraction-statics"),
        ("FLG005", 8, 95, "two"),
    ]
    assert "output of command substitution `$(scontrol show hostnames" in findings[0][4]
    assert "did you mean `--mem-fraction-static`?" in findings[1][4]
    assert "invalid int value: 'two'" in findings[2][4]


def test_a_spliced_known_value_is_read_in_place() -> None:
    from speclint.frontends import extract_file

    first, second = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in second.args] == [
        "--model-path",
        "/models/dsv3",
        "--port",
        "5000",
        "--tp-size",
        "two",
    ]
    port = second.args[3]
    assert FILE.at(port.span)[:3] == (8, 77, "$PORT")
    assert first.args[-2].text == "--mem-fraction-statics"

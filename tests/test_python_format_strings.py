"""Command strings built with `str.format` and printf-style `%` (Python's documented format
syntaxes): each field takes its argument's text where the field is written, a field that
formats its value or has an unknown argument is an unknown word, and a template these forms
cannot place stays unknown as a whole."""

from __future__ import annotations

from pathlib import Path

from findings_at import place

from speclint.engine import lint_text
from speclint.frontends import extract_file

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "python" / "format_strings.py"
TEXT = FIXTURE.read_text()
LINES = TEXT.splitlines()


def _flags(launch) -> dict[str, tuple[str | None, tuple[int, int, str]]]:
    args = launch.args
    return {
        w.text: (args[i + 1].text, place(LINES, args[i + 1].span))
        for i, w in enumerate(args[:-1])
        if (w.text or "").startswith("--")
    }


def test_each_field_takes_its_argument_where_the_field_is_written():
    first, named, printf = extract_file(str(FIXTURE), TEXT).launches
    assert _flags(first)["--model-path"] == ("meta-llama/Llama-3.1-8B-Instruct", (15, 51, "{}"))
    assert _flags(first)["--speculative-algorithm"] == ("EAGLE", (15, 78, "{}"))
    assert _flags(named)["--model-path"] == ("meta-llama/Llama-3.1-8B-Instruct", (21, 51, "{model}"))
    assert _flags(named)["--speculative-draft-model-path"] == (
        "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
        (21, 90, "{0}"),
    )
    assert _flags(named)["--speculative-num-steps"] == ("3", (22, 61, "{steps}"))
    assert _flags(printf)["--model-path"] == ("meta-llama/Llama-3.1-8B-Instruct", (28, 51, "%s"))
    assert _flags(printf)["--max-running-requests"] == ("8", (29, 63, "%d"))


def test_findings_point_at_the_fields_and_unknown_fields_are_reported():
    findings = lint_text(TEXT, str(FIXTURE)).findings
    found = [
        (f.code, *place(LINES, f.span), f.message) for f in findings if f.code != "DRF011"
    ]  # no config.json here
    assert [f[:4] for f in found] == [
        ("SPD003", 15, 78, "{}"),
        ("SLM004", 15, 88, "{}"),
        ("SPD001", 23, 37, "16"),
        ("SLM004", 29, 76, "%02d"),
    ]
    assert found[0][4].startswith("speculative decoding (EAGLE) without --max-running-requests")
    assert (
        "the value of `--port` (`int(...)` is computed when the program runs; unquoted, read as one word)"
        in found[1][4]
    )
    assert "with `--speculative-eagle-topk 1` SGLang sets speculative_num_draft_tokens to" in found[2][4]
    assert "speculative_num_steps + 1 = 4 and runs with 4, not 16" in found[2][4]
    assert "the value of `--tp-size` (the value is formatted when the program runs; unquoted" in found[3][4]


def _one_launch_args(source: str) -> list[str | None]:
    (launch,) = extract_file("a.py", source).launches
    return [w.text for w in launch.args]


def test_escaped_braces_and_percent_signs_are_literal():
    source = (
        "import os\n"
        'os.system(\'python -m sglang.launch_server --model-path {} --json-model-override-args "{{}}" '
        "--mem-fraction-static 0.{}'.format('m', 8))\n"
        "os.system('python -m sglang.launch_server --model-path %s --chat-template 100%%' % 'm')\n"
    )
    first, second = extract_file("a.py", source).launches
    assert [w.text for w in first.args] == [
        "--model-path",
        "m",
        "--json-model-override-args",
        "{}",
        "--mem-fraction-static",
        "0.8",
    ]
    assert [w.text for w in second.args] == ["--model-path", "m", "--chat-template", "100%"]


def test_templates_that_cannot_be_placed_stay_unknown():
    for call in (
        "'python -m sglang.launch_server --model-path {0.path}'.format(cfg)",  # an attribute
        "'python -m sglang.launch_server --model-path {}'.format(*names)",  # *args
        "'python -m sglang.launch_server --model-path {} --port {}'.format('m')",  # a missing argument
        "'python -m sglang.launch_server --model-path %(model)s' % cfg",  # a mapping key
        "'python -m sglang.launch_server --model-path %s' % ('m', 'extra')",  # not all converted
    ):
        result = extract_file("a.py", f"import os\nos.system({call})\n")
        assert result.launches == [], call

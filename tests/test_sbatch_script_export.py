"""A plain batch script's own `#SBATCH --export=ALL,NAME=value` (before its first command):
sbatch applies it when the script is submitted without an overriding `--export` or
SBATCH_EXPORT, so the values are read as the script's environment from its start, each
pointing at the `#SBATCH` line with a note saying what was assumed (before: the variables
were unknown, "comes from the environment"). A list without ALL passes none of the caller's."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("shell/sbatch_script_export.sh")
ASSUMED = (
    "set by `#SBATCH --export` (line 4), as sbatch applies it when the script is submitted with "
    "no `--export` on the sbatch command line and no SBATCH_EXPORT, either of which would replace it"
)


def test_a_value_from_the_scripts_export_list_is_checked_with_the_assumption_noted() -> None:
    findings = lint_text(FILE.text, str(FILE.path)).findings
    assert [(f.code, *FILE.at(f.span)) for f in findings] == [
        ("FLG005", 6, 65, '"$TP"'),
        ("SLM004", 6, 78, '"$PORT"'),  # not in the list: still the caller's, unknown
    ]
    assert "`two` is not a valid value for `--tp-size`" in findings[0].message
    ((line, column, text), note) = ((FILE.at(findings[0].notes[0].span)), findings[0].notes[0].message)
    assert (line, column, text, note) == (4, 45, "two", ASSUMED)


def test_the_listed_values_are_the_launchs_and_point_at_the_directive() -> None:
    (launch,) = extract_file(str(FILE.path), FILE.text).launches
    assert launch.args[1].text == "/models/qwen3"
    assert FILE.at(launch.args[1].origin) == (4, 28, "/models/qwen3")
    assert {name: word.text for name, word in launch.env.items()} == {"MODEL": "/models/qwen3", "TP": "two"}


def test_a_list_without_all_passes_none_of_the_callers_variables() -> None:
    text = '#!/bin/bash\n#SBATCH --export=NONE\npython3 -m sglang.launch_server --model-path "$MODEL"\n'
    (finding,) = lint_text(text, "job.sh").findings
    assert finding.code == "SLM004"
    assert (
        "$MODEL is not passed to the batch script by `#SBATCH --export=NONE` (line 2) when it is "
        "submitted without another `--export`" in finding.message
    )


def test_a_batch_script_shown_in_a_doc_block_is_read_the_same_way() -> None:
    doc = FixtureFile("markdown/slurm_batch_script.md")
    findings = lint_text(doc.text, str(doc.path)).findings
    assert [(f.code, *doc.at(f.span)) for f in findings] == [("FLG005", 10, 63, "$TP")]
    (note,) = findings[0].notes
    assert (doc.at(note.span), note.message) == ((9, 45, "two"), ASSUMED.replace("(line 4)", "(line 9)"))

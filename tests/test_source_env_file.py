"""`set -a; source FILE` / `. FILE` of a file of plain `NAME=value` lines: the file is read from
disk beside the script and its assignments made, exported under `set -a` (bash(1),
`allexport`) or with `export`, so an inner `bash -c` sees them. Before: any `source` made
every variable unknown ("may change any variable", SLM004). A file not on disk still does,
the reason now saying why."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/source_env.sh")


def test_the_sourced_files_values_reach_the_launch() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 6, 87, '"$SCHEDULE"'),
        ("SLM004", 9, 87, '"$SCHEDULE"'),
        ("SLM004", 11, 46, '"$MODEL_PATH"'),
        ("SLM004", 14, 46, '"$MODEL_PATH"'),
    ]
    assert "invalid choice: 'fifo'" in findings[0][4]  # `SCHEDULE=fifo   # ...`, exported by `set -a`
    # sourced again without `set -a`: SCHEDULE (unset before) is this shell's only
    assert "$SCHEDULE is not exported to the inner `bash -c` shell (line 9)" in findings[1][4]
    assert (
        "`. ./serve.local.env` at line 10 may change any variable (speclint could not read"
        " ./serve.local.env: not on disk)" in findings[2][4]
    )
    assert (  # `export PATH="$HOME/...:$PATH"`: other code, so nothing of the file is applied
        "`source source_env_setup.env` at line 13 may change any variable (line 3 of"
        " source_env_setup.env is not a plain assignment, which speclint does not read)" in findings[3][4]
    )


def test_assignments_are_exported_and_point_at_the_file_name() -> None:
    first, second, *_ = extract_file(str(FILE.path), FILE.text).launches
    assert {name: word.text for name, word in first.env.items()} == {
        "MODEL_PATH": "/models/qwen3",
        "SCHEDULE": "fifo",
        "SGLANG_LOG_LEVEL": "debug",  # `export SGLANG_LOG_LEVEL='debug'`: quotes removed
    }
    assert FILE.at(first.env["MODEL_PATH"].span) == (4, 8, "./source_env.env")
    assert "SCHEDULE" not in second.env
    assert FILE.at(second.env["SGLANG_LOG_LEVEL"].span) == (8, 3, "source_env.env")

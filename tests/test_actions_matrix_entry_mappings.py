"""GitHub Actions `strategy.matrix` `exclude:`/`include:` entries whose values are mappings (a
matrix listing one mapping per configuration): an `exclude:` entry matches in part, each key it
writes down to the values (actions/runner's `MatrixFilter`), so `cfg: { tp: 4 }` leaves out
every combination whose `cfg` has `tp: 4`; an `include:` entry whose mapping equals a
combination's is added to it. Before: a mapping never matched, so an excluded combination was
checked (a finding SGLang never meets) and an include made a combination of its own. An
`include:` mapping matching only part of one (GitHub does not document what it does) leaves
the matrix unknown, and a list in an entry is not matched: said so."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("workflows/matrix_entry_mappings.yml")


def test_excluded_and_included_by_mappings() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 21, 168, "${{ matrix.mem }}"),
        ("SLM004", 32, 59, "${{ matrix.cfg.model }}"),
    ]
    assert "invalid float value: '0.9x'" in findings[0][4]  # the include's `mem`, on the 8B model
    assert "halff" not in " ".join(f[4] for f in findings)  # the 32B model is excluded
    assert (
        "the matrix's `include` entry gives `cfg` a mapping (line 29) that matches only part of a value "
        "of `cfg`: whether GitHub adds it there is not documented" in findings[1][4]
    )


def test_one_reading_of_the_kept_combinations() -> None:
    served, partial = extract_file(str(FILE.path), FILE.text).launches
    assert [w.text for w in served.args] == [
        "--model-path",
        "Qwen/Qwen3-8B",
        "--tp-size",
        "1",
        "--dtype",
        "auto",
        "--mem-fraction-static",
        "0.9x",
    ]
    assert served.alternative is None  # both runners give the same values
    assert partial.args[1].text is None


def test_a_list_in_an_entry_is_not_matched() -> None:
    text = (
        "on: push\njobs:\n  serve:\n    runs-on: gpu\n    strategy:\n      matrix:\n"
        "        tp: [1, 2]\n        exclude:\n          - tp: [2]\n"
        "    steps:\n      - run: python3 -m sglang.launch_server --model-path m --tp-size ${{ matrix.tp }}\n"
    )
    (launch,) = extract_file(".github/workflows/t.yml", text).launches
    assert launch.args[-1].text is None
    assert "the matrix's `exclude` entry gives `tp` a list (line 9), which speclint does not match" in (
        launch.args[-1].dynamic_reason or ""
    )


def test_an_include_may_add_a_list() -> None:
    text = (
        "on: push\njobs:\n  serve:\n    runs-on: gpu\n    strategy:\n      matrix:\n"
        "        tp: [1, 2]\n        include:\n          - tp: 2\n            extra: [a, b]\n"
        "    steps:\n      - run: python3 -m sglang.launch_server --model-path m --tp-size ${{ matrix.tp }}\n"
    )
    launches = extract_file(".github/workflows/t.yml", text).launches
    assert [launch.args[-1].text for launch in launches] == ["1", "2"]

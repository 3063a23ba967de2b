"""A notebook that pins SGLang with `!pip install "sglang[all]==X"` (or `%pip install`) in a
cell: the launches of later cells that name no image are checked against X, as after `pip
install` in a shell script; one before the install, and a range (`sglang>=0.5`), are not
(before, every launch of the notebook was checked against the newest release)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("notebooks/pip_pin.ipynb")


def test_launches_after_the_install_run_the_pinned_release() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 18, 110, "--tp-sise"),
        ("FLG001", 36, 66, "--mem-fraction-statics"),
        ("FLG001", 55, 53, "tp_sise"),
    ]
    assert "is not an SGLang 0.5.23 flag" in findings[0][4]
    assert "is not an SGLang 0.5.4 flag" in findings[1][4]
    assert "is not a ServerArgs field of SGLang 0.5.4" in findings[2][4]


def test_the_pin_points_at_the_requirement() -> None:
    launches = extract_file(str(FILE.path), FILE.text).launches
    before, shell, engine = sorted(launches, key=lambda launch: (launch.span.line, launch.span.column))
    assert before.image is None
    assert shell.image == engine.image == "sglang[all]==0.5.4"
    assert shell.image_span is not None
    assert FILE.at(shell.image_span)[:3] == (27, 34, "sglang[all]==0.5.4")

"""Python arms that end the program (`else: sys.exit(1)`, `raise SystemExit(...)`) never reach
the launch after them, so the launch is read once per arm that goes on; an `elif` whose own
arms leave one value is said to be the `elif`'s ("the `if` branch at line N is not taken"),
never an empty "when"."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

EXITS = FixtureFile("python/exit_arms.py")
ELIF = FixtureFile("python/elif_without_else.py")


def _conditions(fixture: FixtureFile) -> list[tuple[str, ...]]:
    launches = extract_file(str(fixture.path), fixture.text).launches
    return [
        tuple(c.description for c in launch.alternative.conditions) if launch.alternative else ()
        for launch in launches
    ]


def test_an_arm_that_exits_is_not_an_alternative() -> None:
    findings = EXITS.findings()
    assert "SLM004" not in {f[0] for f in findings}  # (was: `model` assigned differently)
    (invalid,) = [f for f in findings if f[0] == "FLG006"]
    assert invalid[1:4] == (21, 111, "fa9")
    assert _conditions(EXITS) == [
        ("the `if` branch at line 9 runs",),
        ("the `if` branch at line 9 is not taken",),
    ]
    models = [launch.args[1].text for launch in extract_file(str(EXITS.path), EXITS.text).launches]
    assert models == ["Qwen/Qwen3-8B", "Qwen/Qwen3-235B-A22B"]


def test_an_elif_without_else_names_each_arm() -> None:
    assert _conditions(ELIF) == [
        ("the `if` branch at line 8 runs",),
        ("the `elif` branch at line 10 runs",),
        ("no branch of the `if` at line 8 runs",),
    ]
    findings = ELIF.findings()
    assert [f[:4] for f in findings if f[0] == "FLG005"] == [("FLG005", 12, 95, "two")]

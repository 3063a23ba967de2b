"""What a tox environment, a nox session or a script's inline metadata installs pins the
release its launches run: tox's `deps = sglang[all]==0.5.4`, nox's
`session.install("sglang[all]==0.5.6")` before the session's `session.run(...)`, PEP 723's
`# /// script` `dependencies = ["sglang[all]==0.5.3"]`. Before: each was checked against the
newest release (0.5.23), as if nothing pinned it."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

TOX = FixtureFile("commands/tox-deps-pin/tox.ini")
NOX = FixtureFile("python/nox_install/noxfile.py")
SCRIPT = FixtureFile("python/script_metadata_pin.py")


def _findings(fixture: FixtureFile) -> list[tuple[str, int, int, str, str]]:
    """Its findings but FLG003's (`--tp` for `--tp-size`) and SLM004's (`sys.argv[1]`)."""
    return [finding for finding in fixture.findings() if finding[0] not in ("FLG003", "SLM004")]


def test_tox_deps_pin_the_release_of_each_environment_that_installs_it() -> None:
    (finding,) = _findings(TOX)
    assert finding[:4] == ("FLG009", 9, 87, "--cuda-graph-max-bs-decode")
    assert "does not exist yet in SGLang 0.5.4 (it exists in 0.5.14 and later)" in finding[4]
    pinned, ranged = lint_text(TOX.text, str(TOX.path)).contexts
    assert pinned.version.reason == "from the package pin sglang[all]==0.5.4 (line 7)"
    assert TOX.at(pinned.launch.image_span) == (7, 5, "sglang[all]==0.5.4")
    assert ranged.version.version == "0.5.23"  # `sglang>=0.5.10` pins nothing


def test_a_nox_install_before_the_run_pins_the_session_s_launch() -> None:
    findings = _findings(NOX)
    assert [f[:4] for f in findings] == [
        ("FLG006", 11, 31, "lmp"),
        ("FLG002", 17, 91, "--cuda-graph-max-bs"),  # installed after its run: 0.5.23's
    ]
    assert "choose from 'lpm', 'random', 'fcfs', 'dfs-weight', 'lof', 'priority')" in findings[0][4]
    assert not [f for f in NOX.findings() if f[0] == "FLG008"]  # `--disable-cuda-graph`: fine in 0.5.6
    first, second = lint_text(NOX.text, str(NOX.path)).contexts
    assert first.version.reason == "from the package pin sglang[all]==0.5.6 (line 6)"
    assert NOX.at(first.launch.image_span) == (6, 22, "sglang[all]==0.5.6")
    assert second.version.version == "0.5.23"


def test_pep_723_script_dependencies_pin_the_release() -> None:
    (finding,) = _findings(SCRIPT)
    assert finding[:4] == ("FLG009", 18, 6, "--cuda-graph-max-bs-decode")
    assert "does not exist yet in SGLang 0.5.3" in finding[4]
    (ctx,) = lint_text(SCRIPT.text, str(SCRIPT.path)).contexts
    assert SCRIPT.at(ctx.launch.image_span) == (4, 8, "sglang[all]==0.5.3")


def test_a_range_in_script_metadata_pins_nothing() -> None:
    text = SCRIPT.text.replace("sglang[all]==0.5.3", "sglang[all]>=0.5.3")
    (ctx,) = lint_text(text, str(SCRIPT.path)).contexts
    assert ctx.version.version == "0.5.23" and ctx.launch.image is None


def test_with_sglang_version_the_pin_is_named_as_what_the_session_was_written_for() -> None:
    from speclint.settings.options import LintOptions

    found = lint_text(NOX.text, str(NOX.path), LintOptions(sglang_version="0.5.23")).findings
    drift = [f for f in found if f.code == "VER002"]
    assert [(f.span.line, f.span.column) for f in drift] == [(7, 5)]
    assert "changed between SGLang 0.5.6 (the package pin) and 0.5.23: " in drift[0].message

"""Findings on a launch made by one of SGLang's test fixture bases (`class TestX(EagleServerBase)`,
read by `frontends.python.fixtures` with the base's source of the newest release that has it).

Each finding says which release's base was read. Where the release the launch is checked
against ships another version of that fixture module, or none (or its wheel was not read),
the launch read is not the one that release's base makes: its errors become warnings that
say "unverified for SGLang X" (`unread_release.capped`). Words of the base's own text point at the base's name in the
file: no `--fix` edit lands there (it would rewrite the class name, not SGLang's source).
"""

from __future__ import annotations

from speclint.core.findings import Note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


def fixture_notes(ctx: LaunchContext) -> tuple[str, str | None]:
    """Which release's base the launch was read from, and, when the checked release's is not
    the same one, why the launch is unverified for it."""
    from speclint.sglang.fixtures import FixtureSource, has_fixture, newest_fixture, same_fixture

    use = ctx.launch.fixture
    assert use is not None
    checked = ctx.version.version
    source = newest_fixture(use.module, use.name) or FixtureSource(use.release, use.module, "")
    same = same_fixture(source, checked, use.name) if checked != use.release else True
    read = (
        f"launch read from {use.name} of SGLang {use.release} ({use.module}), which this class derives from"
    )
    if same:
        return read, None
    if same is None:
        differs = "its wheel was not read for test fixtures"
    elif has_fixture(checked, use.module, use.name):
        differs = f"its {use.module} differs from {use.release}'s"
    else:
        differs = f"it has no {use.module}.{use.name}"
    return read, f"unverified for SGLang {checked}: {differs}"


def fixture_findings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """Each finding with the notes of `fixture_notes` (errors as warnings when unverified),
    and no edit on the base's name."""
    from speclint.core.findings import Edit
    from speclint.rules.unread_release import capped

    use = ctx.launch.fixture
    assert use is not None
    read, unverified = fixture_notes(ctx)
    for finding in found:
        edits = finding.fix if isinstance(finding.fix, tuple) else (finding.fix,) if finding.fix else ()
        if any(isinstance(edit, Edit) and use.span.contains(edit.span) for edit in edits):
            finding.fix = None  # the word is SGLang's, not the file's
        finding.notes.append(Note(use.span, read))
        if unverified is not None:
            capped(finding, unverified, use.span)
    return found

"""Findings on a launch of a release speclint has not read (an image tag, a pin or
`--sglang-version` naming one that is not bundled, `0.5.0rc0`, `0.9.0`): it is checked against
the closest release that was read, so what each finding says of SGLang was read for that one,
not for the release that runs. Each is then at most a warning and says so ("unverified for
SGLang X"), as every fact not read for the release checked is. Which release was named and not read is
set where the release is chosen (`VersionChoice.unread`, `flags.versions.choose_version`)."""

from __future__ import annotations

from speclint.core.findings import Note, Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.core.spans import Span
    from speclint.rules.base import LaunchContext


def at_most_warnings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """`found`, each error made a warning that says which release it was read for."""
    named = ctx.version.unread
    if named is None:
        return found
    why = f"unverified for {named}, which speclint has not read: checked against SGLang {ctx.version.version}"
    for finding in found:
        capped(finding, why)
    return found


def capped(finding: Finding, why: str, at: Span | None = None) -> None:
    """`finding` at most a warning because what it says of SGLang was not read for the release
    that runs, saying `why` ("unverified for SGLang X: ..."). The one mechanism of every launch
    whose reading does not stand for the checked release: a release not read
    (`at_most_warnings`), or a launch form read from another release's source, the benchmark
    script or test helper (`bench_launch`), launch class (`class_launch`) or fixture base
    (`fixture_launch`). With `at`, the word that form was read from, `why` is a note there on
    every finding (warnings and infos rest on the same reading); without, it ends the message of
    every finding, errors made warnings, warnings and infos alike (the whole release: nothing in
    the file to point at, and what each says SGLang does was read for another release). A rule's
    own facts not read (`Rule.rests_on`) are said by `Rule.findings`, per rule."""
    if at is not None:
        finding.notes.append(Note(at, why))
    elif why not in finding.message:
        finding.message += f" ({why})"
    if finding.severity > Severity.WARNING:
        finding.severity = Severity.WARNING

"""Findings on a launch of a release speclint has not read (an image tag, a pin or
`--sglang-version` naming one that is not bundled, `0.5.0rc0`, `0.9.0`): it is checked against
the closest release that was read, so what each finding says of SGLang was read for that one,
not for the release that runs. Each is then at most a warning and says so ("unverified for
SGLang X"), as every fact not read for the release checked is."""

from __future__ import annotations

from speclint.core.findings import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

MARK = ", unverified for "
"""What the version choice's reason says for a release not read (`flags.versions._not_bundled`,
the SGLang an ai-dynamo release pins when that is not read)."""


def named_release(reason: str) -> str | None:
    """The release the launch names that speclint has not read, from the version choice's
    reason (None when the release checked is the one named, or none is named)."""
    if MARK not in reason:
        return None
    named = reason.rsplit(MARK, 1)[1].split(" (line ", 1)[0].split(" at ", 1)[0]
    return named if named.startswith("the ") else f"SGLang {named}"


def at_most_warnings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """`found`, each error made a warning that says which release it was read for."""
    named = named_release(ctx.version.reason)
    if named is None:
        return found
    for finding in found:
        if finding.severity > Severity.WARNING:
            finding.severity = Severity.WARNING
            finding.message += (
                f" (unverified for {named}, which speclint has not read: checked against "
                f"SGLang {ctx.version.version})"
            )
    return found

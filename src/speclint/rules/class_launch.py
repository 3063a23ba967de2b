"""Findings on a launch by one of SGLang's launch classes (`sglang.Runtime(...)`,
`HttpServerEngineAdapter(...)`, `speclint.sglang.launch_classes`) checked against a release
whose classes were not read: its keywords were read as the newest reading takes them (which it
keeps, which reach ServerArgs), so errors become warnings that say "unverified for SGLang X" (`unread_release.capped`).
(A release read that has no such class: FLG009 flag-not-in-version says the launch fails.) Every release the flag schema bundles is read (tests/test_launch_class_data.py).
"""

from __future__ import annotations

from speclint.frontends.recognise import CLASS_ENTRIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


def class_unverified(name: str, version: str) -> str | None:
    """Why a launch by class `name` checked against `version` is unverified; None when not."""
    from speclint.sglang.launch_classes import newest_class, read_versions

    if version in read_versions():
        return None  # read: its class, or none (flag-not-in-version says the launch fails)
    newest = newest_class(name)
    read_as = f"; keywords read as SGLang {newest.release}'s {name} takes them" if newest else ""
    return f"unverified for SGLang {version}: its {name} was not read{read_as}"


def class_findings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """Each finding with the note of `class_unverified` (errors as warnings) when it applies."""
    unverified = class_unverified(CLASS_ENTRIES[ctx.launch.entry], ctx.version.version)
    if unverified is None:
        return found
    from speclint.rules.unread_release import capped

    for finding in found:
        capped(finding, unverified, ctx.launch.span)
    return found


def class_notes(ctx: LaunchContext) -> tuple[str, ...]:
    """For `explain`: what the checked release's class keeps itself, and whether that is
    unverified."""
    from speclint.sglang.launch_classes import class_of, newest_class

    entry, version = ctx.launch.entry, ctx.version.version
    name = CLASS_ENTRIES[entry]
    reading = class_of(version, name) or newest_class(name)
    if reading is None:
        return ()
    kept = ", ".join(f"`{param}`" for param in reading.consumed) or "none of its parameters"
    passed = ", ".join(f"`{param}`" for param, _ in reading.forwarded)
    read = (
        f"{entry} of SGLang {reading.release} ({reading.path[-1]}) keeps {kept} itself and "
        f"passes its other keywords to ServerArgs" + (f", {passed} among them" if passed else "")
    )
    unverified = class_unverified(name, version)
    return (read,) if unverified is None else (read, unverified)

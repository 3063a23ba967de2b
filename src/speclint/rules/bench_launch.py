"""Findings on a launch by one of SGLang's benchmark scripts (`python -m sglang.bench_one_batch`
& co., `speclint.sglang.bench`) checked against a release whose scripts were not read: the
script's own options were read as the closest older release read parses them, so errors
become warnings that say "unverified for SGLang X" (`unread_release.capped`). (A release read that lacks the module:
FLG009 flag-not-in-version says the launch fails.) Every release the flag schema bundles is
read (tests/test_bench_data.py).
"""

from __future__ import annotations

from speclint.core.findings import Note
from speclint.frontends.recognise import BENCH_ENTRIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


def bench_findings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """Each finding with the note of `speclint.sglang.bench.unverified` (errors as warnings)
    when it applies, and, for the command of one of SGLang's test helpers, `helper_notes`."""
    from speclint.rules.unread_release import capped
    from speclint.sglang.bench import unverified

    why = unverified(ctx.version.version, BENCH_ENTRIES[ctx.launch.entry])
    notes = helper_notes(ctx)
    if notes:  # the helper's own `--input 128` (an abbreviation) is SGLang's to write, not the file's
        at = (ctx.launch.span.line, ctx.launch.span.column)
        found = [f for f in found if f.code != "FLG003" or (f.span.line, f.span.column) != at]
    unread = [why] if why is not None else []
    if len(notes) > 1:
        unread.append(notes[1])
    for finding in found:
        finding.notes += [Note(ctx.launch.span, note) for note in notes[:1]]
        for why in unread:
            capped(finding, why, ctx.launch.span)
    return found


def helper_notes(ctx: LaunchContext) -> tuple[str, ...]:
    """For the command a test helper of SGLang's builds (`run_bench_one_batch(model, [...])`,
    `Launch.helper`): which release's helper was read, and, when the checked release's helper
    starts another command (`sglang.bench_one_batch` before 0.5.15) or none, or its wheel was
    not read, that the launch is unverified for it (FLG009 says nothing: the helper, not the
    file, names the module)."""
    from speclint.sglang.helpers import reading, same_entry

    if ctx.launch.helper is None:
        return ()
    name, release = ctx.launch.helper
    read = reading(release, name)
    runs = " ".join(read.entry()) if read is not None else name
    said = f"launch read from {name} of SGLang {release} (sglang/test/test_utils.py), which runs `{runs}`"
    version = ctx.version.version
    same = True if version == release else same_entry(version, name, release)
    if same:
        return (said,)
    if same is None:
        differs = "its wheel was not read for test helpers"
    elif (other := reading(version, name)) is not None:
        differs = f"its {name} runs `{' '.join(other.entry())}`"
    else:
        differs = f"it has no {name}"
    return said, f"unverified for SGLang {version}: {differs}"


def bench_notes(ctx: LaunchContext) -> tuple[str, ...]:
    """For `explain`: which release's script parsed the words, its own options, and whether
    that is unverified."""
    from speclint.sglang.bench import reading_for, unverified

    module = BENCH_ENTRIES[ctx.launch.entry]
    version = ctx.version.version
    stands = reading_for(version, module)
    if stands is None:
        return ()
    release, reading = stands
    own = [entry["option_strings"][0] for entry in reading["options"]]
    runs = f" (runs {reading['path'][-1]})" if len(reading["path"]) > 1 else ""
    read = (
        f"{module} of SGLang {release}{runs} parses SGLang's flags and {len(own)} options of its "
        f"own ({', '.join(f'`{o}`' for o in own[:6])}{', ...' if len(own) > 6 else ''}), which "
        "never reach ServerArgs"
    )
    why = unverified(version, module)
    return ((read,) if why is None else (read, why)) + helper_notes(ctx)

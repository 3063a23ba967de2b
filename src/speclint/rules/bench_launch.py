"""Findings on a launch by one of SGLang's benchmark scripts (`python -m sglang.bench_one_batch`
& co., `speclint.sglang.bench`) checked against a release whose scripts were not read: the
script's own options were read as the closest older release read parses them, so errors
become warnings that say "unverified for SGLang X". (A release read that lacks the module:
FLG009 flag-not-in-version says the launch fails.) Every release the flag schema bundles is
read (tests/test_bench_data.py).
"""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.frontends.recognise import BENCH_ENTRIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


def bench_findings(ctx: LaunchContext, found: list[Finding]) -> list[Finding]:
    """Each finding with the note of `speclint.sglang.bench.unverified` (errors as warnings)
    when it applies."""
    from speclint.sglang.bench import unverified

    why = unverified(ctx.version.version, BENCH_ENTRIES[ctx.launch.entry])
    if why is None:
        return found
    for finding in found:
        finding.notes.append(Note(ctx.launch.span, why))
        if finding.severity == Severity.ERROR:
            finding.severity = Severity.WARNING
    return found


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
    return (read,) if why is None else (read, why)

"""`python -m sglang.X` where X is not an entry speclint reads as a launch.

Which of SGLang's modules run as scripts, and which of those parse SGLang's server flags, come
from each release's own source (`speclint.sglang.entry_modules`). A module that parses the
server flags (`python3 -m sglang.compile_deep_gemm --model deepseek-ai/DeepSeek-V3 --tp 8`)
but is not read as a launch is said unread at the module; so is a module no release speclint
read has as a script (`sglang.bench_latency`, renamed before 0.4.0): speclint cannot know
what it does. A script of SGLang's that takes its own options only (`sglang.bench_serving`,
`sglang.check_env`) is no server launch: nothing is said.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.diagnostics import Diagnostic
    from speclint.core.spans import Span


def _releases_text(found: list[str], every: tuple[str, ...]) -> str:
    if found == list(every):
        return f"every SGLang release speclint read ({every[0]} to {every[-1]})"
    if found == list(every[every.index(found[0]) : every.index(found[-1]) + 1]):
        return f"SGLang {found[0]} to {found[-1]}" if len(found) > 1 else f"SGLang {found[0]}"
    return f"SGLang {', '.join(found[:3])}" + (f" and {len(found) - 3} more" if len(found) > 3 else "")


def unread_module(module: str, span: Span) -> Diagnostic | None:
    """The note for `python -m MODULE` (a module under `sglang.` that no front-end reads as a
    launch), or None when it is a script of SGLang's that does not take the server flags."""
    from speclint.core.diagnostics import Diagnostic
    from speclint.sglang.entry_modules import releases, script_releases, server_flag_releases

    every = releases()
    server = server_flag_releases(module)
    if server:
        why = (
            f"`{module}` parses SGLang's server flags ({_releases_text(server, every)}, as their "
            "source shows), but speclint does not read it as a launch"
        )
    elif script_releases(module):
        return None
    else:
        why = (
            f"no SGLang release speclint read ({every[0]} to {every[-1]}) runs `{module}` as a "
            "script, so what it does with its arguments is not known"
        )
    return Diagnostic(
        "no-launch-found",
        f"speclint did not read this command: {why}; nothing in it was checked",
        span,
    )

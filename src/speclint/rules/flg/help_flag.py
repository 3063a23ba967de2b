"""FLG012 help-flag: `-h`/`--help` in a launch prints SGLang's help and exits 0."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang.flags.argparse_stop import argparse_stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class HelpFlag(Rule):
    """## What it does
    Finds launches where argparse reaches `-h` or `--help` (or an abbreviation of `--help`)
    before any error: SGLang prints its help and exits with status 0, and no server starts.
    No other rule checks such a launch: nothing after parsing happens. (A README showing
    `--help` is deliberate, so the rule is opt-in.)

    ## Why it matters
    In a documentation block, `--help` is how readers list the flags, which is fine. In a
    launch script or a service definition it means the server never starts while the script
    exits 0, so a supervisor sees a clean exit.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --help
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct
    ```
    """

    code = "FLG012"
    gates = ("help",)
    stage = "help"
    opt_in = True
    name = "help-flag"
    severity = Severity.INFO
    summary = "`-h`/`--help` in a launch: SGLang prints its help and exits 0, no server starts."
    invalid = (
        Example(
            "python -m sglang.launch_server --help",
            at="1:32",
            says="`--help` prints SGLang's help and exits 0",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m -h --not-a-flag",
            at="1:47",
            says="`-h` prints SGLang's help and exits 0",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --port 30000",
        "python -m sglang.launch_server --model-path m --tp-size x --help",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        stop = argparse_stop(ctx.parsed)
        if stop is not None and stop.kind == "help":
            yield self.report(
                ctx.path,
                stop.span,
                f"{stop.message}: no server starts, and no other check applies to this launch",
                "drop `--help` to launch the server",
            )

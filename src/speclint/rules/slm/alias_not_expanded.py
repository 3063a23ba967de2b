"""SLM006 alias-not-expanded: a bash script calls an alias bash does not expand there."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import FileContext


class AliasNotExpanded(Rule):
    """## What it does
    Finds a call of an alias (`alias serve='python3 -m sglang.launch_server --port 30000'`
    then `serve --model-path ...`) in a bash script that never turns alias expansion on.
    speclint still reads and checks the launch the call spells out.

    ## Why it matters
    bash expands aliases only in interactive shells: a script run by bash (a `#!/bin/bash`
    shebang, or `bash run.sh`) runs a command named `serve`, which is not found, unless it
    sets `shopt -s expand_aliases` before the alias is used (bash(1), ALIASES). The launch
    works when the lines are typed into a terminal and fails in the script. `sh` (POSIX
    shells) and bash in POSIX mode expand aliases, so a `#!/bin/sh` script is not reported.

    ## Example
    ```bash
    #!/bin/bash
    alias serve='python3 -m sglang.launch_server --port 30000'
    serve --model-path /models/llama --tp-size 8
    ```

    ## Use instead
    ```bash
    #!/bin/bash
    serve() { python3 -m sglang.launch_server --port 30000 "$@"; }
    serve --model-path /models/llama --tp-size 8
    ```
    """

    code = "SLM006"
    gates = ("diagnostic:alias-not-expanded",)
    name = "alias-not-expanded"
    severity = Severity.WARNING
    summary = "A bash script calls an alias without `shopt -s expand_aliases`: bash runs no launch there."
    invalid = (
        Example(
            "#!/bin/bash\nalias serve='python3 -m sglang.launch_server --port 30000'\n"
            "serve --model-path m --tp-size 8\n",
            at="3:1",
            says="bash does not expand the alias `serve` (defined at line 2) in a script",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "#!/bin/bash\nshopt -s expand_aliases\n"
        "alias serve='python3 -m sglang.launch_server --port 30000'\nserve --model-path m\n",
        "#!/bin/sh\nalias serve='python3 -m sglang.launch_server --port 30000'\nserve --model-path m\n",
    )

    def check_file(self, ctx: FileContext) -> Iterator[Finding]:
        for diagnostic in ctx.diagnostics:
            if diagnostic.kind == "alias-not-expanded":
                yield self.report(
                    ctx.path,
                    diagnostic.span,
                    diagnostic.message,
                    "define a function instead (`serve() { python3 -m sglang.launch_server ... "
                    '"$@"; }`), or put `shopt -s expand_aliases` before the alias is used',
                )

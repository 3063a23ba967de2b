"""FLG020 config-option-unsupported: a --config file key SGLang's merger refuses."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class ConfigOptionUnsupported(Rule):
    """## What it does
    Finds a key in the file a launch names with `--config FILE.yaml` that the release's
    `ConfigArgumentMerger` refuses before anything is parsed: from 0.5.8, keys naming flags
    whose argparse action is neither `store` nor `store_true` (deprecated switches,
    `BooleanOptionalAction`, custom actions; 0.5.23 also accepts any action taking one value).
    Releases before 0.5.8 do not check. What each release does is read from its source by
    `tools/gen_config_merge.py`.

    ## Why it matters
    SGLang stops with `ValueError: Unsupported config option '<key>' with action '<Action>'`
    at the first such key, before the server starts; the same flag works on the command line.

    ## Example
    ```bash
    # SGLang 0.5.23
    python -m sglang.launch_server --config fixtures/config/unsupported_key.yaml
    ```

    ## Use instead
    ```bash
    # SGLang 0.5.23
    python -m sglang.launch_server --config fixtures/config/attn_dp.yaml
    ```
    """

    code = "FLG020"
    gates = ("config-refusal",)
    stage = "parse"
    name = "config-option-unsupported"
    severity = Severity.ERROR
    summary = "A --config file key whose flag SGLang's config merger does not support: the launch stops."
    invalid = (
        Example(
            "python -m sglang.launch_server --config fixtures/config/unsupported_key.yaml",
            "0.5.23",
            at="4:1",
            says="SGLang 0.5.23 stops with ValueError",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "python -m sglang.launch_server --config fixtures/config/unsupported_key.yaml", "0.5.6.post2"
        ),
        Example("python -m sglang.launch_server --config fixtures/config/attn_dp.yaml", "0.5.23"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        refused = ctx.config_refusal
        if refused is None:
            return
        entry, message = refused
        yield self.report(
            ctx.path,
            entry.key_span,
            f"SGLang {ctx.version.version} stops with "
            f"ValueError: {message} (its --config merger does not take this flag "
            "from a file)",
            f"pass `--{entry.key}` on the command line instead of in the config file",
            [Note(ctx.launch.span, "the launch that reads the file")]
            if entry.key_span.file is not None
            else [],
        )

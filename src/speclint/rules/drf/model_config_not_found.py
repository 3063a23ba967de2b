"""DRF011 model-config-not-found: the drafter checks had no config.json to read."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import unread_model_configs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class ModelConfigNotFound(Rule):
    """## What it does
Says once per speculative launch (EAGLE, EAGLE3, NEXTN) which model configs speclint could
not find or read, and how to provide them. Non-speculative launches are not reported.

## Why it matters
The drafter checks (DRF001-DRF010) and the target-dependent speculative checks read the
target's and the drafter's config.json, and the drafter's safetensors header. speclint
never downloads: it looks in local folders (absolute, relative to the working directory,
`~` expanded), in the Hugging Face cache (`$HF_HUB_CACHE`, else `$HF_HOME/hub`, else
`~/.cache/huggingface/hub`, honouring `--revision` and `--speculative-draft-model-revision`),
and in the mappings you give: `--model-config NAME=PATH` (repeatable) or a
`[tool.speclint.models]` table in the nearest pyproject.toml above the linted file:

```toml
[tool.speclint.models]
"/models/Kimi-K2.5" = "configs/kimi-k2.5"
"/models/kimi-eagle3" = "configs/kimi-eagle3"
```

Without the configs those checks stay silent; this finding says so instead of passing
quietly.

## Example
```bash
python -m sglang.launch_server --model-path /models/Kimi-K2.5 \\
  --speculative-algorithm EAGLE --speculative-draft-model-path /models/kimi-eagle3
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5 \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5
```
"""

    code = "DRF011"
    opt_in = True
    name = "model-config-not-found"
    severity = Severity.INFO
    summary = "A speculative launch's model config.json was not found: drafter checks were skipped."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path /no/such/target"
            " --speculative-algorithm EAGLE3 --speculative-draft-model-path /no/such/draft",
            at="1:45",
            says="did not run for the target '/no/such/target' and the drafter",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
            " --speculative-algorithm EAGLE3 --speculative-draft-model-path /no/such/draft",
            at="1:145",
            says="the drafter checks did not run for the drafter '/no/such/draft'",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path /no/such/target",
        "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
        " --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        missing = unread_model_configs(ctx)
        if not missing:
            return
        names = " and ".join(f"the {role} {ref!r}" for role, ref, _, _ in missing)
        details = "; ".join(f"{role}: {why}" for role, _, _, why in missing)
        message = f"the drafter checks did not run for {names}: {details}"
        first = missing[0]
        hint = (
            f"pass `--model-config {first[1]}=FOLDER` (a folder holding config.json), or add "
            f'"{first[1]}" = "FOLDER" under [tool.speclint.models] in pyproject.toml'
        )
        notes = [
            Note(ctx.span_of(dest), f"the {role}, not found on disk") for role, _, dest, _ in missing[1:]
        ]
        yield self.report(ctx.path, ctx.span_of(first[2]), message, hint, notes)

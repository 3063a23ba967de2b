"""DRF012 eagle3-name-with-eagle: a drafter not on disk whose name says EAGLE-3, served with EAGLE."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_TARGET = "python -m sglang.launch_server --model-path /no/such/kimi-k2.6 --max-running-requests 64"


class Eagle3NameWithEagle(Rule):
    """## What it does
Finds launches served with `--speculative-algorithm EAGLE` (or its alias `NEXTN`) whose
drafter's config.json is not on disk but whose path or repo name says EAGLE-3 (`eagle3`,
`Eagle3`, `EAGLE-3`, `eagle-3`, `eagle_3` in its last two path components, e.g.
`org/Kimi-K2.6-eagle3-mla`). The kind is inferred from the name only: when the drafter's
config.json is found (a local folder, the Hugging Face cache, `--model-config NAME=PATH` or
`[tool.speclint.models]`), the config decides and this rule stays silent
(`eagle3-drafter-needs-eagle3`, DRF001, reports a confirmed mismatch).

## Why it matters
Most launches name Hugging Face repos whose config.json is not on the machine that lints.
If the drafter is an EAGLE-3 head, serving it with EAGLE is the mistake DRF001 describes:
SGLang captures the target's aux hidden states only for EAGLE3 (`is_eagle3()` in every
release read), the drafter runs on features it was not trained on, acceptance is about
zero, and SGLang says nothing. A warning, not an error: a name can lie.

## Example
```bash
python -m sglang.launch_server --model-path /no/such/kimi-k2.6 --max-running-requests 64 \\
  --speculative-algorithm EAGLE --speculative-draft-model-path org/Kimi-K2.6-eagle3-mla
```

## Use instead
```bash
# confirm with the drafter's config: speclint --model-config org/Kimi-K2.6-eagle3-mla=FOLDER
python -m sglang.launch_server --model-path /no/such/kimi-k2.6 --max-running-requests 64 \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path org/Kimi-K2.6-eagle3-mla
```
"""

    code = "DRF012"
    gates = ("speculative:EAGLE",)
    name = "eagle3-name-with-eagle"
    severity = Severity.WARNING
    summary = (
        "A drafter whose name says EAGLE-3 (config.json not on disk) served with EAGLE or "
        "NEXTN: aux hidden states would never be captured."
    )
    invalid = (
        Example(
            _TARGET
            + " --speculative-algorithm EAGLE --speculative-draft-model-path org/Kimi-K2.6-eagle3-mla",
            at="1:114",
            says="`--speculative-algorithm EAGLE` with a drafter whose name says EAGLE-3",
            fixed=NO_FIX,
        ),
        Example(
            _TARGET
            + " --speculative-algorithm NEXTN --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
            at="1:114",
            says="`--speculative-algorithm NEXTN` with a drafter whose name says EAGLE-3",
            fixed=NO_FIX,
        ),
        Example(
            _TARGET
            + " --speculative-algorithm EAGLE --speculative-draft-model-path /no/such/Llama-3.1-8B-EAGLE-3",
            at="1:114",
            says="`--speculative-algorithm EAGLE` with a drafter whose name says EAGLE-3",
            fixed=NO_FIX,
        ),
    )
    valid = (
        _TARGET + " --speculative-algorithm EAGLE3 --speculative-draft-model-path org/Kimi-K2.6-eagle3-mla",
        _TARGET
        + " --speculative-algorithm EAGLE --speculative-draft-model-path yuhuili/EAGLE-LLaMA3-Instruct-8B",
        # the config is on disk and says EAGLE-1/2: the config wins over the name
        _TARGET + " --speculative-algorithm EAGLE --speculative-draft-model-path "
        "fixtures/models/eagle3-named-eagle-config",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        if ctx.speculative_algorithm != "EAGLE" or ctx.resolved.rejection is not None:
            return
        draft = ctx.draft
        if draft is None or draft.reference is None or draft.config is not None:
            return  # no drafter named, or its config decides (DRF001)
        from speclint.sglang.checkpoints.drafter_names import eagle3_in_name

        said = eagle3_in_name(draft.reference)
        if said is None:
            return
        why = (
            f"its config.json cannot be read: {draft.problem}"
            if draft.problem
            else "its config.json is not on disk"
        )
        asked = ctx.written("speculative_algorithm")
        message = (
            f"`{asked}` with a drafter whose name says EAGLE-3 "
            f"({draft.reference!r}: `{said}`; inferred from the name, {why}): if it is an "
            "EAGLE-3 head, SGLang captures the target's aux hidden states only for EAGLE3, "
            "the drafter runs on features it was not trained on and acceptance is about "
            "zero, silently"
        )
        hint = (
            "write EAGLE3 if the drafter is EAGLE-3; to confirm, pass "
            f"`--model-config {draft.reference}=FOLDER` (a folder holding its config.json) or "
            "have it in the Hugging Face cache: the config, when found, always wins over the name"
        )
        notes = [
            Note(
                ctx.span_of("speculative_draft_model_path"), f"the drafter: its name says EAGLE-3 (`{said}`)"
            )
        ]
        yield self.report(ctx.path, ctx.span_of("speculative_algorithm"), message, hint, notes)

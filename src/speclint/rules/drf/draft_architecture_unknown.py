"""DRF010 draft-architecture-unknown: a drafter class the release cannot build."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.drafter import draft_launch, evidence_text
from speclint.sglang import MODELS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_KIMI = (
    "python -m sglang.launch_server --model-path fixtures/models/kimi-k2.5"
    " --speculative-algorithm EAGLE3"
    " --speculative-draft-model-path fixtures/models/eagle3-kimi-k2.5"
)
_LLAMA = (
    "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"
    " --speculative-algorithm EAGLE3 --max-running-requests 64"
    " --speculative-draft-model-path fixtures/models/"
)


class DraftArchitectureUnknown(Rule):
    """## What it does
Finds drafters whose `architectures[0]` the checked SGLang release does not register, and
(as a warning) EAGLE drafters that name a plain target class such as `LlamaForCausalLM`.

## Why it matters
SGLang builds the draft module from `architectures[0]` through its model registry: the
`EntryClass` of every module in `sglang/srt/models/` (`registry.py::import_model_classes`;
speclint carries the lists read from each bundled release's wheel by
`tools/gen_sglang_facts.py`). An unregistered class falls
back to the Transformers backend, which fails with `ValueError: Cannot find model module.
'<arch>' is not a registered model in the Transformers library ...` (reference B3, read in
0.5.23): the launch crashes. The EAGLE-3 draft classes are `LlamaForCausalLMEagle3`
(registered from 0.4.4.post2) and `Eagle3DeepseekV2ForCausalLM` (from 0.5.12), so a
Kimi-K2.5 EAGLE-3 drafter cannot run on 0.5.6.post2; `LlamaForCausalLMEagle` (EAGLE-2)
is registered from 0.4.1.post2. The check uses the exact registry of the checked release. Some published EAGLE drafters say `LlamaForCausalLM`:
SGLang then builds a full Llama model instead of the EAGLE head, which the weights
(`fc`, `d2t`) do not fit; what happens then was not verified, hence a warning.

## Example
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-unregistered-arch
```

## Use instead
```bash
python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct \\
  --speculative-algorithm EAGLE3 --max-running-requests 64 \\
  --speculative-draft-model-path fixtures/models/eagle3-llama-3.1-8b-instruct
```
"""

    code = "DRF010"
    gates = ("drafter",)
    name = "draft-architecture-unknown"
    severity = Severity.ERROR
    rests_on = (MODELS,)
    summary = "The drafter's architecture is not a class the SGLang release can build as a draft."
    invalid = (
        Example(
            _LLAMA + "eagle3-unregistered-arch",
            at="1:171",
            says="the drafter's architecture GptOssForCausalLMEagle3 is not registered",
            fixed=NO_FIX,
        ),
        Example(
            _KIMI,
            "0.5.6.post2",
            at="1:133",
            says="the drafter's architecture Eagle3DeepseekV2ForCausalLM is not registered",
            fixed=NO_FIX,
        ),
        Example(
            _LLAMA + "eagle3-llama-weights-only",
            at="1:171",
            says="the drafter is an EAGLE3 head",
            fixed=NO_FIX,
        ),
    )
    valid = (_KIMI, _LLAMA + "eagle3-llama-3.1-8b-instruct")

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        launch = draft_launch(ctx)
        arch = launch.draft.architecture if launch is not None else None
        if launch is None or arch is None:
            return
        release = ctx.release
        registered = release.registers(arch)
        if registered is None:  # the registry of this release was not read: say nothing false
            return
        if not registered:
            message = (
                f"the drafter's architecture {arch} is not registered in SGLang "
                f"{release.version} (its sglang/srt/models/ has no such EntryClass): it "
                "falls back to the Transformers backend, which cannot build it, and "
                "the launch fails while loading the drafter"
            )
            heads = release.eagle3_draft_classes
            hint = (
                f"use a drafter whose architectures[0] is one SGLang {release.version} "
                f"registers for EAGLE-3: {', '.join(heads)}"
                if launch.kind.kind == "EAGLE3" and heads
                else "use a drafter class this release registers, or a newer release"
            )
            yield self.report(ctx.path, ctx.span_of("speculative_draft_model_path"), message, hint)
            return
        if launch.kind.kind is None or "Eagle" in arch or not launch.kind.evidence:
            return
        wanted = "LlamaForCausalLMEagle3" if launch.kind.kind == "EAGLE3" else "LlamaForCausalLMEagle"
        message = (
            f"the drafter is an {launch.kind.kind} head ({evidence_text(launch.kind)}) but "
            f"its architecture is {arch}: SGLang builds a full {arch} for it instead of "
            "an EAGLE head (not verified further)"
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_draft_model_path"),
            message,
            f'set "architectures": ["{wanted}"] in the drafter\'s config.json'
            if arch.startswith("Llama")
            else "",
            severity=Severity.WARNING,
        )

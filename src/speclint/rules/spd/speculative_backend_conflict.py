"""SPD007 speculative-backend-conflict: topk > 1 on an attention backend or page size that cannot draft a tree."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.result import TREE_DRAFT_BACKEND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class SpeculativeBackendConflict(Rule):
    """## What it does
Finds tree drafting (`--speculative-eagle-topk` > 1) combined with an attention backend
or page size that SGLang refuses for it.

## Why it matters
SGLang raises during argument resolution:
- `trtllm_mha` (as `--attention-backend`, `--prefill-attention-backend` or
  `--decode-attention-backend`) with topk > 1: `trtllm_mha backend only supports topk = 1
  for speculative decoding.`
- `--page-size` > 1 with topk > 1 on a backend other than flashinfer, fa3 or triton
  (0.5.23, 0.5.14; 0.5.6.post2: flashinfer and fa3; NGRAM: flashinfer only).
Only backends given on the command line are checked: an auto-chosen backend depends on
the GPU.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8 \\
  --attention-backend trtllm_mha
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8 \\
  --attention-backend fa3
```
"""

    code = "SPD007"
    gates = ("rejection",)
    name = "speculative-backend-conflict"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "Tree drafting (topk > 1) on an attention backend / page size SGLang rejects."
    defers_to = ("SPD014",)  # NGRAM's own tree: its topk is the BFS breadth
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
            " --speculative-draft-model-path d --speculative-num-steps 3"
            " --speculative-eagle-topk 2 --speculative-num-draft-tokens 8"
            " --page-size 16 --attention-backend flashmla",
            at="1:231",
            says="speculative_eagle_topk > 1 with page_size > 1 is only supported on",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
        " --speculative-draft-model-path d --speculative-num-steps 3"
        " --speculative-eagle-topk 2 --speculative-num-draft-tokens 8"
        " --page-size 16 --attention-backend flashinfer",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if rejection is None or rejection.kind != TREE_DRAFT_BACKEND:
            return
        backend_fields = [
            f
            for f in (
                "attention_backend",
                "decode_attention_backend",
                "prefill_attention_backend",
                "page_size",
            )
            if ctx.config.given(f)
        ]
        target = backend_fields[0] if backend_fields else "speculative_eagle_topk"
        notes = []
        if ctx.config.given("speculative_eagle_topk"):
            notes.append(Note(ctx.span_of("speculative_eagle_topk"), "topk > 1 drafts a tree"))
        message = (
            f"SGLang {ctx.version.version} refuses this launch: {rejection.message}" + ctx.picked_backend()
        )
        yield self.report(
            ctx.path,
            ctx.span_of(target),
            message,
            f"use {ctx.set_to('speculative_eagle_topk', 1)}, or flashinfer/fa3/triton with that page size",
            notes,
            claims=(REJECTION,),
        )

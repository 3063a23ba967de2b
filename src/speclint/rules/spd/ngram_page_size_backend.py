"""SPD014 ngram-page-size-backend: NGRAM with --page-size > 1 outside flashinfer."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.result import TREE_DRAFT_BACKEND, Unknown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_NGRAM = "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM"


class NgramPageSizeBackend(Rule):
    """## What it does
Finds NGRAM speculative decoding with `--page-size` greater than 1 on an attention
backend other than flashinfer: the one given, or the one SGLang picks for the GPU
(`--gpu`; fa3 on Hopper, trtllm_mha on Blackwell).

## Why it matters
NGRAM always drafts a tree: `_handle_ngram` sets topk to
`--speculative-ngram-max-bfs-breadth` (10 by default) whatever `--speculative-eagle-topk`
says, then raises `ValueError: speculative_eagle_topk(10) > 1 with page_size(32) > 1 is
unstable and produces incorrect results for paged attention backends. This combination is
only supported for the 'flashinfer' backend.` Without `--gpu` the backend SGLang picks is
not known, so the finding is a warning.

## Example
```bash
python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM \\
  --max-running-requests 64 --page-size 32 --attention-backend fa3
```

## Use instead
```bash
python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM \\
  --max-running-requests 64 --page-size 32 --attention-backend flashinfer
```
"""

    code = "SPD014"
    gates = ("algorithm:NGRAM",)
    name = "ngram-page-size-backend"
    severity = Severity.ERROR
    summary = "NGRAM with --page-size > 1 on an attention backend other than flashinfer."
    rests_on = (RESOLUTION,)
    invalid = (
        Example(
            _NGRAM + " --page-size 32 --attention-backend fa3",
            at="1:89",
            says="speculative_eagle_topk(10) > 1 with page_size(32) > 1 is unstable",
            fixed=NO_FIX,
        ),
        Example(
            _NGRAM + " --page-size 64",
            at="1:89",
            says="refuses topk > 1 with page size 64 on every attention backend but",
            fixed=NO_FIX,
        ),
    )
    valid = (
        _NGRAM + " --page-size 32 --attention-backend flashinfer",
        _NGRAM + " --page-size 1",
        _NGRAM + " --page-size 32 --attention-backend fa3 --speculative-ngram-max-bfs-breadth 1",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        resolution = ctx.resolution
        if resolution is None or ctx.config.uncertain:
            return
        algorithm = ctx.config.value("speculative_algorithm")
        if not isinstance(algorithm, str) or algorithm.upper() != "NGRAM":
            return
        rejection = resolution.rejection
        # the page size refused is the one given, or one SGLang set for the backend
        # (trtllm_mla's 64 on Blackwell): then the backend given, else NGRAM itself
        page_kept = rejection is None or "page_size" in rejection.fields
        span = ctx.span_of(
            "page_size"
            if page_kept and ctx.config.given("page_size")
            else "attention_backend"
            if ctx.config.given("attention_backend")
            else "speculative_algorithm"
        )
        fix = f"use {ctx.set_to('attention_backend', 'flashinfer')}, or " + (
            ctx.set_to("page_size", 1)
            if page_kept
            else f"{ctx.set_to('speculative_ngram_max_bfs_breadth', 1)} (no draft tree; SGLang "
            "sets this page size for the attention backend, so --page-size 1 would not hold)"
        )
        if rejection is not None:
            if rejection.kind == TREE_DRAFT_BACKEND:
                yield self.report(
                    ctx.path,
                    span,
                    f"SGLang {ctx.version.version} refuses this "
                    f"launch: {rejection.message}{ctx.picked_backend()}",
                    fix,
                    claims=(REJECTION,),
                )
            return
        page = ctx.config.value("page_size")
        topk = resolution.effective.get("speculative_eagle_topk")
        backend = ctx.config.value("attention_backend")
        chosen = resolution.effective.get("attention_backend")
        if not (isinstance(page, int) and page > 1 and isinstance(topk, int) and topk > 1):
            return
        breadth = ctx.set_to("speculative_ngram_max_bfs_breadth", topk)
        resolved_page = resolution.effective.get("page_size")
        if isinstance(backend, str) and backend != "flashinfer" and isinstance(resolved_page, Unknown):
            # a backend given whose page size resolution speclint has not read (aiter's on
            # ROCm, fa4's, intel_xpu's): refused unless SGLang sets page size 1 for it
            yield self.report(
                ctx.path,
                span,
                f"NGRAM drafts a tree (topk = {breadth}) and SGLang refuses topk > 1 with page "
                f"size {page} on every attention backend but flashinfer, so with "
                f"{ctx.set_to('attention_backend', backend)} it refuses this launch unless it "
                f"sets page size 1 for that backend; the page size it resolves is not known "
                f"here ({resolved_page.reason})",
                fix,
                severity=Severity.WARNING,
            )
            return
        if not (backend is None and isinstance(chosen, Unknown)):
            return
        why = (
            "depends on the GPU (fa3 on Hopper and trtllm_mha on Blackwell are refused; pass --gpu to know)"
            if ctx.gpu is None
            else f"is not known here ({chosen.reason})"
        )
        yield self.report(
            ctx.path,
            span,
            f"NGRAM drafts a tree (topk = {breadth}) and SGLang "
            f"refuses topk > 1 with page size "
            f"{page} on every attention backend but flashinfer; the one it picks "
            f"{why}",
            fix,
            severity=Severity.WARNING,
        )

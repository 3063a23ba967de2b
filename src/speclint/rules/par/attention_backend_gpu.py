"""PAR009 attention-backend-gpu: an attention backend the GPU cannot run."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.result import BACKEND_GPU

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_LLAMA = "python -m sglang.launch_server --model-path fixtures/models/llama-3.1-8b-instruct"


class AttentionBackendGpu(Rule):
    """## What it does
Finds attention backends SGLang refuses on the GPU the launch runs on: the one given with
`speclint explain --gpu` / `[tool.speclint] gpu`, or the one NVML reports for `speclint
run` and the plugin. Without a GPU it stays silent.

## Why it matters
SGLang checks the backend against the GPU while resolving the launch and raises
`ValueError`. In 0.5.23: `trtllm_mla` needs Blackwell (SM100/SM12x) and an fp8_e4m3, bf16
or auto KV cache; `trtllm_mha` (prefill or decode) needs Hopper (SM90), Blackwell (SM100)
or SM120, and SM120 prefill refuses an fp8_e4m3 KV cache; a `trtllm_mha` prefill beside
attention context parallelism (`--attn-cp-size` over 1; 0.5.19 also `--enable-prefill-cp` with a
`--cp-strategy`) needs SM100 from 0.5.19. Older releases refuse more:
`trtllm_mha` needs SM100 up to 0.5.9 (its prefill up to 0.5.18), `trtllm_mla` SM100 up to
0.5.8, each with its own KV-cache list. A script written for B200s fails on the H100 or A100
it is copied to.

## Example
```bash
# GPU: h100
python -m sglang.launch_server --model-path fixtures/models/deepseek-v3 \\
  --attention-backend trtllm_mla
```

## Use instead
```bash
# GPU: h100
python -m sglang.launch_server --model-path fixtures/models/deepseek-v3 \\
  --attention-backend fa3
```
"""

    code = "PAR009"
    gates = ("rejection",)
    name = "attention-backend-gpu"
    severity = Severity.ERROR
    summary = "An attention backend SGLang refuses on the GPU the launch runs on."
    rests_on = (RESOLUTION,)
    invalid = (
        Example(
            _LLAMA + " --attention-backend trtllm_mha",
            gpu="a100",
            at="1:103",
            says="refuses this launch on NVIDIA A100-SXM4-80GB: TRTLLM MHA backend",
            fixed=NO_FIX,
        ),
        Example(
            _LLAMA + " --attention-backend trtllm_mla",
            gpu="h100",
            at="1:103",
            says="refuses this launch on NVIDIA H100 80GB HBM3: TRTLLM MLA backend",
            fixed=NO_FIX,
        ),
        Example(
            _LLAMA + " --attn-cp-size 2 --prefill-attention-backend trtllm_mha",
            gpu="h100",
            at="1:128",
            says="Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(_LLAMA + " --attention-backend trtllm_mha", gpu="h100"),
        _LLAMA + " --attention-backend trtllm_mla",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if rejection is None or rejection.kind != BACKEND_GPU:
            return
        field = next((f for f in rejection.fields if ctx.config.given(f)), "attention_backend")
        gpu = ctx.gpu.name if ctx.gpu is not None else "this GPU"
        fix = (
            f"drop {ctx.option('attention_backend')} (SGLang picks one for the GPU) "
            "or choose "
            "one the GPU runs (fa3 on Hopper, flashinfer or triton elsewhere)"
        )
        if {"attn_cp_size", "enable_prefill_cp", "enable_prefill_context_parallel"} & set(rejection.fields):
            fix = (
                "choose another prefill backend (fa3 on Hopper, flashinfer or triton), run without "
                "attention context parallelism, or on an SM100 GPU (B200, GB200)"
            )
        yield self.report(
            ctx.path,
            ctx.span_of(field),
            f"SGLang {ctx.version.version} refuses this launch on {gpu}: {rejection.message}",
            fix,
            claims=(REJECTION,),
        )

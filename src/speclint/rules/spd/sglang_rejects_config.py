"""SPD009 sglang-rejects-config: any other combination SGLang's resolution raises on."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class SglangRejectsConfig(Rule):
    """## What it does
Reports launches that SGLang's argument resolution refuses, for the combinations speclint
models that no more specific rule covers: STANDALONE or NGRAM with attention data
parallelism, DFLASH without a draft model, `--enable-return-aux-hidden-states` with a
draft model or a non-EAGLE3 algorithm, NGRAM on an unsupported device, a `--quantization`
the target checkpoint's `quantization_config` contradicts (unless the release takes the pair
as compatible, as an online requantization, or one of its `override_quantization_method`
hooks rewrites it: read per release; Kimi-K2.5's `text_config` quantization where the
release lifts it) or one the release lacks, the
all-to-all MoE backends' needs (`--moe-a2a-backend flashinfer`: attention DP over all TP
ranks and a FlashInfer MoE runner; `mori`: a chunked prefill that fits
`SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK`, given or SGLang's default for the GPU's
memory when speclint is told the GPU; `deepep_v2`, 0.5.19+: a decode CUDA graph whose largest
batch, SGLang's default for the GPU's memory and `--tp-size` or `--cuda-graph-max-bs-decode`,
lowered to `--max-running-requests` per attention-DP rank, fits
`SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK`, 128 by default, unless the server is a
prefill server, CUDA graphs are off or a speculative algorithm is given; `pplx`, 0.5.17+: the MoE
runner deep_gemm or auto, as SGLang sees it after a `--quantization` that picks its own runner:
`--quantization mxfp8` without `--moe-runner-backend`, or with one it does not keep, runs
flashinfer_trtllm, read per release, so pplx refuses it: pass `--moe-runner-backend deep_gemm`), the MoE runners' quantization and `ep_size` asserts
(the MoE-kernel handler's before the all-to-all handler's, in the order the release calls them)
(with the quantization DeepSeek-V3, Kimi-K2.5 and the other models that take it from their
checkpoint on Blackwell take; an explicit `--moe-runner-backend` a `--quantization nvfp4_online`
does not take; a LoRA MoE runner without LoRA on), Flex Attention with speculative decoding, `--enable-mis` off FlashInfer,
`--enable-tp-lm-head-all-to-all` without attention DP, switches only some models take
(`--enable-layernorm-sp`, `--enable-cp-decode-attn-tp`, `--enable-encoder-swa-bounded-replay`:
read in the target's `config.json`), Mamba stochastic rounding without a float16 SSM
cache, `--enable-pdmux` with more than one pipeline stage, chunked prefill on (its default),
disaggregation or the overlap scheduler, `--enable-deterministic-inference` with an attention
backend it does not support (fewer for DeepSeek-family models), `--enable-dsa-cache-layer-split`
on a model without DSA, `--enable-page-major-kv-layout` without `--enable-unified-memory`,
`--enable-lmcache` with streaming sessions, attention DP, speculative decoding, hierarchical
cache, no radix cache or disaggregation (0.5.21+), `--disable-cuda-graph-padding` with
`--enable-torch-compile` and `--enable-dp-lm-head` without attention DP (deterministic
inference also when `--rl-on-policy-target` turns it on), a
`SGLANG_NPU_FUSED_MOE_MODE` other than 1 or 2 without `--fuseep-mode` (0.5.16-0.5.17 read it on
every launch before resolving), and a `--json-model-override-args`
value that is not JSON (every release's `ModelConfig.__init__` runs `json.loads` on it at
start-up: a trailing comma, a Python dict in single quotes). Each as the checked release words
and checks it; where the value SGLang checks depends on what speclint cannot read (a GPU it
is not told, a model whose `config.json` is not on disk), nothing is reported, except where
speclint knows the launch is refused on some GPUs or checkpoints and not others: then a
warning says SGLang "may refuse this launch", on what it depends (`--enable-mis` with
deterministic inference and no `--gpu`: refused on Hopper, taken on Blackwell; a
`--quantization` a hook may rewrite from a key of the checkpoint's quantization config:
"unverified").

## Why it matters
SGLang raises (`ValueError`, `AssertionError`) before loading the model, often after a
container start and a scheduler wait. The message says which combination and why.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --attn-dp-size 2 --tp-size 2
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm NGRAM \\
  --max-running-requests 64 --tp-size 2
```
"""

    code = "SPD009"
    gates = ("rejection",)
    name = "sglang-rejects-config"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "A flag combination SGLang's argument resolution raises on."
    # the rules that explain a rejection better: partial triple, backend, unknown
    # algorithm, and the parallel layouts (which show the sizes)
    defers_to = ("SPD002", "SPD007", "SPD008", "SPD014", "DRF014", "PAR009", "PAR002", "PAR003", "PAR005")
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm DFLASH",
            at="1:71",
            says="requires setting --speculative-draft-model-path",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm DFLASH"
        " --speculative-draft-model-path d",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if ctx.config.uncertain or ctx.resolution is None:
            return
        if rejection is None:
            for doubt in ctx.resolution.doubts:
                field = next((f for f in doubt.fields if ctx.given(f)), None)
                if field is None:
                    continue
                yield self.report(
                    ctx.path,
                    ctx.span_of(field),
                    f"SGLang {ctx.version.version} may refuse this launch in {doubt.handler}: "
                    f"{doubt.exception}: {doubt.message}",
                    "change the flags named in SGLang's message, or check on the machine it runs on",
                    severity=Severity.WARNING,
                )
            return
        field = next((f for f in rejection.fields if ctx.given(f)), "speculative_algorithm")
        message = (
            f"SGLang {ctx.version.version} refuses this launch in {rejection.handler}: "
            f"{rejection.exception}: {rejection.message}"
            + (ctx.picked_backend() if "attention_backend" in rejection.fields else "")
        )
        yield self.report(
            ctx.path,
            ctx.span_of(field),
            message,
            "change the flags named in SGLang's message",
            claims=(REJECTION,),
        )

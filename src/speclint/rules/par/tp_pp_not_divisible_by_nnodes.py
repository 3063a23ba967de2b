"""PAR005 tp-pp-not-divisible-by-nnodes: check_server_args asserts (tp × pp) % nnodes == 0."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.gpu_layout import node_split_rejection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class TpPpNotDivisibleByNnodes(Rule):
    """## What it does
Finds multi-node launches whose `--tp-size` × `--pp-size` is not a multiple of `--nnodes`.

## Why it matters
Every node runs (tp × pp) / nnodes workers, so SGLang's `check_server_args` asserts
`(tp_size * pp_size) % nnodes == 0` and stops with `AssertionError: tp_size must be
divisible by number of nodes` (all four supported releases; 0.5.23 skips it only for
`--elastic-ep-join-mode scale`). Each node fails on its own, after the container started.

## Example
```bash
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 12 \\
  --nnodes 8 --node-rank 0 --dist-init-addr 10.0.0.1:5000
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 16 \\
  --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000
```
"""

    code = "PAR005"
    gates = ("several-nodes",)
    name = "tp-pp-not-divisible-by-nnodes"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "--tp-size × --pp-size is not a multiple of --nnodes: SGLang's assert stops every node."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 4 --nnodes 3",
            at="1:68",
            says="tp 4 is not a multiple of `--nnodes 3`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 3 --pp-size 1 --nnodes 2",
            "0.4.10.post2",
            at="1:80",
            says="tp 3 is not a multiple of `--nnodes 2`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --tp-size 8 --nnodes 2",
        "python -m sglang.launch_server --model-path m --tp-size 4 --pp-size 2 --nnodes 4",
        "python -m sglang.launch_server --model-path m --tp-size $TP --nnodes 3",
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 4 --nnodes 3"
            " --elastic-ep-join-mode scale",
            "0.5.23",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        sizes = ("tp_size", "pp_size", "nnodes") if ctx.config.knows("pp_size") else ("tp_size", "nnodes")
        if ctx.resolution is None or not all(ctx.known(f) for f in sizes):
            return
        rejection = node_split_rejection(ctx.resolution.effective, ctx.config)
        if rejection is None:
            return
        effective = ctx.resolution.effective
        tp, pp, nnodes = effective["tp_size"], effective.get("pp_size"), effective["nnodes"]
        if pp is None and not ctx.config.knows("pp_size"):
            pp = 1  # a release without pipeline parallelism (0.4.6)
        if not (isinstance(tp, int) and isinstance(pp, int) and isinstance(nnodes, int)):
            return  # not reached: the rejection is only made from three known sizes
        product = f"tp {tp} × pp {pp} = {tp * pp}" if pp != 1 else f"tp {tp}"
        message = (
            f"{product} is not a multiple of `{ctx.written('nnodes')}`: SGLang "
            f"{ctx.version.version}'s {rejection.handler} stops every node with "
            f"{rejection.exception}: {rejection.message}"
        )
        lower = max(1, (tp * pp) // nnodes) * nnodes
        yield self.report(
            ctx.path,
            ctx.span_of("nnodes"),
            message,
            f"make tp × pp a multiple of {nnodes} (e.g. tp × pp = {lower}), or "
            f"use a {ctx.option('nnodes')} that divides {tp * pp}",
            ctx.note("tp_size", "the tensor-parallel size is set here"),
            claims=(REJECTION,),
        )

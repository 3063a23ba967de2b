"""PAR004 a2a-backend-sets-ep-size: an all-to-all MoE backend replaces --ep-size with --tp-size."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.parallel import a2a_log_level, a2a_spanning_backends
from speclint.sglang.resolve.result import MLA_PREFILL_CP

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

# The flags that choose the backend, most direct first.
_CAUSES = (
    "enable_waterfill",
    "enable_deepep_waterfill",
    "enable_deepep_moe",
    "moe_runner_backend",
    "moe_a2a_backend",
)


class A2aBackendSetsEpSize(Rule):
    """## What it does
Reports an expert-parallel all-to-all backend that makes SGLang set `ep_size` to `tp_size`,
when that changes the expert-parallel size the launch asked for (`--ep-size`, default 1).
The backends that do it, per release (`_handle_a2a_moe`; 0.5.23: `_a2a_ep_size` in
`arg_groups/overrides.py`):

- 0.5.23: deepep, deepep_v2, mooncake, nixl, mori, pplx, ascend_fuseep, flashinfer,
  flashinfer_megamoe, megamoe (also through `--moe-runner-backend megamoe`, and deepep
  forced by `--enable-waterfill`). Logged at INFO: `<backend> MoE is enabled. The expert
  parallel size is adjusted from X to the tensor parallel size [Y].`
- 0.5.17-0.5.18: as 0.5.23 without deepep_v2 and flashinfer_megamoe (their own
  `_A2A_EP_SPANNING_BACKENDS`, with pplx), logged at INFO by `_a2a_ep_size` as 0.5.23 does.
- 0.5.14: deepep, mooncake, nixl, mori, ascend_fuseep, flashinfer (WARNING), megamoe (INFO);
  `--enable-deepep-waterfill` forces deepep (0.5.15.post1-0.5.16: the same backends and levels).
- 0.5.6.post2: deepep, mooncake, ascend_fuseep (WARNING).
- 0.4.10.post2: `--moe-a2a-backend deepep` or the deprecated `--enable-deepep-moe` (WARNING).

## Why it matters
The `--ep-size` in the script is not what runs: the experts are split over all TP ranks.
That is usually intended, but a script that sets `--ep-size 4 --tp-size 8` to keep two
expert replicas gets 8-way expert parallelism, and the only trace is one log line.

## Example
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --moe-a2a-backend deepep
```

## Use instead
```bash
# SGLang 0.5.23
python -m sglang.launch_server --model-path /models/deepseek-v3 --tp-size 8 \\
  --ep-size 8 --moe-a2a-backend deepep
```
"""

    code = "PAR004"
    gates = ("adjusted:ep_size",)
    name = "a2a-backend-sets-ep-size"
    severity = Severity.INFO
    rests_on = (RESOLUTION,)
    summary = "An expert-parallel all-to-all backend sets ep_size to tp_size, whatever --ep-size says."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --moe-a2a-backend deepep",
            "0.5.23",
            at="1:59",
            says="`--moe-a2a-backend deepep` makes SGLang 0.5.23 set ep_size = tp_size = 8",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --ep-size 4"
            " --moe-a2a-backend mooncake",
            "0.5.6.post2",
            at="1:71",
            says="makes SGLang 0.5.6.post2 set ep_size = tp_size = 8 (asked 4)",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --enable-deepep-moe",
            "0.4.10.post2",
            at="1:59",
            says="`--enable-deepep-moe` makes SGLang 0.4.10.post2 set ep_size = tp_size = 8",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size 8 --ep-size 8 --moe-a2a-backend deepep",
            "0.5.23",
        ),
        Example("python -m sglang.launch_server --model-path m --tp-size 8 --ep-size 4", "0.5.23"),
        Example("python -m sglang.launch_server --model-path m --tp-size 8 --enable-ep-moe", "0.4.10.post2"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        change = ctx.resolution.adjustment("ep_size") if ctx.resolution else None
        if change is None or ctx.config.uncertain or change.cause == MLA_PREFILL_CP:
            return
        effective = ctx.resolved.effective
        backend = effective.get("moe_a2a_backend")
        version = ctx.version.version
        if backend not in a2a_spanning_backends(version) or not isinstance(change.effective, int):
            return
        if ctx.config.knows("enable_ep_moe") and ctx.config.value("enable_ep_moe") is True:
            return  # --enable-ep-moe asked for ep = tp itself (FLG008 reports the flag)
        where, cause = ctx.launch.span, f"moe_a2a_backend {backend}"
        for dest in _CAUSES:
            given = ctx.config.get(dest).use if ctx.config.knows(dest) else None
            if dest == "moe_runner_backend" and backend != "megamoe":
                continue  # only the megamoe runner alias picks the all-to-all backend
            if given is not None:
                where, cause = given.span, ctx.written(dest)
                break
        logged = (
            f"logs it at {a2a_log_level(version, backend).upper()}" if change.logged else "does not log it"
        )
        message = (
            f"`{cause}` makes SGLang {version} set ep_size = tp_size = {change.effective} "
            f"(asked {change.asked}), and {logged}: experts are split over all "
            f"{change.effective} TP ranks"
        )
        yield self.report(
            ctx.path,
            where,
            message,
            f"write `{ctx.set_to('ep_size', change.effective)}` to say what runs, "
            f"or choose {ctx.set_to('moe_a2a_backend', 'none')} to keep your "
            f"{ctx.option('ep_size')}",
            ctx.note("ep_size", "this expert-parallel size is replaced"),
        )

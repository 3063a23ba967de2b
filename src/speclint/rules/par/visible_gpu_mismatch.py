"""PAR001 visible-gpu-mismatch: the workers' GPU indices against CUDA_VISIBLE_DEVICES."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.frontends.recognise import ROUTER_ENTRY
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.gpu_layout import gpu_use, hidden_cuda_entry, visible_gpu_count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.resolve.gpu_layout import GpuUse

_OTHER_VISIBILITY = ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")


class VisibleGpuMismatch(Rule):
    """## What it does
Compares the GPUs a launch opens with the GPUs its `CUDA_VISIBLE_DEVICES` leaves visible,
when the script sets that variable to a literal value (`VAR=... python`, `export`,
`docker run -e`), else with the GPUs a manifest gives the container (Kubernetes
`resources.limits."nvidia.com/gpu"`, compose `deploy.resources.reservations.devices`
`count` / `device_ids`) or `docker run --gpus` requests (`--gpus 2`, `--gpus '"device=0,1"'`;
`all` is every GPU of the host, not known from the script). SGLang starts one worker per TP × PP rank on the node, (tp × pp) / nnodes
of them, times `--dp-size` replicas without attention DP; worker *i* selects CUDA device
`--base-gpu-id + i × --gpu-id-step` (pipeline stages are `tp` indices apart). Visible devices
are counted as CUDA counts them: comma-separated, an invalid entry hides itself and everything
after it, an empty value hides every GPU.

Not under Slurm `srun`: Slurm's gres/gpu plugin gives each task the GPUs of its step in
`CUDA_VISIBLE_DEVICES` (or unsets it for a step without GPUs) over the value the script
exports, on nodes whose gres.conf configures GPUs; which GPUs is not in the script.

Reports an error when a worker's index is past the last visible GPU, and an info finding
when visible GPUs stay idle (not when `--base-gpu-id` is given: placing servers side by
side is deliberate).

## Why it matters
The worker whose index does not exist fails when it selects its device (CUDA reports an
invalid device ordinal), after the other workers have started loading weights. Idle GPUs
listed for a launch are usually a forgotten `--tp-size`.

## Example
```bash
CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path /models/llama \\
  --tp-size 8
```

## Use instead
```bash
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python -m sglang.launch_server \\
  --model-path /models/llama --tp-size 8
```
"""

    code = "PAR001"
    gates = ("visible-devices",)
    name = "visible-gpu-mismatch"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = (
        "The launch opens more GPUs than CUDA_VISIBLE_DEVICES leaves visible "
        "(error), or leaves visible GPUs idle (info)."
    )
    invalid = (
        Example(
            "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m --tp-size 8",
            at="1:22",
            says="CUDA_VISIBLE_DEVICES=0,1,2,3 leaves 4 GPUs visible",
            fixed=NO_FIX,
        ),
        Example(
            "export CUDA_VISIBLE_DEVICES=0,1\npython -m sglang.launch_server --model-path m"
            " --tp-size 2 --pp-size 2",
            at="1:29",
            says="CUDA_VISIBLE_DEVICES=0,1 leaves 2 GPUs visible",
            fixed=NO_FIX,
        ),
        Example(
            "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m --tp-size 2",
            at="1:22",
            says="but tp 2 uses 2 on this node: 2 GPUs stay idle",
            fixed=NO_FIX,
        ),
        Example(
            "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m --tp-size 2"
            " --base-gpu-id 3",
            at="1:22",
            says="but tp 2, --base-gpu-id 3 makes SGLang start 2 workers",
            fixed=NO_FIX,
        ),
        Example(
            "docker run --gpus '\"device=0,1\"' lmsysorg/sglang python3 -m sglang.launch_server"
            " --model-path m --tp-size 4",
            at="1:19",
            says="""docker run --gpus '"device=0,1"' leaves 2 GPUs visible (indices 0-1), but tp 4""",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m --tp-size 4",
        "docker run --gpus all lmsysorg/sglang python3 -m sglang.launch_server --model-path m --tp-size 8",
        "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server --model-path m --tp-size 4"
        " --nnodes 2 --pp-size 2",
        "python -m sglang.launch_server --model-path m --tp-size 8",
        "CUDA_VISIBLE_DEVICES=$GPUS python -m sglang.launch_server --model-path m --tp-size 8",
        "export CUDA_VISIBLE_DEVICES=0\nsrun --gres=gpu:8 python -m sglang.launch_server"
        " --model-path m --tp-size 8",
        Example(
            "CUDA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server --model-path m"
            " --tp-size 2 --attn-dp-size 2",
            "0.5.23",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        word = ctx.launch.env.get("CUDA_VISIBLE_DEVICES")
        from_manifest = word is None and ctx.launch.gpu_count is not None
        if from_manifest:
            word = ctx.launch.gpu_count
        if word is None or word.text is None or ctx.resolution is None or ctx.config.uncertain:
            return
        if any(name in ctx.launch.env for name in _OTHER_VISIBILITY):
            return
        device = ctx.resolution.effective.get("device")
        if device not in (None, "cuda"):
            return
        visible = int(word.text) if from_manifest else visible_gpu_count(word.text)
        use = (
            gpu_use(
                ctx.resolution.effective, ctx.config, ctx.version.version, ctx.launch.entry == ROUTER_ENTRY
            )
            if visible is not None
            else None
        )
        if visible is None or use is None:
            return
        missing = [index for index in use.indices if index >= visible]
        if not missing and (use.count >= visible or ctx.given("base_gpu_id")):
            return  # every worker has its GPU and none stays idle: nothing to word
        verb = "list"
        if from_manifest and ctx.launch.gpu_count_by is not None:  # `docker run --gpus`
            shown, setting = ctx.launch.gpu_count_by
            verb = "request"
        elif from_manifest:
            shown = "the manifest's GPU count"
            setting, verb = "the container's GPU count", "give"
        else:
            shown = (
                f"CUDA_VISIBLE_DEVICES={word.text!r}"
                if word.text == ""
                else f"CUDA_VISIBLE_DEVICES={word.text}"
            )
            setting = "CUDA_VISIBLE_DEVICES"
        layout = self._layout(ctx, use)
        invalid = None if from_manifest else hidden_cuda_entry(word.text)
        if invalid is not None:
            shown += f" (CUDA stops at the invalid entry {invalid!r} and hides what follows)"
        notes = word_notes(word) + self._size_notes(ctx)
        if missing and visible == 0:
            message = (
                f"{shown} hides every GPU from CUDA, but {layout} makes SGLang start "
                f"{_workers(use.count)}: the first fails when it selects GPU index "
                f"{missing[0]} (CUDA: invalid device ordinal)"
            )
            yield self.report(
                ctx.path,
                word.span,
                message,
                f"{verb} the GPUs to use in {setting}" + ("" if from_manifest else ", or unset it"),
                notes,
            )
        elif missing:
            shown_missing = ", ".join(map(str, missing[:4])) + (", ..." if len(missing) > 4 else "")
            message = (
                f"{shown} leaves {_gpus(visible)} visible (indices 0-{visible - 1}), but "
                f"{layout} makes SGLang start {_workers(use.count)} on GPU indices up to "
                f"{use.highest}: the workers on indices {shown_missing} fail when they select "
                "their device (CUDA: invalid device ordinal)"
            )
            fix = (
                f"{verb} at least {use.highest + 1} GPUs in {setting}, or lower "
                f"the parallel sizes to fit {visible}"
            )
            yield self.report(ctx.path, word.span, message, fix, notes)
        else:  # use.count < visible, without --base-gpu-id (returned above otherwise)
            idle = visible - use.count
            message = (
                f"{shown} leaves {_gpus(visible)} visible, but {layout} uses "
                f"{use.count} on this node: {_gpus(idle)} {'stays' if idle == 1 else 'stay'} idle"
            )
            fix = (
                f"{verb} only {use.count} GPUs in {setting}, or raise {ctx.option('tp_size')} "
                f"to use all {visible}"
            )
            yield self.report(ctx.path, word.span, message, fix, notes, Severity.INFO)

    @staticmethod
    def _layout(ctx: LaunchContext, use: GpuUse) -> str:
        effective = ctx.resolved.effective
        parts = [f"tp {effective['tp_size']}"]
        if effective.get("pp_size", 1) != 1:
            parts.append(f"pp {effective['pp_size']}")
        text = " × ".join(parts)
        if effective.get("nnodes", 1) != 1:
            text = f"({text}) / nnodes {effective['nnodes']}"
        co_launched = ctx.launch.entry == ROUTER_ENTRY
        if use.replicas > 1:
            kind = f"`{ROUTER_ENTRY}` workers" if co_launched else "DP replicas"
            text = f"{use.replicas} {kind} × {text}"
        for field in ("base_gpu_id", "gpu_id_step"):
            if co_launched and field == "base_gpu_id":
                continue  # the co-launcher sets each worker's own (`gpu_use`)
            if ctx.given(field):
                text += f", {ctx.written(field)}"
        return text

    @staticmethod
    def _size_notes(ctx: LaunchContext) -> list[Note]:
        notes = []
        for field in ("tp_size", "pp_size", "nnodes", "dp_size", "base_gpu_id"):
            found = ctx.setting(field)
            if found is not None and found.span is not None:  # `ctx.note`, worded only when given
                notes.append(Note(found.span, f"{ctx.written(field)} is set here"))
        return notes


def _workers(count: int) -> str:
    return "1 worker" if count == 1 else f"{count} workers"


def _gpus(count: int) -> str:
    return f"{count} GPU" if count == 1 else f"{count} GPUs"

"""Before `cuda_graph_config` (0.5.13.post1 and older) the prefill CUDA graphs are the piecewise
ones, resolved into the release's own `ServerArgs` fields (`gpu_resolution.prefill_fields`,
read from its wheel): hardware.py's `cuda_graph_backend_prefill`, `cuda_graph_max_bs_prefill`
and `cuda_graph_bs_prefill` are stated under those names (`disable_piecewise_cuda_graph`
0.5.10-0.5.13.post1 / `enable_piecewise_cuda_graph` before, a bool; the size and the token
counts: `piecewise_cuda_graph_max_tokens`, `piecewise_cuda_graph_tokens`). The rules read
that turn the switch off after the memory settings (0.5.10-0.5.12.post1: the flashinfer_trtllm
MoE runner but for GPT-OSS) are applied to it here; one this module cannot decide leaves it
Unknown."""

from __future__ import annotations

from dataclasses import replace

from speclint.sglang.resolve.result import is_known

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState

OWN = {
    "cuda_graph_backend_prefill": "backend",
    "cuda_graph_max_bs_prefill": "max_bs",
    "cuda_graph_bs_prefill": "bs",
}
"""speclint's field -> its part in `prefill_fields`."""
_READ: dict[str, tuple[dict[str, str], list[dict[str, object]]] | None] = {}
"""Release -> `gpu_resolution.prefill_fields` (read from the release's row once, not per
launch; only read here)."""


def _switch(flag: str, backend: object) -> object:
    """The switch's value for a backend: disable_...: off; enable_...: on."""
    if not is_known(backend) or backend is None:
        return backend
    off = backend == "disabled"
    return off if flag.startswith("disable_") else not off


def release_names(state: ResolutionState) -> None:
    """Move the prefill CUDA-graph values to the release's field names, where they were read."""
    import speclint.sglang.gpu_resolution as gpu_resolution

    version = state.checked_version
    read = (
        _READ[version]
        if version in _READ
        else _READ.setdefault(version, gpu_resolution.prefill_fields(version))
    )
    if read is None:
        return
    fields, late = read
    backend = state.values.get("cuda_graph_backend_prefill")
    if late and is_known(backend) and backend not in (None, "disabled"):
        _late_rules(state, late, str(backend))
    renamed = {mine: fields[part] for mine, part in OWN.items() if mine in state.values}
    if not renamed:
        return
    logic = state.gpu_logic
    if logic is not None and state.values.get("cuda_graph_backend_prefill") == logic.prefill_default:
        # the switch as `ServerArgs` declares it: SGLang sets nothing (no adjustment to show)
        state.adjustments[:] = [a for a in state.adjustments if a.field != "cuda_graph_backend_prefill"]
    values = state.values
    moved: dict[str, object] = {}
    for key, value in values.items():  # in order: each name where speclint's stood
        name = renamed.get(key)
        if name is None:
            moved.setdefault(key, value)
        elif is_known(value) or name not in values:  # a known value the launch gave stays
            moved[name] = _switch(name, value) if key == "cuda_graph_backend_prefill" else value
    values.clear()
    values.update(moved)
    for key in renamed:
        state.asked.pop(key, None)
    state.adjustments[:] = [
        replace(a, field=renamed[a.field], effective=_switch(renamed[a.field], a.effective))
        if a.field == "cuda_graph_backend_prefill"
        else replace(a, field=renamed[a.field])
        if a.field in renamed
        else a
        for a in state.adjustments
    ]


_NOT_READ = object()


def _holds(state: ResolutionState, conjunct: dict[str, object]) -> bool | None:
    field = conjunct.get("field")
    if isinstance(field, str):
        value = state.values[field] if field in state.values else state.config.known_value(field, _NOT_READ)
        values = conjunct["in"]
        if field == "moe_runner_backend" and _runner_replaced(state, value):
            return None  # SGLang picks the runner for the quantization first (not modelled)
        return None if value is _NOT_READ or not is_known(value) else value in values  # type: ignore[operator]
    if "architecture_not" in conjunct:
        arch = state.target_architecture
        return None if arch is None else arch != conjunct["architecture_not"]
    return None


def _runner_replaced(state: ResolutionState, runner: object) -> bool:
    """Under a --quantization for which the release picks the MoE runner itself (0.5.10+ mxfp8:
    `moe_runner_overrides`, the auto runner or one it does not keep; 0.5.14+ nvfp4_online: the
    auto runner), the runner the late rules read is not the one given (oracle, quantization
    seed 15003: 0.5.12.post1 gives Llama with --quantization mxfp8 flashinfer_trtllm on an H100
    and turns piecewise CUDA graphs off for it)."""
    from speclint.sglang.moe_defaults import moe_runner_overrides
    from speclint.sglang.resolve.draft_moe_runner import runner_picked_for_quantization

    kept = moe_runner_overrides(state.checked_version).get(str(state.config.value("quantization")))
    return runner_picked_for_quantization(state, runner) is not None or (
        kept is not None and runner not in kept
    )


def _late_rules(state: ResolutionState, rules: list[dict[str, object]], backend: str) -> None:
    """The backend after the late rules: "disabled" where one holds (the change recorded with
    the method that makes it), Unknown where one may."""
    undecided = None
    for rule in rules:
        when = rule["when"]
        assert isinstance(when, list)
        held = [_holds(state, c) for c in when]
        if False in held:
            continue
        if all(held):
            state.set(
                "cuda_graph_backend_prefill",
                "disabled",
                f"SGLang {state.checked_version} turns piecewise CUDA graphs off after sizing them when "
                + " and ".join(_shown(c) for c in when),
                str(rule["function"]),
            )
            return
        undecided = undecided or next(_shown(c) for c, h in zip(when, held) if h is None)
    if undecided is not None:
        state.set_unknown(
            "cuda_graph_backend_prefill",
            f"SGLang {state.checked_version} may turn piecewise CUDA graphs off after sizing them "
            f"(`{undecided}`), which speclint does not model",
        )


def _shown(conjunct: dict[str, object]) -> str:
    """A conjunct as the release writes it, near enough: `moe_runner_backend in (...)`."""
    if "written" in conjunct:
        return str(conjunct["written"])
    if "architecture_not" in conjunct:
        return f"the architecture is not {conjunct['architecture_not']}"
    values = conjunct["in"]
    assert isinstance(values, list)
    if values == [False, None]:
        return f"not {conjunct['field']}"
    return (
        f"{conjunct['field']} in {tuple(values)}"
        if len(values) > 1
        else f"{conjunct['field']} == {values[0]!r}"
    )

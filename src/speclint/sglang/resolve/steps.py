"""SGLang's resolution steps, in its order (`resolve` runs them). The steps' modules are
imported here once, not by `resolve` on every launch (a function-level import costs ~1 µs a
call), and not by the package, which the rules import for its types without resolving."""

from __future__ import annotations

from speclint.sglang.resolve.attention import resolve_attention
from speclint.sglang.resolve.checks import check_server_args, deprecated_actions
from speclint.sglang.resolve.hardware import resolve_hardware
from speclint.sglang.resolve.parallel import resolve_parallel
from speclint.sglang.resolve.quantization import verify_quantization
from speclint.sglang.resolve.result import Unknown
from speclint.sglang.resolve.speculative import resolve_speculative
from speclint.sglang.resolve.state import ResolutionState, Stop
from speclint.sglang.server_fields import never_assigned

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.gpu_profiles import GpuProfile


def run_steps(state: ResolutionState, gpu: GpuProfile | None, co_launched: bool = False) -> None:
    """Each step in SGLang's order; a refusal raises `Stop`. `co_launched`: a worker of
    sglang-router's co-launcher (`co_launch`), its fields set before or after resolution."""
    state.gpu = gpu
    where = None
    if co_launched:
        from speclint.sglang.resolve.co_launch import set_worker_fields, worker_resolution

        where = worker_resolution(state)
        if where == "worker":
            set_worker_fields(state, where)
    deprecated_actions(state)
    if state.env:  # (imported only then) 0.5.16-0.5.17 read a variable before resolving
        import speclint.sglang.resolve.refusals_startup_env as startup_env

        startup_env.check_env_flag_compat(state)
    verify_quantization(state)
    resolve_parallel(state)
    resolve_aux_capture(state)
    if state.config.given("rl_on_policy_target"):  # (imported only then)
        from speclint.sglang.resolve.deterministic import resolve_rl_on_policy

        resolve_rl_on_policy(state)
    resolve_hardware(state, gpu)
    resolve_speculative(state)
    resolve_attention(state)
    if where == "parent":
        set_worker_fields(state, where)
    if state.config.maybe_given("enable_prefill_cp") or state.config.maybe_given(
        "enable_prefill_context_parallel"
    ):  # (imported only then; 0.5.13's name)
        from speclint.sglang.resolve.prefill_cp_mla import mark_mla_prefill_cp

        mark_mla_prefill_cp(state)
    keep_unassigned(state)
    check_server_args(state)
    if state.config.given("moe_a2a_backend"):  # after the checks, which say how they read it
        from speclint.sglang.resolve.a2a_decode_graph import chunk_beside

        chunk_beside(state, gpu)


def keep_unassigned(state: ResolutionState) -> None:
    """A field no statement of the release assigns (tools/gen_sglang_server_fields.py) keeps
    what argparse gave it: the flag's value, or the declared default of a field without a
    flag. A value modelled on a later release (0.5.4.post3-0.5.6.post2 never set
    speculative_moe_runner_backend: it stays None) is put back, its adjustments dropped."""
    kept = never_assigned(state.checked_version)
    if not kept:
        return
    config, values = state.config, state.values
    restored = []
    for name in list(filter(kept.__contains__, values)):  # (in `values`' order; C loops)
        if config.knows(name):
            if config.maybe_given(name) or not config.known(name):
                continue
            value = config.value(name)
        else:
            value = kept[name]
        current = values[name]
        if not (current == value and type(current) is type(value)):
            values[name] = value
            restored.append(name)
    if restored:
        state.adjustments[:] = [a for a in state.adjustments if a.field not in restored]


def resolve_aux_capture(state: ResolutionState) -> None:
    """0.5.23 `handle_aux_hidden_state_capture`: the algorithm only names a capture convention."""
    methods = state.traits.aux_capture_algorithms
    if not methods or state.get("enable_return_aux_hidden_states") is not True:
        return
    algorithm = state.get("speculative_algorithm")
    method = None if isinstance(algorithm, Unknown) else str(algorithm or "").upper()  # a name
    if method is None:
        return
    handler = "_handle_aux_hidden_state_capture"
    if method not in methods:
        named = " or ".join(filter(None, (", ".join(methods[:-1]), methods[-1])))
        raise Stop(
            "ValueError",
            "--enable-return-aux-hidden-states needs --speculative-algorithm "
            f"{named} to name the capture convention, got {algorithm!r}.",
            handler,
            ("enable_return_aux_hidden_states",),
        )
    if state.get("speculative_draft_model_path") is not None:
        raise Stop(
            "ValueError",
            "--enable-return-aux-hidden-states captures without a draft; "
            "drop --speculative-draft-model-path.",
            handler,
            ("speculative_draft_model_path",),
        )
    state.set(
        "speculative_algorithm",
        None,
        "--enable-return-aux-hidden-states turns speculative "
        "decoding off: the algorithm only names the capture convention",
        handler,
    )

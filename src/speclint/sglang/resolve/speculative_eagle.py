"""SGLang's EAGLE-family speculative decoding resolution (`_handle_eagle_family`), per release."""

from __future__ import annotations

from speclint.sglang.resolve.result import TREE_DRAFT_BACKEND, Unknown, is_known
from speclint.sglang.resolve.speculative_common import (
    max_running_requests,
    read_backend,
    resolved_page_size,
)
from speclint.sglang.resolve.state import Stop
from speclint.sglang.traits import LARGE_TREE_ARCHITECTURES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.release_traits import ReleaseTraits
    from speclint.sglang.resolve.state import ResolutionState

_TOPK1_LOG = (
    "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when speculative_eagle_topk == 1"
)


def _env_flag(state: ResolutionState, name: str) -> object:
    """SGLang's `envs.X.get()` for a boolean variable: true for 1/true/yes (case-insensitive)."""
    if name not in state.env:
        return False
    value = state.env[name]
    if value is None:
        return Unknown(f"${name} is set to a value speclint cannot read")
    return value.strip().lower() in ("1", "true", "yes", "y", "on")


def resolve_eagle_family(state: ResolutionState, traits: ReleaseTraits, algorithm: str) -> None:
    """`_handle_eagle_family` (EAGLE, EAGLE3, NEXTN, STANDALONE and the like): the draft
    path of MTP targets, the auto-chosen steps / topk / draft tokens, what a page size and
    the attention backend allow, and the overlap scheduler."""
    handler = "_handle_eagle_family"
    if traits.eagle_post_init:
        from speclint.sglang.resolve.speculative_legacy import resolve_eagle_post_init

        resolve_eagle_post_init(state, traits)
        return
    if algorithm == "STANDALONE" and state.attention_dp():
        raise Stop(
            "ValueError",
            "Currently standalone speculative decoding does not support dp attention.",
            handler,
            ("speculative_algorithm",),
        )
    max_running_requests(state, handler, traits.max_running_requests_logged)
    _eagle_overlap(state, traits, algorithm)
    mixed = state.get("enable_mixed_chunk")
    drops_mixed = traits.eagle_disables_mixed_chunk or algorithm == "STANDALONE"
    if mixed is True and drops_mixed:
        state.set(
            "enable_mixed_chunk",
            False,
            f"mixed chunked prefill is not supported with "
            f"{algorithm} speculative decoding in SGLang {state.version}",
            handler,
            "Mixed chunked prefill is disabled ...",
        )

    arch = state.target_architecture
    if arch is not None and arch in traits.mtp_draft_from_target:
        if state.get("speculative_draft_model_path") is None:
            state.set(
                "speculative_draft_model_path",
                state.get("model_path"),
                f"{arch} carries its own MTP draft layers: the draft is the target checkpoint",
                handler,
            )
            if traits.copies_revision_to_draft:
                state.set(
                    "speculative_draft_model_revision",
                    state.get("revision"),
                    "the draft revision follows the target's",
                    handler,
                )
        if traits.mtp_flashinfer_page_refused:
            page = state.get("page_size")
            if state.get("attention_backend") == "flashinfer" and is_known(page) and page not in (None, 1):
                raise Stop(
                    "ValueError",
                    "Speculative decoding with page_size != 1 is not supported. Please set page_size to 1.",
                    "__post_init__",
                    ("page_size", "attention_backend"),
                )
    elif arch is None and state.get("speculative_draft_model_path") is None:
        state.set_unknown(
            "speculative_draft_model_path",
            "the target's config.json is not on disk (MTP targets use their own path)",
        )

    steps = state.get("speculative_num_steps")
    topk = state.get("speculative_eagle_topk")
    draft = state.get("speculative_num_draft_tokens")
    adaptive = state.get("speculative_adaptive")
    if not is_known(adaptive) or (adaptive is True and not traits.models_adaptive):
        state.mark_unknown_speculative(
            adaptive.reason
            if isinstance(adaptive, Unknown)
            else f"adaptive speculative parameters are not modelled for SGLang {state.version}"
        )
        return
    if steps is None and adaptive is not True:
        if topk is not None or draft is not None:
            given = tuple(
                f
                for f, v in (("speculative_eagle_topk", topk), ("speculative_num_draft_tokens", draft))
                if v is not None
            )
            raise Stop(
                "AssertionError",
                "assert speculative_eagle_topk is None and "
                "speculative_num_draft_tokens is None (bare AssertionError, no message)",
                handler,
                given,
            )
        if traits.auto_params_missing_field:
            raise Stop(
                "AttributeError",
                f"'ServerArgs' object has no attribute '{traits.auto_params_missing_field}' "
                f"(auto_choose_speculative_params reads a field SGLang {state.version}'s "
                "ServerArgs does not define; give --speculative-num-steps, "
                "--speculative-eagle-topk and --speculative-num-draft-tokens)",
                "auto_choose_speculative_params",
                ("speculative_algorithm",),
            )
        params = _auto_params(state, traits, algorithm, arch)
        if params is None:
            for name in ("speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens"):
                state.set_unknown(
                    name, "auto-chosen from the target architecture, whose config.json is not on disk"
                )
            return
        reason = (
            f"auto-chosen for {algorithm}" if algorithm == "STANDALONE" else f"auto-chosen for target {arch}"
        )
        for name, value in zip(
            ("speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens"), params
        ):
            state.set(name, value, reason, handler + ".auto_params")
        steps, topk, draft = params
    if not all(is_known(v) for v in (steps, topk, draft)):
        if traits.topk_one_forces_draft_tokens:
            _topk_one_relation(state, handler, steps, topk, draft)
        return
    steps, topk = _count(steps), _count(topk)
    if traits.has_trtllm_mha_check and "trtllm_mha" in state.attention_backends():
        if topk is None or topk > 1:
            raise Stop(
                "ValueError" if topk is not None else "TypeError",
                "trtllm_mha backend only supports topk = 1 for speculative decoding.",
                handler,
                ("speculative_eagle_topk",),
                TREE_DRAFT_BACKEND,
            )
    if traits.page_forces_topk_one and (topk is None or topk > 1):
        from speclint.sglang.resolve.attention import page_size_after_backends

        page = _count(page_size_after_backends(state))
        if topk is None and page is not None and page > 1:
            raise Stop(
                "TypeError",
                "'>' not supported between instances of 'NoneType' and "
                "'int' (speculative_eagle_topk is None: --speculative-num-steps was given "
                "without --speculative-eagle-topk)",
                handler,
                ("speculative_num_steps",),
            )
        if topk is None:
            page = 1  # `page_size > 1 and ...` stops before reading topk
        if page is None:
            state.mark_unknown_speculative(
                "the page size is not known (a page size above 1 turns tree drafting off)"
            )
            return
        if page > 1:
            state.set(
                "speculative_eagle_topk",
                1,
                "a page size above 1 turns tree drafting off",
                handler,
                "speculative_eagle_topk is adjusted to 1 when page_size > 1",
            )
            topk = 1
    if topk == 1 and traits.topk_one_forces_draft_tokens:
        assert steps is not None  # known by now: given, or auto-chosen above
        if draft != steps + 1:
            state.set(
                "speculative_num_draft_tokens", steps + 1, "topk 1 forces steps + 1", handler, _TOPK1_LOG
            )
    if not traits.page_tree_backends:
        return
    if topk is None:
        raise Stop(
            "TypeError",
            "'>' not supported between instances of 'NoneType' and 'int' "
            "(speculative_eagle_topk is None: --speculative-num-steps was given without "
            "--speculative-eagle-topk)",
            handler,
            ("speculative_num_steps",),
        )
    page_size = resolved_page_size(state, traits)
    backend = state.get("attention_backend")
    if (
        topk > 1
        and isinstance(page_size, int)
        and page_size > 1
        and read_backend(state, backend)
        and backend not in traits.page_tree_backends
    ):
        raise Stop(
            "ValueError",
            f"speculative_eagle_topk > 1 with page_size > 1 is only "
            f"supported on {traits.page_tree_backends}; got attention_backend={backend!r}.",
            handler,
            ("speculative_eagle_topk", "page_size", "attention_backend"),
            TREE_DRAFT_BACKEND,
        )


def _count(value: object) -> int | None:
    """A known speculative count: an int, or None where the launch left it unset."""
    assert value is None or isinstance(value, int), value
    return value


def _topk_one_relation(
    state: ResolutionState, handler: str, steps: object, topk: object, draft: object
) -> None:
    """topk 1 with steps and draft tokens unknown but related (`steps=k, draft=k`): SGLang
    sets draft = steps + 1 whatever k is, so the relation says whether it changes it."""
    if (
        topk != 1
        or not isinstance(steps, Unknown)
        or not isinstance(draft, Unknown)
        or steps.identity is None
        or draft.identity is None
        or not steps.identity.same_value(draft.identity)
    ):
        return
    used = steps.identity.shifted(1)
    if draft.identity.plus != used.plus:
        state.set(
            "speculative_num_draft_tokens",
            Unknown("speculative_num_steps + 1", used),
            "topk 1 forces steps + 1",
            handler,
            _TOPK1_LOG,
        )


def _auto_params(
    state: ResolutionState, traits: ReleaseTraits, algorithm: str, arch: str | None
) -> tuple[int, int, int] | None:
    if algorithm == "STANDALONE" and traits.standalone_params:
        return traits.standalone_params
    if arch is None:
        return None
    if arch in LARGE_TREE_ARCHITECTURES:
        return (5, 4, 8)
    if arch in traits.small_tree_architectures:
        return (3, 1, 4)
    return traits.other_architectures_params


def _eagle_overlap(state: ResolutionState, traits: ReleaseTraits, algorithm: str) -> None:
    if traits.eagle_overlap == "disabled":
        state.set(
            "disable_overlap_schedule",
            True,
            "EAGLE speculative decoding does not run with the overlap scheduler in this release",
            "__post_init__",
            "Overlap scheduler is disabled because of using eagle speculative decoding.",
        )
    elif traits.eagle_overlap in ("spec_v2_env", "spec_v2_listed", "beta_spec"):
        spec_v2 = (
            _env_flag(state, "SGLANG_ENABLE_SPEC_V2")
            if traits.eagle_overlap != "beta_spec"
            else state.config.value("enable_beta_spec", False)
        )
        if not state.config.known("enable_beta_spec") and traits.eagle_overlap == "beta_spec":
            spec_v2 = Unknown("--enable-beta-spec is not readable")
        if isinstance(spec_v2, Unknown):
            state.set_unknown("disable_overlap_schedule", spec_v2.reason)
            return
        if algorithm in traits.spec_v2_algorithms and spec_v2:
            state.set(
                "disable_overlap_schedule",
                False,
                f"SGLANG_ENABLE_SPEC_V2 turns the overlap scheduler on for {algorithm}",
                "_handle_speculative_decoding",
            )
            topk = state.get("speculative_eagle_topk")
            if traits.spec_v2_topk_one and isinstance(topk, int) and topk > 1:
                raise Stop(
                    "ValueError",
                    "Spec v2 currently only supports topk = 1 for speculative decoding.",
                    "_handle_speculative_decoding",
                    ("speculative_eagle_topk",),
                    TREE_DRAFT_BACKEND,
                )
        if traits.eagle_overlap == "spec_v2_listed" and not (
            spec_v2 and algorithm in traits.spec_v2_algorithms
        ):
            state.set(
                "disable_overlap_schedule",
                True,
                f"{algorithm} runs without the overlap scheduler"
                + (" (spec v2 covers only " + ", ".join(traits.spec_v2_algorithms) + ")" if spec_v2 else ""),
                "_handle_speculative_decoding",
                "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative "
                "algorithm. You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental "
                "overlap scheduler. ",
            )
        elif not spec_v2:
            state.set(
                "disable_overlap_schedule",
                True,
                "without SGLANG_ENABLE_SPEC_V2, EAGLE-"
                "family speculative decoding disables the overlap scheduler",
                "_handle_speculative_decoding",
                "Overlap scheduler is disabled because of using eagle3 or standalone speculative decoding.",
            )
    elif traits.eagle_overlap == "spec_v2_default":
        # 0.5.12 `_handle_speculative_decoding`: spec v2 (with the overlap scheduler) unless a
        # given topk > 1 or SGLANG_ENABLE_SPEC_V2 is false
        topk = state.get("speculative_eagle_topk")
        spec_v2 = _env_flag(state, "SGLANG_ENABLE_SPEC_V2") if "SGLANG_ENABLE_SPEC_V2" in state.env else True
        if not is_known(topk) or not is_known(spec_v2):
            state.set_unknown("disable_overlap_schedule", "depends on a value speclint cannot read")
        elif (isinstance(topk, int) and topk > 1) or not spec_v2:
            state.set(
                "disable_overlap_schedule",
                True,
                "spec v1 (no overlap scheduler): "
                + ("spec v2 only supports topk = 1" if spec_v2 else "SGLANG_ENABLE_SPEC_V2 is false"),
                "_handle_speculative_decoding",
            )
    elif state.get("device") == "cpu" and traits.cpu_disables_overlap:
        state.set(
            "disable_overlap_schedule",
            True,
            "no overlap scheduler for speculative decoding on CPU",
            "_disable_overlap_schedule_for_cpu",
            "Overlap schedule is not implemented for speculative decoding on CPU.",
        )

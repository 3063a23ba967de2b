"""SGLang's speculative-decoding resolution, step for step, per release.

Follows `handle_speculative_decoding` / `_handle_eagle_family` / `_handle_ngram` /
`_handle_dflash` (0.5.14, 0.5.23: `arg_groups/speculative_hook.py`; 0.5.6.post2:
`ServerArgs._handle_speculative_decoding`; 0.4.10.post2: `ServerArgs.__post_init__`).
This module picks the algorithm; each family's handler is a module of its own
(speculative_eagle, speculative_ngram, speculative_dflash).
"""

from __future__ import annotations

from speclint.sglang.resolve.result import UNKNOWN_ALGORITHM, Unknown, is_known
from speclint.sglang.resolve.speculative_eagle import resolve_eagle_family
from speclint.sglang.resolve.state import Stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.resolve.state import ResolutionState


def resolve_speculative(state: ResolutionState) -> None:
    _resolve_speculative(state)
    _pipeline_overlap(state)


def _pipeline_overlap(state: ResolutionState) -> None:
    """`_pipeline_parallel_overlap_disable` (0.5.23 arg_groups/overrides.py; B8 for 0.5.14):
    pipeline parallelism turns the overlap scheduler off, with or without speculative
    decoding (the oracle, tests/test_oracle_differential.py, reports True for --pp-size 2)."""
    pp_size = state.get("pp_size")
    if (
        "disable_overlap_schedule" not in state.values
        or state.get("disable_overlap_schedule") is True
        or pp_size is None
        or pp_size == 1
    ):
        return
    if not is_known(pp_size) or not isinstance(pp_size, int):
        state.set_unknown("disable_overlap_schedule", "--pp-size is not readable")
    elif not state.traits.pp_disables_overlap:
        state.set_unknown(
            "disable_overlap_schedule",
            f"SGLang {state.version} resolves with the overlap scheduler as given, then "
            "check_server_args turns it off for pipeline parallelism (--pp-size > 1) before "
            "the server starts",
        )
    elif pp_size > 1:
        state.set(
            "disable_overlap_schedule",
            True,
            "pipeline parallelism is incompatible with the overlap scheduler",
            "_pipeline_parallel_overlap_disable",
            "Pipeline parallelism is incompatible with overlap schedule.",
        )


def _resolve_speculative(state: ResolutionState) -> None:
    traits = state.traits
    algorithm = state.get("speculative_algorithm")
    if isinstance(algorithm, Unknown):
        state.mark_unknown_speculative(algorithm.reason)
        return
    if (
        traits.draft_revision_main
        and state.get("speculative_draft_model_path") is not None
        and state.get("speculative_draft_model_revision") is None
    ):
        state.set(
            "speculative_draft_model_revision",
            "main",
            "a draft path without a revision uses the draft's `main` branch",
            "handle_speculative_decoding",
        )
    if algorithm is None:
        return
    assert isinstance(algorithm, str)  # argparse reads the name as a string
    if traits.upper_cases_algorithm and algorithm != algorithm.upper():
        state.set(
            "speculative_algorithm",
            algorithm.upper(),
            "SGLang upper-cases the algorithm name",
            "handle_speculative_decoding",
        )
        algorithm = algorithm.upper()
    if algorithm == "NEXTN":
        if not traits.nextn_kept:  # 0.4.3.post1-0.4.3.post2 resolve it as EAGLE, named NEXTN
            state.set(
                "speculative_algorithm",
                "EAGLE",
                "NEXTN is an alias of EAGLE",
                "_resolve_speculative_algorithm_alias",
            )
        algorithm = "EAGLE"
    if algorithm not in traits.known_algorithms:
        if traits.upper_cases_algorithm:
            raise Stop(
                "ValueError",
                f"Unknown speculative algorithm name: {algorithm}",
                "SpeculativeAlgorithm.from_string",
                ("speculative_algorithm",),
                UNKNOWN_ALGORITHM,
            )
        return  # older releases: argparse choices refuse it before resolution
    if traits.models_adaptive and state.get("speculative_adaptive") is True:
        from speclint.sglang.resolve.adaptive import resolve_adaptive  # (each algorithm's own: when used)

        resolve_adaptive(state, algorithm)
    if algorithm in traits.eagle_family:
        resolve_eagle_family(state, traits, algorithm)
    elif algorithm == "NGRAM" and traits.has_ngram:
        from speclint.sglang.resolve.speculative_ngram import resolve_ngram

        resolve_ngram(state, traits)
    elif algorithm == "DFLASH" and traits.has_dflash:
        from speclint.sglang.resolve.speculative_dflash import resolve_dflash

        resolve_dflash(state)
    else:
        state.mark_unknown_speculative(f"speclint does not model {algorithm} yet")

"""The constant defaults (defaults.py `CONSTANTS`) explain still states beside flags outside the
modelled envelope (hardware_flags.outside_dests): where no statement of the release's resolution
that sets the field reads any of those flags (server_fields.influencers, read from the release by
tools/sglang_field_influence.py), the field gets the value the modelled launches get. Oracle
(record.py a2a_cp seeds 23003 and 23005-23006 on 0.5.21-0.5.23, the stored seeds and recordings,
`differential.py --defaults`): no value difference; the unknown constants beside
--moe-a2a-backend are those its resolution sets from a flag given (--disaggregation-mode: the
load-balance method, ...), with that cause."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

    from speclint.sglang.resolve.state import ResolutionState

WORKED_BESIDE = (
    "enable_dp_lm_head",
    "cuda_graph_bs",
    "sampling_backend",
    "piecewise_cuda_graph_max_tokens",
    "piecewise_cuda_graph_tokens",
)
"""Fields outside CONSTANTS that speclint works out from modelled fields and states beside flags
outside the model where the release's influencers of the field (read for these too by
tools/gen_sglang_server_fields.py) name none of them (`clear_beside`): the DP LM head from the
data-parallel sizes (defaults.py `_dp_lm_head`), the decode CUDA-graph batch sizes from their
largest (a2a_decode_graph.py), the sampling backend's FlashInfer on CUDA (beside_reads.py
`sampling_beside`, where its writers name more than it allows: 0.5.6-0.5.14's deterministic
handler), the piecewise (prefill) CUDA graphs' sizes of 0.5.13.post1 and older (a2a_decode_graph.py
`_prefill_beside`, under the release's names). Oracle: a2a seeds 29003 and 29009, tools/oracle/README.md
"Session 30"."""


def clear_beside(state: ResolutionState, field: str) -> bool:
    """Whether flags outside the model are given (hardware_flags.outside_dests) and none of them,
    nor `field` itself, is among the release's influencers of `field` (read: a `WORKED_BESIDE`
    field), so that the value the modelled launches get is SGLang's."""
    import speclint.sglang.resolve.hardware_flags as hardware_flags
    from speclint.sglang.server_fields import influencers

    outside = hardware_flags.outside_dests(state.config)
    found = influencers(state.checked_version).get(field) if outside else None
    return found is not None and outside.keys().isdisjoint(found | {field})


def constant_beside(
    state: ResolutionState,
    constants: Collection[str],
    architectures: Collection[str],
    lacking: Collection[str],
) -> tuple[dict[str, str], dict[str, str]]:
    """The CONSTANTS still stated beside flags outside the model (hardware_flags.outside_dests):
    those the release's resolution gives a value no such flag given can change (the fields that
    may change each, read from the release: server_fields.influencers), on a modelled target ->
    why. Not those the modelled launches get otherwise: the multimodal feature transport where the
    release picks its own (`_feature_transport`), the all-reduce fusion flag before
    --flashinfer-allreduce-fusion-backend (`allreduce_flag.fusion_flag`). Second: for the others
    whose influencers were read, the flags given among them (the cause of the Unknown).
    `constants`: defaults.py's CONSTANTS, `architectures` the modelled targets, `lacking` the
    fields the release lacks (passed in: defaults.py imports this module)."""
    if state.target_architecture not in architectures:
        return {}, {}
    import speclint.sglang.resolve.hardware_flags as hardware_flags
    from speclint.sglang.server_fields import influencers

    outside = hardware_flags.outside_dests(state.config)
    read = influencers(state.checked_version) if outside else {}
    out: dict[str, str] = {}
    causes: dict[str, str] = {}
    version = state.checked_version
    for name, found in read.items():
        if name not in constants or found is None:
            continue
        if not outside.keys().isdisjoint(found | {name}):
            flags = ", ".join(outside[d] for d in sorted(outside.keys() & (found | {name})))
            causes[name] = (
                f"SGLang {version}'s resolution sets it from {flags} (read from the release), "
                "which speclint does not model"
            )
            continue
        if (
            name == "mm_feature_transport"
            and state.gpu_logic is not None
            and state.gpu_logic.mm_feature_transport
        ):
            continue
        if name == "enable_flashinfer_allreduce_fusion" and "flashinfer_allreduce_fusion_backend" in lacking:
            continue  # not a constant there: allreduce_flag.fusion_flag works it out
        flags = ", ".join(outside[dest] for dest in sorted(outside))
        out[name] = (
            f"no statement of SGLang {version}'s resolution that sets it reads {flags} (read from the release)"
        )
    return out, causes

"""What differs between SGLang releases in argument resolution: one `ReleaseTraits` entry
per modelled release, so handlers read named facts instead of comparing version strings.

Each entry was read in that release's source (`server_args.py`, 0.5.23's `arg_groups/`
hooks, in the wheel on PyPI); see ../shared/reference/sglang-behaviours.md B4-B10. Every
field is required, so a new release's entry has to state each fact.
"""

from __future__ import annotations

from _collections_abc import MutableMapping  # (as os.py does: collections.abc is an import more)
from functools import lru_cache

from speclint.sglang.release_traits import ReleaseTraits
from speclint.sglang.traits_backends import RECORDED_BACKEND_FACTS
from speclint.sglang.traits_checks import CHECK_FACTS
from speclint.sglang.traits_differential import DIFFERENTIAL_FACTS
from speclint.sglang.traits_features import FEATURE_FACTS
from speclint.sglang.traits_read import READ_TRAITS
from speclint.sglang.traits_read_names import A2A_0_5_17
from speclint.sglang.traits_refusals import REFUSAL_FACTS
from speclint.sglang.traits_whole import WHOLE_LIKE as _WHOLE_LIKE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    _Like = tuple[str, dict[str, Any]]


def _like(release: str, **changes: Any) -> _Like:  # ReleaseTraits fields, any of them
    """`release`'s traits with `changes` (`gpu_resolution` is then set from
    speclint.sglang.gpu_resolution, in `_Traits`)."""
    return release, changes


def _replaced(traits: ReleaseTraits, changes: dict[str, Any]) -> ReleaseTraits:
    """`dataclasses.replace(traits, **changes)`: every field of ReleaseTraits is an init field
    and nothing else is set on it, so its instance dict holds exactly its fields (replace's
    loop over the 65 fields, ~100 times, was ~2 ms of a cold run)."""
    return type(traits)(**{**vars(traits), **changes})


_SPEC_0_5_12 = dict(
    eagle_overlap="spec_v2_default",
    ngram_disables_overlap=True,
    ngram_sets_steps=False,
    dflash_disables_overlap=True,
    page_tree_backends=("flashinfer", "fa3"),
)
"""0.5.11-0.5.12 server_args.py: spec v1 (overlap off) for a given topk > 1; NGRAM turns the
overlap scheduler off and leaves steps unset; DFLASH turns it off; paged trees only on
flashinfer and fa3 (`attention_backend not in ["flashinfer", "fa3"]`)."""
_PARALLEL_0_5_14 = dict(parallel_steps=READ_TRAITS["0.5.14"].parallel_steps, separate_attn_dp_size=False)
"""`_handle_data_parallelism` where --dp-size is still the attention-DP size (0.5.20-0.5.21)."""

_DFLASH_0_5_17 = dict(dflash_full_handler=False, dflash_device_check=True)
"""0.5.17-0.5.22 `_handle_dflash` (speculative_hook.py): a device check, then attention DP
refused outright ("Currently DFLASH speculative decoding does not support dp attention", 0.5.20+
"... on non-NPU devices"), not 0.5.23's --enable-dp-lm-head requirement."""

# Releases recorded by tools/oracle (tests/data/oracle): each entry is the closest read
# release's with the differences its recording shows (tests/test_oracle_recordings.py
# checks every launch), and the source lines named.
_RECORDED: tuple[dict[str, _Like], ...] = (
    {
        # __post_init__: auto_choose_speculative_params returns (5, 4, 8) for every
        # architecture; only DeepseekV3 takes its own path as the draft; "page_size > 1 and
        # speculative_eagle_topk > 1" sets topk 1; mixed chunk is left on.
        "0.4.6.post5": _like(
            "0.4.10.post2",
            small_tree_architectures=(),
            mtp_draft_from_target=("DeepseekV3ForCausalLM",),
            eagle_disables_mixed_chunk=False,
            page_forces_topk_one=True,
            deepep_auto_refuses_dp_attention=True,
        ),
        # recorded: as 0.4.10.post2, and `_handle_speculative_decoding` refuses topk > 1 on
        # trtllm_mha
        "0.5.1.post3": _like("0.4.10.post2", has_trtllm_mha_check=True),
        # speculative decoding as 0.5.3.post3 (its --enable-ep-moe / --enable-deepep-moe
        # rewriting is a counted known difference in tests/test_oracle_recordings.py), but
        # without --enable-beta-spec: `__post_init__` turns the overlap scheduler off for
        # EAGLE, EAGLE3 and STANDALONE unconditionally (0.5.2 server_args.py L723-735)
        "0.5.2": _like(
            "0.5.6.post2",
            eagle_overlap="disabled",
            draft_revision_main=False,
            page_tree_backends=("flashinfer",),
            trtllm_mha_pages=(16, 32, 64),
            dp_lm_head_asserts=True,
        ),
        # server_args.py `_handle_speculative_decoding`: --enable-beta-spec keeps the overlap
        # scheduler for EAGLE; the draft revision stays None; topk > 1 with pages > 1 only on
        # flashinfer; NGRAM as 0.5.6.post2
        "0.5.3.post3": _like(
            "0.5.6.post2",
            eagle_overlap="beta_spec",
            draft_revision_main=False,
            page_tree_backends=("flashinfer",),
            trtllm_mha_pages=(16, 32, 64),
        ),
        # as 0.5.6.post2, without the draft revision default
        "0.5.4.post3": _like("0.5.6.post2", draft_revision_main=False, page_tree_backends=("flashinfer",)),
        "0.5.5.post3": _like("0.5.6.post2", draft_revision_main=False, page_tree_backends=("flashinfer",)),
        # recorded: resolves every battery launch as 0.5.23 does, the GPU-dependent fields
        # (memory, CUDA graphs, attention backend) on the H100 and the B200 included
        "0.5.22": _like("0.5.23", **_DFLASH_0_5_17),
        # server_args.py: SGLANG_ENABLE_SPEC_V2 also covers EAGLE3 and refuses a given topk > 1;
        # every other algorithm turns the overlap scheduler off, spec v2 or not ("Overlap
        # scheduler is disabled when spec v2 is off or using unsupported speculative
        # algorithm.", 0.5.7-0.5.10.post1 `_handle_speculative_decoding`)
        "0.5.7": _like(
            "0.5.6.post2",
            eagle_overlap="spec_v2_listed",
            spec_v2_algorithms=("EAGLE", "EAGLE3"),
            spec_v2_topk_one=True,
        ),
        # and auto_choose_speculative_params gives (3, 1, 4) to architectures it does not list;
        # spec v2 covers STANDALONE too (0.5.8-0.5.10.post1: `in ["EAGLE", "EAGLE3", "STANDALONE"]`)
        "0.5.8.post1": _like(
            "0.5.6.post2",
            eagle_overlap="spec_v2_listed",
            spec_v2_algorithms=("EAGLE", "EAGLE3", "STANDALONE"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
        ),
        # recorded: as 0.5.8.post1
        "0.5.9": _like(
            "0.5.6.post2",
            eagle_overlap="spec_v2_listed",
            spec_v2_algorithms=("EAGLE", "EAGLE3", "STANDALONE"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
        ),
        # as 0.5.9, and NGRAM's default draft tokens are 12
        "0.5.10.post1": _like(
            "0.5.6.post2",
            eagle_overlap="spec_v2_listed",
            spec_v2_algorithms=("EAGLE", "EAGLE3", "STANDALONE"),
            spec_v2_topk_one=True,
            other_architectures_params=(3, 1, 4),
            ngram_default_draft_tokens_flag=None,
        ),
        "0.5.11": _like("0.5.14", **_SPEC_0_5_12),
        "0.5.12.post1": _like("0.5.14", **_SPEC_0_5_12),
        # NGRAM and DFLASH as 0.5.12.post1, EAGLE as 0.5.14
        "0.5.13.post1": _like(
            "0.5.14", ngram_disables_overlap=True, ngram_sets_steps=False, dflash_disables_overlap=True
        ),
        # as 0.5.14, and DFLASH resolves its draft attention backend
        "0.5.15.post1": _like("0.5.14", dflash_draft_backend=True),
        "0.5.16": _like("0.5.14", dflash_draft_backend=True),
        # 0.5.17: `_handle_a2a_moe` runs `_a2a_ep_size`, which now logs "... adjusted from
        # {ep} to the tensor parallel size [{tp}]." at INFO and spans pplx too (its own
        # per-backend lines are gone): `a2a_spanning` read (gen_sglang_moe_defaults.py
        # `a2a_spanning`), recorded (seed a2a-18001: pplx ep_size 8)
        "0.5.17": _like(
            "0.5.14",
            dflash_draft_backend=True,
            dflash_device_check=True,
            a2a_spanning=A2A_0_5_17,
            a2a_ep_size_hook=True,
            a2a_info_backends=(),
        ),
        # speculative decoding as 0.5.23; the parallel layout still 0.5.14's
        # (`_handle_data_parallelism`: --dp-size is the attention-DP size)
        # as 0.5.19, and EAGLE still turns mixed chunked prefill off
        "0.5.18": _like(
            "0.5.23",
            **_PARALLEL_0_5_14,
            **_DFLASH_0_5_17,
            eagle_disables_mixed_chunk=True,
            dflash_disables_mixed_chunk=True,
            multinode_dp_check="unless_dp_attention",
        ),
        "0.5.19": _like(
            "0.5.23", **_PARALLEL_0_5_14, **_DFLASH_0_5_17, multinode_dp_check="unless_dp_attention"
        ),
        "0.5.20": _like(
            "0.5.23", **_PARALLEL_0_5_14, **_DFLASH_0_5_17, multinode_dp_check="unless_dp_attention"
        ),
        "0.5.21": _like(
            "0.5.23", **_PARALLEL_0_5_14, **_DFLASH_0_5_17, multinode_dp_check="unless_dp_attention"
        ),
    },
    # read as the first table left the releases (0.4.6.post5 is one of its)
    {
        # recorded (session 6): as 0.4.6.post5, but a DeepSeek-V3 MTP draft is not taken from
        # the target (0.4.6 `__post_init__` has no "Auto set draft_model_path" block)
        "0.4.6": _like("0.4.6.post5", mtp_draft_from_target=()),
        # recorded (session 12): as 0.4.6.post5, but `auto_choose_speculative_params(self)`
        # gives DeepseekV3/DeepseekV2 (3, 1, 4) and EAGLE turns --enable-mixed-chunk off
        # ("Mixed chunked prefill is disabled because of using eagle speculative decoding.",
        # 0.4.7 server_args.py `__post_init__`)
        "0.4.7": _like(
            "0.4.6.post5",
            small_tree_architectures=("DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM"),
            eagle_disables_mixed_chunk=True,
        ),
        # recorded (session 6): as 0.4.10.post2, but --enable-ep-moe leaves ep_size alone
        # (0.4.10 `__post_init__` has no deprecated-argument block; only --enable-deepep-moe
        # sets ep_size = tp_size)
        "0.4.10": _like("0.4.10.post2", ep_moe_sets_ep_size=False),
        # recorded (session 6): no speculative decoding, pipeline or MoE flags yet;
        # `__post_init__` as parallel.py `_post_init_dp_is_tp`
        "0.4.0": _like(
            "0.4.6.post5",
            mtp_draft_from_target=(),
            parallel_steps="post_init_dp_is_tp",
            multinode_dp_check="any",
        ),
    },
    {
        # recorded (session 12): as 0.4.0 (0.4.0.post2-0.4.1.post1 share its `__post_init__`
        # and `check_server_args`), with --enable-ep-moe, which sets ep_size = tp_size
        "0.4.1": _like("0.4.0"),
        # recorded (session 12): 0.4.9.post6's `__post_init__` and `check_server_args` are
        # 0.4.10's but for its first block, "EP MoE is enabled": --enable-ep-moe sets
        # ep_size = tp_size
        "0.4.9.post6": _like("0.4.10", ep_moe_sets_ep_size=True),
    },
)
"""Release -> (the release it is like, its differences). A table's entries are made from the
releases as the tables before it define them, as the oracle's recordings were fitted."""

_LATER: dict[str, dict[str, Any]] = {}  # each release's changes from all tables, in order:
for _changes in (
    *RECORDED_BACKEND_FACTS,
    CHECK_FACTS,
    REFUSAL_FACTS,
    FEATURE_FACTS,
    DIFFERENTIAL_FACTS,
):  # one new entry per release, not per table
    for _release, _fields in _changes.items():
        _LATER.setdefault(_release, {}).update(_fields)


def _defined(release: str, tables: int) -> ReleaseTraits:
    """`release`'s traits as the first `tables` tables of `_RECORDED` define it (the read ones
    before any), without the later facts."""
    for table in reversed(_RECORDED[:tables]):
        entry = table.get(release)
        if entry is not None:
            return _replaced(_defined(entry[0], _RECORDED.index(table)), entry[1])
    return READ_TRAITS[release]


class _Traits(MutableMapping[str, ReleaseTraits]):
    """Release -> its traits, each entry made on first use: a lint resolves against one or two
    releases, and making all ~30 (65 fields each, most twice) was ~4% of a cold run."""

    def __init__(self) -> None:
        self._made: dict[str, ReleaseTraits | None] = dict.fromkeys(READ_TRAITS)
        for table in _RECORDED:
            self._made.update(dict.fromkeys(table))
        self._made.update(dict.fromkeys(_WHOLE_LIKE))
        unknown = set(_LATER) - set(self._made)
        if unknown:
            raise KeyError(f"facts for releases not modelled: {sorted(unknown)}")

    def __getitem__(self, release: str) -> ReleaseTraits:
        made = self._made[release]
        if made is None and release in _WHOLE_LIKE:
            base, changes = _WHOLE_LIKE[release]
            made = self._made[release] = _replaced(self[base], changes)
        if made is None:
            made = _defined(release, len(_RECORDED))
            if release in _LATER:
                made = _replaced(made, _LATER[release])
            from speclint.sglang.gpu_resolution import gpu_logic

            if made.gpu_resolution != (gpu_logic(release) is not None):  # read: gpu_resolution.py
                made = _replaced(made, {"gpu_resolution": not made.gpu_resolution})
            self._made[release] = made
        return made

    def __setitem__(self, release: str, traits: ReleaseTraits) -> None:
        self._made[release] = traits

    def __delitem__(self, release: str) -> None:
        del self._made[release]

    def __contains__(self, release: object) -> bool:
        return release in self._made

    def __iter__(self) -> Iterator[str]:
        return iter(self._made)

    def __len__(self) -> int:
        return len(self._made)


TRAITS: MutableMapping[str, ReleaseTraits] = _Traits()
"""Every modelled release: those read in their source, and those recorded by the oracle."""

LARGE_TREE_ARCHITECTURES = ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM")


@lru_cache(maxsize=256)
def modelled_release(version: str) -> str:
    """The modelled release whose resolution stands for `version`: itself when modelled,
    else the closest modelled release not newer than it (the oldest modelled one for
    releases before it). `speclint explain` says so when it differs."""
    if version in TRAITS:
        return version
    from speclint.sglang.flags.versions import version_key

    wanted = version_key(version)
    older = [v for v in TRAITS if version_key(v) <= wanted]
    return max(older, key=version_key) if older else min(TRAITS, key=version_key)


def traits_for(version: str) -> ReleaseTraits:
    """The traits SGLang `version` resolves with (its modelled release's)."""
    return TRAITS[modelled_release(version)]

"""Per-release facts session 9's refusal differential found wrong (tools/oracle/differential.py,
battery seeds 9101 and 9102), each read in the release's server_args.py and confirmed by the
recording named. traits.py applies them after the other tables."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_NO_DRAFT_REVISION_COPY = {"copies_revision_to_draft": False}
"""The MTP "Auto set draft_model_path" block sets `speculative_draft_model_path =
self.model_path` but not the draft revision: `self.speculative_draft_model_revision =
self.revision` first appears in 0.5.6 (recorded: 0.5.2 leaves it None with --revision r1)."""

DIFFERENTIAL_FACTS: dict[str, dict[str, Any]] = {
    **{
        release: _NO_DRAFT_REVISION_COPY for release in ("0.5.2", "0.5.3.post3", "0.5.4.post3", "0.5.5.post3")
    },
    # arg_groups/model_override_base.py `get_default_attn_backend`: on SM100 an MHA model gets
    # trtllm_mha also when speculative decoding gives no topk if `_forces_eagle_topk_one`
    # (DFLASH, whose topk `_handle_dflash` sets later); 0.5.23 only (recorded: B200,
    # Qwen3-8B, DFLASH, --page-size 32 -> trtllm_mha)
    "0.5.23": {"auto_backend_choice": "given_topk_or_dflash"},
}

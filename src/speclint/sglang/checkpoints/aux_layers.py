"""Which target layers SGLang captures for an EAGLE-3 drafter (reference B2), per release.

SGLang's decoder loop captures the *input* of layer i (`if i in layers_to_capture`), i.e. the
output of layer i-1. Each target class turns the drafter's eagle_config ids into
`layers_to_capture` in its `set_eagle3_layers_to_capture`:
- default (no ids): [2, L//2, L-3] for every class in the tables here;
- Llama-style (most classes): id + 1;
- DeepSeek-V2/V3, Kimi-K2.5, GLM-4-MoE-Lite from 0.5.14: id + 1 only when the first id is 1,
  otherwise used as-is (0.5.6.post2 deepseek_v2.py still adds 1);
- GPT-OSS in 0.5.23: as-is when max(ids) == L, otherwise + 1.
"""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import LaunchContext

PLUS_ONE = "plus_one"
DEEPSEEK = "deepseek_first_id"
GPT_OSS = "gpt_oss_max"

_CONVENTION_WORDS = {
    PLUS_ONE: "Llama convention: id + 1",
    DEEPSEEK: "DeepSeek convention: + 1 only when the first id is 1",
    GPT_OSS: "GPT-OSS convention: as-is when the largest id is the depth, else + 1",
}


def capture_family(version: str, architecture: str | None) -> str | None:
    """How this release's target class converts ids, or None when the class has no
    `set_eagle3_layers_to_capture` there (or speclint does not know it): read from the
    release's wheel (speclint.sglang)."""
    from speclint.sglang import release

    family = release(version).capture_family(architecture)
    return family if family in _CONVENTION_WORDS else None


def indexes_layers(version: str, architecture: str | None) -> bool:
    from speclint.sglang import release

    return release(version).indexes_layers(architecture)


def default_capture(num_layers: int) -> list[int]:
    return [2, num_layers // 2, num_layers - 3]


@dataclass(frozen=True, slots=True)
class AuxCapture:
    """Which target layers SGLang captures for an EAGLE-3 drafter."""

    layers: list[int]
    """SGLang's layers_to_capture: decoder layers whose input is captured."""
    num_layers: int
    ids: list[int] | None
    """The drafter's eagle_config ids, or None (SGLang's default)."""
    family: str
    how: str

    @property
    def missing(self) -> list[int]:
        """Entries the decoder loop never reaches (i runs over 0..L-1; GPT-OSS in 0.5.23 also
        captures the final output when L is listed)."""
        limit = self.num_layers + 1 if self.family == GPT_OSS else self.num_layers
        return [layer for layer in self.layers if layer < 0 or layer >= limit]

    def describe(self) -> str:
        outputs = [layer - 1 for layer in self.layers]
        where = f"inputs of layers {self.layers} of {self.num_layers}, i.e. outputs of layers {outputs}"
        if self.missing:
            where += f"; {self.missing} are past the last layer and never captured"
        if self.ids is None:
            return where + " (SGLang's default [2, L//2, L-3]: the drafter has no eagle_config ids)"
        return f"{where} (from eagle_config ids {self.ids}, {self.how})"


def aux_capture(
    version: str, architecture: str | None, num_layers: int | None, ids: list[int] | None
) -> AuxCapture | None:
    """What `set_eagle3_layers_to_capture(ids)` sets, or None when unknown."""
    family = capture_family(version, architecture)
    if family is None or not num_layers:
        return None
    if ids is None:
        return AuxCapture(default_capture(num_layers), num_layers, None, family, "default")
    if family == DEEPSEEK and not (ids and ids[0] == 1):
        return AuxCapture(
            list(ids),
            num_layers,
            ids,
            family,
            "DeepSeek convention: used as-is because the first id is not 1",
        )
    if family == GPT_OSS and ids and max(ids) == num_layers:
        return AuxCapture(
            list(ids),
            num_layers,
            ids,
            family,
            "GPT-OSS convention: used as-is because the largest id is the depth",
        )
    words = {
        PLUS_ONE: "Llama convention: id + 1",
        DEEPSEEK: "DeepSeek convention: the first id is 1, so id + 1",
        GPT_OSS: "GPT-OSS convention: id + 1",
    }[family]
    return AuxCapture([i + 1 for i in ids], num_layers, ids, family, words)


def convention_words(family: str) -> str:
    return _CONVENTION_WORDS[family]


def capture_for_launch(ctx: LaunchContext) -> AuxCapture | None:
    """The aux capture of an EAGLE3 launch whose target and drafter configs are on disk."""
    from speclint.sglang.checkpoints.drafter import aux_layer_ids, uses_aux_hidden_state

    resolution = ctx.resolution
    algorithm = resolution.effective.get("speculative_algorithm") if resolution else None
    target, draft = ctx.target, ctx.draft
    if algorithm != "EAGLE3" or target is None or draft is None:
        return None
    if target.config is None or draft.config is None or not uses_aux_hidden_state(draft.config):
        return None
    return aux_capture(
        ctx.version.version, target.architecture, target.config.num_hidden_layers, aux_layer_ids(draft.config)
    )

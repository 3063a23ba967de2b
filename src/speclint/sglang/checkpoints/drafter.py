"""What kind of speculative head a drafter is, and why we think so.

SGLang builds the draft module from the draft config's `architectures[0]`, but the speculative
algorithm alone decides whether the target captures aux hidden states (`is_eagle3()` in every
release read). So the kind must come from the drafter itself: its class name, its config
keys, and the width of `fc.weight` in its local weights (some published EAGLE-3 drafters
say `LlamaForCausalLM`; the weights still tell).
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.runner.depends import looked_up

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.checkpoints.weights import WeightsSummary

EAGLE3 = "EAGLE3"
EAGLE = "EAGLE"

EAGLE3_CLASSES = ("LlamaForCausalLMEagle3", "Eagle3DeepseekV2ForCausalLM")
"""EAGLE-3 draft classes registered by SGLang (llama_eagle3.py; kimi_k25_eagle3.py 0.5.14+)."""
EAGLE_CLASSES = (
    "LlamaForCausalLMEagle",
    "Qwen2ForCausalLMEagle",
    "MistralForCausalLMEagle",
    "MistralLarge3ForCausalLMEagle",
)
"""EAGLE-1/2 draft classes: fc is Linear(2 × hidden, hidden) (llama_eagle.py, qwen2_eagle.py,
mistral_eagle.py, mistral_large_3_eagle.py)."""


@dataclass(frozen=True, slots=True)
class DrafterKind:
    """What a drafter checkpoint was trained as (EAGLE-3 or EAGLE), and the evidence."""

    kind: str | None
    """EAGLE3, EAGLE (1/2) or None when nothing says."""
    evidence: tuple[str, ...]
    """Why, in words: 'architecture LlamaForCausalLMEagle3', 'eagle_config', 'fc.weight [4096, 12288]'."""


@lru_cache(maxsize=64)
def _weights_cached(
    folder: str, stamp: tuple[tuple[str, int, int], ...]
) -> tuple[WeightsSummary | None, tuple[str, ...]]:
    """The summary and the files read or looked for to make it (noted again on every use, so
    each lint's record for the result cache is complete, not only the first one's)."""
    from speclint.runner.depends import recording
    from speclint.sglang.checkpoints.weights import summarise_weights

    with recording() as noted:
        summary = summarise_weights(folder)
    return summary, tuple(sorted(noted))


def drafter_weights(ref: object) -> WeightsSummary | None:
    """The safetensors summary of a located drafter (cached per folder and file times; in a
    `check` run, looked at once per folder: `depends.looked_up`)."""
    located = getattr(ref, "located", None)
    folder = getattr(located, "folder", None) if located is not None else None
    if not folder:
        return None
    return looked_up(("drafter weights", folder), lambda: _drafter_weights(folder))


def _drafter_weights(folder: str) -> WeightsSummary | None:
    from speclint.runner.depends import note

    stamp: list[tuple[str, int, int]] = []
    for name in ("model.safetensors", "model.safetensors.index.json"):
        try:
            info = os.stat(os.path.join(folder, name))
            stamp.append((name, info.st_mtime_ns, info.st_size))
        except OSError:
            pass
    if not stamp:
        note(os.path.join(folder, "model.safetensors"))  # weights that appear change the answer
        note(os.path.join(folder, "model.safetensors.index.json"))
        return None
    summary, read = _weights_cached(folder, tuple(stamp))
    for path in read:
        note(path)
    return summary


def input_hidden(config: ModelConfig) -> int | None:
    """The width of one aux hidden state the draft's fc expects: `target_hidden_size` if the
    config has it, else `hidden_size` (llama_eagle3.py `LlamaModel.__init__`, all releases)."""
    value = config.raw.get("target_hidden_size")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return config.hidden_size


def classify_drafter(config: ModelConfig, weights: WeightsSummary | None) -> DrafterKind:
    """EAGLE3 or EAGLE from the class, the weights, then the config keys."""
    arch = config.architecture or ""
    if arch in EAGLE3_CLASSES or arch.endswith("Eagle3") or arch.startswith("Eagle3"):
        return DrafterKind(EAGLE3, (f"its architecture is {arch}",))
    if arch in EAGLE_CLASSES or arch.endswith("Eagle"):
        return DrafterKind(EAGLE, (f"its architecture is {arch}",))
    config_says = [
        f"its config has {key}" for key in ("eagle_config", "draft_vocab_size") if key in config.raw
    ]
    width, hidden = (weights.fc_in_width if weights else None), input_hidden(config)
    if width and hidden and width % hidden == 0:
        fc_shape = weights.fc_shape if weights else None  # set: it gave the width
        shape = f"fc.weight is {list(fc_shape or ())} ({width // hidden} × hidden {hidden})"
        if width // hidden == 2 and not config_says:
            return DrafterKind(EAGLE, (shape,))
        if width // hidden >= 2:
            return DrafterKind(EAGLE3, (shape, *config_says))
    if config_says:
        return DrafterKind(EAGLE3, tuple(config_says))
    return DrafterKind(None, ())


def aux_layer_ids(config: ModelConfig) -> list[int] | None:
    """`eagle_config.eagle_aux_hidden_state_layer_ids` when it is a list of ints, the only
    place SGLang reads them (model_runner / spec_aux_hidden_state.py, all releases)."""
    eagle = config.eagle_config
    ids = eagle.get("eagle_aux_hidden_state_layer_ids") if eagle else None
    if isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        return list(ids)
    return None


def uses_aux_hidden_state(config: ModelConfig) -> bool:
    eagle = config.eagle_config
    return not (eagle and eagle.get("use_aux_hidden_state", True) is False)


def fc_aux_count(config: ModelConfig, version: str) -> int:
    """How many aux states the draft's fc takes (llama_eagle3.py, read per release): a fixed 3
    where it does not read `num_aux_hidden_states`; else that, else len(eagle_config ids),
    else 3."""
    from speclint.sglang import release

    if release(version).eagle3_aux_count_from_config is False:
        return 3
    if config.architecture == "Eagle3DeepseekV2ForCausalLM":
        # kimi_k25_eagle3.py `_get_eagle_aux_layer_count`: eagle_config ids, else top-level ids
        ids = aux_layer_ids(config) or top_level_ids(config)
        return len(ids) if ids else 3
    explicit = config.raw.get("num_aux_hidden_states")
    if isinstance(explicit, int) and not isinstance(explicit, bool) and explicit > 0:
        return explicit
    ids = aux_layer_ids(config)
    return len(ids) if ids else 3


def top_level_ids(config: ModelConfig) -> list[int] | None:
    """`eagle_aux_hidden_state_layer_ids` written at the top level of the config."""
    ids = config.raw.get("eagle_aux_hidden_state_layer_ids")
    if isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        return list(ids)
    return None

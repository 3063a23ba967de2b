"""Read a model's config.json defensively: it is input, and may be broken or hostile."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

MAX_CONFIG_BYTES = 4 * 1024 * 1024


@dataclass(slots=True)
class ModelConfig:
    path: str
    raw: dict
    text: dict = field(default_factory=dict)
    """The text model's config: `text_config` for vision-language models, else `raw`."""

    @property
    def architecture(self) -> str | None:
        """`architectures[0]` of the top-level config: what SGLang keys its choices on."""
        archs = self.raw.get("architectures")
        if isinstance(archs, list) and archs and isinstance(archs[0], str):
            return archs[0]
        return None

    def text_int(self, key: str) -> int | None:
        value = self.text.get(key, self.raw.get(key))
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_model_config(path: str) -> tuple[ModelConfig | None, str | None]:
    """(config, None) or (None, why it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as error:
        return None, f"cannot read {path}: {error.strerror or error}"
    if len(data) > MAX_CONFIG_BYTES:
        return None, f"{path} is larger than {MAX_CONFIG_BYTES // (1024 * 1024)} MiB"
    try:
        raw = json.loads(data.decode("utf-8", errors="replace"))
    except RecursionError:
        return None, f"{path} is nested too deeply to be a model config"
    except ValueError as error:
        return None, f"{path} is not valid JSON ({error})"
    if not isinstance(raw, dict):
        return None, f"{path} holds a JSON {type(raw).__name__}, not an object"
    text = raw.get("text_config")
    return ModelConfig(path, raw, text if isinstance(text, dict) else raw), None

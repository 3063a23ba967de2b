"""Read a model's config.json defensively: it is input, and may be broken or hostile."""

from __future__ import annotations

from dataclasses import field

from speclint.core import json_read
from speclint.core.records import dataclass
from speclint.runner.depends import looked_up

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

MAX_CONFIG_BYTES = 4 * 1024 * 1024
CONTEXT_LENGTH_KEYS = (
    "max_sequence_length",
    "seq_length",
    "max_seq_len",
    "model_max_length",
    "max_position_embeddings",
)
"""SGLang's order (hf_transformers_utils.CONTEXT_LENGTH_KEYS, all four releases)."""


@dataclass(slots=True)
class ModelConfig:
    """A model's config.json, read defensively (it is input)."""

    path: str
    raw: dict[str, Any]
    """config.json as parsed: any JSON object."""
    text: dict[str, Any] = field(default_factory=dict)
    """The text model's config: `text_config` for vision-language models, else `raw`."""
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What is worked out from the (unchanging) config once, for every launch that names it:
    `derived_context_length`'s answer."""

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

    def text_value(self, key: str) -> object:
        """A key of the text model's config (SGLang's `hf_text_config`), else of the top level."""
        return self.text.get(key, self.raw.get(key))

    @property
    def hidden_size(self) -> int | None:
        return self.text_int("hidden_size")

    @property
    def num_hidden_layers(self) -> int | None:
        return self.text_int("num_hidden_layers")

    @property
    def vocab_size(self) -> int | None:
        return self.text_int("vocab_size")

    @property
    def eagle_config(self) -> dict[str, Any] | None:
        """`eagle_config` as SGLang reads it (`getattr(hf_config, "eagle_config")`), when a dict."""
        value = self.raw.get("eagle_config")
        return value if isinstance(value, dict) else None

    def derived_context_length(self) -> tuple[int, str] | None:
        """SGLang's `get_context_length(hf_text_config)` (same in all four releases read):
        the first of CONTEXT_LENGTH_KEYS, times rope_scaling.factor unless the scaling has
        `original_max_position_embeddings` or is `rope_type: llama3`. (value, how); None when
        no key is present (SGLang would fall back on 2048 or the transformers class default)."""
        derived = self.derived
        if "context_length" not in derived:
            derived["context_length"] = self._context_length()
        found: tuple[int, str] | None = derived["context_length"]
        return found

    def _context_length(self) -> tuple[int, str] | None:
        scaling = self.text.get("rope_scaling")
        factor: float = 1
        if isinstance(scaling, dict) and scaling:
            raw_factor = scaling.get("factor", 1)
            factor = raw_factor if isinstance(raw_factor, (int, float)) else 1
            if "original_max_position_embeddings" in scaling or scaling.get("rope_type") == "llama3":
                factor = 1
        for key in CONTEXT_LENGTH_KEYS:
            value = self.text.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                how = f"{key} {value}" + (f" × rope factor {factor}" if factor != 1 else "")
                return int(factor * value), how
        return None


def open_regular(path: str) -> IO[bytes]:
    """`open(path, "rb")` that never blocks: a FIFO (or device, or folder) named like a config
    raises OSError instead of waiting for a writer."""
    import os
    import stat

    from speclint.runner.depends import note

    note(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    handle = open(fd, "rb", closefd=True)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise OSError(0, "not a regular file")
    return handle


def read_json_file(path: str, limit: int) -> tuple[object, str | None]:
    """(value, None) or (None, why not): a JSON file that is input, so bounded in size,
    never blocking on a FIFO, and safe against nesting deep enough to exhaust the stack."""
    try:
        with open_regular(path) as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        return None, f"cannot read {path}: {error.strerror or error}"
    if len(data) > limit:
        return None, f"{path} is larger than {limit // (1024 * 1024)} MiB; not read"
    try:
        return json_read.loads(data.decode("utf-8", errors="replace")), None
    except RecursionError:
        return None, f"{path} is nested too deeply to be read"
    except ValueError as error:
        return None, f"{path} is not valid JSON ({error})"


def read_model_config(path: str) -> tuple[ModelConfig | None, str | None]:
    """(config, None) or (None, why it cannot be read). A batch reads the same few configs
    for every launch: a config unchanged for two seconds is parsed once per process and
    found again by its stat (size, mtime, ctime, inode); in a `check` run, looked at once
    (`depends.looked_up`)."""
    return looked_up(("model config", path), lambda: _read_model_config(path))


def _read_model_config(path: str) -> tuple[ModelConfig | None, str | None]:
    import os
    import time

    from speclint.runner.depends import note

    try:
        info = os.stat(path)
        stamp = (path, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)
    except OSError:
        stamp = None
    if stamp is not None and stamp in _parsed:
        note(path)
        return _parsed[stamp]
    raw, problem = read_json_file(path, MAX_CONFIG_BYTES)
    if problem is not None:
        return None, problem
    if not isinstance(raw, dict):
        return None, f"{path} holds a JSON {type(raw).__name__}, not an object"
    text = raw.get("text_config")
    found = ModelConfig(path, raw, text if isinstance(text, dict) else raw), None
    if stamp is not None and max(stamp[2], stamp[3]) + 2_000_000_000 < time.time_ns():
        if len(_parsed) > 256:
            _parsed.clear()
        _parsed[stamp] = found
    return found


_parsed: dict[tuple[str, int, int, int, int, int], tuple[ModelConfig, None]] = {}
"""(path, size, mtime, ctime, inode, device) -> the parsed config."""

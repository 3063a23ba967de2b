"""A typed pydantic model of a launch's configuration, for the Python API and JSON output.

Rules read the plain `LaunchConfig` (pydantic costs ~100 ms to import, too much for a
pre-commit hook on one file); this model is built from it on request.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from speclint.sglang.flags.launch_config import LaunchConfig

T = TypeVar("T")


class SourcePosition(BaseModel):
    model_config = ConfigDict(frozen=True)

    line: int
    column: int
    end_line: int
    end_column: int


class FieldValue(BaseModel, Generic[T]):
    """A field's value after argparse, and where it was written (None for a default)."""

    model_config = ConfigDict(frozen=True)

    value: T | None = None
    given: bool = False
    dynamic: bool = False
    """The value depends on something speclint cannot know (`$(...)`, an unset variable)."""
    position: SourcePosition | None = None
    flag: str | None = None
    """The option string as written (`--tp`), when given."""


class LaunchConfigModel(BaseModel):
    """The fields speclint's rules use, by SGLang's own `ServerArgs` field names."""

    model_config = ConfigDict(frozen=True)

    sglang_version: str
    model_path: FieldValue[str] = FieldValue()
    revision: FieldValue[str] = FieldValue()
    tp_size: FieldValue[int] = FieldValue()
    pp_size: FieldValue[int] = FieldValue()
    dp_size: FieldValue[int] = FieldValue()
    ep_size: FieldValue[int] = FieldValue()
    nnodes: FieldValue[int] = FieldValue()
    node_rank: FieldValue[int] = FieldValue()
    base_gpu_id: FieldValue[int] = FieldValue()
    gpu_id_step: FieldValue[int] = FieldValue()
    enable_dp_attention: FieldValue[bool] = FieldValue()
    attn_dp_size: FieldValue[int] = FieldValue()
    moe_a2a_backend: FieldValue[str]
    device: FieldValue[str] = FieldValue()
    context_length: FieldValue[int] = FieldValue()
    mem_fraction_static: FieldValue[float] = FieldValue()
    max_running_requests: FieldValue[int] = FieldValue()
    chunked_prefill_size: FieldValue[int] = FieldValue()
    page_size: FieldValue[int] = FieldValue()
    attention_backend: FieldValue[str] = FieldValue()
    prefill_attention_backend: FieldValue[str] = FieldValue()
    decode_attention_backend: FieldValue[str] = FieldValue()
    quantization: FieldValue[str] = FieldValue()
    kv_cache_dtype: FieldValue[str] = FieldValue()
    enable_mixed_chunk: FieldValue[bool] = FieldValue()
    disable_overlap_schedule: FieldValue[bool] = FieldValue()
    disable_cuda_graph: FieldValue[bool] = FieldValue()
    json_model_override_args: FieldValue[str] = FieldValue()
    speculative_algorithm: FieldValue[str] = FieldValue()
    speculative_draft_model_path: FieldValue[str] = FieldValue()
    speculative_draft_model_revision: FieldValue[str] = FieldValue()
    speculative_num_steps: FieldValue[int] = FieldValue()
    speculative_eagle_topk: FieldValue[int] = FieldValue()
    speculative_num_draft_tokens: FieldValue[int] = FieldValue()
    speculative_token_map: FieldValue[str] = FieldValue()
    speculative_attention_mode: FieldValue[str] = FieldValue()
    speculative_draft_attention_backend: FieldValue[str] = FieldValue()
    speculative_adaptive: FieldValue[bool] = FieldValue()
    speculative_ngram_max_bfs_breadth: FieldValue[int] = FieldValue()
    enable_return_aux_hidden_states: FieldValue[bool] = FieldValue()
    uncertain: bool = False
    """Some words could not be read statically: a field that looks unset may be set."""


def _field_value(config: LaunchConfig, dest: str) -> dict[str, Any]:
    if not config.knows(dest):
        return {}
    setting = config.get(dest)
    result: dict[str, Any] = {"value": setting.value, "given": setting.given, "dynamic": setting.dynamic}
    use = setting.use
    if use is not None:  # the span the winning flag gives
        span = use.value_span or use.span
        result["position"] = SourcePosition(
            line=span.line, column=span.column, end_line=span.end_line, end_column=span.end_column
        )
        result["flag"] = use.written
    return result


def build_model(config: LaunchConfig) -> LaunchConfigModel:
    """Validate the parsed values against the field types (a field this release lacks is unset)."""
    names = [n for n in LaunchConfigModel.model_fields if n not in ("sglang_version", "uncertain")]
    values = {name: _field_value(config, name) for name in names}
    return LaunchConfigModel.model_validate(
        {"sglang_version": config.version, "uncertain": config.uncertain, **values}
    )

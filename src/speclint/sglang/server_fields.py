"""Each release's `ServerArgs` fields, their declared defaults and the fields some statement of
the release may assign, read from its wheel by tools/gen_sglang_server_fields.py
(`data/sglang_server_fields.json`): `explain` states only fields the release has, and a field
the release never assigns keeps its default (resolve/steps.py `keep_unassigned`)."""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.sglang.linedata import LineData

_FILE = LineData(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_server_fields.json")
)
GRAPH_VIEWS = (  # 0.5.14+ also has fields of these names: the flags cuda_graph_config is made of
    "cuda_graph_max_bs",
    "cuda_graph_bs",
    "cuda_graph_backend_prefill",
    "cuda_graph_max_bs_prefill",
    "cuda_graph_bs_prefill",
)
"""speclint's names for the parts of 0.5.14+'s `cuda_graph_config` (decode and prefill
phases): stated where the release has that field."""
UNREAD = object()
"""A default the generator could not read as a value (computed by a call)."""


@lru_cache(maxsize=32)
def fields_of(version: str) -> dict[str, object] | None:
    """`version`'s ServerArgs fields -> declared default (UNREAD where not read as a value;
    a field without a default: UNREAD); None where the release was not read."""
    row = _FILE.row(version)
    if row is None or "fields" not in row:
        return None
    raw = _FILE.shared(row["fields"])
    out: dict[str, object] = {}
    for name, value in raw.items():
        if isinstance(value, dict):
            out[name] = value["value"] if "value" in value else UNREAD
        else:
            out[name] = value
    return out


def has_field(version: str, name: str) -> bool:
    """Whether `version` has a ServerArgs field `name` (0.5.14+: the cuda_graph_config views
    too). True where the release's fields were not read (nothing is hidden then)."""
    fields = fields_of(version)
    if fields is None or name in fields:
        return True
    return name in GRAPH_VIEWS and "cuda_graph_config" in fields


@lru_cache(maxsize=32)
def assigned_fields(version: str) -> frozenset[str] | None:
    """The fields a statement of `version`'s wheel may assign (an over-approximation); None
    where not read."""
    row = _FILE.row(version)
    if row is None or "assigned" not in row:
        return None
    return frozenset(_FILE.shared(row["assigned"]))


def never_assigned(version: str) -> dict[str, object]:
    """The fields `version` has, no statement of it assigns, and whose declared default was
    read -> that default: SGLang runs with it unless the launch gives the field."""
    return _never_assigned(version)


@lru_cache(maxsize=32)
def _never_assigned(version: str) -> dict[str, object]:
    fields, assigned = fields_of(version), assigned_fields(version)
    if fields is None or assigned is None:
        return {}
    views = GRAPH_VIEWS if "cuda_graph_config" in fields else ()  # speclint's names, not these fields
    return {n: d for n, d in fields.items() if n not in assigned and d is not UNREAD and n not in views}


@lru_cache(maxsize=32)
def influencers(version: str) -> dict[str, frozenset[str] | None]:
    """For each constant default speclint states (resolve/defaults.py `CONSTANTS`) and each field it
    works out beside flags outside its model (resolve/constants_beside.py `WORKED_BESIDE`), the
    fields of `version` that may change the value its resolution gives it (None: too many to
    list, any field), read by tools/sglang_field_influence.py; {} where not read."""
    row = _FILE.row(version)
    if row is None or "influencers" not in row:
        return {}
    raw = _FILE.shared(row["influencers"])
    return {name: None if found is None else frozenset(found) for name, found in raw.items()}

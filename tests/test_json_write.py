"""`core.json_write.dumps` gives what `json.dumps(value, separators=(",", ":"))` gives: the
same text, or the same error (type and message), for what the result cache writes (index
entries, run records) and for values JSON cannot hold."""

from __future__ import annotations

import json
import math

import pytest

from speclint.core import json_write

_CIRCULAR: list[object] = []
_CIRCULAR.append(_CIRCULAR)

VALUES = [
    {"stat": [1, 2, 3], "taken": 10**20, "hash": "ab", "depends": [["/x", None, "missing", 5]]},
    ["d", "Finding", 'caf\u00e9 \u2014 \ud800 "quoted" \\ \n\t\x01', -0.0, 1.5e300, 1 / 3],
    [math.inf, -math.inf, math.nan, True, False, None, 0, -7],
    {"a": {"b": [{}, [], ""]}, "": 1},
    ("a", 2),
    {1: "int key", 2.5: "float key", False: "bool key", None: "none key"},
    "plain",
    {("tuple",): "key"},
    {1, 2},
    object(),
    b"bytes",
    _CIRCULAR,
    10**5000,
]


def _outcome(function, value):
    try:
        return "text", function(value)
    except Exception as error:  # the same exception, type and message
        return type(error).__name__, str(error)


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_dumps_is_json_dumps(value):
    expected = _outcome(lambda v: json.dumps(v, separators=(",", ":")), value)
    assert _outcome(json_write.dumps, value) == expected


def test_dumps_refusals_are_json_dumps_own():
    assert _outcome(json_write.dumps, object())[0] == "TypeError"
    assert _outcome(json_write.dumps, _CIRCULAR) == ("ValueError", "Circular reference detected")


def test_without_the_c_encoder_it_is_json_dumps(monkeypatch):
    import _json

    monkeypatch.delattr(_json, "make_encoder")
    assert json_write.dumps({"a": [1, "\u00e9"]}) == '{"a":[1,"\\u00e9"]}'

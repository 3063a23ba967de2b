"""`core.json_read.loads` gives what `json.loads` gives: the same value, or the same error
(type and message), for the documents a lint reads (config.json, flag tables, a JSON flag
value) and for broken ones."""

from __future__ import annotations

import json
import math

import pytest

from speclint.core.json_read import loads

DOCUMENTS = [
    '{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "rope_theta": 5e5}',
    ' \n\t[1, 2.5, -3, true, false, null, "x\\u00e9\\n"] \r\n',
    b'{"num_hidden_layers": 32, "name": "caf\xc3\xa9"}',
    b"  12  ",
    '{"a": 1, "a": 2}',
    '"\\ud800"',
    "1e400",
    "-Infinity",
    "",
    "   ",
    "[1] x",
    "[1,]",
    '"abc',
    '{"a\x01": 1}',
    "\ufeff[1]",
    b"\xef\xbb\xbf[1]",
    '{"a": 1}'.encode("utf-16-le"),
    "[1, 2]".encode("utf-32"),
    b'"\xff"',
    "[" * 100_000,
]


def _outcome(function, document):
    try:
        return "value", repr(function(document))
    except Exception as error:  # (RecursionError included)
        return type(error).__name__, str(error)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_same_value_or_the_same_error_as_json_loads(document):
    assert _outcome(loads, document) == _outcome(json.loads, document)


def test_nan_is_a_float_as_json_reads_it():
    value = loads('{"x": NaN}')["x"]
    assert isinstance(value, float) and math.isnan(value)

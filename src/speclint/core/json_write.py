"""`json.dumps(value, separators=(",", ":"))` without importing the `json` package: its
encoder's own C function, made here (as `speclint.core.json_read` does for reading).

Why: `import json` compiles six regexes at import (~5 M instructions), paid by every cached
run that writes an index entry (a file just edited). `_json.make_encoder` is what
`JSONEncoder.iterencode` itself calls for `json.dumps`'s defaults (ASCII only, NaN allowed,
keys in the dict's order, circular references refused); whatever it cannot take (no `_json`,
a value it refuses) goes to `json.dumps` itself, which then gives its own text or raises its
own error: results and errors are the standard library's.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _refuse(value: object) -> object:
    """`JSONEncoder.default`: a value of a type JSON has not."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """`json.dumps(value, separators=(",", ":"))`: the same text, or the same exception."""
    try:
        from _json import encode_basestring_ascii, make_encoder

        # (markers, default, encoder, indent, key and item separators, sort_keys, skipkeys,
        # allow_nan): what `JSONEncoder.iterencode` hands it
        encode: Callable[[Any, int], Any] = make_encoder(
            {}, _refuse, encode_basestring_ascii, None, ":", ",", False, False, True
        )
        return "".join(encode(value, 0))
    except Exception:  # `json.dumps` says what is wrong
        pass
    import json

    return json.dumps(value, separators=(",", ":"))

"""`json.loads` without importing the `json` package: its decoder's own C scanner, made here.

Why: `import json` brings `json.decoder` and `json.encoder` and compiles six regexes at import
(~5 M instructions, ~4% of a cold `speclint FILE`), while a lint only reads JSON (a model's
config.json, the package's flag tables, a `--json-model-override-args` value). `_json`'s
scanner is what `json.loads` itself calls (`JSONDecoder.raw_decode`); around it this module
does what `JSONDecoder.decode` does (skip `[ \\t\\n\\r]` before and after, refuse anything
left). Whatever the fast path does not take as it is (a byte string in another encoding, no
`_json`, a document it refuses or fails on) goes to `json.loads` itself, which then gives its
own value or raises its own error: results and errors are the standard library's.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WHITESPACE = " \t\n\r"
"""What `json.decoder.WHITESPACE` matches."""

_scan: Callable[[str, int], tuple[Any, int]] | None = None


class _Context:
    """The decoder settings `_json.make_scanner` reads: `json.loads`'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    def __init__(self) -> None:
        constants = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}
        self.parse_constant = constants.__getitem__


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    global _scan
    if _scan is None:
        try:
            from _json import make_scanner

            context: Any = _Context()  # (typeshed asks for a scanner: what it reads is these)
            _scan = make_scanner(context)
        except Exception:  # no C accelerator: `json` itself
            return None
    return _scan


def loads(text: str | bytes) -> Any:
    """`json.loads(text)`: the same value, or the same exception."""
    scan = _scanner()
    if scan is not None:
        try:
            document = _text(text)
            if document is not None:
                start = len(document) - len(document.lstrip(_WHITESPACE))
                value, end = scan(document, start)
                if not document[end:].lstrip(_WHITESPACE):
                    return value
        except Exception:  # (StopIteration included) `json.loads` says what is wrong
            pass
    import json

    return json.loads(text)


def _text(text: str | bytes) -> str | None:
    """The text `json.loads` decodes, where it is plainly UTF-8 (`json.detect_encoding`: no
    byte-order mark, no zero among the first two bytes); None to leave it to `json.loads`."""
    if type(text) is str:
        return text
    if type(text) is not bytes or not text:
        return None
    if text[0] == 0 or text[0] >= 0x80 or (len(text) > 1 and text[1] == 0):
        return None
    return text.decode("utf-8", "surrogatepass")

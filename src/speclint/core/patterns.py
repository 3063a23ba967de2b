"""`re.compile` for speclint's own patterns, without importing `re` when the pattern is kept.

Why: a shell launch's lint needs one or two of speclint's patterns, and `re` itself (with
`enum`, its parser and compiler, all Python) cost ~12 M instructions of a ~120 M cold run
before the first pattern was compiled. `re.compile` parses a pattern and compiles it into
a list of codes that `_sre.compile` (built in) turns into the Pattern object; those codes
depend only on the pattern, its flags and the Python that made them, so they are kept beside
the `.pyc` files (`core.kept`, the store `patterns`, tied to the Python version and `_sre`'s
MAGIC). A kept pattern is made by `_sre.compile` alone: the same Pattern object `re.compile`
makes (equal to it; tests/test_patterns.py). A pattern not kept is compiled by `re` itself,
and its codes are kept only when the object they make equals `re.compile`'s. Another Python
than 3.11 (the private steps of `re._compiler.compile` differ) always uses `re.compile`.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

    from speclint.core.kept import Kept

IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
VERBOSE = 64
"""`re.I`, `re.M`, `re.S`, `re.X` as the ints they are (tests/test_patterns.py compares them)."""

_STORE: list[Kept] = []


def _store() -> Kept:
    if not _STORE:
        from speclint.core.kept import Kept

        sre = _sre()
        folder = os.path.dirname(os.path.abspath(__file__))
        _STORE.append(Kept(folder, "patterns", (1, sre.MAGIC, sre.CODESIZE)))
    return _STORE[0]


def served() -> bool:
    """Pythons whose compiled pattern codes are kept: 3.11 (where `_sre` and its codes were
    checked; elsewhere every pattern is compiled by `re`, which imports `enum`)."""
    return sys.version_info[:2] == (3, 11)


def compile(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)` (a str or bytes pattern, int flags)."""
    if not served() or type(pattern) not in (str, bytes) or type(flags) is not int:
        compiled: re.Pattern[Any] = _real_re().compile(pattern, flags)
        return compiled
    store = _store()
    key = (pattern, flags)
    kept = store.get(key)
    if type(kept) is tuple and len(kept) == 5:
        try:
            made: re.Pattern[Any] = _sre().compile(pattern, *kept)
            return made
        except Exception:  # damaged: compiled again
            pass
    return _compiled(store, key)


def _compiled(store: Kept, key: tuple[Any, int]) -> re.Pattern[Any]:
    """`re.compile`'s pattern; its codes kept when `_sre.compile` makes an equal one from them."""
    real = _real_re()
    _compiler, _parser = real._compiler, real._parser  # (not `from re import`: the stand-in's)

    pattern, flags = key
    made: re.Pattern[Any] = real.compile(pattern, flags)
    try:
        parsed = _parser.parse(pattern, flags)
        code = [int(word) for word in _compiler._code(parsed, flags)]  # (opcodes are int subclasses)
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for name, number in state.groupdict.items():
            indexgroup[number] = name
        recipe = (int(flags | state.flags), code, state.groups - 1, dict(state.groupdict), tuple(indexgroup))
        again = _sre().compile(pattern, *recipe)
        if again == made and again.groupindex == made.groupindex and again.groups == made.groups:
            store.put(key, recipe)
    except Exception:  # (another re than 3.11's: nothing kept)
        pass
    return made


def _real_re() -> Any:
    """`re` itself, imported beside the stand-in `cli.startup` may have put in its place (which
    serves `compile` by this module: every pattern a run compiles through it is then kept)."""
    stand_in = sys.modules.get("re")
    if stand_in is None or "__file__" in vars(stand_in):
        import re

        return re
    del sys.modules["re"]
    try:
        import re

        return re
    finally:
        sys.modules["re"] = stand_in


def _sre() -> Any:
    """`re`'s engine (built in), which makes a Pattern object from its compiled codes."""
    import _sre  # type: ignore[import-not-found]

    return _sre

"""How SGLang's notebook helpers turn a command text into argv, per release, as
tools/gen_sglang_shell_cmd.py read them from each release's wheel: `sglang.utils.
execute_shell_command` (`.replace("\\\\\\n", " ").replace("\\\\", " ")`, then `.split()`, then
`subprocess.Popen(parts)`: no shell) and the words `launch_server_cmd` (`sglang.utils`, and
`sglang.test.doc_patch`'s copy) appends to the text before (`--port {port}`, ...).

A Python file does not say which release runs it, so the front-end reads such a text as the
split-only way only where every release read agrees on it (`split_reading`), and appends
only the words every release's `launch_server_cmd` appends (`appended_parts`).
`data/sglang_shell_cmd.json`: the line-array format of `speclint.sglang.linedata`.
"""

from __future__ import annotations

import os
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_shell_cmd.json")
_FILE = LineData(_DATA)
EXECUTE = "execute_shell_command"
LAUNCH = "launch_server_cmd"
DOC_PATCH = "doc_patch.launch_server_cmd"
ASSIGNMENT_TESTS = (
    "'=' in part and (not part.startswith('-')) and (not part.startswith('/'))",
    "key and value is not None and key.replace('_', '').isalnum()",
)
"""The tests of the loop that takes leading `KEY=VALUE` parts into the environment, as the
releases that have it write them; `is_assignment` implements exactly these, and a release
whose loop reads otherwise is not read as assignments (the front-end says so)."""


@dataclass(frozen=True, slots=True)
class SplitReading:
    """What every release read does to the text (`replace`, then a whitespace split)."""

    replace: tuple[tuple[str, str], ...]
    assignments_from: str | None
    """The first release that takes leading `KEY=VALUE` words into the environment (and
    every release after it does); None when none does."""
    assignments_other: bool
    """Some release's loop over leading words reads otherwise than ASSIGNMENT_TESTS."""
    oldest: str
    newest: str


def read_versions() -> tuple[str, ...]:
    return _FILE.versions()


def _reading(version: str, name: str) -> dict[str, Any] | None:
    row: dict[str, int] | None = _FILE.row(version)
    index = (row or {}).get(name)
    if index is None:
        return None
    found: dict[str, Any] = _FILE.shared(index)
    return found


@lru_cache(maxsize=1)
def split_reading() -> SplitReading | None:
    """The reading when every release read splits the text on whitespace without a shell,
    after the same replacements; None otherwise (or when none was read)."""
    seen: set[str] = set()
    first_assign: str | None = None
    other = False
    replace: tuple[tuple[str, str], ...] | None = None
    newest = oldest = ""
    for version in read_versions():
        raw = _reading(version, EXECUTE)
        if raw is None:
            continue
        if raw["split"] != "str.split" or raw["shell"]:
            return None
        this = tuple((old, new) for old, new in raw["replace"])
        if replace is not None and this != replace:
            return None
        replace, newest, oldest = this, version, oldest or version
        tests = tuple(raw["leading_assignments"])
        seen.add(version)
        if tests and first_assign is None:
            first_assign = version
        elif not tests and first_assign is not None:
            other = True  # taken out again: not one range of releases
        if tests and tests != ASSIGNMENT_TESTS:
            other = True
    if replace is None:
        return None
    return SplitReading(replace, first_assign, other, oldest, newest)


def is_assignment(word: str) -> bool:
    """Whether the loop (ASSIGNMENT_TESTS) takes `word` into the environment."""
    if "=" not in word or word.startswith("-") or word.startswith("/"):
        return False
    key = word.partition("=")[0]
    return bool(key) and key.replace("_", "").isalnum()


def _tokens(parts: list[dict[str, str]]) -> list[dict[str, str]] | None:
    """The words the parts after `{command}` make (`{"text": word}` / `{"param": p}`); None
    when a parameter is not a word of its own (`--port={port}`) or the first part does not
    start a new word."""
    tokens: list[dict[str, str]] = []
    for i, part in enumerate(parts):
        if "param" in part:
            before = parts[i - 1].get("text", "") if i else ""
            after = parts[i + 1].get("text", " ") if i + 1 < len(parts) else " "
            if not i or not before[-1:].isspace() or not after[:1].isspace():
                return None
            tokens.append({"param": part["param"]})
        elif i == 0 and not part["text"][:1].isspace():
            return None
        else:
            tokens += [{"text": w} for w in part["text"].split()]
    return tokens


@lru_cache(maxsize=4)
def appended_parts(name: str) -> tuple[tuple[str, ...], tuple[dict[str, str], ...], tuple[str, ...]] | None:
    """(params, the words every release's `name` (`launch_server_cmd` or
    `doc_patch.launch_server_cmd`) appends after `{command}`, each release's further words
    (differing by release) as text) when the text starts with the command in every release
    that has it; None when no release has it, or one builds the text otherwise."""
    readings = [r for r in (_reading(v, name) for v in read_versions()) if r is not None]
    if not readings:
        return None
    words: list[list[dict[str, str]]] = []
    for reading in readings:
        text = reading["text"]
        if reading["calls"] != EXECUTE or not text or text[0] != {"param": reading["params"][0]}:
            return None
        tokens = _tokens(text[1:])
        if tokens is None:
            return None
        words.append(tokens)
    common: list[dict[str, str]] = []
    for same in zip(*words):
        if any(w != same[0] for w in same):
            break
        common.append(same[0])
    rest = sorted(
        {" ".join(w.get("text", "{" + w.get("param", "") + "}") for w in t[len(common) :]) for t in words}
    )
    return tuple(readings[-1]["params"]), tuple(common), tuple(r for r in rest if r)

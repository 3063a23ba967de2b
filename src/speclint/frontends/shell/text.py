"""Parsing shell text and mapping tree-sitter byte offsets back to file positions.

Every shell buffer we parse (the file itself, or the content of a `bash -c '...'` string)
gets a `TextMap`, so a word found anywhere can say where it is written in the original file.
"""

from __future__ import annotations

import os
from functools import cache
from itertools import accumulate, count
from operator import add

from speclint.core import patterns
from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any

    import tree_sitter


def _binding(package: str) -> ModuleType:
    """The compiled `_binding` module of `package` (tree-sitter, tree-sitter-bash), loaded from
    the package folder without running the package's `__init__`: tree-sitter-bash's imports
    importlib.resources (10 ms, a tenth of a one-file run) to read query files speclint never
    uses, tree-sitter's imports `typing` (3 ms) for one Protocol. Registered in sys.modules
    under its own name, as the package's import would (a later `import tree_sitter` uses the
    same classes). Anything unexpected: the normal import."""
    import sys

    name = f"{package}._binding"
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        find_spec, spec_from_file_location, module_from_spec = _importlib_util()
        spec = find_spec(package)
        folder = (
            spec.submodule_search_locations[0]
            if spec is not None and spec.submodule_search_locations
            else None
        )
        binding = (
            next(
                (
                    entry
                    for entry in os.listdir(folder)
                    if entry.startswith("_binding.") and entry.endswith((".so", ".pyd"))
                ),
                None,
            )
            if folder
            else None
        )
        location = (
            spec_from_file_location(name, os.path.join(folder, binding)) if folder and binding else None
        )
        if location is None or location.loader is None:
            raise ImportError(name)
        module = _without_enum(module_from_spec, location)  # (an extension is set up here)
        location.loader.exec_module(module)
        sys.modules[name] = module
        return module
    except (ImportError, OSError, AttributeError, TypeError):
        import importlib

        return importlib.import_module(name)


def _without_enum(run: Callable[[Any], ModuleType], spec: Any) -> ModuleType:
    """`run(spec)` (tree-sitter's binding set up), with an `enum` whose `IntEnum` makes a
    plain int class while `enum` is not imported yet. The binding makes one class with it
    (`LogType`, the kinds of message a parser's logger is given, which speclint never sets),
    and importing `enum` costs ~6 M instructions of a cold shell lint, which needs nothing
    else of it."""
    import sys

    if "enum" in sys.modules:
        return run(spec)
    stand_in = type(sys)("enum", "Only while tree-sitter's binding is set up.")
    vars(stand_in)["IntEnum"] = _int_class
    sys.modules["enum"] = stand_in
    try:
        return run(spec)
    finally:
        if sys.modules.get("enum") is stand_in:
            del sys.modules["enum"]


def _int_class(name: str, members: dict[str, int], **options: object) -> type:
    """`IntEnum(name, members)`'s class, without enum's machinery: its members are instances."""

    def __repr__(self: int) -> str:
        return f"<{name}.{names[self]}: {int(self)}>"

    made = type(
        name,
        (int,),
        {"__slots__": (), "__repr__": __repr__, "__module__": options.get("module", "tree_sitter")},
    )
    names = {value: key for key, value in members.items()}
    for key, value in members.items():
        setattr(made, key, int.__new__(made, value))
    return made


def _importlib_util() -> tuple[Callable[[str], Any], Callable[..., Any], Callable[[Any], ModuleType]]:
    """`importlib.util`'s `find_spec` (of a top-level name), `spec_from_file_location` and
    `module_from_spec`: those it re-exports from Python's own importer, taken from there
    (`importlib.util` imports importlib, warnings and contextlib, which the console script
    does not otherwise import); `importlib.util`'s own where the importer's are not there."""
    import sys

    bootstrap, external = sys.modules.get("_frozen_importlib"), sys.modules.get("_frozen_importlib_external")
    if bootstrap is None or external is None:
        import importlib.util as util

        return util.find_spec, util.spec_from_file_location, util.module_from_spec

    def find_spec(name: str) -> Any:  # `importlib.util.find_spec` of a name without a dot
        if name not in sys.modules:
            return bootstrap._find_spec(name, None)
        loaded = sys.modules[name]
        spec = None if loaded is None else getattr(loaded, "__spec__", None)
        if loaded is not None and spec is None:
            raise ValueError(f"{name}.__spec__ is not set")  # (as importlib.util says it)
        return spec

    return find_spec, external.spec_from_file_location, bootstrap.module_from_spec


_tree_sitter = _binding("tree_sitter")
BASH = _tree_sitter.Language(_binding("tree_sitter_bash").language())
NAME_FIELD: int = BASH.field_id_for_name("name") or 0
VALUE_FIELD: int = BASH.field_id_for_name("value") or 0
"""The grammar's `name` and `value` fields, for `child_by_field_id` where a node is asked for
them thousands of times a batch (`child_by_field_name` looks the name up among the fields each call)."""
_parser: tree_sitter.Parser | None = None


# tree-sitter-bash 0.25 crashes the process (SIGSEGV) on `{` followed by a code point from
# about U+80000 up (e.g. b"{\xf3\xb2\x82\xab", U+F20AB), found by fuzzing. Those planes are
# private use or unassigned, so before parsing each such 4-byte character is replaced by
# U+10000, also 4 bytes: every byte offset in the tree stays that of the original text, and
# words are still read from the original bytes.
@cache  # compiled on first use, as the patterns below
def _crashing_code_points() -> re.Pattern[bytes]:
    return patterns.compile(rb"[\xf1-\xf4][\x80-\xbf]{3}")


def parse_bytes(data: bytes) -> tree_sitter.Tree:
    """Parse with one Parser per process (building one costs more than parsing a script)."""
    global _parser
    if _parser is None:
        _parser = _tree_sitter.Parser(BASH)
    if not data.isascii() and max(data) >= 0xF1:  # (`isascii`: no byte counted one by one)
        data = _crashing_code_points().sub(b"\xf0\x90\x80\x80", data)
    tree = _parser.parse(data)
    if tree.root_node.has_error:  # (`${x:$i}`: valid bash tree-sitter cannot read)
        from speclint.frontends.shell.offsets import read_offsets

        return read_offsets(_parser.parse, data, tree)
    return tree


_bisect_right: Callable[[list[int], int], int] | None = None
"""`bisect.bisect_right`, imported on first use: the spans of an ASCII file (most launch
scripts) are tree-sitter's own points, and a cold run need not import `bisect`."""


def _load_bisect() -> Callable[[list[int], int], int]:
    global _bisect_right
    from bisect import bisect_right

    _bisect_right = bisect_right
    return bisect_right


def line_starts_of(text: str) -> list[int]:
    """Character offset where each line of `text` begins: line i starts after the lengths of
    the i lines before it and their i newlines (C loops: a `find` loop cost ~6 bytecodes a line)."""
    starts = list(map(add, accumulate(map(len, text.split("\n")), initial=0), count()))
    starts.pop()  # (the end of the last line)
    return starts


class TextMap:
    """One parsed buffer: its text and bytes, and where each of its characters sits in the file.

    For the file itself character i is file character i. For a buffer rebuilt from a quoted
    string, `starts[i]`/`ends[i]` give the file characters that produced buffer character i
    (an escape like `\\"` covers two file characters; a substituted `$X` covers all of `$X`).
    """

    __slots__ = ("text", "data", "line_starts", "_byte_to_char", "starts", "ends", "plain")

    def __init__(
        self,
        text: str,
        line_starts: list[int],
        starts: list[int] | None = None,
        ends: list[int] | None = None,
    ) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.line_starts = line_starts
        self.starts = starts
        self.ends = ends
        self._byte_to_char: list[int] | None = None
        if len(self.data) != len(text):
            table = [0] * (len(self.data) + 1)
            pos = 0
            for index, char in enumerate(text):
                width = len(char.encode("utf-8", "surrogatepass"))
                for k in range(width):
                    table[pos + k] = index
                pos += width
            table[pos] = len(text)
            self._byte_to_char = table
        self.plain = starts is None and self._byte_to_char is None
        """Buffer bytes are file characters (an ASCII file itself): a node's span is its points."""

    def char(self, byte: int) -> int:
        table = self._byte_to_char
        return byte if table is None else table[byte]

    def file_start(self, index: int) -> int:
        """File character offset where buffer character `index` starts."""
        return index if self.starts is None else self.starts[index]

    def file_end(self, index: int) -> int:
        """File character offset just after buffer character `index`."""
        return index + 1 if self.ends is None else self.ends[index]

    def file_range(self, start_byte: int, end_byte: int) -> tuple[int, int]:
        a, b = self.char(start_byte), self.char(end_byte)
        if b > a:
            return self.file_start(a), self.file_end(b - 1)
        begin = self.file_start(a)
        return begin, begin

    def span_of_file_range(self, begin: int, end: int) -> Span:
        starts = self.line_starts
        bisect_right = _bisect_right or _load_bisect()
        line = bisect_right(starts, begin) - 1
        end_line = bisect_right(starts, max(end - 1, begin)) - 1
        return Span(line + 1, begin - starts[line] + 1, end_line + 1, end - starts[end_line] + 1)

    def span(self, start_byte: int, end_byte: int) -> Span:
        """`span_of_file_range(*file_range(start_byte, end_byte))`, `file_range` written out
        (five calls a span: the spans of a rebuilt buffer are made by the thousand)."""
        table = self._byte_to_char
        if table is not None:
            start_byte, end_byte = table[start_byte], table[end_byte]
        starts = self.starts
        begin = start_byte if starts is None else starts[start_byte]
        if end_byte > start_byte:
            ends = self.ends
            end = end_byte if ends is None else ends[end_byte - 1]
        else:
            end = begin
        return self.span_of_file_range(begin, end)

    def node_span(self, node: tree_sitter.Node) -> Span:
        if self.plain:
            start, end = node.start_point, node.end_point  # ASCII file: byte columns are columns
            return Span(start[0] + 1, start[1] + 1, end[0] + 1, end[1] + 1)
        return self.span(node.start_byte, node.end_byte)

    def node_line(self, node: tree_sitter.Node) -> int:
        """`node_span(node).line`, without the span for an ASCII file."""
        if self.plain:
            return int(node.start_point[0]) + 1
        return self.node_span(node).line

    def blank_lead(self, node: tree_sitter.Node) -> int:
        """Where a string part really starts: tree-sitter-bash gives the blanks between two
        expansions in a double-quoted string (`"$A $B"`) to the second one's node."""
        data, at, end = self.data, node.start_byte, node.end_byte
        while at < end and data[at] in b" \t\n":
            at += 1
        return at

    def node_text(self, node: tree_sitter.Node) -> str:
        if self._byte_to_char is None:  # ASCII: the bytes' offsets are the text's, nothing decoded
            return self.text[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def derive(self, pieces: list[tuple[str, int, int]]) -> TextMap:
        """A buffer made of `pieces` (text, file start, file end): every character of a piece
        maps to the given file range, unless the piece is one character per file character."""
        text_parts: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for piece, begin, end in pieces:
            text_parts.append(piece)
            if len(piece) == 1:  # most pieces: one character (the same as either branch below)
                starts.append(begin)
                ends.append(end)
            elif end - begin == len(piece):
                starts.extend(range(begin, end))
                ends.extend(range(begin + 1, end + 1))
            else:
                starts.extend([begin] * len(piece))
                ends.extend([end] * len(piece))
        tail = ends[-1] if ends else (pieces[0][1] if pieces else 0)
        starts.append(tail)
        ends.append(tail)
        return TextMap("".join(text_parts), self.line_starts, starts, ends)


@cache
def _final_continuation() -> re.Pattern[str]:
    return patterns.compile(r"(?<!\\)(?:\\\\)*(\\)(?=\n?\s*\Z)")


def drop_final_continuation(tm: TextMap) -> TextMap:
    """bash drops a `\\`-newline before the end of input and runs the command (a doc fence,
    a `bash -c` string or a script cut after its last continued line); tree-sitter calls it a
    syntax error. The backslash becomes a space: same length, so every position stays put."""
    if not tm.text.rstrip().endswith("\\"):  # the pattern needs a last non-blank `\`
        return tm
    match = _final_continuation().search(tm.text)
    if match is None:
        return tm
    at = match.start(1)
    tm.text = tm.text[:at] + " " + tm.text[at + 1 :]
    tm.data = tm.text.encode("utf-8", "surrogatepass")
    return tm

"""Where each character of a double-quoted value is written, for the words bash splits it into
later: `CMD="python -m sglang.launch_server --model-path $MODEL \\<newline> --tp 2"` then
`$CMD` or `eval $CMD`. A word of literal text points at its characters inside the string, a
word of an expansion's value at that expansion (`$MODEL`), a word of both at the whole run;
an escaped newline is dropped as bash drops it. Made only for a value known whole that holds
a blank (`Expander.value`); a plain one-line string keeps `plain_words.written`."""

from __future__ import annotations

from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tree_sitter import Node

    from speclint.frontends.shell.text import TextMap

    Partly = tuple[tuple[tuple[str | None, str, Span | None], ...], tuple["WrittenChars | None", ...] | None]
    """A partly known value's runs and where each known one is written (`VarValue.runs`,
    `VarValue.runs_written`)."""
    Value = tuple[str, "Span | WrittenChars | None", "Span | None"]
    """What is read of a variable's value here: its text, where it is written character for
    character (`VarValue.written`), where it is assigned (`VarValue.origin`)."""

_ESCAPABLE = '\\"$`'


class WrittenChars:
    """File character ranges of a value's characters: character i of the value stands for file
    characters [begins[i], ends[i])."""

    __slots__ = ("begins", "ends", "tm")

    def __init__(self, begins: list[int], ends: list[int], tm: TextMap) -> None:
        self.begins = begins
        self.ends = ends
        self.tm = tm

    def span(self, at: int, length: int) -> Span:
        """Where the value's characters [at, at + length) are written."""
        return self.tm.span_of_file_range(self.begins[at], self.ends[at + length - 1])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WrittenChars) and (self.begins, self.ends) == (other.begins, other.ends)

    def __hash__(self) -> int:
        return hash((tuple(self.begins), tuple(self.ends)))


def _literal(tm: TextMap, start_byte: int, end_byte: int, begins: list[int], ends: list[int]) -> str:
    """The text of a double-quoted literal part, each character's file range appended."""
    first = tm.char(start_byte)
    raw = tm.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    out: list[str] = []
    index = 0
    while index < len(raw):
        char = raw[index]
        at = first + index
        if char == "\\" and index + 1 < len(raw) and (raw[index + 1] in _ESCAPABLE or raw[index + 1] == "\n"):
            if raw[index + 1] != "\n":
                out.append(raw[index + 1])
                begins.append(tm.file_start(at))
                ends.append(tm.file_end(at + 1))
            index += 2
            continue
        out.append(char)
        begins.append(tm.file_start(at))
        ends.append(tm.file_end(at))
        index += 1
    return "".join(out)


def string_parts(tm: TextMap, node: Node) -> Iterator[tuple[int, int, Node | None]]:
    """The parts of the double-quoted string `node` in order: (start byte, end byte, None) for
    literal text (escapes still in it), (start, end, child) for an expansion (its blanks not
    counted: tree-sitter-bash gives the blanks between two expansions to the second)."""
    pos, end = node.start_byte + 1, node.end_byte - 1
    for child in node.children:
        named, kind = child.is_named, child.type
        if not named and kind == '"':
            continue
        start = tm.blank_lead(child) if named and kind != "string_content" else child.start_byte
        if start > pos:
            yield pos, start, None
        if kind == "string_content" or not named:
            yield child.start_byte, child.end_byte, None
        else:
            yield start, child.end_byte, child
        pos = max(pos, child.end_byte)
    if end > pos:
        yield pos, end, None


def string_chars(
    tm: TextMap,
    node: Node,
    text: str,
    expanded: Callable[[Node], str | None],
    placed: Callable[[Node, str], tuple[list[int], list[int]] | None] | None = None,
) -> WrittenChars | None:
    """The file ranges of `text`, the value of the double-quoted string `node`, or None when
    they cannot be matched (`expanded(child)`: an expansion's text, None when not plain text;
    `placed(child, text)`: where the characters of a variable's value are written, when known:
    `CMD="$CMD --tp 2"` keeps the old words where they were written, else at the expansion)."""
    begins: list[int] = []
    ends: list[int] = []
    parts: list[str] = []
    for start, finish, child in string_parts(tm, node):
        if child is None:
            parts.append(_literal(tm, start, finish, begins, ends))
            continue
        value = expanded(child)
        if value is None:
            return None
        parts.append(value)
        found = placed(child, value) if placed is not None else None
        if found is not None:
            begins.extend(found[0])
            ends.extend(found[1])
            continue
        begin, end = tm.file_range(start, finish)
        begins.extend([begin] * len(value))
        ends.extend([end] * len(value))
    if "".join(parts) != text:
        return None
    return WrittenChars(begins, ends, tm)


def quoted_chars(tm: TextMap, node: Node, text: str) -> WrittenChars | None:
    """The file ranges of the text of `'...'` (or `"..."` with nothing to expand or escape)
    written over several lines, character for character; None when it is one word."""
    if " " not in text and "\t" not in text and "\n" not in text.strip():
        return None
    first, last = tm.char(node.start_byte + 1), tm.char(node.end_byte - 1)
    begins = [tm.file_start(at) for at in range(first, last)]
    ends = [tm.file_end(at) for at in range(first, last)]
    return WrittenChars(begins, ends, tm)


def string_written(
    tm: TextMap,
    node: Node,
    text: str,
    expanded: Callable[[Node], str | None],
    placed: Callable[[Node, str], tuple[list[int], list[int]] | None] | None = None,
) -> WrittenChars | None:
    """Where each character of `text`, the value of the double-quoted string `node` with
    expansions or escapes, is written, when bash may split it into words later (it holds a
    blank); None when it may not or cannot be matched."""
    if " " not in text and "\t" not in text and "\n" not in text:
        return None
    return string_chars(tm, node, text, expanded, placed)


def appended_chars(tm: TextMap, current: Value, added: Value, joined: str) -> WrittenChars | None:
    """Where each character of `CMD+=" --tp 2"`'s value is written: the old value's characters
    where they were written, the appended ones where `+=` writes them (a part not known
    character for character: each of its characters at the whole value written there); None
    when the value holds no blank (one word: it points where it is used) or a part's place is
    not in this file."""
    if " " not in joined and "\t" not in joined and "\n" not in joined:
        return None
    begins: list[int] = []
    ends: list[int] = []
    for value in (current, added):
        if not _add_chars(tm, value, begins, ends):
            return None
    return WrittenChars(begins, ends, tm) if len(begins) == len(joined) else None


def known_chars(tm: TextMap, value: Value) -> tuple[list[int], list[int]] | None:
    """The file ranges of a variable's characters, when its value is known character for
    character in this file (`VarValue.written`)."""
    text, written, _ = value
    if isinstance(written, WrittenChars):
        if len(written.begins) == len(text) and written.tm.line_starts is tm.line_starts:
            return written.begins, written.ends
    elif (
        isinstance(written, Span)
        and written.file is None
        and written.end_column - written.column == len(text)
    ):
        start = tm.line_starts[written.line - 1] + written.column - 1
        return list(range(start, start + len(text))), list(range(start + 1, start + len(text) + 1))
    return None


def _add_chars(tm: TextMap, value: Value, begins: list[int], ends: list[int]) -> bool:
    text, _, origin = value
    found = known_chars(tm, value)
    if found is not None:
        begins.extend(found[0])
        ends.extend(found[1])
        return True
    if origin is None or origin.file is not None:
        return False
    begin = tm.line_starts[origin.line - 1] + origin.column - 1
    end = tm.line_starts[origin.end_line - 1] + origin.end_column - 1
    begins.extend([begin] * len(text))
    ends.extend([end] * len(text))
    return True


def concatenation_chars(
    tm: TextMap,
    node: Node,
    text: str,
    string_text: Callable[[Node], str | None],
    expanded: Callable[[Node], str | None],
    placed: Callable[[Node, str], tuple[list[int], list[int]] | None] | None = None,
) -> WrittenChars | None:
    """The file ranges of `text`, the value of quoted parts written side by side (a command
    between Python-style triple quotes: bash reads `""`, then `"..."`, then `""`; `'a'"$B"`),
    when it holds a blank; None when a part is not one `string_text(part)` knows, or a plain
    word with an escape."""
    if " " not in text and "\t" not in text and "\n" not in text:
        return None
    begins: list[int] = []
    ends: list[int] = []
    for child in node.children:
        kind = child.type
        if kind == "string":
            value = string_text(child)
            found = None if value is None else string_chars(tm, child, value, expanded, placed)
            if found is None:
                return None
            begins += found.begins
            ends += found.ends
        elif kind in ("raw_string", "word"):
            cut = 1 if kind == "raw_string" else 0
            if kind == "word" and "\\" in tm.node_text(child):
                return None
            first, last = tm.char(child.start_byte + cut), tm.char(child.end_byte - cut)
            begins += [tm.file_start(at) for at in range(first, last)]
            ends += [tm.file_end(at) for at in range(first, last)]
        else:
            return None
    return WrittenChars(begins, ends, tm) if len(begins) == len(text) else None


def run_chars(
    tm: TextMap,
    node: Node,
    runs: tuple[tuple[str | None, str, Span | None], ...],
    expanded: Callable[[Node], str | None],
    placed: Callable[[Node, str], tuple[list[int], list[int]] | None] | None = None,
    partly: Callable[[Node], Partly | None] | None = None,
) -> tuple[WrittenChars | None, ...] | None:
    """Where each known run of a double-quoted string's partly known value is written (`CMD="...
    --host $(hostname -i) --tp 2"`: the runs around the command substitution), one per run (None
    for an unknown one); None when the string's parts do not match the runs. `partly`: the
    partly known value of a `$NAME` in it (`CMD="nohup $CMD &"`), whose runs keep their places."""
    segments: list[tuple[list[int], list[int], list[str]]] = [([], [], [])]
    for start, finish, child in string_parts(tm, node):
        begins, ends, texts = segments[-1]
        if child is None:
            texts.append(_literal(tm, start, finish, begins, ends))
            continue
        value = expanded(child)
        inner = partly(child) if value is None and partly is not None else None
        if inner is not None:
            begin, end = tm.file_range(start, finish)
            for index, (text, _, _) in enumerate(inner[0]):
                if text is None:
                    segments.append(([], [], []))
                    continue
                at = inner[1][index] if inner[1] is not None else None
                ok = at is not None and len(at.begins) == len(text) and at.tm.line_starts is tm.line_starts
                segments[-1][0].extend(at.begins if ok and at is not None else [begin] * len(text))
                segments[-1][1].extend(at.ends if ok and at is not None else [end] * len(text))
                segments[-1][2].append(text)
            continue
        if value is None:
            segments.append(([], [], []))
            continue
        texts.append(value)
        found = placed(child, value) if placed is not None else None
        if found is None:
            begin, end = tm.file_range(start, finish)
            found = [begin] * len(value), [end] * len(value)
        begins.extend(found[0])
        ends.extend(found[1])
    known = [(b, e, "".join(t)) for b, e, t in segments if "".join(t)]
    if [text for _, _, text in known] != [run[0] for run in runs if run[0] is not None]:
        return None
    made = iter(WrittenChars(b, e, tm) if len(b) == len(text) else None for b, e, text in known)
    return tuple(next(made) if run[0] is not None else None for run in runs)

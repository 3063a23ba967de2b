"""Rebuilding the shell code inside a string argument so it can be parsed again.

`bash -c 'python -m ...'` holds a whole script in one word. Its content becomes a new buffer
whose characters keep track of the file characters they came from: exact for single quotes,
exact for double quotes without expansions, and for `"...$X..."` the value of `$X` is put in
place (bash expands it before the inner shell parses) and mapped to where `$X` is written.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Arg, Expander
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import VarValue
    from speclint.frontends.shell.walking import Walking

_DQ_ESCAPABLE = '\\"$`\n'


def _literal(
    tm: TextMap, start_byte: int, end_byte: int, double_quoted: bool, out: list[tuple[str, int, int]]
) -> None:
    """Characters of the buffer range, each with its file range; `\\x` escapes removed as bash
    removes them inside double quotes."""
    first = tm.char(start_byte)
    chars = tm.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    index = 0
    while index < len(chars):
        char = chars[index]
        at = first + index
        if double_quoted and char == "\\" and index + 1 < len(chars) and chars[index + 1] in _DQ_ESCAPABLE:
            following = chars[index + 1]
            if following != "\n":
                out.append((following, tm.file_start(at), tm.file_end(at + 1)))
            index += 2
            continue
        out.append((char, tm.file_start(at), tm.file_end(at)))
        index += 1


def put_expansion(
    expander: Expander,
    tm: TextMap,
    node: Node,
    start_byte: int,
    pieces: list[tuple[str, int, int]],
    placeholders: dict[str, str],
) -> None:
    """An expansion in text rebuilt for an inner shell (a `bash -c` string, a here-document):
    its value in place, mapped to where it is written (from `start_byte`), or a placeholder
    variable standing for it when unknown (`placeholders`: name -> why); of a partly known
    value, its known runs in place and a placeholder for each unknown one."""
    begin, finish = tm.file_range(start_byte, node.end_byte)
    value = expander.value(node, tm.node_span(node))
    if value.reason is None and value.text and start_byte == node.start_byte:
        chars = _written_chars(tm, node, value, expander)
        if chars is not None:  # `CMD="python3 -m ..."` then `bash -c "$CMD"`: each word in CMD
            pieces.extend(chars)
            return
    if value.runs is not None and value.runs_written is None and start_byte == node.start_byte:
        value = _with_runs_written(tm, node, value, expander)
    put_value(value, begin, finish, pieces, placeholders, start_byte == node.start_byte)


def _with_runs_written(tm: TextMap, node: Node, value: VarValue, expander: Expander) -> VarValue:
    """A plain `$NAME` / `${NAME}` of a partly known value, with where the assignment writes
    each known run (`VarValue.runs_written`), when the variable holds those runs."""
    written_as = tm.node_text(node)
    name = written_as[2:-1] if written_as.startswith("${") and written_as.endswith("}") else written_as[1:]
    assigned = expander.env.get(name) if name.isidentifier() and name.isascii() else None
    if assigned is None or assigned.runs is None or assigned.runs_written is None:
        return value
    if [run[0] for run in assigned.runs] != [run[0] for run in value.runs or ()]:
        return value
    from dataclasses import replace

    return replace(value, runs_written=assigned.runs_written)


def _written_chars(
    tm: TextMap, node: Node, value: VarValue, expander: Expander
) -> list[tuple[str, int, int]] | None:
    """The characters of a plain `$NAME` / `${NAME}`'s value, each where the assignment writes
    it (`VarValue.written`), or None when that is not known character for character."""
    from speclint.frontends.shell.written_chars import WrittenChars

    written_as = tm.node_text(node)
    name = written_as[2:-1] if written_as.startswith("${") and written_as.endswith("}") else written_as[1:]
    if not written_as.startswith("$") or not (name.isidentifier() and name.isascii()):
        return None
    assigned = expander.env.get(name)
    text = value.text or ""
    if assigned is None or assigned.text != text or assigned.written is None:
        return None
    written = assigned.written
    if isinstance(written, WrittenChars):
        if len(written.begins) != len(text):
            return None
        return [(char, written.begins[k], written.ends[k]) for k, char in enumerate(text)]
    if written.line != written.end_line or written.end_column - written.column != len(text):
        return None
    begin = tm.line_starts[written.line - 1] + written.column - 1
    return [(char, begin + k, begin + k + 1) for k, char in enumerate(text)]


def put_value(
    value: VarValue,
    begin: int,
    finish: int,
    pieces: list[tuple[str, int, int]],
    placeholders: dict[str, str],
    whole: bool = False,
) -> None:
    """`put_expansion` of a value already worked out, written at file range begin..finish;
    `whole`: the expansion is the variable's whole value (`"$CMD"`, not `${CMD#x}`), so a
    known run of a partly known value is placed where the assignment writes it, if known."""
    if value.reason is None and value.text is not None:
        pieces.append((value.text, begin, finish))
        return
    # a partly known value (`CMD="python3 -m ... $EXTRA"`): its known runs as text
    for index, (text, reason, _where) in enumerate(value.runs or ((None, value.reason, None),)):
        written = value.run_at(index) if whole and text is not None else None
        if text is not None and written is not None and len(written.begins) == len(text):
            pieces.extend((char, written.begins[k], written.ends[k]) for k, char in enumerate(text))
            continue  # (`sh -c "$CMD"` of `CMD="... --port 30x0 --tp ${TP}"`: at `30x0`)
        if text is not None:
            pieces.append((text, begin, finish))
            continue
        name = f"__speclint_unknown_{len(placeholders)}"
        placeholders[name] = reason or "unknown value"
        pieces.append(("${" + name + "}", begin, finish))


def nested_text_map(
    walker: Walking, arg: Arg | list[Arg], unknown_words: bool = False
) -> tuple[TextMap, dict[str, str]] | None:
    """The buffer for the code in `arg` (several arguments are joined by blanks, as `eval`
    joins them), and the placeholder variables standing for the expansions whose value is
    unknown (name -> reason). `unknown_words` (eval's words): a word whose text is unknown
    (`eval $CMD` where `CMD="python3 -m ... $(seq 1 64)"`: the command substitution's output)
    stands as an unquoted placeholder, as code that may hold any words, when another word
    is known; else the code is not read."""
    built = nested_pieces(walker, arg, unknown_words)
    return (walker.tm.derive(built[0]), built[1]) if built is not None else None


def nested_pieces(
    walker: Walking, arg: Arg | list[Arg], unknown_words: bool = False
) -> tuple[list[tuple[str, int, int]], dict[str, str]] | None:
    """`nested_text_map`'s characters (each with its file range) before they become a buffer."""
    pieces: list[tuple[str, int, int]] = []
    placeholders: dict[str, str] = {}
    known = False
    args = arg if isinstance(arg, list) else [arg]
    for index, one in enumerate(args):
        if index and pieces:
            end = pieces[-1][2]
            pieces.append((" ", end, end))
        if _add_pieces(walker, one, pieces, placeholders):
            known = True
        elif unknown_words and one.word.text is None:
            _add_unknown(walker, one, pieces, placeholders)
        else:
            said_unread(walker, args)
            return None
    if not pieces or not known:
        said_unread(walker, args)
        return None
    if placeholders:  # `bash -c "$CMD"`: an unknown value that is a launch said not read
        _said_placeholders(walker, pieces, placeholders)
    return pieces, placeholders


def _said_placeholders(
    walker: Walking, pieces: list[tuple[str, int, int]], placeholders: dict[str, str]
) -> None:
    """`said_unread` of the unknown values put in code as placeholders (`put_value`)."""
    from speclint.frontends.recognise import names_launcher

    for name, reason in placeholders.items():
        if names_launcher(reason.encode("utf-8", "surrogatepass")):
            written = "${" + name + "}"
            for text, begin, end in pieces:
                if text == written:
                    _say(walker, reason, walker.tm.span_of_file_range(begin, end))


def said_unread(walker: Walking, args: list[Arg]) -> None:
    """Code not read whose unknown word is a launch all the same (its reason names SGLang's
    launcher: `CMD=$(printf 'python -m sglang.launch_server ... %x' ...)`, `printf_value`):
    the `launcher-not-read` note at the word, said even beside launches read."""
    if not walker.collect:
        return
    from speclint.frontends.recognise import names_launcher

    for one in args:
        word = one.word
        reason = word.dynamic_reason
        if word.text is None and reason and names_launcher(reason.encode("utf-8", "surrogatepass")):
            _say(walker, reason, word.span)


def _say(walker: Walking, reason: str, span: Span) -> None:
    if not walker.collect:
        return
    from speclint.core.diagnostics import Diagnostic

    said = Diagnostic(
        "launcher-not-read",
        f"speclint did not read the launch this command runs: {reason}, so nothing in this "
        "launch was checked",
        span,
    )
    if said not in walker.result.diagnostics:
        walker.result.diagnostics.append(said)


def _add_unknown(
    walker: Walking, arg: Arg, pieces: list[tuple[str, int, int]], placeholders: dict[str, str]
) -> None:
    """A placeholder for a word whose text is unknown, at the place the word is written."""
    span = arg.word.span
    begin = walker.tm.line_starts[span.line - 1] + span.column - 1
    end = walker.tm.line_starts[span.end_line - 1] + span.end_column - 1 if span.file is None else begin
    name = f"__speclint_unknown_{len(placeholders)}"
    placeholders[name] = arg.word.dynamic_reason or "unknown value"
    pieces.append(("${" + name + "}", begin, max(begin, end)))  # (the word as written: `$CMD`)


def _add_pieces(
    walker: Walking, arg: Arg, pieces: list[tuple[str, int, int]], placeholders: dict[str, str]
) -> bool:
    """Append the characters of one argument; False when its text is unknown."""
    tm = walker.tm
    node = arg.node
    if node is not None and node.type == "raw_string":
        _literal(tm, node.start_byte + 1, node.end_byte - 1, False, pieces)
    elif node is not None and node.type == "string":
        _string(walker, node, pieces, placeholders)
    elif (
        node is not None
        and node.type == "concatenation"
        and _concatenation(walker, node, pieces, placeholders)
    ):
        pass
    elif arg.word.text is not None:
        where: tuple[int, int] | None = (
            tm.file_range(node.start_byte, node.end_byte) if node is not None else None
        )
        if where is not None:
            begin, finish = where
        else:
            span = arg.word.span
            line_start = tm.line_starts[span.line - 1]
            begin, finish = line_start + span.column - 1, line_start + span.column - 1
            if span.line == span.end_line and span.end_column - span.column == len(arg.word.text):
                # a word split from a variable's value, written as it stands: each character
                pieces.extend((char, begin + k, begin + k + 1) for k, char in enumerate(arg.word.text))
                return True
        pieces.append((arg.word.text, begin, finish))
    else:
        return False
    return True


def _string(
    walker: Walking, node: Node, pieces: list[tuple[str, int, int]], placeholders: dict[str, str]
) -> None:
    """A double-quoted string: its characters, each expansion's value in place."""
    tm = walker.tm
    expander = walker.expander()
    pos, end = node.start_byte + 1, node.end_byte - 1
    for child in node.children:
        if child.type == "string_content" or not child.is_named:
            continue
        start = tm.blank_lead(child)  # (`"$A $B"`: the blank is in the second node)
        if start > pos:
            _literal(tm, pos, start, True, pieces)
        put_expansion(expander, tm, child, start, pieces, placeholders)
        pos = child.end_byte
    if end > pos:
        _literal(tm, pos, end, True, pieces)


def _concatenation(
    walker: Walking, node: Node, pieces: list[tuple[str, int, int]], placeholders: dict[str, str]
) -> bool:
    """Quoted parts joined into one word, as a Slurm script splices a value into the code
    (`bash -c 'python3 -m ... --dist-init-addr '"$HEAD"':5000'`): each part's characters at
    their places, a double-quoted expansion's value in place (a placeholder when unknown, as in
    one double-quoted string). False, adding nothing, for a part read otherwise (an unquoted
    expansion, which bash would split, or an unquoted backslash)."""
    tm = walker.tm
    parts: list[tuple[str, int, int]] = []
    before = set(placeholders)
    for child in node.children:
        if child.type == "raw_string":
            _literal(tm, child.start_byte + 1, child.end_byte - 1, False, parts)
        elif child.type == "string":
            _string(walker, child, parts, placeholders)
        elif child.type == "word" and b"\\" not in tm.data[child.start_byte : child.end_byte]:
            _literal(tm, child.start_byte, child.end_byte, False, parts)
        else:
            for name in set(placeholders) - before:
                del placeholders[name]
            return False
    pieces.extend(parts)
    return True

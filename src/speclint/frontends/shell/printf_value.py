"""`CMD=$(printf 'python -m sglang.launch_server --model-path %s --port %s' "$MODEL" 30000)`:
a command made by printf, kept in a variable, then run (`eval $CMD`, `bash -c "$CMD"`).

The substitution's output is what bash's printf writes: the format with each `%s` replaced by
the next argument (`%%` is one `%`), trailing newlines removed as from any command
substitution. Only a format of plain text (quoted, no backslash escape) whose `%s` (and `%d`
/ `%i`, given a decimal integer: `2`, `+2`, `-1`, not `010` or `0x10`, which bash reads as C
constants) directives take the arguments exactly once is read (bash reuses the format for
arguments left over); any other directive (`%5s`, `%b`, `%x`), an argument speclint does not
know, or a format built at run time leaves the value unknown. Each character points where it is written: the format's
in the format, an argument's in that argument (`written_chars.WrittenChars`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Expander
    from speclint.frontends.shell.variables import VarValue


def printf_value(expander: Expander, command: Node, origin: Span) -> VarValue | None:
    """The output of the `printf FORMAT ARGS...` command `command` (the substitution's only
    command); when it is not read, None, or, of a format that names SGLang's launcher, an
    unknown value whose reason names the launcher and says why (`nested.said_unread`: an
    `eval "$CMD"` of it says the launch was not read, even beside launches read)."""
    found = _printf_value(expander, command, origin)
    if found is not None:
        return found
    words = [c for c in command.named_children if c.type != "command_name"]
    if not words or words[0].type not in ("raw_string", "string"):
        return None
    from speclint.frontends.recognise import names_launcher

    tm = expander.tm
    if not names_launcher(tm.data[command.start_byte : command.end_byte]):
        return None
    import re

    form = tm.node_text(words[0])
    other = next(
        (
            d
            for d in re.findall(r"%[-+ #0']*[0-9*]*(?:\.[0-9*]*)?[a-zA-Z%]", form)
            if d not in ("%s", "%d", "%i", "%%")
        ),
        None,
    )
    why = (
        f"its `{other}` directive, which speclint does not read"
        if other is not None
        else "an argument speclint does not know, or arguments that do not fill its `%s`, `%d`, "
        "`%i` once each (speclint reads only those, a decimal integer for `%d`, `%i`)"
    )
    from speclint.frontends.shell.variables import VarValue

    written = " ".join(tm.node_text(command).split())
    shown = written if len(written) <= 200 else written[:197] + "..."
    return VarValue(reason=f"the output of `{shown}` is not known: {why}", origin=origin)


def _printf_value(expander: Expander, command: Node, origin: Span) -> VarValue | None:
    from speclint.frontends.shell.variables import VarValue
    from speclint.frontends.shell.written_chars import WrittenChars, known_chars

    tm = expander.tm
    words = [c for c in command.named_children if c.type != "command_name"]
    if not words or words[0].type not in ("raw_string", "string"):
        return None
    raw = tm.node_text(words[0])
    form = raw[1:-1]
    if "\\" in form or (words[0].type == "string" and ("$" in form or "`" in form)):
        return None
    plain = form.replace("%%", "")
    if plain.count("%") != plain.count("%s") + plain.count("%d") + plain.count("%i"):
        return None  # a directive other than %s, %d, %i
    marked = form.replace("%%", "\0")
    integer = [marked[at + 1] in "di" for at in range(len(marked)) if marked[at] == "%"]
    pieces = marked.replace("%d", "%s").replace("%i", "%s").split("%s")
    if len(pieces) - 1 != len(words) - 1:
        return None
    first = tm.char(words[0].start_byte + 1)
    chars: list[tuple[str, int, int]] = []
    at = 0
    for index, piece in enumerate(pieces):
        for char in piece:
            where = first + at
            chars.append(("%" if char == "\0" else char, tm.file_start(where), tm.file_end(where)))
            at += 2 if char == "\0" else 1
        at += 2  # (the `%s`)
        if index + 1 == len(pieces):
            break
        arg = words[index + 1]
        value = expander.value(arg, tm.node_span(arg))
        if value.reason is not None or value.text is None:
            return None
        if integer[index]:  # `%d`: a decimal integer as written (`010`, `0x10`: C constants)
            number = value.text.strip()
            digits = number.lstrip("+-")
            if (
                not (digits.isascii() and digits.isdigit())
                or len(number) - len(digits) > 1
                or digits[:1] == "0" != digits
            ):
                return None
            begin, end = tm.file_range(arg.start_byte, arg.end_byte)
            text = str(int(number))
            chars.extend((char, begin, end) for char in text)
            continue
        placed = known_chars(tm, (value.text, value.written, value.origin))
        if placed is None:
            begin, end = tm.file_range(arg.start_byte, arg.end_byte)
            placed = [begin] * len(value.text), [end] * len(value.text)
        chars.extend(zip(value.text, *placed))
    text = "".join(char for char, _, _ in chars)
    kept = len(text.rstrip("\n"))
    begins = [begin for _, begin, _ in chars[:kept]]
    ends = [end for _, _, end in chars[:kept]]
    return VarValue(text=text[:kept], origin=origin, written=WrittenChars(begins, ends, tm))

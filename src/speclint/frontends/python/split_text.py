"""SGLang's notebook helpers, read the way they run the text: `launch_server_cmd('python3
-m sglang.launch_server --model-path M\\n --tp 2')` and `execute_shell_command(...)` do not
hand the text to a shell. Every release read (`speclint.sglang.shell_cmd`) replaces `\\`+newline
and then every `\\` with a space, splits the rest on whitespace (newlines included) and starts
the parts as argv: so a flag on a line without `\\` is still the command's, and `$VAR`,
quotes, `#` or `|` reach SGLang as literal text. Each word keeps its file position.
"""

from __future__ import annotations

from speclint.core.launches import Diagnostic
from speclint.core.words import Word
from speclint.frontends.python.whitespace_words import split_words
from speclint.frontends.shell.embedded import ArgvItem
from speclint.frontends.shell.pieces import Piece, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.walking import Walking

_SHELL_CHARS = frozenset("$`'\"#|&;<>*?~(){}")
"""Characters a shell would act on (expansion, quoting, comments, pipes, globs): here they
are argv text."""
_Appended = tuple[tuple[str, ...], tuple[dict[str, str], ...], tuple[str, ...]]


def read_split_call(
    walker: Walking, call: py.Call, name: str, dotted: str, env: dict[str, Word] | None
) -> bool:
    """Reads `launch_server_cmd(TEXT, ...)` / `execute_shell_command(TEXT)` as argv (`dotted`:
    the name the call resolves to, `sglang.test.doc_patch.launch_server_cmd` for that copy);
    False when the data does not say how every release splits it (the caller reads the text
    as shell)."""
    from speclint.sglang.shell_cmd import DOC_PATCH, LAUNCH, appended_parts, is_assignment, split_reading

    reading = split_reading()
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    target = positional[0].value if positional else keywords.get("command")
    if reading is None or target is None:
        return False
    value = walker.evaluator().written(target)
    if value.kind != "str":
        return False
    words = split_words(value.pieces, reading.replace)
    env = dict(env or {})
    while words and reading.assignments_from and not reading.assignments_other:
        text = "".join(p.text or "" for p in words[0])
        if any(p.text is None for p in words[0]) or not is_assignment(text):
            break
        key, _, val = text.partition("=")
        first, last = words[0][0], words[0][-1]
        span = span_of(walker.pos.starts, first.begin, last.end)
        at_value = first.begin + len(key) + 1 if len(words[0]) == 1 and first.exact else first.begin
        env[key] = Word(val, span_of(walker.pos.starts, at_value, max(last.end, at_value)))
        if reading.assignments_from != reading.oldest:
            _note(
                walker,
                span,
                f"`{name}` takes a leading `{text}` into the server's environment only from SGLang "
                f"{reading.assignments_from} on (execute_shell_command); before it, `{text}` is "
                "started as the program and no server starts",
            )
        words = words[1:]
    # a value not known, standing alone, may split into any number of words (`.split()`)
    items = [ArgvItem(w, splat=all(p.text is None for p in w)) for w in words]
    _literal_shell_syntax(walker, items, name, f"{reading.oldest} to {reading.newest}")
    if name == LAUNCH:
        appended = appended_parts(DOC_PATCH if dotted.startswith("sglang.test.doc_patch.") else LAUNCH)
        if appended is not None:
            items += _appended(walker, call, appended, positional, keywords, items)
    walker.add_argv(call, [], env, items)
    return True


def _appended(
    walker: Walking,
    call: py.Call,
    appended: _Appended,
    positional: list[py.Arg],
    keywords: dict[str, py.BaseExpression],
    written: list[ArgvItem],
) -> list[ArgvItem]:
    """The words `launch_server_cmd` appends (`--port {port}`), at the helper's name; a
    parameter's value at the argument that passes it. A parameter not passed (the free port
    it reserves) is left out with the word before it, and an option the text writes that
    those words would override is said instead (the value is not one to check)."""
    params, parts, _ = appended
    begin, end = walker.pos.offsets(call.func)
    items: list[ArgvItem] = []
    for part in parts:
        if "text" in part:
            items += [ArgvItem([Piece(w, begin, end)]) for w in part["text"].split()]
            continue
        param = part["param"]
        index = params.index(param) if param in params else None
        node = (
            positional[index].value if index is not None and len(positional) > index else keywords.get(param)
        )
        if node is None:
            option = items.pop().pieces[0].text if items else None
            _overridden(walker, written, option, f"{walker.text[begin:end]}(...)", param)
            continue
        value = walker.evaluator().eval(node)
        known, ok = value.python()
        where = walker.pos.offsets(node)
        if ok and isinstance(known, (int, str)) and not isinstance(known, bool):
            items.append(ArgvItem([Piece(str(known), *where)]))
        else:
            items.append(ArgvItem([Piece(None, *where, reason=value.why_unknown())]))
    return items


def _overridden(
    walker: Walking, written: list[ArgvItem], option: str | None, helper: str, param: str
) -> None:
    """`--port 30000` in the text of a call that passes no `port`: the helper appends
    `--port <the port it reserves>`, and argparse keeps the last."""
    for at, item in enumerate(written):
        text = "".join(p.text or "" for p in item.pieces)
        if option and (text == option or text.startswith(option + "=")):
            first = item.pieces[0]
            if text == option and at + 1 < len(written):
                text += " " + "".join(p.text or "?" for p in written[at + 1].pieces)
            _note(
                walker,
                span_of(walker.pos.starts, first.begin, item.pieces[-1].end),
                f"{helper} appends `{option}` with the {param} it reserves when no `{param}=` is "
                f"passed (in every release read): argparse keeps the last, so this `{text}` is overridden",
            )


def _literal_shell_syntax(walker: Walking, items: list[ArgvItem], name: str, releases: str) -> None:
    """A word holding what a shell would act on (`$MODEL`, quotes, `#`): SGLang gets the
    characters themselves; said once per word (a warning of SLM001)."""
    for item in items:
        for piece in item.pieces:
            at = next((i for i, c in enumerate(piece.text or "") if c in _SHELL_CHARS), None)
            if piece.text is None or at is None:
                continue
            word = "".join(p.text or "" for p in item.pieces)
            start = piece.begin + at if piece.exact else piece.begin
            _note(
                walker,
                span_of(walker.pos.starts, start, start + 1 if piece.exact else piece.end),
                f"`{name}` does not run its text through a shell (SGLang's execute_shell_command "
                f"splits it on whitespace, in every release read, {releases}): SGLang gets "
                f"`{word}` as written, where a shell would have acted on `{piece.text[at]}`",
            )
            break


def _note(walker: Walking, span: Span, message: str) -> None:
    found = Diagnostic("split-not-shell", message, span)
    if found not in walker.result.diagnostics:  # a call walked again (a branch, a call site)
        walker.result.diagnostics.append(found)

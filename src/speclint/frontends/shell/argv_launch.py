"""An argv list's launch read from its words, without a shell buffer (`ShellBuffer.add_word`
then `walk`: rebuilt text, a tree-sitter parse, a shell walk).

Most Python launches are a list like `[sys.executable, "-m", "sglang.launch_server",
"--tp", "2", *extra]`: each element is one word the shell walk would read back unchanged
(a single-quoted literal, or a placeholder variable standing for an unknown value). For such
a list this module makes the same words and the same `Launch` the walk makes, when the
command is `python [options] -m MODULE`, `python PATH` or `sglang serve` of SGLang's own
launcher. Anything else (a wrapper, a container, `bash -c`, a word the shell would read
otherwise, no launch) answers None: the caller walks the buffer as before.
"""

from __future__ import annotations

from bisect import bisect_right

from speclint.core.launches import Launch
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.recognise import SERVE_ENTRY, command_entry, module_entry, python_target, script_entry
from speclint.frontends.shell.launch import _PACKAGE_RUNNERS, _RUNNERS, _WRAPPERS, _is_python
from speclint.frontends.shell.pieces import span_of, unknown_reason
from speclint.frontends.shell.variables import VarValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.frontends.shell.embedded import ArgvItem, Budget

_MAX_TEXT = 4096
"""A longer known word takes the buffer's path (the shell bounds a value's size)."""


def argv_launch(
    path: str,
    items: Sequence[ArgvItem],
    starts: list[int],
    budget: Budget,
    env: dict[str, Word] | None,
    image: tuple[str | None, Span | None] | None,
) -> Launch | None:
    """The launch the shell walk of `items` (as `ShellBuffer.add_word` writes them) would
    record, with `budget` charged as the buffer charges it; None (nothing charged) when the
    words or the command are not of the plain kinds above."""
    if env is not None and any(name.startswith("__speclint_") for name in env):
        return None
    words: list[Word] = []
    identities: dict[Span, object] = {}
    size = 0
    for item in items:
        made = _word(item, starts, identities)
        if made is None:
            return None
        word, cost = made
        words.append(word)
        size += cost
    if not words or size > budget.left:  # (past the budget: the buffer says so)
        return None
    found = _entry(words)
    if found is None:
        return None
    entry, first = found
    budget.left -= size
    command = _span(starts, items[0].pieces[0].begin, items[-1].pieces[-1].end)  # (the buffer's command)
    exported = {
        name: VarValue(
            text=word.text, reason=word.dynamic_reason, origin=word.span, exported=True, assumed=True
        ).as_word(command)
        for name, word in (env or {}).items()
    }
    args = words[first:]
    if identities:
        from speclint.frontends.shell.embedded import _identified

        args = [_identified(word, identities) for word in args]  # type: ignore[arg-type]
    image_text, image_span = image if image is not None else (None, None)
    return Launch(path, entry, command, args, exported, image_text, image_span)


def _word(item: ArgvItem, starts: list[int], identities: dict[Span, object]) -> tuple[Word, int] | None:
    """The word the shell reads back for `item`, and what the buffer charges for it."""
    pieces = item.pieces
    if not pieces or item.code:
        return None
    begin, end = pieces[0].begin, pieces[-1].end
    if item.splat:  # `${__speclint_N}` unquoted
        reason = unknown_reason(pieces) or "an unknown number of words"
        cost = sum(2 * len(p.text or "") + 16 for p in pieces) + 3
        return Word(None, _span(starts, begin, end), item.origin, reason, True), cost
    if len(pieces) == 1 and pieces[0].text is None:  # `"${__speclint_N}"`: unknown
        piece = pieces[0]
        if piece.identity is not None:
            identities[span_of(starts, begin, end)] = piece.identity
        reason = piece.reason or "value not known statically"
        return Word(None, _span(starts, begin, end), item.origin, reason), 19
    if len(pieces) == 1:
        text = pieces[0].text  # (known: an unknown single piece is read above)
        assert text is not None
    elif any(p.text is None for p in pieces):
        return None  # (part known, part not: the buffer's `_option_with_unknown_value`, ...)
    else:
        text = "".join(p.text for p in pieces)  # type: ignore[misc]
    if len(text) > _MAX_TEXT:
        return None
    if item.origin is not None:  # `"${__speclint_N}"` of a known value assigned at `origin`
        cost = sum(2 * len(p.text or "") + 16 for p in pieces) + 3
        return Word(text, _span(starts, begin, end), item.origin), cost
    if "'" in text or "#SBATCH" in text or not (text.isascii() and text.isprintable()):
        return None  # (written otherwise; a batch script's directives; a line end, a control)
    if len(pieces) == 1 and pieces[0].exact:  # `ShellBuffer._single_literal`
        cost = 2 * len(text) + 19
    else:
        cost = sum(2 * len(p.text or "") + 16 for p in pieces) + 3
    return Word(text, _span(starts, begin, end)), cost


def _span(starts: list[int], begin: int, end: int) -> Span:
    """`TextMap.span_of_file_range`: the span of a buffer word written for file [begin, end)."""
    line = bisect_right(starts, begin) - 1
    end_line = bisect_right(starts, max(end - 1, begin)) - 1
    return Span(line + 1, begin - starts[line] + 1, end_line + 1, end - starts[end_line] + 1)


def _entry(words: list[Word]) -> tuple[str, int] | None:
    """(entry, index of SGLang's first argument) when `words` run SGLang's launcher directly,
    as `launch._dispatch` and `launch._python` read them; None for any other command."""
    text = words[0].text
    following = words[1].text if len(words) > 1 else None
    if text is None:
        if following == "-m" or (following or "").startswith("-"):
            return _python(words)
        return None
    base = text.rsplit("/", 1)[-1]
    if base in _WRAPPERS or base in _PACKAGE_RUNNERS or (base, following) in _RUNNERS:
        return None
    if base in ("env", "sudo", "pip", "pip3", "uv"):
        return None
    if _is_python(base):
        return _python(words)
    if command_entry(base, following):
        return SERVE_ENTRY, 2
    return None


def _python(words: list[Word]) -> tuple[str, int] | None:
    """`python [interpreter options] -m MODULE args...` or `python PATH args...`."""
    target = python_target([word.text for word in words], 1)
    if target is None:
        return None
    kind, text, after = target
    entry = script_entry(text) if kind == "script" else module_entry(text)
    return (entry, after) if entry else None

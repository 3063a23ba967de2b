"""The values a `for NAME in WORDS` loop gives its variable: each iteration runs the body with
one of the words, so a launch in the body is read once per word, as the alternatives of one
launch (`choices`), its findings noting the iteration ("when $topk is 1 (the loop at line
2)"). Only words whose values are known and fixed count (literals, known variables and
arrays, integer ranges `{0..3}` and `$(seq 0 3)`); a glob, an unknown word, or more words
than alternatives are kept apart leaves the variable unknown, as before."""

from __future__ import annotations

import re

from speclint.core.launches import MAX_ALTERNATIVES, Condition
from speclint.core.words import Word
from speclint.frontends.shell.choices import Choice
from speclint.frontends.shell.positional import lookup
from speclint.frontends.shell.variables import VarValue, dynamic_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

_GLOB = re.compile(rb"[*?\[]")
"""Pathname expansion in an unquoted word: its words depend on the files present."""
_INTEGER = re.compile(rb"-?[0-9]+")
_BRACE_RANGE = re.compile(rb"\{(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?\}")


def _counted(value: Node, tm: TextMap) -> list[int] | None:
    """The integers of a brace range `{FIRST..LAST[..INCR]}` (bash's brace expansion) or of
    `$(seq [FIRST [INCR]] LAST)` written with integer literals (GNU seq, no options), else
    None. At most MAX_ALTERNATIVES + 1 are made (more are not kept apart anyway)."""
    brace = _BRACE_RANGE.fullmatch(tm.data[value.start_byte : value.end_byte])
    if brace is not None and value.type in ("brace_expression", "concatenation", "word"):
        first, last = int(brace[1]), int(brace[2])
        incr = abs(int(brace[3])) if brace[3] is not None else 1
        if incr == 0:
            return None
        incr = incr if last >= first else -incr
    elif value.type == "command_substitution":
        commands = [c for c in value.named_children if c.type != "comment"]
        if len(commands) != 1 or commands[0].type != "command":
            return None
        name = commands[0].child_by_field_name("name")
        arguments = [c for c in commands[0].named_children if c.type != "command_name"]
        if name is None or tm.node_text(name) != "seq" or not 1 <= len(arguments) <= 3:
            return None
        given = [_integer(a, tm) for a in arguments]
        if any(number is None for number in given):
            return None
        integers = [number for number in given if number is not None]
        first, incr, last = (
            (1, 1, integers[0])
            if len(integers) == 1
            else ((integers[0], 1, integers[1]) if len(integers) == 2 else tuple(integers))
        )
        if incr == 0:
            return None
    else:
        return None
    span = range(first, last + (1 if incr > 0 else -1), incr)
    return list(span[: MAX_ALTERNATIVES + 1])


def _integer(node: Node, tm: TextMap) -> int | None:
    text = tm.data[node.start_byte : node.end_byte]
    return int(text) if node.type in ("number", "word") and _INTEGER.fullmatch(text) else None


def loop_value(walker: Walking, node: Node, name: str) -> VarValue:
    """The loop variable `name` of the `for_statement` `node` while its body runs."""
    unknown = dynamic_value(f"loop variable ${name}", None)
    values = node.children_by_field_name("value")
    tm = walker.tm
    expander = walker.expander()
    words: list[Word] = []
    if not values:  # `for NAME; do`: the positional parameters, as `for NAME in "$@"`
        found = lookup(walker.env, 1)
        if isinstance(found, str) or any(word.text is None for word in found):
            return unknown
        words.extend(found)
    for value in values:
        if value.type == "word" and _GLOB.search(tm.data[value.start_byte : value.end_byte]):
            return unknown
        counted = _counted(value, tm)
        if counted is not None:  # `{0..3}`, `$(seq 0 3)`: integers written in the loop
            if len(words) + len(counted) > MAX_ALTERNATIVES:
                return unknown
            span = tm.node_span(value)
            words.extend(Word(str(number), span) for number in counted)
            continue
        for arg in expander.words(value):
            if arg.word.text is None:
                return unknown
            words.append(arg.word)
    if not words or len(words) > MAX_ALTERNATIVES:
        return unknown
    line = tm.node_span(node).line
    key = ("for", tm.node_span(node))
    alternatives = tuple(
        (
            (Choice(key, index, Condition(word.span, f"${name} is {word.text} (the loop at line {line})")),),
            VarValue(text=word.text, origin=word.span),
        )
        for index, word in enumerate(words)
    )
    return VarValue(reason=unknown.reason, alternatives=alternatives)

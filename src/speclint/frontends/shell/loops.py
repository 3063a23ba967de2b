"""The values a `for NAME in WORDS` loop gives its variable: each iteration runs the body with
one of the words, so a launch in the body is read once per word, as the alternatives of one
launch (`choices`), its findings noting the iteration ("when $topk is 1 (the loop at line
2)"). Only words whose values are known and fixed count (literals, known variables and
arrays); a glob, an unknown word, or more words than alternatives are kept apart leaves the
variable unknown, as before."""

from __future__ import annotations

import re

from speclint.core.launches import MAX_ALTERNATIVES, Condition
from speclint.frontends.shell.choices import Choice
from speclint.frontends.shell.positional import lookup
from speclint.frontends.shell.variables import VarValue, dynamic_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.words import Word
    from speclint.frontends.shell.walking import Walking

_GLOB = re.compile(rb"[*?\[]")
"""Pathname expansion in an unquoted word: its words depend on the files present."""


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

"""Conditions whose outcome the script itself fixes: `USE_EAGLE3=false ... if [ "$USE_EAGLE3" =
true ]; then ...`. A reader sees that such an arm never runs, so speclint must not report what
it would launch.

A condition is decided only when every value it reads is known with certainty (assigned in the
file on every path, never possibly from the environment: a `VarValue` without a `reason`) and
it uses only string, `-z`/`-n` and decimal integer tests, `!`, `-a`/`-o`, `&&`/`||`, `true`,
`false` or `$FLAG` with FLAG `true`/`false`, with bash's semantics. Anything else is unknown
(None) and every arm stays, as before.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from speclint.frontends.shell.arm_values import referenced_names
from speclint.frontends.shell.expand import Expander

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.variables import Env

_OPERAND_KINDS = (
    "word",
    "number",
    "string",
    "raw_string",
    "concatenation",
    "simple_expansion",
    "expansion",
)
_TEST_NODE_KINDS = ("binary_expression", "unary_expression", "parenthesized_expression")
_MAX_CONDITION_BYTES = 4096
"""A longer condition is not decided (bounds the recursion over its nesting)."""
_PATTERN_CHARS = frozenset("*?[]\\()")
"""A `[[ == ]]` right side holding none of these is matched as plain text (no glob, no extglob)."""


@lru_cache(maxsize=4)  # one scan per buffer, not one per condition
def _case_insensitive(data: bytes) -> bool:
    """The buffer may turn on `shopt -s nocasematch` (then `==` and `case` ignore case)."""
    return b"nocasematch" in data


@cache
def _plain() -> re.Pattern[str]:
    """A word that means its own text wherever it is written (no quote, escape, expansion)."""
    return re.compile(r"[A-Za-z0-9_.,:/+%@-]+")


def decide(nodes: list[Node], tm: TextMap, env: Env) -> bool | None:
    """Whether the condition list of an `if`/`elif` succeeds (True), fails (False), or None
    when that is not known for certain."""
    if len(nodes) != 1 or nodes[0].end_byte - nodes[0].start_byte > _MAX_CONDITION_BYTES:
        return None
    raw = tm.data[nodes[0].start_byte : nodes[0].end_byte]
    if b"`" in raw or b"$(" in raw or b":=" in raw or _case_insensitive(tm.data):
        return None  # may run something or assign: never decided
    if not _certain(nodes[0], tm, env):
        return None
    return _status(nodes[0], tm, env)


def _certain(node: Node, tm: TextMap, env: Env) -> bool:
    """Every variable `node` reads is assigned here on every path, whatever the environment."""
    for name in referenced_names(node, tm):
        if name.isdigit() and env.positional is not None:
            from speclint.frontends.shell.positional import certain

            if certain(env, name):
                continue
            return False
        value = env.vars.get(name)
        if value is None or value.reason is not None or value.assumed:
            return False
    return True


def case_item_matches(subject: Node, patterns: list[Node], tm: TextMap, env: Env) -> bool | None:
    """Whether a `case` item with these patterns matches the subject (None: not known)."""
    if _case_insensitive(tm.data) or not _certain(subject, tm, env):
        return None
    if not all(_certain(pattern, tm, env) for pattern in patterns):
        return None
    text = _known_text(subject, tm, env)
    result: bool | None = False
    for pattern in patterns:
        one = _pattern_matches(pattern, text, tm, env)
        if one is True:
            return True
        if one is None:
            result = None
    return result


def _pattern_matches(pattern: Node, text: str | None, tm: TextMap, env: Env) -> bool | None:
    if pattern.type in ("extglob_pattern", "word") and tm.node_text(pattern) == "*":
        return True
    if text is None:
        return None
    literal = _pattern_text(pattern, tm, env)
    return None if literal is None else literal == text


def _known_text(node: Node, tm: TextMap, env: Env) -> str | None:
    """The text of a word without splitting or globbing (`[[ ]]`, `case`), when certain."""
    if node.type not in _OPERAND_KINDS:
        return None
    value = Expander(tm, env).value(node, tm.node_span(node))
    return value.text if value.reason is None and value.elements is None else None


def _status(node: Node, tm: TextMap, env: Env) -> bool | None:
    from speclint.frontends.shell.test_builtin import test  # (only a condition being decided)

    kind = node.type
    if kind == "test_command":
        opener = node.children[0].type if node.children else ""
        inner = [c for c in node.children if c.type not in ("[", "]", "[[", "]]")]
        if opener == "[[":
            return _double_bracket(inner, tm, env)
        if opener == "[":
            words = _flat_words(inner, tm, env)
            return None if words is None else test(words)
        return None
    if kind == "negated_command":
        inner_nodes = [c for c in node.children if c.is_named]
        if len(inner_nodes) != 1:
            return None
        result = _status(inner_nodes[0], tm, env)
        return None if result is None else not result
    if kind == "list":
        return _and_or(node, lambda n: _status(n, tm, env))
    if kind == "command":
        return _command(node, tm, env)
    return None


def _and_or(node: Node, status: Callable[[Node], bool | None]) -> bool | None:
    """`A && B` / `A || B` (left-associative, as bash reads a list)."""
    parts = node.children
    if len(parts) != 3 or parts[1].type not in ("&&", "||"):
        return None
    left = status(parts[0])
    if left is None:
        return None
    if parts[1].type == "&&":
        return False if not left else status(parts[2])
    return True if left else status(parts[2])


def _command(node: Node, tm: TextMap, env: Env) -> bool | None:
    """`true`, `false`, `$FLAG` (FLAG known `true`/`false`), `test ...`, `[ ... ]`."""
    from speclint.frontends.shell.test_builtin import test

    if any(c.type in ("variable_assignment", "file_redirect", "herestring_redirect") for c in node.children):
        return None
    expander = Expander(tm, env)
    words: list[str] = []
    for child in node.children:
        if child.type == "command_name":
            parts = child.named_children
        elif child.is_named:
            parts = [child]
        else:
            continue
        for part in parts:
            if part.type not in _OPERAND_KINDS:
                return None
            for arg in expander.words(part):
                if arg.word.text is None or arg.word.splat:
                    return None
                words.append(arg.word.text)
    if not words:
        return None
    name, args = words[0], words[1:]
    if name in ("true", ":") and not args:
        return True
    if name == "false" and not args:
        return False
    if name == "test":
        return test(args)
    if name == "[" and args and args[-1] == "]":
        return test(args[:-1])
    return None


def _flat_words(nodes: list[Node], tm: TextMap, env: Env) -> list[str] | None:
    """The argument words of `[ ... ]` in order (tree-sitter's nesting of them is not bash's)."""
    expander = Expander(tm, env)
    words: list[str] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if node.type in _TEST_NODE_KINDS:
            stack.extend(reversed(node.children))
        elif node.type == "test_operator" or not node.is_named:
            words.append(tm.node_text(node))
        elif node.type == "extglob_pattern" and _plain().fullmatch(tm.node_text(node)):
            words.append(tm.node_text(node))
        elif node.type in _OPERAND_KINDS:
            for arg in expander.words(node):
                if arg.word.text is None or arg.word.splat:
                    return None
                words.append(arg.word.text)
        else:
            return None
    return words


# ---- `[[ ... ]]`: no word splitting; `==` with an unquoted right side is a pattern -------------


def _double_bracket(nodes: list[Node], tm: TextMap, env: Env) -> bool | None:
    if len(nodes) != 1:
        return None
    return _expression(nodes[0], tm, env)


def _expression(node: Node, tm: TextMap, env: Env) -> bool | None:
    from speclint.frontends.shell.test_builtin import INTEGER_OPERATORS, binary, regex_matches, unary

    kind = node.type
    children = node.children
    if kind == "parenthesized_expression":
        inner = [c for c in children if c.is_named]
        return _expression(inner[0], tm, env) if len(inner) == 1 else None
    if kind == "unary_expression" and len(children) == 2:
        operator = tm.node_text(children[0])
        if operator == "!":
            inner_result = _expression(children[1], tm, env)
            return None if inner_result is None else not inner_result
        operand = _known_text(children[1], tm, env)
        return None if operand is None else unary(operator, operand)
    if kind == "binary_expression" and len(children) == 3:
        operator = tm.node_text(children[1])
        if operator in ("&&", "||"):
            left = _expression(children[0], tm, env)
            if left is None:
                return None
            if operator == "&&":
                return False if not left else _expression(children[2], tm, env)
            return True if left else _expression(children[2], tm, env)
        left_text = _known_text(children[0], tm, env)
        if left_text is None:
            return None
        if operator in ("=", "==", "!="):
            right_text = _pattern_text(children[2], tm, env)
            if right_text is None:
                return None
            return (left_text == right_text) == (operator != "!=")
        if operator == "=~":
            right = children[2]
            if right.type == "regex":  # unquoted: an extended regular expression
                return regex_matches(left_text, tm.node_text(right))
            quoted = _known_text(right, tm, env) if right.type in ("string", "raw_string") else None
            return None if quoted is None else quoted in left_text  # quoted: matched as text
        if operator in INTEGER_OPERATORS:
            right_text = _known_text(children[2], tm, env)
            return None if right_text is None else binary(left_text, operator, right_text)
        return None
    if kind in _OPERAND_KINDS:
        text = _known_text(node, tm, env)
        return None if text is None else text != ""
    return None


def _pattern_text(node: Node, tm: TextMap, env: Env) -> str | None:
    """The right side of `[[ X == Y ]]` when it can only match itself, else None."""
    if node.type == "extglob_pattern":
        raw = tm.node_text(node)
        text = raw if _plain().fullmatch(raw) else None
    else:
        text = _known_text(node, tm, env)
    if text is None or _PATTERN_CHARS.intersection(text):
        return None
    if node.type in ("word", "extglob_pattern", "concatenation") and "\\" in tm.node_text(node):
        return None
    return text

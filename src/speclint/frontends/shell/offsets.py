"""`${x:$i}`, `${GPUS:$i:4}`: a `$NAME` offset that tree-sitter-bash cannot read, read anyway.

bash(1), Parameter Expansion: in `${parameter:offset:length}` the offset is an arithmetic
expression, and in one a variable may be named with or without its `$` (`$i` and `i` give the
same integer). tree-sitter-bash fails on the `$` there (it reports a missing `}` after the
colon) and misreads the rest of the command, often the rest of the script. So the text is
parsed again with that one `$` made a blank: `${GPUS: i:4}` has the same meaning, the same
length, every other byte in place, and tree-sitter reads it. Only the tree comes from the
patched text: the buffer, its words and positions stay the file's (the offset's node is the
name, evaluated from the script's variables as before). A special parameter or a positional
one (`${@:$#}`, `${x:$1}`) has no name to stand for it: left as it is, and reported as not
read (`checks._offset_expansion_gap`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    import tree_sitter

_MAX_PATCHES = 64
"""Offsets patched in one buffer (each costs a parse of the buffer)."""
_NAME_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def read_offsets(
    parse: Callable[[bytes], tree_sitter.Tree], data: bytes, tree: tree_sitter.Tree
) -> tree_sitter.Tree:
    """The tree of `data` with each `$NAME` offset tree-sitter-bash cannot read parsed as
    ` NAME` (same bytes otherwise); `tree` itself when there is none."""
    patched: bytearray | None = None
    for _ in range(_MAX_PATCHES):
        at = _named_offset(tree.root_node, patched if patched is not None else data)
        if at is None:
            break
        if patched is None:
            patched = bytearray(data)
        patched[at] = 0x20  # `$` -> blank
        tree = parse(bytes(patched))
    return tree


def _named_offset(root: tree_sitter.Node, data: bytes | bytearray) -> int | None:
    """Where the `$` of the first `$NAME` offset that broke the parse is, or None."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            parent = node.parent
            if node.type == "}" and parent is not None and parent.type == "expansion":
                if [child.type for child in parent.children][-2:] == [":", "}"]:
                    start = node.start_byte
                    while start < len(data) and data[start] in b" \t":
                        start += 1
                    if (
                        data[start : start + 1] == b"$"
                        and data[start + 1 : start + 2]
                        and data[start + 1] in _NAME_START
                    ):
                        return start
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return None

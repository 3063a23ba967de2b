"""Shell builtins that change this shell's variables or hold code: `eval`, `alias`, `source`,
`read`, `set -a`, function calls. They are never run: their effect on what the walker knows
is applied (values forgotten, variables made unknown) and code they hold is walked.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.positional import set_words, shift
from speclint.frontends.shell.set_positional import forget, set_alternatives, shift_alternatives
from speclint.frontends.shell.variables import BUILTINS_WITH_EFFECTS, dynamic_value, is_variable_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking


def changes_variables(walker: Walking, name: str) -> bool:
    """Whether a command named `name` may assign variables of this shell."""
    return name in BUILTINS_WITH_EFFECTS or name in walker.functions


def builtin_effects(
    walker: Walking, node: Node, args: list[Arg], prefix: dict[str, Word] | None = None
) -> bool:
    """Apply what a builtin does to variables; True when the command is such a builtin. A call
    of a function of the script is read with its words first (`functions`)."""
    name = args[0].word.text
    if name is None or (name not in BUILTINS_WITH_EFFECTS and name not in walker.functions):
        return False
    env = walker.env
    line = walker.line_of(node)
    texts = [a.word.text for a in args]
    if name == "eval":
        if len(args) >= 2:
            code = args[1:] if len(args) > 2 else args[1]
            walker.parse_nested(code, None, walker.image, functions=walker.definitions, unknown_words=True)
        if not _assigns_nothing(walker, texts[1:]):
            env.poison_all(f"eval at line {line} may change any variable")
    elif name == "alias":
        for arg in args[1:]:
            body = _alias_body(arg)
            if body is not None:  # read where it is called (`aliases`), or as written if never
                from speclint.frontends.shell.aliases import define

                define(walker, (arg.word.text or "").split("=", 1)[0], body)
    elif name == "unalias":  # `unalias NAME...`, `unalias -a`: later calls run the command itself
        from speclint.frontends.shell.aliases import remove

        remove(walker, list(walker.aliases) if "-a" in texts[1:] else [t or "" for t in texts[1:]])
    elif name in ("source", "."):
        target = texts[1] if len(texts) > 1 else None
        if not (target and target.endswith("/activate")):
            from speclint.frontends.shell.sourced_files import source_file

            why = source_file(env, target, walker.path, args[1].word.span) if target else None
            if why is not None or not target:
                said = f" ({why})" if why else ""
                env.poison_all(f"`{name} {target or '...'}` at line {line} may change any variable{said}")
    elif name in ("read", "mapfile", "readarray", "getopts", "printf"):
        for var in _names_set_by(name, texts):
            env.assign(var, dynamic_value(f"${var} is set by `{name}` at line {line}", args[0].word.span))
        return name != "printf"
    elif name == "shift":
        by = texts[1] if len(texts) > 1 else "1"
        count = int(by) if by is not None and by.isdigit() and len(texts) <= 2 else None
        if not shift_alternatives(env, count, line):
            shift(env, count, line)
    elif name == "set":
        if "--" in texts[1:] and None not in texts[1 : texts.index("--", 1)]:
            dashes = texts.index("--", 1)
            if not (env.has_alternatives and None in texts[dashes:] and set_alternatives(walker, node, line)):
                forget(env)
                set_words(env, tuple(arg.word for arg in args[dashes + 1 :]))
        for option, value in zip(texts[1:], texts[2:] + [None]):
            if option in ("-a", "+a") or (option in ("-o", "+o") and value == "allexport"):
                env.allexport = option.startswith("-")
            elif option and option[0] in "-+" and "a" in option[1:] and option[1:].isalpha():
                env.allexport = option[0] == "-"
    elif name in walker.functions:
        walker.follow_call(node, args, prefix or {})
        function_effects(walker, name, line)
    else:
        return False
    return True


def function_effects(walker: Walking, name: str, line: int) -> None:
    """After a call of function `name`: the globals its body assigns are unknown."""
    for var in walker.functions[name]:
        walker.env.assign(
            var, dynamic_value(f"${var} is set by function {name}() (called at line {line})", None)
        )


# Statements that set or unset this shell's variables (a command's `X=1 cmd` prefix sets X
# for that command only); `ERROR`: code bash would not read as written.
_SETS_VARIABLES = frozenset(
    {
        "variable_assignment",
        "variable_assignments",
        "declaration_command",
        "unset_command",
        "function_definition",
        "ERROR",
    }
)


def _assigns_nothing(walker: Walking, texts: list[str | None]) -> bool:
    """Whether `eval`'s words, all known, are code that sets no variable of this shell: commands
    named literally, none a builtin that sets variables or a function of this script, no
    assignment, declaration or `unset` of its own (`eval "$CMD"` holding a launch). eval joins
    its words with blanks and runs them as this shell's code."""
    if not texts or any(text is None for text in texts):
        return False
    from speclint.frontends.shell.text import parse_bytes

    code = " ".join(text for text in texts if text is not None).encode("utf-8", "surrogatepass")
    stack = [parse_bytes(code).root_node]
    while stack:
        node = stack.pop()
        if node.type in _SETS_VARIABLES and not (node.type == "variable_assignment" and _prefix(node)):
            return False
        if node.type == "command":
            name = node.child_by_field_name("name")
            word = name.named_children[0] if name is not None and name.named_children else None
            if word is None or word.type != "word" or word.text is None:
                return False
            command = word.text.decode("utf-8", "surrogatepass")
            if command in BUILTINS_WITH_EFFECTS or command in walker.functions:
                return False
        stack.extend(node.children)
    return True


def _prefix(assignment: Node) -> bool:
    """`X=1 cmd`: the assignment is the command's environment, not this shell's variable."""
    parent = assignment.parent
    return parent is not None and parent.type == "command" and parent.child_by_field_name("name") is not None


def _alias_body(arg: Arg) -> Arg | None:
    """The quoted body of `NAME='...'` as an argument of its own (its node keeps positions)."""
    node = arg.node
    text = arg.word.text or ""
    if node is None or node.type != "concatenation" or "=" not in text:
        return None
    last = node.children[-1] if node.children else None
    if last is None or last.type not in ("raw_string", "string"):
        return None
    value = text.split("=", 1)[1]
    return Arg(Word(value, arg.word.span, arg.word.origin), last)


_READ_VALUED = ("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u")
_MAPFILE_VALUED = ("-d", "-n", "-O", "-s", "-u", "-C", "-c")
"""The options of `read` / `mapfile` that take a value (bash manual, "Bash Builtins"):
`mapfile -t NODES` strips newlines and names NODES; `read -t 5 X` waits 5 seconds."""


def _names_set_by(builtin: str, texts: list[str | None]) -> list[str]:
    rest = texts[1:]
    if builtin == "printf":
        return [rest[1]] if len(rest) > 1 and rest[0] == "-v" and rest[1] else []
    if builtin == "getopts":
        return [rest[1]] if len(rest) > 1 and rest[1] else []
    names: list[str] = []
    skip = False
    for index, text in enumerate(rest):
        if skip:
            skip = False
            if builtin == "read" and index and rest[index - 1] == "-a" and text:
                names.append(text)
            continue
        if text is None:
            continue
        if text.startswith("-"):
            skip = text in (_MAPFILE_VALUED if builtin in ("mapfile", "readarray") else _READ_VALUED)
        elif is_variable_name(text):
            names.append(text)
    if builtin in ("mapfile", "readarray"):
        return names[-1:] or ["MAPFILE"]
    return names or (["REPLY"] if builtin == "read" else [])


def run_command_name(tm: TextMap, node: Node, name_node: Node) -> Node:
    """The word naming what a command runs: past `exec` and `command` (bash builtins that run
    the words after them, `exec -a NAME` / `command -p` options skipped), else `name_node`."""
    if tm.node_text(name_node) not in ("exec", "command"):
        return name_node
    words = [c for c in node.named_children if c.type in ("word", "string", "raw_string", "concatenation")]
    skip = False
    for word in words:
        text = tm.node_text(word)
        if word.start_byte < name_node.end_byte or skip:
            skip = False
            continue
        if text == "-a":
            skip = True
        elif not text.startswith("-"):
            return word
    return name_node

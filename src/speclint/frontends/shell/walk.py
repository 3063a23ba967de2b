"""Walking a parsed shell script in execution order, tracking variables through control flow.

Branches (`if`, `case`, `&&`/`||`), loops and functions are followed path by path and joined,
so a value is only concrete where every path agrees on it. Commands are handed to
`launch` to recognise SGLang launches; assignments to `assignments`.
"""

from __future__ import annotations

from speclint.frontends.manifests import prefixed
from speclint.frontends.shell import assignments
from speclint.frontends.shell.expand import Expander
from speclint.frontends.shell.function_defs import CallReadings, Definition, globals_assigned
from speclint.frontends.shell.launch import may_matter, recognize
from speclint.frontends.shell.substituted_heredoc import heredoc_value
from speclint.frontends.shell.text import NAME_FIELD, parse_bytes
from speclint.frontends.shell.unread_commands import unread_command
from speclint.frontends.shell.variables import BUILTINS_WITH_EFFECTS, Env, VarValue, dynamic_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.core.launches import Alternative, ExtractResult, Launch
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.alias_defs import Alias
    from speclint.frontends.shell.arms import Choice
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import UnitReader

_MAX_NESTING = 5


class Walker:
    """Walks one buffer (the file, or the content of a `bash -c` string) with one `Env`."""

    def __init__(
        self,
        result: ExtractResult,
        path: str,
        tm: TextMap,
        env: Env,
        depth: int = 0,
        image: tuple[str | None, Span | None] | None = None,
    ) -> None:
        self.result = result
        self.path = path
        self.tm = tm
        self.env = env
        self.depth = depth
        self.image = image
        """(image, image span) when this buffer runs inside `docker run IMAGE`."""
        self.collect = True
        """False while pre-walking a loop body to learn what it assigns (no launches recorded)."""
        self.functions: dict[str, set[str]] = {}
        self.definitions: dict[str, Definition] = {}
        """The functions defined so far, by name (the last definition of a name wins)."""
        self._by_body: dict[tuple[int, int], Definition] = {}
        self.unit_reader: UnitReader | None = None
        """Reads a systemd unit a here-document writes (`unit_heredoc`); None: not read."""
        self.exported_functions: set[str] = set()
        self.aliases: dict[str, Alias] = {}
        """The aliases defined so far, by name (`aliases`: a call reads the text they stand for)."""
        """Functions `export -f` passes to the bash shells this one starts (`bash -c`)."""
        self._deferred: list[Definition] = []
        self.calls = CallReadings()
        """The calls being read (shared with the walkers of strings inside this buffer)."""
        self.alternative: Alternative | None = None
        """Set while a command is walked for one choice of branch arms (`alternatives`):
        the launches it yields are that alternative."""
        self._expander: Expander | None = None
        """The last `expander()`, handed out again while `env` and `tm` are the same."""

    # ---- entry points ------------------------------------------------------------------------

    def run(self, root: Node) -> None:
        try:
            self.block(root.children)
            if self.aliases:
                from speclint.frontends.shell.aliases import read_uncalled

                read_uncalled(self)
            self._walk_function_bodies()
        finally:
            self._expander = None  # (it holds `_substitution`, so this walker: no cycle left)
        if self.depth == 0 and self.calls.made:
            self.calls.mark(self.result.launches)

    def add_launch(self, launch: Launch) -> None:
        if self.collect:
            launch.alternative = self.alternative
            self.result.launches.append(launch)
            self.calls.note(launch)

    def follow_call(self, node: Node, args: list[Arg], prefix: dict[str, Word]) -> bool:
        from speclint.frontends.shell.functions import follow_call  # (a script with functions)

        return follow_call(self, node, args, prefix)

    def expander(self) -> Expander:
        """An Expander of this buffer against the current `env`: one for the commands and
        assignments between two changes of `env` (a branch, a subshell), not one each. It
        keeps no state between calls (`Expander._argument_mode` is set by each entry point
        and restored by `value`), and a `$(...)` walked inside one of its calls runs in a
        subshell's `env`, so it gets its own."""
        made = self._expander
        if made is None or made.env is not self.env or made.tm is not self.tm:
            made = self._expander = Expander(self.tm, self.env, self._substitution)
            made.heredoc_value = heredoc_value
        return made

    def line_of(self, node: Node) -> int:
        return self.tm.node_line(node)

    def parse_nested(
        self,
        arg: Arg | list[Arg],
        inherited: dict[str, Word] | None,
        image: tuple[str | None, Span | None] | None,
        unknown: str = "",
        functions: dict[str, Definition] | None = None,
        outer: Env | None = None,
        unknown_words: bool = False,
    ) -> None:
        """Walk the shell code held in a string argument (`bash -c`, `ssh host`, `eval`).

        `inherited` is the environment the inner shell starts with; None means it shares this
        shell's variables (eval). `unknown` says why a variable it does not inherit is unknown.
        `functions`: the functions it can call (eval: all of ours; `bash -c`: the exported).
        `outer`: the shell whose environment the inner one inherits (`bash -c`): `unknown` then
        says why a name it assigns is unknown, and its own reason why any other is.
        `unknown_words` (eval): a word of unknown text is read as code holding any words."""
        if self.depth >= _MAX_NESTING:
            return
        from speclint.frontends.shell.nested import nested_text_map  # (a script with such an argument)

        built = nested_text_map(self, arg, unknown_words)
        if built is not None:
            self.walk_nested(*built, inherited, image, unknown, functions, outer)

    def exported_definitions(self) -> dict[str, Definition]:
        """The functions `export -f` passes to an inner bash (bash(1), `export -f`)."""
        return {name: self.definitions[name] for name in self.exported_functions if name in self.definitions}

    def walk_nested(
        self,
        tm: TextMap,
        placeholders: dict[str, str],
        inherited: dict[str, Word] | None,
        image: tuple[str | None, Span | None] | None,
        unknown: str,
        functions: dict[str, Definition] | None = None,
        outer: Env | None = None,
    ) -> None:
        """Walk a buffer of shell code of its own (`parse_nested`, a here-document script)."""
        if inherited is None:
            env = self.env.copy()
        else:
            env = Env()
            if unknown:
                env.unknown_template = unknown
            if outer is not None:
                env.outside = (frozenset(outer.vars), outer.poison, outer.unknown_template)
            for name, word in inherited.items():
                env.vars[name] = VarValue(
                    text=word.text, reason=word.dynamic_reason, origin=word.span, exported=True, assumed=True
                )
        for name, reason in placeholders.items():
            env.vars[name] = dynamic_value(reason, None, exported=True)  # text already in place
        marks = getattr(inherited, "marks", None)  # a container's or a Slurm task's environment
        if marks is not None:
            env.vars.update(marks())
        tree = parse_bytes(tm.data)
        inner = Walker(self.result, self.path, tm, env, self.depth + 1, image)
        inner.calls = self.calls
        inner.collect = self.collect
        inner.alternative = self.alternative
        inner.unit_reader = self.unit_reader
        inner.aliases = self.aliases if inherited is None else {}  # (aliases are not exported)
        for name, definition in (functions or {}).items():  # read in their own buffer
            inner.definitions[name] = definition
            inner.functions[name] = self.functions.get(name, set())
            inner.exported_functions.add(name)
        inner.run(tree.root_node)
        if self.collect:
            from speclint.frontends.shell.checks import collect_comments

            collect_comments(tree.root_node, tm, self.result)

    # ---- statements ----------------------------------------------------------------------------

    def block(self, nodes: list[Node]) -> None:
        for node in nodes:
            if node.is_named:
                self.statement(node)

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind == "command":
            self.command(node)
        elif kind == "variable_assignment":
            assignments.assignment(self, node)
        elif kind == "variable_assignments":
            for child in node.named_children:
                assignments.assignment(self, child)
        elif kind == "declaration_command":
            assignments.declaration(self, node)
        elif kind == "unset_command":
            assignments.unset(self, node)
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                self.statement(body)
                if body.type == "command" and self.depth < _MAX_NESTING and not _read_into(self, node, body):
                    import speclint.frontends.shell.heredocs as heredocs  # (a module: `from M import name` here costs a failed lookup each call)

                    heredocs.heredoc_statement(self, node, body)
        elif kind in ("compound_statement", "do_group", "negated_command", "program", "ERROR"):
            self.block(node.children)
        elif kind == "subshell":
            self.in_subshell(node.children)
        elif kind == "pipeline":
            for child in node.named_children:
                self.in_subshell([child])
        elif kind in ("list", "if_statement", "case_statement"):
            import speclint.frontends.shell.conditionals as conditionals  # (imported for a script with one)

            if kind == "list":
                conditionals.and_or_list(self, node)
            elif kind == "if_statement":
                conditionals.if_statement(self, node)
            else:
                conditionals.case_statement(self, node)
        elif kind in ("for_statement", "c_style_for_statement", "while_statement"):
            self.loop_statement(node)
        elif kind == "function_definition":
            self.function_definition(node)

    def in_subshell(self, nodes: list[Node]) -> None:
        saved = self.env
        self.env = saved.copy()
        self.block(nodes)
        self.env = saved

    def _substitution(self, node: Node) -> None:
        """Launches inside `$(...)` still count; its assignments stay inside."""
        self.in_subshell(node.children)

    def branches(
        self, groups: list[list[Node]], fallthrough: bool, line: int, arms: list[Choice] | None = None
    ) -> None:
        from speclint.frontends.shell.conditionals import join_branches

        join_branches(self, groups, fallthrough, line, arms)

    def loop_statement(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        line = self.line_of(node)
        loop_variable: str | None = None
        if node.type == "for_statement":
            variable = node.child_by_field_name("variable")
            loop_variable = self.tm.node_text(variable) if variable is not None else None
        elif node.type == "while_statement":
            condition = node.children_by_field_name("condition")
            from speclint.frontends.shell.static_tests import decide

            until = bool(node.children) and node.children[0].type == "until"
            runs = decide([c for c in condition if c.is_named], self.tm, self.env)
            self.block(condition)
            if runs is not None and runs == until:  # `while false`, `until true`: no iteration
                return
        if body is None:
            return
        base = self.env
        collect = self.collect
        passes: list[Env] = []
        start = base
        iterations = None
        if loop_variable:
            from speclint.frontends.shell.loops import loop_value

            iterations = loop_value(self, node, loop_variable)
        for collect_now in (False, collect):
            self.collect = collect_now
            self.env = start.copy()
            if loop_variable and iterations is not None:
                self.env.assign(loop_variable, iterations)
            self.block(body.children)
            passes.append(self.env)
            start = base.copy()
            start.merge_from([base, self.env], line)
        self.collect = collect
        self.env = start
        if loop_variable:
            self.env.assign(loop_variable, dynamic_value(f"loop variable ${loop_variable}", None))

    def function_definition(self, node: Node) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = self.tm.node_text(name_node)
        self.functions[name] = globals_assigned(body, self.tm)
        key = (id(self.tm), body.start_byte)
        definition = self._by_body.get(key)
        if definition is None:  # a body read for several calls defines its functions once
            definition = self._by_body[key] = Definition(name, body, self.tm, self.env.copy())
            self._deferred.append(definition)
        self.definitions[name] = definition

    def _walk_function_bodies(self) -> None:
        """The bodies no call read, each once with its arguments unknown (`functions`)."""
        if self._deferred:  # (most scripts define no function: `functions` is not imported)
            from speclint.frontends.shell.functions import read_uncalled

            read_uncalled(self, self._deferred)

    # ---- commands -----------------------------------------------------------------------------

    def command(self, node: Node) -> None:
        name_node = node.child_by_field_id(NAME_FIELD)
        if name_node is not None and name_node.named_child_count == 1:
            name_word = name_node.named_child(0)
            if name_word.type == "word":
                raw = self.tm.data[node.start_byte : node.end_byte]
                name = self.tm.node_text(name_word)
                if (
                    not self.collect
                    and raw.find(b":=") < 0  # (`find`, not `in`: see `frontends.recognise.names_launcher`)
                    and name not in BUILTINS_WITH_EFFECTS  # (`builtin_commands.changes_variables`)
                    and name not in self.functions
                ):
                    return  # pre-walk of a loop body: only effects on variables matter
                if (
                    raw.find(b"$") < 0
                    and raw.find(b"`") < 0
                    and not may_matter(self, name)
                    and not prefixed.mentions(raw)
                ):
                    self._unread(node, name_word)
                    return
        found = len(self.result.launches)
        if not (self.collect and self.env.has_alternatives and _walk_alternatives(self, node)):
            self.walk_command(node)
        if len(self.result.launches) == found and name_node is not None:
            self._unread(node, name_node)

    def _unread(self, node: Node, name_node: Node) -> None:
        unread_command(self, node, name_node)  # (`unread_commands`)

    def walk_command(self, node: Node) -> None:
        if self.aliases:
            from speclint.frontends.shell.aliases import call

            if call(self, node):
                return
        prefix, args = self.expander().command_words(node)
        if not args:
            return
        name = args[0].word.text  # (a builtin with effects or a function: `builtin_effects`' own test)
        if name is not None and (name in BUILTINS_WITH_EFFECTS or name in self.functions):
            from speclint.frontends.shell.builtin_commands import builtin_effects

            if builtin_effects(self, node, args, prefix):
                return
        piped = (parent := node.parent) is not None and parent.type == "pipeline"  # `echo "$CMD" | bash`
        if piped or self.tm.data.find(b"<<<", node.start_byte, node.end_byte) >= 0:  # `bash <<< "$CMD"`
            from speclint.frontends.shell.herestrings import stdin_script

            stdin_script(self, node)
        recognize(self, node, args, prefix)


def _read_into(walker: Walker, node: Node, command: Node) -> bool:
    """`read -r -d '' CMD << EOF`: the here-document put in CMD (`read_heredoc`)."""
    if walker.tm.data.find(b"read", command.start_byte, command.start_byte + 12) < 0:
        return False
    from speclint.frontends.shell.read_heredoc import read_into_variable

    redirect = next((c for c in node.children if c.type == "heredoc_redirect"), None)
    return redirect is not None and read_into_variable(walker, command, redirect)


def _walk_alternatives(walker: Walker, node: Node) -> bool:
    """`alternatives.walk_alternatives`, imported for a script whose variables have alternatives."""
    from speclint.frontends.shell.alternatives import walk_alternatives

    return walk_alternatives(walker, node)

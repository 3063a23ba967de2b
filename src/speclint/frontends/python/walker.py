"""The Python walker: statements in order, with an environment of known values per scope.

Lists built with `+=`, `.append`, `.extend` and dicts built with `.update` have their values
where they are used (`mutations`); a value assigned differently on two paths becomes unknown.
Each call is handed to `launch` (what it starts); functions, classes, branches and helper
calls are followed by `calls`, `classes`, `branches` and `helpers`.
"""

from __future__ import annotations

from collections import ChainMap

from speclint.core.launches import Launch
from speclint.frontends.python import branches as arms  # `if` arms: walked, decided, merged
from speclint.frontends.python import sinks
from speclint.frontends.python import syntax as py
from speclint.frontends.python.calls import note_call, walk_call_sites
from speclint.frontends.python.classes import class_body, keep_attributes, walk_inherited, walk_super
from speclint.frontends.python.constructed import walk_constructions
from speclint.frontends.python.environ import assign_environ, launch_env
from speclint.frontends.python.environ_calls import environ_statement
from speclint.frontends.python.guards import check_assert, refuse_guard
from speclint.frontends.python.handed import with_handed
from speclint.frontends.python.helpers import count_statement, new_evaluator, note_instance
from speclint.frontends.python.launch import recognize
from speclint.frontends.python.mutations import assign_item, augment, mutate, unpack
from speclint.frontends.python.returned_argv import read_returned
from speclint.frontends.python.scan import (
    Elif,
    calls_in,
    may_call,
    merge_envs,
    snapshot,
    target_names,
    value_key,
)
from speclint.frontends.python.syntax_names import imported
from speclint.frontends.python.unread_argv import note_made
from speclint.frontends.python.values import Scope
from speclint.frontends.python.walking import Helper, HelperBudget
from speclint.frontends.shell.embedded import Budget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.core.launches import Condition, ExtractResult
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.python.evaluator import Evaluator
    from speclint.frontends.python.positions import Positions
    from speclint.frontends.python.values import Env, Val
    from speclint.frontends.python.walking import ClassInfo
    from speclint.frontends.shell.embedded import ArgvItem


class PyWalker:
    """Walks statements in order with an environment of known values per scope."""

    def __init__(
        self, text: str, path: str, positions: Positions, result: ExtractResult, quiet: bool = False
    ) -> None:
        self.text = text
        self.path = path
        self.pos = positions
        self.result = result
        self.budget = Budget()
        self.imports: dict[str, str] = {}
        self.env: Env = {}
        self.deferred: list[Helper] = []
        self.in_function = False
        """Module-level functions see the module's final globals; nested ones their
        enclosing function's values at definition."""
        self.quiet = quiet
        """Walking a helper's body for what it returns (`helpers`): no launches."""
        self.functions: dict[str, Helper] = {}
        self.owner: ClassInfo | None = None
        """The class whose method is walked (its `self.X` values)."""
        self.active: frozenset[py.FunctionDef] = frozenset()
        self.helper_budget = HelperBudget()
        self.module_env: Env | None = None
        self.returns: list[Val] | None = None
        self.stopped = False
        self.classes: list[ClassInfo] = []
        self.noting = True
        self.call_sites: dict[py.FunctionDef, tuple[Helper, list[tuple[Span, dict[str, Val]]]]] = {}
        """function node -> (its Helper, [(call span, parameter values)]) (`calls`)."""
        self.launches_of: dict[py.FunctionDef, list[Launch]] = {}
        """function node -> the launches its own walk made."""
        self.launch_owner: dict[int, ClassInfo] = {}
        """id(launch) -> the class whose method made it (`classes`)."""
        self.alternatives = False
        """Some value remembers `if` arms (`branches`): launch calls look for them."""
        self.looping = 0
        """Inside a loop body walked once for all its passes (`loop`): no `if` is decided."""
        self.branching = 0
        self.continue_at: int | None = None
        """In a pass of a loop read pass by pass, `branching` there (`loop_passes`)."""
        self.unsure_continue = False
        self._evaluator: Evaluator | None = None
        self.function: py.FunctionDef | None = None
        """The function walked on its own, its parameters unknown (`returned_argv`)."""

    def evaluator(self) -> Evaluator:
        """An Evaluator of the current `env`: the last one again while `env`, `pos`,
        `imports` and whether a loop is walked are the same (it keeps no other state)."""
        ev = self._evaluator
        if (
            ev is None
            or ev.env is not self.env
            or ev.pos is not self.pos
            or ev.imports is not self.imports
            or ev.deciding is bool(self.looping)
        ):
            ev = self._evaluator = new_evaluator(self)
        return ev

    def helper_walker(self) -> PyWalker:
        """A quiet walker of the same file, for a helper's body (`helpers.call_helper`)."""
        return PyWalker(self.text, self.path, self.pos, self.result, quiet=True)

    def module(self, module: py.Module) -> None:
        self.block(module.body)
        self.module_env = self.env
        while self.deferred:
            self.walk_function(self.deferred.pop(0), record=True)
        walk_inherited(self)  # a base's launch once more per subclass of the file
        self.noting = False
        walk_call_sites(self)  # a launch from a function's parameters, once per call of it
        walk_constructions(self)  # a launch from the `self.X` __init__ sets, once per construction
        self.deferred.clear()

    def walk_function(
        self, helper: Helper, record: bool = False, bound: dict[str, Val] | None = None
    ) -> None:
        """A function's body with its parameters unknown (or `bound`, from one call of it:
        `calls`); a method sees its class's values and leaves the `self.X` it sets for
        the methods walked after it. `record`: note which function and class made the
        launches (`calls`, `classes`)."""
        if helper.positions is not None:  # a method of SGLang's source (`fixtures`)
            saved = self.pos, self.imports
            self.pos, self.imports = helper.positions, helper.imports or {}
            try:
                self._walk_function(helper, record, bound)
            finally:
                self.pos, self.imports = saved
        else:
            self._walk_function(helper, record, bound)

    def _walk_function(self, helper: Helper, record: bool, bound: dict[str, Val] | None) -> None:
        function, owner = helper.node, helper.owner
        layers = [helper.outer] + ([owner.attrs] if owner is not None else [])
        assert self.module_env is not None  # `module` sets it before it walks any function
        self.env = scope = Scope({}, *layers, self.module_env)  # not a copy: linear in many functions
        self.in_function, self.owner = True, owner
        params = function.params
        for param in [
            *params.posonly_params,
            *params.params,
            *params.kwonly_params,
            params.star_arg,
            params.star_kwarg,
        ]:
            if isinstance(param, py.Param):
                self.env[param.name.value] = self.evaluator().named(
                    param.name,
                    param.name.value,
                    f"parameter `{param.name.value}` of {function.name.value}()",
                    param.name,
                )
        self.env.update(bound or {})
        self.stopped, outer, self.function = False, self.function, function if bound is None else None
        count = len(self.result.launches)
        self.block(function.body.body)
        self.function = outer
        if record:
            self.launches_of[function] = self.result.launches[count:]
        if owner is not None:
            keep_attributes(owner, scope.maps[0], self.evaluator())  # `block` restores self.env
            if record:
                for launch in self.result.launches[count:]:
                    self.launch_owner[id(launch)] = owner

    # ---- statements ------------------------------------------------------------------------

    def block(self, statements: Sequence[py.Node]) -> None:
        for statement in statements:
            if self.quiet:
                count_statement(self)
            self.statement(statement)
            if self.stopped:  # after a `return` in this block
                break

    def statement(self, node: py.Node) -> None:
        if isinstance(node, py.SimpleStatementLine):
            for small in node.body:
                self.small(small)
        elif isinstance(node, py.FunctionDef):
            helper = Helper(node, snapshot(self.env) if self.in_function else {}, self.owner)
            self.functions[node.name.value] = helper
            if not self.quiet:
                self.deferred.append(helper)
        elif isinstance(node, py.ClassDef):
            class_body(self, node)
        elif isinstance(node, py.If):
            if not self.in_function and node.orelse is None and arms.is_main_guard(node.test):
                self.block(node.body.body)  # the script's entry: what runs when it is run
            else:
                self.if_statement(node, None)
        elif isinstance(node, (py.For, py.While)):
            self.loop(node)
        elif isinstance(node, py.Try):
            self.branches([node.body.body] + [h.body.body for h in node.handlers])
            if node.orelse is not None:
                self.block(node.orelse.body.body)
            if node.finalbody is not None:
                self.block(node.finalbody.body.body)
        elif isinstance(node, py.With):
            for item in node.items:
                self.scan(item.item)
            self.block(node.body.body)
        elif isinstance(node, py.Match):
            self.scan(node.subject)
            self.branches([case.body.body for case in node.cases] + [[]])

    def if_statement(self, node: py.If, top: py.If | None) -> None:
        """Arms merge as any branches do; the names they set differently also keep each
        arm's value (`branches`), for the launches that read them. `top`: the `if`
        of an `elif`."""
        self.scan(node.test)
        orelse = node.orelse
        refuse_guard(self, node)  # `if X is None: raise` with the file's X None: X is unknown
        if arms.walk_decided(self, node, top):  # the file's own values decide it: only that arm runs
            return
        self.branches(
            [
                node.body.body,
                Elif(orelse, top or node)
                if isinstance(orelse, py.If)
                else orelse.body.body
                if orelse is not None
                else [],
            ],
            arms.arm_conditions(self, node, top) if self.pos.relocates else None,  # not in SGLang's source
        )

    def branches(
        self, groups: Sequence[Sequence[py.Node] | Elif], conditions: list[Condition | None] | None = None
    ) -> None:
        before = self.env
        results: list[ChainMap[str, Val]] = []
        self.branching += 1
        for group in groups:  # each path writes to its own layer over `before` (no copies)
            self.env = Scope({}, before)
            if isinstance(group, Elif):
                self.if_statement(group.node, group.top)
            else:
                self.block(group)
            self.stopped = False  # a return on one path: the others go on
            results.append(self.env)
        self.branching -= 1
        results, conditions = arms.drop_exits(self, groups, results, conditions)  # `else: sys.exit()`
        self.env = before
        changed = set().union(*(env.maps[0] for env in results))
        merged = merge_envs(before, results, self.evaluator(), changed)
        if conditions is not None:
            for name, value in merged.items():
                merged[name] = arms.with_alternatives(value, [env.get(name) for env in results], conditions)
                self.alternatives = self.alternatives or merged[name].alternatives is not None
        before.update(merged)

    def loop(self, node: py.For | py.While) -> None:
        if isinstance(node, py.For):
            self.scan(node.iter)
            from speclint.frontends.python.loop_passes import walk_passes

            if walk_passes(self, node):  # each pass over elements written out, in order
                return
        else:
            self.scan(node.test)
        before = self.env
        self.env = body = Scope({}, before)
        if isinstance(node, py.For):
            for name in target_names(node.target):
                self.env[name.value] = self.evaluator().named(name, name.value, "a loop variable", name)
        self.looping += 1  # one walk stands for every pass: the first pass's values decide nothing
        continue_at, self.continue_at = self.continue_at, None  # (its `continue` ends no pass)
        self.block(node.body.body)
        self.looping, self.continue_at = self.looping - 1, continue_at
        self.stopped = False
        self.env = before
        before.update(merge_envs(before, [before, body], self.evaluator(), set(body.maps[0])))
        if node.orelse is not None:
            self.block(node.orelse.body.body)

    def small(self, node: py.BaseSmallStatement) -> None:
        if isinstance(node, py.Continue) and self.continue_at is not None:
            self.unsure_continue |= self.branching != self.continue_at  # (an arm not decided)
            self.stopped = True  # the rest of this pass does not run
            return
        if isinstance(node, (py.Import, py.ImportFrom)):
            self.imports.update(imported(node, self.evaluator().dotted))
            return
        self.scan(node)
        if isinstance(node, py.Return):
            if self.returns is not None:
                ev = self.evaluator()
                self.returns.append(
                    ev.eval(node.value) if node.value is not None else ev._make(node, "const", None)
                )
            elif self.function is not None and not self.quiet:
                read_returned(self, node, self.function)  # an adapter's `build_command()`: `return cmd`
            self.stopped = True
        elif isinstance(node, py.Assign):
            value = self.evaluator().eval(node.value)
            for target in node.targets:
                self.assign(target.target, value)
                note_instance(self, target.target, node.value)  # `server = DockerServer(...)`
                note_made(self, target.target, node.value)  # `cmd = wrap(BASE)`: `unread_argv`
        elif isinstance(node, py.AnnAssign) and node.value is not None:
            self.assign(node.target, self.evaluator().eval(node.value))
        elif isinstance(node, py.AugAssign) and (key := value_key(node.target)) is not None:
            augment(self, node, key)
        elif isinstance(node, py.Expr) and isinstance(node.value, py.Call):
            if not self.quiet:  # `super().setUpClass()`, `Base.__init__(self, ...)`: the base's
                walk_super(self, node.value)
            if not environ_statement(self, node.value):  # `os.environ.update(...)`, `setup_env()`
                mutate(self, node.value)
        elif isinstance(node, py.Del):
            assign_environ(self, node.target, None)  # `del os.environ["NAME"]`
        elif isinstance(node, py.Assert) and self.pos.relocates:
            check_assert(self, node)  # `assert cls.mode`: a value the file refuses

    def assign(self, target: py.BaseExpression, value: Val) -> None:
        if (key := value_key(target)) is not None:
            self.env[key] = value
        elif assign_environ(self, target, value):  # `os.environ["NAME"] = value`
            pass
        elif isinstance(target, py.Subscript) and isinstance(target.value, py.Name):
            assign_item(self, target, target.value, value)
        elif not unpack(self, target, value):  # `model, tp = "m", "2"`: element by element
            self.assign_unknown(target, "assigned by unpacking")

    def assign_unknown(self, target: py.Node, reason: str) -> None:
        for name in target_names(target):
            self.env[name.value] = self.evaluator().unknown(name, reason)

    # ---- launches --------------------------------------------------------------------------

    def scan(self, node: py.Node) -> None:
        """Record the launches made by calls in `node` (not inside nested functions)."""
        if self.quiet or not may_call(self.pos, node):
            return
        for call in with_handed(self, calls_in(node, self.pos.ranges)):
            if self.noting:
                note_call(self, call)
            choices = arms.choices_for(self, call) if self.alternatives else None
            if choices is None:
                recognize(self, call)
                continue
            saved = self.env
            for index, (conditions, values) in enumerate(choices):  # one launch per choice
                self.env = Scope(values, saved)
                count = len(self.result.launches)
                recognize(self, call)
                arms.mark(self.result.launches[count:], conditions, index, len(choices), self.pos.span(call))
            self.env = saved

    def add_argv(
        self,
        call: py.Call | py.Return,
        items: list[Val],
        env: dict[str, Word] | None,
        prefix: Sequence[ArgvItem] = (),
        image: tuple[str | None, Span | None] | None = None,
    ) -> None:
        sinks.add_argv(self, call, items, env, prefix, image)

    def add_shell(self, value: Val, env: dict[str, Word] | None) -> None:
        sinks.add_shell(self, value, env)

    def add_kwargs(self, call: py.Call, entry: str, pairs: list[tuple[Word, Word]]) -> None:
        env = launch_env(self, None) or {}  # in this process: what the file set in `os.environ`
        self.result.launches.append(
            Launch(self.path, entry, self.pos.span(call), [], env=env, kwargs_style=True, kwargs=pairs)
        )

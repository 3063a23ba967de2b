#!/usr/bin/env python3
"""Generate src/speclint/sglang/data/sglang_helpers.json: the command each release's launch
test helpers (`popen_launch_server`, `popen_launch_pd_server`, ...) build, read statically
(`ast`, never imported) from `sglang/test/test_utils.py` of its wheel.

    python tools/gen_sglang_helpers.py              # every release the flag schema stores
    python tools/gen_sglang_helpers.py --check      # regenerate and compare, write nothing

A helper is a module-level function whose body builds a command list naming
`sglang.launch_server` (as a string in the list or through a local string name),
`sglang serve`, or another of SGLang's modules run with `-m` (`run_bench_one_batch`:
`python3 -m sglang.bench_one_batch`, `sglang.benchmark.one_batch` since 0.5.15; whether that
module takes the server's flags is for the reader to say, from `sglang.entry_modules`). Its body is
followed statement by statement as a *plain call* runs it: one passing only the parameters
without a default, `api_key`, `other_args` and `env`; the others keep their defaults. An `if`
whose test that resolves (`device == "auto"`, `pd_separated or use_mixed_pd_engine`) takes
its branch; one that does not (`if api_key:`) is recorded as a condition (`when`, its source)
on what its branch adds. Per helper:

- `params`: parameter names in order (positions), `defaults`: name -> default source;
- `command`: the words of the list the plain call builds, each `{"text": w}` (a literal, or a
  local string name resolved), `{"param": p}`, `{"splat": p, "str": bool}` (`*other_args` /
  `*[str(x) for x in other_args]`) or `{"unknown": source}` (computed at run time);
- `command_decided_by`: the parameters whose default chose the branch that builds that list
  (`pd_separated`, `num_replicas`): a call passing one of them may build another command;
- `appended`: `[{"when": [source, ...], "words": [...]}]`, words added after the list
  (`command.extend([...])`, `command += [...]`) on that path, in order;
- `other_args_appended`: the same for words added to `other_args` before the list is built
  (`other_args += ["--device", str(device)]`).

A *forwarding* helper (`run_bench_serving(model, ..., other_server_args)`) is a module-level
function that, among the statements of its body (not under an `if`, a loop or a nested
function), calls one of the launch helpers above: it is recorded as `forwards` (that helper's
name), `params`, `defaults` and `passes`: the launch helper's parameter -> `{"param": p}` (the
forwarding helper's parameter, passed on unchanged: no statement before the call assigns or
changes it, but `if p is None: p = ...`) or `{"unknown": source}` (anything else).
"""

from __future__ import annotations

import ast
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import per_release_generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "speclint", "sglang", "data", "sglang_helpers.json")
TEST_UTILS = "sglang/test/test_utils.py"
LAUNCH_MODULE = "sglang.launch_server"
SERVE = ("sglang", "serve")
PLAIN_ARGS = ("api_key", "other_args", "env")
"""Parameters with a default that a plain call may pass: their value is the caller's."""
UNKNOWN = object()


class _Plain:
    """Follows one helper's body as a plain call runs it."""

    def __init__(self, function: ast.FunctionDef) -> None:
        args = function.args
        self.params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        positional = args.posonlyargs + args.args
        defaults = dict(
            zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
        )
        defaults |= {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
        self.defaults = {name: ast.unparse(node) for name, node in defaults.items()}
        self.values: dict[str, object] = {}
        for name, node in defaults.items():
            if name not in PLAIN_ARGS:
                try:
                    self.values[name] = ast.literal_eval(node)
                except ValueError:
                    pass
        self.command: list[dict[str, object]] | None = None
        self.deps: dict[str, set[str]] = {}
        """Local name -> the parameters its value was computed from."""
        self.decided: set[str] = set()
        self.decided_by: list[str] = []
        self.appended: list[dict[str, object]] = []
        self.other_appended: list[dict[str, object]] = []

    def value(self, node: ast.expr) -> object:
        """The value under a plain call, or UNKNOWN."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.values.get(node.id, UNKNOWN)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.value(node.operand)
            return UNKNOWN if inner is UNKNOWN else not inner
        if isinstance(node, ast.BoolOp):
            seen = [self.value(v) for v in node.values]
            want = isinstance(node.op, ast.Or)
            for item in seen:
                if item is UNKNOWN:
                    return UNKNOWN
                if bool(item) == want:
                    return item
            return seen[-1]
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.value(node.left), self.value(node.comparators[0])
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            op = node.ops[0]
            table = {ast.Eq: left == right, ast.NotEq: left != right, ast.Is: left is right}
            return table.get(type(op), UNKNOWN) if not isinstance(op, ast.IsNot) else left is not right
        return UNKNOWN

    def params_read(self, node: ast.expr) -> set[str]:
        """The parameters `node` reads, directly or through locals computed from them."""
        found: set[str] = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                found |= {n.id} if n.id in self.params else self.deps.get(n.id, set())
        return found

    def word(self, node: ast.expr) -> dict[str, object]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {"text": node.value}
        if isinstance(node, ast.Name) and node.id in self.params:
            return {"param": node.id}
        if isinstance(node, ast.Name) and isinstance(self.values.get(node.id), str):
            return {"text": self.values[node.id]}
        if isinstance(node, ast.Starred):
            inner = node.value
            if isinstance(inner, ast.Name) and inner.id in self.params:
                return {"splat": inner.id, "str": False}
            if (
                isinstance(inner, ast.ListComp)
                and len(inner.generators) == 1
                and isinstance(inner.generators[0].iter, ast.Name)
                and inner.generators[0].iter.id in self.params
                and isinstance(inner.elt, ast.Call)
                and ast.unparse(inner.elt) == f"str({ast.unparse(inner.generators[0].target)})"
            ):
                return {"splat": inner.generators[0].iter.id, "str": True}
        return {"unknown": ast.unparse(node)}

    def words(self, node: ast.expr) -> list[dict[str, object]] | None:
        return [self.word(e) for e in node.elts] if isinstance(node, (ast.List, ast.Tuple)) else None

    def added(self, stmt: ast.stmt) -> tuple[str, ast.expr] | None:
        """(`command` / `other_args`, the list added) for `X.extend([...])` / `X += [...]`."""
        if (
            isinstance(stmt, ast.AugAssign)
            and isinstance(stmt.op, ast.Add)
            and isinstance(stmt.target, ast.Name)
        ):
            return stmt.target.id, stmt.value
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr == "extend"
            and isinstance(stmt.value.func.value, ast.Name)
            and len(stmt.value.args) == 1
        ):
            return stmt.value.func.value.id, stmt.value.args[0]
        return None

    def run(self, body: list[ast.stmt], when: list[str]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):
                test = self.value(stmt.test)
                if test is UNKNOWN:
                    self.run(stmt.body, when + [ast.unparse(stmt.test)])
                    self.run(stmt.orelse, when + [f"not ({ast.unparse(stmt.test)})"])
                else:
                    outer = self.decided
                    self.decided = outer | self.params_read(stmt.test)
                    self.run(stmt.body if test else stmt.orelse, when)
                    self.decided = outer
            elif isinstance(stmt, ast.Try):
                self.run(stmt.body, when)
            elif isinstance(stmt, ast.Return):
                return
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                name = stmt.targets[0].id
                words = self.words(stmt.value)
                if name == "command" and words is not None and not when:
                    self.command = words
                    chosen = self.decided | self.params_read(stmt.value)
                    self.decided_by = sorted(p for p in chosen if p in self.defaults and p not in PLAIN_ARGS)
                else:
                    self.deps[name] = self.params_read(stmt.value) | self.decided
                    value = self.value(stmt.value)
                    self.values[name] = UNKNOWN if when else value
            elif (added := self.added(stmt)) is not None:
                words = self.words(added[1])
                if words is None:
                    continue
                entry = {"when": when, "words": words}
                if added[0] == "command" and self.command is not None:
                    self.appended.append(entry)
                elif added[0] in self.params and self.command is None:
                    self.other_appended.append(entry)


def _builds_launch(function: ast.FunctionDef) -> bool:
    """Whether the function builds a list holding `sglang.launch_server` (directly or
    through a local name assigned that string), `sglang`, `serve`, or `-m`, `sglang.X`."""
    names = {
        t.id
        for n in ast.walk(function)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and n.value.value == LAUNCH_MODULE
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    for node in ast.walk(function):
        if not isinstance(node, ast.List):
            continue
        texts = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
        pairs = list(zip(texts, texts[1:]))
        if LAUNCH_MODULE in texts or SERVE in pairs:
            return True
        if any(
            flag == "-m" and isinstance(module, str) and module.startswith("sglang.")
            for flag, module in pairs
        ):
            return True
        if any(isinstance(e, ast.Name) and e.id in names for e in node.elts):
            return True
    return False


def read_helper(function: ast.FunctionDef) -> dict[str, object] | None:
    plain = _Plain(function)
    plain.run(function.body, [])
    if plain.command is None:
        return None
    return {
        "params": plain.params,
        "defaults": plain.defaults,
        "command": plain.command,
        "command_decided_by": plain.decided_by,
        "appended": plain.appended,
        "other_args_appended": plain.other_appended,
    }


def _changes(stmt: ast.stmt, name: str) -> bool:
    """Whether `stmt` may assign or change the local `name` (`if name is None: name = X`,
    which keeps a value the caller passed, does not)."""
    if (
        isinstance(stmt, ast.If)
        and ast.unparse(stmt.test) == f"{name} is None"
        and not stmt.orelse
        and all(isinstance(s, ast.Assign) for s in stmt.body)
    ):
        return False
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
        ):
            return True  # `name.append(...)`, `name.extend(...)`: may change it
    return False


def read_forwarding(
    function: ast.FunctionDef, launchers: dict[str, dict[str, object]]
) -> dict[str, object] | None:
    """The reading of a helper whose body calls a launch helper (`launchers`), or None."""
    params = _Plain(function)
    for at, stmt in enumerate(function.body):
        if isinstance(stmt, ast.Return):
            return None
        call = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in launchers):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        inner = launchers[call.func.id]["params"]
        assert isinstance(inner, list)
        given = list(zip(inner, call.args)) + [(k.arg, k.value) for k in call.keywords]
        passes: dict[str, dict[str, str]] = {}
        for param, value in given:
            if (
                isinstance(value, ast.Name)
                and value.id in params.params
                and not any(_changes(s, value.id) for s in function.body[:at])
            ):
                passes[str(param)] = {"param": value.id}
            else:
                passes[str(param)] = {"unknown": ast.unparse(value)}
        return {
            "forwards": call.func.id,
            "params": params.params,
            "defaults": params.defaults,
            "passes": passes,
        }
    return None


def read_release(path: str) -> dict[str, dict[str, object]]:
    """Helper name -> its reading, for one wheel (empty: no helper found)."""
    with zipfile.ZipFile(path) as archive:
        if TEST_UTILS not in archive.namelist():
            return {}
        tree = ast.parse(archive.read(TEST_UTILS).decode("utf-8"))
    out: dict[str, dict[str, object]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _builds_launch(node):
            reading = read_helper(node)
            if reading is not None:
                out[node.name] = reading
    launchers = dict(out)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name not in launchers:
            forwarding = read_forwarding(node, launchers)
            if forwarding is not None:
                out[node.name] = forwarding
    return out


build, dump, main = per_release_generator(__doc__, OUT, lambda path: sorted(read_release(path).items()))


if __name__ == "__main__":
    sys.exit(main())

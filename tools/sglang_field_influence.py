"""Read, statically (`ast`, never imported), which `ServerArgs` fields may change the value a
release's resolution gives a field: used by tools/gen_sglang_server_fields.py (`influencers`).

A statement *writes* a field `F` where it assigns `<any>.F` or `<any>["F"]`, passes a keyword
`F=...` to a call that declares, replaces, updates or builds fields (`_WRITING_CALL`: 0.5.20+
`declare_resolution(server_args, handler, F=...)`, `dict(F=...)`), calls
`setattr(<any>, "F", ...)` or builds a dict with the key `"F"` (0.5.15+ handlers return
{field: value}; a dict passed on as `**updates` is written where its keys are built). A
`setattr` with a name computed at run time writes every field, but on argparse's `namespace`
(parsing: the flag's own dest) or on `getattr(...)` (a part of a field: 0.5.14+
cuda_graph_config's phases).

What a writing statement depends on: every attribute it loads and string it names, those of the
tests around it (`if`, `while`, `for`; an earlier `if` of its block that returns, raises, breaks
or continues), of the statements assigning the local names it uses (to a fixed point), of every
function those call (by name: their whole bodies, transitively), and, for the function holding
it, of every statement elsewhere that names that function (its call sites, `run_hook(handler,
...)`) with what those depend on in turn. The influencers of `F`: the fields among what its
writing statements depend on, then those of theirs, to a fixed point. An over-approximation: a
field outside them changes no statement that writes `F`, so beside the launches whose value of
`F` is known, a launch differing only in such fields gives `F` the same value
(speclint.sglang.resolve.defaults). More than `LIMIT` influencers: null (every field)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

LIMIT = 60
ANY = "*"
"""Written by a statement that sets a field named at run time."""

_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_WRITING_CALL = re.compile(r"declare|replace|update|rebuild|^dict$|ServerArgs|set_?defaults|override", re.I)
"""The calls whose keywords are field writes (`declare_resolution(sa, handler, F=...)`,
`dataclasses.replace(self, F=...)`, `dict(F=...)`, `d.update(F=...)`, ...): a keyword of any
other call (`from_pretrained(path, revision=...)`) names a parameter, not a field."""


class _Record:
    __slots__ = ("function", "writes", "reads", "calls", "names", "assigns")

    def __init__(self, function: str, nodes: list[ast.AST], stmt: ast.stmt | None) -> None:
        self.function = function
        self.writes: set[str] = set()
        self.reads: set[str] = set()
        self.calls: set[str] = set()
        self.names: set[str] = set()
        self.assigns: set[str] = set()
        for node in nodes:
            for sub in ast.walk(node):
                _note(self, sub)
        if stmt is not None:
            for sub in ast.walk(stmt):
                _note_write(self, sub)
            self.assigns = _assigned_locals(stmt)


def _note(record: _Record, node: ast.AST) -> None:
    if isinstance(node, ast.Attribute):
        if not isinstance(node.ctx, ast.Store):
            record.reads.add(node.attr)
            record.calls.add(node.attr)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        record.reads.add(node.value)
    elif isinstance(node, ast.Name):
        record.names.add(node.id)
        record.calls.add(node.id)


def _note_write(record: _Record, node: ast.AST) -> None:
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
        record.writes.add(node.attr)
    elif isinstance(node, ast.Call) and _WRITING_CALL.search(_called(node) or ""):
        record.writes.update(k.arg for k in node.keywords if k.arg)
    elif isinstance(node, ast.Dict):
        record.writes.update(
            k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
        )
    elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            record.writes.add(node.slice.value)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
        if len(node.args) > 1:
            named, target = node.args[1], node.args[0]
            if isinstance(named, ast.Constant) and isinstance(named.value, str):
                record.writes.add(named.value)
            elif not (
                (isinstance(target, ast.Name) and target.id == "namespace")
                or (isinstance(target, ast.Call) and ast.unparse(target.func) == "getattr")
            ):
                record.writes.add(ANY)


def _called(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _assigned_locals(stmt: ast.stmt) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.NamedExpr):
            out.add(node.target.id)
    return out


def _records(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[_Record]:
    name = function.name

    def block(stmts: list[ast.stmt], guards: list[ast.AST]) -> Iterator[_Record]:
        local = list(guards)
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # read on its own
            if isinstance(stmt, ast.If):
                yield _Record(name, [*local, stmt.test], None)  # (the test's own calls)
                yield from block(stmt.body, [*local, stmt.test])
                yield from block(stmt.orelse, [*local, stmt.test])
                if any(isinstance(n, _EXITS) for n in ast.walk(stmt)):
                    local.append(stmt.test)
            elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                head: list[ast.AST] = [stmt.test] if isinstance(stmt, ast.While) else [stmt.target, stmt.iter]
                record = _Record(name, [*local, *head], None)
                if not isinstance(stmt, ast.While):
                    record.assigns = _assigned_locals(
                        ast.Assign(targets=[stmt.target], value=ast.Constant(0))
                    )
                yield record
                yield from block(stmt.body, [*local, *head])
                yield from block(stmt.orelse, [*local, *head])
                if any(isinstance(n, (ast.Return, ast.Raise)) for n in ast.walk(stmt)):
                    local.extend(head)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                yield _Record(name, [*local, *stmt.items], None)
                yield from block(stmt.body, local)
            elif isinstance(stmt, ast.Try):
                for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                    yield from block(part, local)
            else:
                yield _Record(name, [*local, stmt], stmt)

    yield from block(function.body, [])


def read_influencers(
    trees: list[ast.Module], fields: set[str], targets: list[str]
) -> dict[str, list[str] | None]:
    """{target: sorted influencing fields, or None above LIMIT} for the targets among `fields`."""
    records: list[_Record] = []
    bodies: dict[str, set[str]] = {}  # function name -> attributes / strings its body reads
    body_calls: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                own = list(_records(node))
                records.extend(own)
                bodies.setdefault(node.name, set()).update(*(r.reads for r in own))
                body_calls.setdefault(node.name, set()).update(*(r.calls for r in own))
    deep: dict[str, set[str]] = {}

    def reads_of(function: str) -> set[str]:
        if function not in deep:
            out: set[str] = set()
            seen, pending = {function}, [function]
            while pending:
                current = pending.pop()
                out |= bodies.get(current, set())
                fresh = {c for c in body_calls.get(current, ()) if c in bodies and c not in seen}
                seen |= fresh
                pending.extend(fresh)
            deep[function] = out & fields
        return deep[function]

    by_function: dict[str, list[_Record]] = {}
    for record in records:
        by_function.setdefault(record.function, []).append(record)
    depends: dict[tuple[int, str], set[str]] = {}

    def depends_of(record: _Record, skip: str = "") -> set[str]:
        """Fields `record` reads, with its locals' assignments and the functions it calls (but
        `skip`: the function whose call site it is)."""
        key = (id(record), skip)
        if key not in depends:
            out = record.reads & fields
            for call in record.calls:
                if call in bodies and call != skip:
                    out |= reads_of(call)
            names, done = set(record.names), set()
            while names - done:
                local = (names - done).pop()
                done.add(local)
                for other in by_function[record.function]:
                    if local in other.assigns:
                        out |= other.reads & fields
                        names |= other.names
                        for call in other.calls:
                            if call in bodies and call != skip:
                                out |= reads_of(call)
            depends[key] = out
        return depends[key]

    sites: dict[str, set[str]] = {}

    naming: dict[str, list[_Record]] = {}  # function -> the statements of other functions naming it
    for record in records:
        for name in record.names | record.calls:
            if name in bodies and name != record.function:
                naming.setdefault(name, []).append(record)

    def site_depends(function: str) -> set[str]:
        """Fields the statements naming `function` (its call sites) depend on, up the callers
        (every caller reached, whatever the order: the same answer in every process)."""
        if function not in sites:
            out: set[str] = set()
            seen, pending = {function}, [function]
            while pending:
                current = pending.pop()
                for record in naming.get(current, ()):
                    out |= depends_of(record, current)
                    if record.function not in seen:
                        seen.add(record.function)
                        pending.append(record.function)
            sites[function] = out
        return sites[function]

    writers: dict[str, list[_Record]] = {}
    for record in records:
        for field in record.writes & (fields | {ANY}):
            writers.setdefault(field, []).append(record)
    out: dict[str, list[str] | None] = {}
    for target in targets:
        if target not in fields:
            continue
        found: set[str] = set()
        done: set[str] = set()
        pending = [target]
        while pending and len(found) <= LIMIT:
            field = pending.pop()
            if field in done:
                continue
            done.add(field)
            for record in writers.get(field, []) + writers.get(ANY, []):
                fresh = (depends_of(record) | site_depends(record.function)) - found - {target}
                found |= fresh
                pending.extend(fresh)
        out[target] = sorted(found) if len(found) <= LIMIT else None
    return out

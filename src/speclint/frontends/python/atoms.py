"""The statements of a Python file as `ast` sees them, and which of them the walker needs
(`select` renders those for libcst).

Statements sharing a line stay together (an atom). An atom is needed when it may make a
launch (it calls a name `recognize` acts on; a generic helper such as `run_server(...)`
only where its text, or a name it reads, may spell `sglang`), or may write a name a
needed atom mentions in a scope that can see it: the walker's values live in the module,
a class body, or a function and the ones around it, so a name written in one function is
not looked for in another. A launch also reads `os.environ` (its child inherits it): the
statements that change it are needed where it can see them, and so is a call statement of a
function (`setup_env()`: the walker follows it, `environ_calls`) and `os.putenv(...)`, with
the statements of the function that change it. (`sglang` must be written as
such somewhere along the way: a launch text pieced together from "sgl" + "ang", or an
escape, is not followed.)
"""

from __future__ import annotations

import ast
import unicodedata

from speclint.core import patterns
from speclint.frontends.python.ast_parts import root_name, statement_blocks
from speclint.frontends.python.atoms_inherited import inherit_attribute_writers, keep_fixture_subclasses
from speclint.frontends.python.exits import arm_exits
from speclint.frontends.python.launch import GENERIC_HELPER, LAUNCH_NAMES
from speclint.frontends.python.returned_argv import seed_returns

ENVIRON_WORD = "environ"
"""What a statement changing `os.environ` writes and every launch reads (`environ`)."""
_WORD = patterns.compile(r"\w+")
_CALLED = patterns.compile(r"\b(\w+)[\s)\\]*\(")  # \b: a 60 KB word is not tried from each letter
_ENDS = patterns.compile(r"\b(\w+)[\s)\\]*(?:#.*)?$")
_OPENS = patterns.compile(r"[\s)]*\(")
_MUTATORS = frozenset(
    {"append", "extend", "insert", "update", "pop", "remove", "clear", "setdefault", "sort", "reverse"}
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPOUND = _SCOPES + (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    getattr(ast, "TryStar", ast.Try),
    getattr(ast, "Match", ast.Try),
)


class Atoms:
    """Per atom: its lines, the atom around it, the names it writes and the scopes it
    writes in (the outermost of its statements) and reads from (the innermost)."""

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.owner = [-1] * (len(starts) + 1)  # line (1-based) -> atom of its innermost statement
        self.first: list[int] = []
        self.last: list[int] = []
        self.parent: list[int] = []
        self.writes: list[set[str]] = []
        self.seed: list[bool] = []
        self.wscope: list[int] = []
        self.rscope: list[int] = []
        self.scope_up: dict[int, int] = {-1: -1}  # a function's or class's atom -> its scope
        self.triggers: set[str] = set()
        self.returns: dict[int, list[int]] = {}
        """A function's atom -> its `return` atoms (kept with it: they make its result)."""
        self.defs: dict[int, str] = {}
        """A function's atom -> its name: the calls of a function holding a launch are kept
        (`calls` reads the launch once more per call)."""
        self.classes: dict[str, int] = {}
        self.class_bases: dict[int, list[str]] = {}
        """A class's atom -> its bases' names: a subclass of a class of the file is kept
        (`classes` reads the base's launches once more for it)."""
        self.fixture_bases: set[str] = set()
        """Names imported from SGLang's test fixtures (`sglang.test.server_fixtures.*`): a
        class deriving from one is kept with its body (`fixtures` reads the base's launch)."""
        self.class_roots: dict[int, list[str]] = {}
        """A class's atom -> the modules its `module.Class` bases name (`eagle_fixture`)."""
        self.attr_writes: list[tuple[int, str]] = []
        """(atom, X) for `self.X = ...` / `cls.X += ...` in a method: X is written in the class."""
        self.environ = "environ" in text or "putenv" in text
        """The file may change the environment: a call statement of a function of the file
        may (its body's statements that do are kept with the function, as its `return`s)."""
        self.shown: list[bool] = []
        """Needed, or holding a needed atom (its header lines stay): set by `close`."""

    def line(self, number: int) -> str:
        end = self.starts[number] if number < len(self.starts) else len(self.text)
        return self.text[self.starts[number - 1] : end]

    def read(self, tree: ast.Module) -> None:
        """Atoms in a pre-order of blocks: a statement's lines are owned by it, then by its
        children (so a line ends up with the innermost)."""
        blocks: list[tuple[list[ast.stmt], int, int]] = [(tree.body, -1, -1)]
        exits: set[int] = set()
        while blocks:
            body, up, scope = blocks.pop()
            previous = -1
            for index, node in enumerate(body):
                decorators = getattr(node, "decorator_list", None)
                start = min(node.lineno, *(d.lineno for d in decorators)) if decorators else node.lineno
                end = node.end_lineno or start
                if previous >= 0 and self.last[previous] >= start:
                    atom = previous  # `a = 1; b = 2`
                elif index == 0 and up >= 0 and self._glued(node):
                    atom = up  # `if x: y = 1`, `else: y = 2`, `class C: y = 1`
                    self.rscope[atom] = scope
                else:
                    atom = self._new_atom(start, up, scope)
                self.last[atom] = max(self.last[atom], end)
                self.owner[start : end + 1] = [atom] * (end + 1 - start)
                self._note(node, atom)
                # (`branches.drop_exits`; `loop_passes`: a pass ends there; an `assert` or a
                # returning `if` is a guard: `guards`)
                self.seed[atom] = (
                    self.seed[atom] or id(node) in exits or isinstance(node, (ast.Continue, ast.Assert))
                )
                exits |= arm_exits(node)
                if isinstance(node, ast.Return) and scope >= 0:
                    self.returns.setdefault(scope, []).append(atom)
                elif ENVIRON_WORD in self.writes[atom] and scope >= 0 and self.environ:
                    self.returns.setdefault(scope, []).append(atom)  # (a call of it sets them)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.defs[atom] = node.name
                elif isinstance(node, ast.ClassDef):
                    self.classes[node.name] = atom
                    self.class_bases[atom] = [b.id for b in node.bases if isinstance(b, ast.Name)]
                    self.class_roots[atom] = [
                        root_name(b) for b in node.bases if isinstance(b, ast.Attribute)
                    ]
                previous = atom
                if isinstance(node, _COMPOUND):
                    inner = scope
                    if isinstance(node, _SCOPES):
                        inner = atom
                        self.scope_up.setdefault(atom, self.wscope[atom])
                    for child in statement_blocks(node):
                        blocks.append((child, atom, inner))

    def _new_atom(self, start: int, up: int, scope: int) -> int:
        self.first.append(start)
        self.last.append(start)
        self.parent.append(up)
        self.writes.append(set())
        self.seed.append(False)
        self.wscope.append(scope)
        self.rscope.append(scope)
        return len(self.first) - 1

    def _glued(self, node: ast.stmt) -> bool:
        """Whether code precedes `node` on its first line (a header, `else:`)."""
        line = self.line(node.lineno).lstrip("\ufeff")
        return bool(line.encode("utf-8", "replace")[: node.col_offset].strip())

    def _note(self, node: ast.stmt, atom: int) -> None:
        targets: list[ast.expr] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.writes[atom].add(node.name)  # a helper: calls of it read its `return`s
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if self.environ and (
                isinstance(func, ast.Name)
                or (isinstance(func, ast.Attribute) and func.attr == "putenv")
                or (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id in ("self", "cls")
                )
            ):  # `setup_env()` / `self.setup()` may set `os.environ` (`environ_calls`), `os.putenv(...)` does
                self.writes[atom].add(ENVIRON_WORD)
            if (
                isinstance(func, ast.Attribute)
                and func.attr in _MUTATORS
                and isinstance(func.value, ast.Name)
            ):
                self.writes[atom].add(func.value.id)
            elif isinstance(func, ast.Attribute) and func.attr in _MUTATORS:
                targets = [func.value]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.seed[atom] = True  # imports name the calls (`from os import system as sh`)
            module = getattr(node, "module", None) or ""
            if "server_fixtures" in module:
                self.fixture_bases.update(alias.asname or alias.name for alias in node.names)
            for alias in node.names:
                parts = f"{module}.{alias.name}".split(".")
                if alias.asname and any(
                    part in LAUNCH_NAMES or GENERIC_HELPER.search(part) for part in parts
                ):
                    self.triggers.add(alias.asname)
        for target in targets:
            if isinstance(target, ast.Name):  # most targets: no walk
                self.writes[atom].add(target.id)
                continue
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    self.writes[atom].add(n.id)
                elif isinstance(n, ast.Attribute) and n.attr == ENVIRON_WORD:  # `os.environ[X] = `
                    self.writes[atom].add(ENVIRON_WORD)
                elif (
                    isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name)
                    and n.value.id in ("self", "cls")
                ):
                    self.attr_writes.append((atom, n.attr))

    def close(self) -> None:
        """Seeds: atoms calling a launch name, or a generic helper (`run_server(...)`) when
        they spell `sglang` or mention a name that may hold text spelling it; then every
        atom that writes, where a needed atom can see it, a word the needed atom holds."""
        words, spelled = self._words()
        writers: dict[tuple[int, str], list[int]] = {}
        for atom, names in enumerate(self.writes):
            for name in names:
                writers.setdefault((self.wscope[atom], name), []).append(atom)
        for atom, name in self.attr_writes:  # the method's class: where its other methods look
            writers.setdefault((self.scope_up.get(self.wscope[atom], -1), name), []).append(atom)
        for atom, name in self.defs.items():  # a module-level class's method: `Server(...).command()`
            owner = self.wscope[atom]
            if owner in self.class_bases and self.scope_up[owner] == -1 and atom in self.returns:
                writers.setdefault((-1, name), []).append(atom)
        subclasses = {
            atom for atom, bases in self.class_bases.items() if any(b in self.classes for b in bases)
        }
        for atom, names in enumerate(self.writes):  # a subclass body's names: its bases' methods read them
            if self.wscope[atom] in subclasses:
                for name in names:
                    writers.setdefault((-1, name), []).append(atom)
        for atom, bases in self.class_bases.items():
            if any(base in self.classes for base in bases):
                self.seed[atom] = True
        inherit_attribute_writers(self, writers, words)  # `self.X` a base of the file writes
        if self.fixture_bases:
            keep_fixture_subclasses(self)
        tainted = self._reach(spelled, words)
        generic: dict[str, bool] = {}

        def launches(found: set[str], atom: int) -> bool:
            if not found.isdisjoint(LAUNCH_NAMES) or not found.isdisjoint(self.triggers):
                return True
            if tainted[atom]:
                for word in found:
                    hit = generic.get(word)
                    if hit is None:
                        hit = generic[word] = GENERIC_HELPER.search(word) is not None
                    if hit:
                        return True
            return False

        for atom, found in enumerate(words):  # the words first: few atoms hold such a name
            if not self.seed[atom] and launches(found, atom):
                self.seed[atom] = launches(self._called(atom), atom)
        self._keep_calls_of_launching_functions(words)
        seed_returns(self, spelled, tainted)  # an uncalled `build_command()`'s `return cmd`
        for atom, seed in enumerate(self.seed):  # a launch inherits the program's environment
            if seed:
                words[atom].add(ENVIRON_WORD)
        kept = list(self.seed)
        queue = [atom for atom, seed in enumerate(kept) if seed]
        known: set[tuple[int, str]] = set()
        chains: dict[int, list[int]] = {}
        while queue:
            atom = queue.pop()
            up = self.parent[atom]  # the `if`/`for`/`while` around it: its test's names decide
            if up >= 0 and not kept[up]:  # which arm runs (`conditions`)
                kept[up] = True
                queue.append(up)
            for returned in self.returns.get(atom, ()):
                if not kept[returned]:
                    kept[returned] = True
                    queue.append(returned)
            chain = self._chain(self.rscope[atom], chains)
            for word in words[atom]:
                for scope in chain:
                    if (scope, word) in known:
                        continue
                    known.add((scope, word))
                    for writer in writers.get((scope, word), ()):
                        if not kept[writer]:
                            kept[writer] = True
                            queue.append(writer)
        self.shown = [False] * len(kept)
        for atom, keep in enumerate(kept):
            while keep and atom >= 0 and not self.shown[atom]:
                self.shown[atom] = True
                atom = self.parent[atom]

    def _keep_calls_of_launching_functions(self, words: list[set[str]]) -> None:
        names: set[str] = set()
        for atom, seed in enumerate(self.seed):
            while seed and atom >= 0:
                if atom in self.defs:
                    names.add(self.defs[atom])
                atom = self.parent[atom]
        if not names:
            return
        for atom, found in enumerate(words):
            if (
                not self.seed[atom]
                and not found.isdisjoint(names)
                and not self._called(atom).isdisjoint(names)
            ):
                self.seed[atom] = True

    def _chain(self, scope: int, chains: dict[int, list[int]]) -> list[int]:
        """`scope` and the scopes around it, the module (-1) last."""
        chain = chains.get(scope)
        if chain is None:
            chain = [scope] if scope == -1 else [scope, *self._chain(self.scope_up[scope], chains)]
            chains[scope] = chain
        return chain

    def _words(self) -> tuple[list[set[str]], list[bool]]:
        """The words of each atom's own lines (non-ASCII ones also as CPython names them),
        and whether those lines spell `sglang`."""
        words: list[set[str]] = [set() for _ in self.first]
        spelled = [False] * len(self.first)
        for number in range(1, len(self.starts) + 1):
            atom = self.owner[number]
            if atom >= 0:
                line = self.line(number)
                words[atom].update(_WORD.findall(line))
                spelled[atom] = spelled[atom] or "sglang" in line
        for found in words:
            odd = [word for word in found if not word.isascii()]
            found.update(unicodedata.normalize("NFKC", word) for word in odd)
        return words, spelled

    def _called(self, atom: int) -> set[str]:
        """The words of the atom's own lines that are called (`name(`, or `name` ending a
        line and `(` opening the next), as `recognize` reads a call's name."""
        called: set[str] = set()
        ending = ""
        for number in range(self.first[atom], self.last[atom] + 1):
            if self.owner[number] == atom:
                line = self.line(number)
                called.update(_CALLED.findall(line))
                if ending and _OPENS.match(line):
                    called.add(ending)
                if line.strip() and not line.lstrip().startswith("#"):  # `run  # why\n  # more\n(`
                    last = _ENDS.search(line)
                    ending = last.group(1) if last else ""
        return called

    def _reach(self, spelled: list[bool], words: list[set[str]]) -> list[bool]:
        """Atoms that spell `sglang` or mention a name such an atom writes where they can
        see it, to a fixed point: only through them can a value's text spell a launch."""
        readers: dict[tuple[int, str], list[int]] = {}
        for atom, found in enumerate(words):
            for word in found:
                readers.setdefault((self.rscope[atom], word), []).append(atom)
        inside: dict[int, list[int]] = {}  # scope -> the scopes whose chain holds it
        chains: dict[int, list[int]] = {}
        for scope in self.scope_up:
            for outer in self._chain(scope, chains):
                inside.setdefault(outer, []).append(scope)
        reached = list(spelled)
        queue = [atom for atom, hit in enumerate(reached) if hit]
        done: set[tuple[int, str]] = set()
        while queue:
            atom = queue.pop()
            for name in self.writes[atom]:
                if (self.wscope[atom], name) in done:
                    continue
                done.add((self.wscope[atom], name))
                for scope in inside[self.wscope[atom]]:
                    for reader in readers.get((scope, name), ()):
                        if not reached[reader]:
                            reached[reader] = True
                            queue.append(reader)
        return reached

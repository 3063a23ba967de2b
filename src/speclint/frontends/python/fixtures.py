"""Classes of the file that derive from one of SGLang's test server fixtures
(`class TestX(EagleServerBase)`, the base imported from `sglang.test.server_fixtures.*`).

The launch is in the base's `setUpClass`, in SGLang's source: the base's module, as the
newest release read ships it (`speclint.sglang.fixtures`), is walked like a class of the
file, so that `classes.walk_inherited` reads its launch once per subclass with the
subclass's values. Every position in that source is the base's name where the file writes
it (`Borrowed`): a word that comes from the base's own text points there; a value the file
overrides keeps its own place. The release whose source was read goes on the launch
(`Launch.fixture`); the engine compares it with the release the launch is checked against.
"""

from __future__ import annotations

from speclint.core.launches import Diagnostic, ExtractResult, FixtureBase
from speclint.frontends.python import syntax as py
from speclint.frontends.python.positions import Positions
from speclint.frontends.python.tree import Refused, read_tree
from speclint.frontends.python.walking import MAX_FIXTURE_READS, Helper
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import ClassInfo, Walking


class _Everywhere(dict[py.Node, tuple[int, int, int, int]]):
    """Every node's range is the same one (the base's name in the file)."""

    def __init__(self, where: tuple[int, int, int, int]) -> None:
        super().__init__()
        self.where = where

    def __missing__(self, node: object) -> tuple[int, int, int, int]:
        return self.where


class Borrowed(Positions):
    """Positions for SGLang's source: every node is at `[begin, end)` of the linted file
    (the base class's name as the file writes it), and a literal's characters are not the
    file's (pieces cover that name as a whole, so no edit lands inside it)."""

    relocates = False

    def __init__(
        self,
        begin: int,
        end: int,
        starts: list[int],
        where: tuple[int, int, int, int],
        fixture: FixtureBase,
        source: str,
    ) -> None:
        super().__init__(_Everywhere(where), starts, None, source)
        self.begin, self.end = begin, end
        self.fixture = fixture
        """The fixture base whose source this is (recorded on the launches it makes)."""

    def offsets(self, node: py.Node) -> tuple[int, int]:
        return self.begin, self.end

    def literal(self, body: str, at: int, raw: bool, fstring: bool = False) -> list[Piece]:
        decoded = super().literal(body, at, raw, fstring)
        return [Piece(p.text, self.begin, self.end, reason=p.reason) for p in decoded]

    def joined(self, pieces: list[Piece]) -> list[Piece]:
        """`f"--speculative-algorithm={cls.spec_algo}"` with `spec_algo` set in the file: the
        whole word is placed at that value, where the user can change it."""
        mine = next((p for p in pieces if (p.begin, p.end) != (self.begin, self.end)), None)
        if mine is None:
            return pieces
        return [
            p
            if (p.begin, p.end) != (self.begin, self.end)
            else Piece(p.text, mine.begin, mine.end, reason=p.reason)
            for p in pieces
        ]

    def formatted(self, part: py.Node, value: Val) -> tuple[int, int]:
        return value.begin, value.end  # `{cls.spec_algo}`: where the file set it, or the base's name


def fixture_bases(walker: Walking, node: py.ClassDef) -> dict[str, ClassInfo]:
    """The fixture bases `node` names (base as written, `EagleServerBase` or
    `eagle_fixture.EagleServerBase` -> the base read from SGLang's source, its own bases among
    the module's classes); empty when it names none (or one the file defines itself)."""
    found: dict[str, ClassInfo] = {}
    for arg in node.bases:
        written = arg.value
        root = written
        while isinstance(root, py.Attribute):
            root = root.value
        if not isinstance(root, py.Name) or "server_fixtures" not in walker.imports.get(root.value, ""):
            continue
        from speclint.sglang.fixtures import PACKAGE, newest_fixture

        dotted = walker.evaluator().dotted(written) or ""
        module, _, name = dotted.rpartition(".")
        mine = {info.name for info in walker.classes}
        if not module.startswith(PACKAGE + ".") or (isinstance(written, py.Name) and written.value in mine):
            continue
        token = written.attr if isinstance(written, py.Attribute) else written
        source = newest_fixture(module, name)
        if source is None or not isinstance(token, py.Name) or not _may_read(walker, token):
            continue
        use = FixtureBase(name, module, source.release, walker.pos.span(token))
        base = _read_base(walker, token, name, use, source.text)
        if base is not None:
            found[base_key(written)] = base
    return found


def base_key(written: py.BaseExpression) -> str:
    """How a class statement's base is named in `ClassInfo.bases`: `A`, or `m.A` for a
    module's attribute (kept only when it is a fixture base)."""
    parts: list[str] = []
    while isinstance(written, py.Attribute):
        parts.append(written.attr.value)
        written = written.value
    parts.append(written.value if isinstance(written, py.Name) else "")
    return ".".join(reversed(parts))


def _may_read(walker: Walking, written: py.Name) -> bool:
    """Within the file's budget of fixture reads; past it, one diagnostic says so."""
    budget = walker.helper_budget
    budget.fixture_reads -= 1
    if budget.fixture_reads == -1:
        walker.result.diagnostics.append(
            Diagnostic(
                "file-too-large",
                f"more than {MAX_FIXTURE_READS} classes derive from SGLang's test fixture bases in one "
                "file; the launches of the ones from here on are not read",
                walker.pos.span(written),
            )
        )
    return budget.fixture_reads >= 0


def _read_base(walker: Walking, written: py.Name, name: str, use: FixtureBase, text: str) -> ClassInfo | None:
    try:
        module = read_tree(text)
    except Refused:  # SGLang's own source: not expected
        return None
    begin, end = walker.pos.offsets(written)
    where = walker.pos.ranges[written]
    positions = Borrowed(
        begin, end, walker.pos.starts, where, use, text[1:] if text.startswith("\ufeff") else text
    )
    positions.module = module
    reader = walker.helper_walker()  # quiet: no launch is made at the module's level
    reader.pos, reader.result = positions, ExtractResult()
    reader.block(module.body)  # module constants and class bodies; methods are walked per subclass
    env = dict(reader.env)
    by_name = {info.name: info for info in reader.classes}
    for info in reader.classes:
        info.fixture = use
        info.external = by_name
        for method, helper in info.methods.items():
            info.methods[method] = Helper(helper.node, env, info, positions, dict(reader.imports))
    return by_name.get(name)

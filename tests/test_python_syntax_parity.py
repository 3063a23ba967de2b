"""The Python front-end reads files with CPython's `ast` (`from_ast`) where it read them with
libcst: the tree built from `ast` must equal the one built from libcst's (`from_cst`, the
fallback and the reference): same classes, same fields, same ranges and parenthesized
ranges, node by node, and the same comments. The sources below are written here to hold
every construct the front-end reads; `tools/python_syntax_parity.py` runs the same check on
any files (SGLang's own sources, the mixed corpus)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from speclint.engine import lint_text
from speclint.frontends.python import syntax as py
from speclint.frontends.python.comments import comments_in
from speclint.frontends.python.from_ast import build
from speclint.frontends.python.from_cst import convert
from speclint.frontends.python.nodes import Node, Operator
from speclint.frontends.python.positions import OwnRanges, Positions
from speclint.frontends.python.select import lone_backslashes_as_comments

ROOT = Path(__file__).resolve().parent.parent

SOURCES = {
    "calls": (
        "import subprocess, os.path as p\nfrom . import (a as b, c)\nfrom ..x.y import *\n"
        "subprocess.run(['python', '-m', 'sglang.launch_server', *extra, '--tp', str(tp)], check=True, **kw)\n"
        "f((x)) ; g(( (y) ), z,)\nh(x for x in y)\nh((x for x in y))\nk(*a, b=1, **c)\n"
        "v = (a)(b)[c](d)\nw = ((a, b), (c,), ())\n"
    ),
    "strings": (
        "a = 'x' \"y\" r'z\\d', b'b'\nb = ('one'\n     'two'  # note\n     f'three{x!r:>{w}}')\n"
        "c = f\"{a}{{b}}{c['k']:{d}.{e}}\" rf'\\d{x}' F'''\n{y\n}''' f'{x=}' f'{ x = !s}'\n"
        'd = f"{f\'{inner}\'}" u"u" """triple\nquoted""" f"{a:{b}}"\n'
        "e = 'ünï' + f'ç{ç}ç' + 'ok'  # ümlaut\n"
    ),
    "statements": (
        "@dec\n@dec.attr(1)\nasync def f(a, /, b: int = 1, *args, c, d=(2), **kw) -> 'T':\n"
        "    global g\n    nonlocal_ = 1\n    if a: return (a)\n    elif b:\n        pass\n    else:\n"
        "\n        @inner\n        def g(): pass\n    for i, (j, k) in x: y += 1\n    else: z = 1\n"
        "    while (n := next(it)) is not None:\n        break\n    async for q in r: continue\n"
        "    async with a as b, (c) as d: pass\n    with (open(p)): pass\n    with (\n  c\n ), d(), e(): pass\n    try:\n        pass\n"
        "    except (E, F) as e:\n        raise X from  e\n    except G: pass\n    else:\n        pass\n"
        "    finally:\n        del a, b\n    try: pass\n    except* H: pass\n"
        "class C(Base, metaclass=M):\n    x: int = 1\n    def m(self, *, k): yield from g(); yield\n"
        "lambda: 0\nlambda  a, *b, c=1, **d: (a, b)\nassert a, 'msg'\n"
    ),
    "expressions": (
        "x = [i * 2 for i in y if i if not i for j in k]\ns = {a for a in b}\nd = {k: v async for k, v in w}\n"
        "t = -a ** ~b // c @ d % e << f >> g & h | i ^ j\nu = a < b <= c != d not  in e is not f in g\n"
        "c = a and b or not c and (d or e)\nq = a if b else c\nsl = x[1:2, ::3, :, a:]\nsl2 = x[(1, 2)]\n"
        "sl3 = x[\n    a:\n]\nsl4 = x[1, 2]\ndd = {**a, 'b': c, **{'d': e}}\nst = {*a, b}\n"
        "await_ = [await z async for z in w]\nxs = a, *b\nn = 1_000 + 0x1F + 1.5e3 + 2j + ... + None + True\n"
        "attr = a . b .c\nm = (\n    a  # comment\n    + b\n)\n"
    ),
    "lines": (
        "import sglang\r\nx = 1\rif x:\r\n\tsglang.Engine(\r\n\t\tmodel_path='m',  \\\r\n tp_size=2)\n"
        "y = 'a' \\\n    'b'\n\\\nz = 3\n"
    ),
    "match": (
        "match command.split():\n    case [action]: pass\n    case ['go', d] | ['move', d]: pass\n"
        "    case Point(x=0, y=_): pass\n    case Point(1, y=(2)): pass\n    case {'a': 1, **rest}: pass\n"
        "    case (1, *others): pass\n    case 1, 2: pass\n    case None | -1 | 2.0 | 's' 't': pass\n"
        "    case a.b.c if a > 1: pass\n    case [1, 2] as whole: pass\n    case P(a=1,\n      b=2,\n    ): pass\n"
        "    case [1, 2, ]: pass\n    case _: pass\n"
    ),
}


def differences(made: object, reference: object, path: str = "") -> list[str]:
    """Where two trees differ (class names: the converters share the classes)."""
    if type(made) is not type(reference):
        return [f"{path}: {type(made).__name__} != {type(reference).__name__}"]
    if isinstance(made, Operator):
        return []
    if isinstance(made, Node):
        assert isinstance(reference, Node)
        found = []
        if (made.range, made.outer) != (reference.range, reference.outer):
            found.append(
                f"{path}.{type(made).__name__}: {made.range, made.outer} != {reference.range, reference.outer}"
            )
        for name in made.FIELDS:
            found += differences(
                getattr(made, name), getattr(reference, name), f"{path}.{type(made).__name__}.{name}"
            )
        return found
    if isinstance(made, list):
        assert isinstance(reference, list)
        if len(made) != len(reference):
            return [f"{path}: {len(made)} items != {len(reference)}"]
        return [d for i, pair in enumerate(zip(made, reference)) for d in differences(*pair, f"{path}[{i}]")]
    return [] if made == reference else [f"{path}: {made!r} != {reference!r}"]


def libcst_comments(source: str) -> list[tuple[tuple[int, int, int, int], str]]:
    wrapper = MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(PositionProvider)
    found = [
        ((p.start.line, p.start.column, p.end.line, p.end.column), node.value)
        for node, p in positions.items()
        if isinstance(node, cst.Comment)
    ]
    return sorted(found)


def parity(source: str) -> list[str]:
    source = lone_backslashes_as_comments(source)  # as the front-end reads it (`select`)
    found = differences(build(source, ast.parse(source)), convert(cst.parse_module(source)))
    if comments_in(source) != libcst_comments(source):
        found.append(f"comments: {comments_in(source)} != {libcst_comments(source)}")
    return found


TRY_STAR = "    try: pass\n    except* H: pass\n"


def readable(source: str) -> str:
    """`source` as this Python's `ast` can read it (3.10 has no `except*`)."""
    return source if sys.version_info >= (3, 11) else source.replace(TRY_STAR, "")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_ast_tree_is_libcst_s(name):
    assert parity(readable(SOURCES[name])) == []


def test_every_construct_is_covered():
    """Each node class the sources above make (through libcst) is one `from_ast` makes too
    (checked by the parity above), and the sources make the classes the front-end reads."""
    made: set[str] = set()
    stack: list[object] = [convert(cst.parse_module(s)) for s in SOURCES.values()]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        elif isinstance(node, Node):
            made.add(type(node).__name__)
            stack += [getattr(node, name) for name in node.FIELDS]
    read = {"Call", "Arg", "Name", "Attribute", "SimpleString", "ConcatenatedString", "FormattedString"}
    read |= {"FormattedStringText", "FormattedStringExpression", "List", "Tuple", "Set", "Element"}
    read |= {"StarredElement", "Dict", "DictElement", "StarredDictElement", "Subscript", "Index", "Slice"}
    read |= {"BinaryOperation", "Comparison", "BooleanOperation", "UnaryOperation", "IfExp", "Lambda"}
    read |= {"ListComp", "CompFor", "CompIf", "SimpleStatementLine", "Assign", "AnnAssign", "AugAssign"}
    read |= {"Expr", "Return", "Import", "ImportFrom", "ImportAlias", "ImportStar", "If", "For", "While"}
    read |= {"Try", "With", "Match", "FunctionDef", "ClassDef", "Param", "Decorator", "Integer", "Float"}
    read |= {"Break", "Continue", "Raise", "Yield", "Await", "Else", "IndentedBlock", "SimpleStatementSuite"}
    assert read <= made, read - made


def test_the_repository_s_python_fixtures_read_alike():
    files = sorted((ROOT / "fixtures").rglob("*.py"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            ast.parse(text)
        except SyntaxError:
            continue  # the syntax-error fixtures: libcst's path, as before
        assert parity(text) == [], path


def test_newer_syntax_is_read_through_libcst():
    """PEP 695's `type X = ...` (3.12) is not Python 3.11's: libcst reads it, as before."""
    if sys.version_info >= (3, 12):
        pytest.skip("the running Python parses it")
    text = "import sglang\ntype Alias = int\nsglang.Engine(model_path='m', tp_szie=2)\n"
    result = lint_text(text, "new.py")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG001", 3, 31)]


def test_a_plain_wrapper_does_not_import_libcst():
    code = (
        "import sys, speclint.engine as l; l.lint_text(open(sys.argv[1]).read(), sys.argv[1]);"
        "print('libcst' in sys.modules)"
    )
    path = ROOT / "fixtures/python/kimi_eagle_wrapper.py"
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    assert out.strip() == "False"


def _pairs(made: object, reference: object) -> list[tuple[Node, cst.CSTNode]]:
    """(node of the ast tree, the libcst node it was converted from), for the expressions."""
    found: list[tuple[Node, cst.CSTNode]] = []
    if isinstance(made, list):
        for pair in zip(made, reference):  # type: ignore[call-overload]
            found += _pairs(*pair)
    elif isinstance(made, Node) and not isinstance(made, Operator):
        if isinstance(made, (py.BaseExpression, py.FormattedStringExpression)):
            found.append((made, reference))  # type: ignore[arg-type]
        for name in made.FIELDS:
            if isinstance(reference, cst.CSTNode):
                found += _pairs(getattr(made, name), getattr(reference, name))
    return found


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_node_is_quoted_as_libcst_wrote_it(name):
    """`Positions.quote` (messages: "`f(x)` is computed when the program runs") gives what
    libcst's `code_for_node` gave, multi-line nodes in indented blocks included."""
    source = lone_backslashes_as_comments(readable(SOURCES[name]) + INDENTED)
    module = build(source, ast.parse(source))
    reference = cst.parse_module(source)
    positions = Positions(OwnRanges(), [0], None, source)
    positions.module = module
    pairs = _pairs(module.body, list(reference.body))
    assert len(pairs) > 20
    for made, written in pairs:
        text = cst.Module([]).code_for_node(written).strip()
        assert positions.quote(made) == (text if len(text) <= 40 else text[:37] + "..."), made


INDENTED = (
    "class T:\n    def m(self):\n        if x:\n            v = f(\n                a,  # c\n"
    "              b,\n            # d\n                '''s\n        t''' + \\\n"
    "                    y,\n            g(\n    z))\n"
)

"""`split_fstring`: each part of one f-string literal, placed where libcst places it (its
`FormattedStringText`, `FormattedStringExpression` and `expression` ranges), and saying
what CPython's `ast` reads (text decoded, fields, conversions, format specs).

Run by hand on SGLang's sources (each f-string literal of each `.py` in the wheels given):
`PYTHONPATH=src python tests/test_fstring_parts.py .cache/sglang-wheels/sglang-X.whl ...`
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from libcst.metadata import PositionProvider

from speclint.frontends.python.fstring_parts import Field, Part, Text, split_fstring
from speclint.frontends.python.positions import decode_body, python_line_starts

ROOT = Path(__file__).resolve().parent.parent


def F(
    whole: str, expression: str, debug: str | None = None, conversion: str | None = None, spec: Any = None
) -> Any:
    """An expected field: what its braces, its expression, debug `=`, conversion cover."""
    return (whole, expression, debug, conversion, spec)


def shape(source: str, parts: list[Part] | None) -> Any:
    """The parts as the text they cover (a Text: its text; a Field: `F(...)`)."""
    if parts is None:
        return None
    return [
        source[part.start : part.end]
        if isinstance(part, Text)
        else F(
            source[part.start : part.end],
            source[part.expression_start : part.expression_end],
            part.debug,
            part.conversion,
            shape(source, part.spec),
        )
        for part in parts
    ]


CASES = [
    ('f"plain"', ["plain"]),
    ('f""', []),
    ('f"--tp {tp} --speculative-num-steps 3"', ["--tp ", F("{tp}", "tp"), " --speculative-num-steps 3"]),
    ('F"{a}{b}"', [F("{a}", "a"), F("{b}", "b")]),
    ("rf'{x}'", [F("{x}", "x")]),
    ('fR"{x}"', [F("{x}", "x")]),
    ('t"--port {port}"', ["--port ", F("{port}", "port")]),
    ('f"{ x + y }"', [F("{ x + y }", "x + y")]),
    ("f\"{d['k']}\"", [F("{d['k']}", "d['k']")]),
    ('f"{d["k"]}"', [F('{d["k"]}', 'd["k"]')]),  # 3.12: the literal's own quote inside a field
    ("f\"{ {'a': 1}['a'] }\"", [F("{ {'a': 1}['a'] }", "{'a': 1}['a']")]),
    ('f"{[x for x in y]}"', [F("{[x for x in y]}", "[x for x in y]")]),
    ("f\"{d['}']}:{e[':!']}\"", [F("{d['}']}", "d['}']"), ":", F("{e[':!']}", "e[':!']")]),
    ('f"{a != b}"', [F("{a != b}", "a != b")]),
    ('f"{a!r}"', [F("{a!r}", "a", conversion="r")]),
    ('f"{a !s:>10}"', [F("{a !s:>10}", "a", conversion="s", spec=[">10"])]),
    ('f"{x == y}{a <= b}"', [F("{x == y}", "x == y"), F("{a <= b}", "a <= b")]),
    ('f"{(lambda v: v)(1)}"', [F("{(lambda v: v)(1)}", "(lambda v: v)(1)")]),
    ('f"{d[1:2]}"', [F("{d[1:2]}", "d[1:2]")]),
    ('f"{x=}"', [F("{x=}", "x", debug="=")]),
    ('f"{x = !r:>10}"', [F("{x = !r:>10}", "x", debug=" = ", conversion="r", spec=[">10"])]),
    ('f"{x:}"', [F("{x:}", "x", spec=[])]),
    ('f"{x:>{w}.{p}f}"', [F("{x:>{w}.{p}f}", "x", spec=[">", F("{w}", "w"), ".", F("{p}", "p"), "f"])]),
    ('f"{x:{y:{z}}}"', [F("{x:{y:{z}}}", "x", spec=[F("{y:{z}}", "y", spec=[F("{z}", "z")])])]),
    ('f"{x:{{}}}"', [F("{x:{{}}}", "x", spec=[F("{{}}", "{}")])]),  # no `{{` escape in a spec
    ('f"{x:a}}}"', [F("{x:a}", "x", spec=["a"]), "}}"]),
    ("f'{when:%H\\:%M}'", [F("{when:%H\\:%M}", "when", spec=["%H\\:%M"])]),
    ('f"a{{b}}c"', ["a{{b}}c"]),
    ('f"{{{x}}}"', ["{{", F("{x}", "x"), "}}"]),
    ('f"""a\n{\n  x\n}\nb"""', ["a\n", F("{\n  x\n}", "x"), "\nb"]),
    ('f"""{x # why\n}"""', [F("{x # why\n}", "x")]),  # 3.12: a comment in a field
    ('f"""{ # why\n x}"""', [F("{ # why\n x}", "x")]),
    ('f"""{x # why \n:>3}"""', [F("{x # why \n:>3}", "x", spec=[">3"])]),
    ('f"""{a + # why\n b}"""', [F("{a + # why\n b}", "a + # why\n b")]),
    ('f"""{x # a\r\n # b\r\n= }"""', [F("{x # a\r\n # b\r\n= }", "x", debug=" # a\r\n # b\r\n= ")]),
    ('f"""{x \\\n}"""', [F("{x \\\n}", "x")]),  # 3.12: line continuations in a field
    ('f"{\\\r\n x \\\r\n}"', [F("{\\\r\n x \\\r\n}", "x")]),
    ('f"""{a + \\\n b}"""', [F("{a + \\\n b}", "a + \\\n b")]),
    ("f\"{d['k'] = !r}\"", [F("{d['k'] = !r}", "d['k']", debug=" = ", conversion="r")]),
    ('f"{f(a, b=1):>{w}}"', [F("{f(a, b=1):>{w}}", "f(a, b=1)", spec=[">", F("{w}", "w")])]),
    ("f\"{x['''}''']}{'a''b'}\"", [F("{x['''}''']}", "x['''}''']"), F("{'a''b'}", "'a''b'")]),
    ('f"{a!=b=}"', [F("{a!=b=}", "a!=b", debug="=")]),
    ('f"{x:=5}"', [F("{x:=5}", "x", spec=["=5"])]),
    ('f"{(x:=5)}"', [F("{(x:=5)}", "x:=5")]),
    ('f"{x!r:{w}}"', [F("{x!r:{w}}", "x", conversion="r", spec=[F("{w}", "w")])]),
    ("f\"{rb'\\'' + b'}'}\"", [F("{rb'\\'' + b'}'}", "rb'\\'' + b'}'")]),
    ('f"{名前}"', [F("{名前}", "名前")]),
    ('f"{(x)}"', [F("{(x)}", "x")]),  # libcst: the parentheses are the node's own
    ('f"{ ( (x) ) }"', [F("{ ( (x) ) }", "x")]),
    ('f"{(x for x in y)}"', [F("{(x for x in y)}", "x for x in y")]),
    ('f"{(a)(b)}"', [F("{(a)(b)}", "(a)(b)")]),
    ('f"{(a) + (b)}"', [F("{(a) + (b)}", "(a) + (b)")]),
    ("f\"{x if y else'z'}\"", [F("{x if y else'z'}", "x if y else'z'")]),
    ('f"{f"{x}"}"', [F('{f"{x}"}', 'f"{x}"')]),
    ("f\"{f'{a:{b}}'}\"", [F("{f'{a:{b}}'}", "f'{a:{b}}'")]),
    ("f'''{x:'\"}'''", [F("{x:'\"}", "x", spec=["'\""])]),
    ('f"\\N{EM DASH}{x}"', ["\\N{EM DASH}", F("{x}", "x")]),  # an escape, not a field
    ('f"{x:\\N{EM DASH}}"', [F("{x:\\N{EM DASH}}", "x", spec=["\\N{EM DASH}"])]),  # in a spec too
    ('rf"\\N{x}"', ["\\N", F("{x}", "x")]),  # raw: text, then a field
    ('f"a\\{x}"', ["a\\", F("{x}", "x")]),
    ('rf"\\d{x}\\\\"', ["\\d", F("{x}", "x"), "\\\\"]),
    ('f"it\\"s {x}"', ['it\\"s ', F("{x}", "x")]),
    ('f"a\\\nb{x}"', ["a\\\nb", F("{x}", "x")]),  # a line continuation in text
    ('f"a\\\r\nb{x}"', ["a\\\r\nb", F("{x}", "x")]),
    ("f'''a\r\nb{x}\rc'''", ["a\r\nb", F("{x}", "x"), "\rc"]),  # CR LF and a lone CR
    ('f"""{\r\n x \r\n}"""', [F("{\r\n x \r\n}", "x")]),
    ('f"""{x\r\n= }"""', [F("{x\r\n= }", "x", debug="\r\n= ")]),
    ('f"""say ""{x}"" """', ['say ""', F("{x}", "x"), '"" ']),
    ('f"{a}" ', None),  # not one literal
    ('f"{a}"x', None),
]


LIBCST_MISREADS = {'f"{x:\\N{EM DASH}}"'}
"""libcst reads `\\N` then a field `{EM DASH}` in this spec; CPython reads one escape (`—`)."""


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_parts(source: str, expected: Any) -> None:
    assert shape(source, split_fstring(source)) == expected


@pytest.mark.parametrize(("source", "expected"), [case for case in CASES if case[1] is not None])
def test_parts_are_libcst_and_cpython_ones(source: str, expected: Any) -> None:
    parts = split_fstring(source)
    assert parts is not None
    if source not in LIBCST_MISREADS:
        assert parts == libcst_parts(source)[0, len(source)]
    if cpython_reads(source):
        assert comparable(source, parts, cpython_shape(source)) == comparable(
            source, parts, symbolic(source, parts)
        )


@pytest.mark.parametrize(
    "source",
    [
        'f"{"',
        'f"{x"',
        'f"}"',
        'f"{x}}"',
        'f"{x:{y}}}"',
        'f"{}"',
        'f"{ }"',
        'f"{x!}"',
        'f"{x!z}"',
        'f"{x!rr}"',
        'f"{x=y}"',
        'f"{x:{{}"',
        'f"{x # no line end}"',
        'f"{d[1)}"',
        'f"{(x}"',
        'f"{x)}"',
        'f"{\'open}"',
        'f"abc',
        'f"a\\"',
        'f"""a""""',
        'f"a\nb"',
        'f"{x:\n}"',
        'f"\\N{DASH"',
        'f"{x=   ',
        'b"{x}"',
        '"{x}"',
        'fb"{x}"',
        'ff"{x}"',
        "f",
        "",
    ],
)
def test_malformed(source: str) -> None:
    assert split_fstring(source) is None


def test_huge_literal_is_split_whole() -> None:
    """350,000 fields (no recursion per field); its speed is a bench's, not this test's."""
    count = 350_000
    source = 'f"' + "--tp {tp} " * count + '"'
    parts = split_fstring(source)
    assert parts is not None and len(parts) == 2 * count + 1
    last = parts[-2]
    assert isinstance(last, Field) and source[last.expression_start : last.expression_end] == "tp"
    assert last.end == len(source) - 2


def test_garbage_collector_is_running_again_after_a_large_literal() -> None:
    import gc

    large = 'f"' + "{a}" * 100_000
    assert split_fstring(large + '"') is not None and gc.isenabled()
    assert split_fstring(large + "{") is None and gc.isenabled()
    gc.disable()
    try:  # paused by the caller: left paused
        assert split_fstring(large + '"') is not None and not gc.isenabled()
    finally:
        gc.enable()


def test_many_comments_in_one_field() -> None:
    count = 100_000
    source = 'f"""{\n' + "# why\n" * count + "x" + " # why\n" * count + '}"""'
    parts = split_fstring(source)
    assert parts is not None and len(parts) == 1 and isinstance(parts[0], Field)
    assert source[parts[0].expression_start : parts[0].expression_end] == "x"


def test_deep_nesting_is_refused_not_a_crash() -> None:
    assert split_fstring('f"{' + "(" * 100_000 + '"') is None
    assert split_fstring('f"{' * 5_000 + "x" + '}"' * 5_000) is None
    nested = 'f"{' * 20 + "x" + '}"' * 20  # f"{f"{f"{x}"}"}", 20 deep (3.12)
    assert shape(nested, split_fstring(nested)) == [F(nested[2:-1], nested[3:-2])]


# Pieces the generated literals are made of: every construct of the table, mixed.
_EXPRESSIONS = [
    *("x", "a.b", "f(x)", 'd["k"]', "d['}']", "x + y", " x ", "(x)", "(a, b)", "[i for i in y]", "{1: 2}[1]"),
    *("a != b", "a == b", "a <= b", "(lambda v: v)(1)", 'x if y else "z"', "rf'\\{'", 'b"\\""', 'f"{y}"'),
    *(
        "f'{y:>{w}}'",
        "x # c\n",
        "\n x \n",
        '"""a\nb"""',
        "((x))",
        "( x )",
        "a[1:2]",
        "(x:=1)",
        "x\r\n",
        "'!r'",
    ),
    *(
        "d['k'] + \"x\"",
        "f(a, b=1)",
        'x["a"]["b"]',
        "'a''b'",
        "d[f'{x}']",
        "'''a'''",
        "x['''}''']",
        "[x, 'a:b']",
    ),
]
_TEXTS = [
    "a",
    " ",
    "{{",
    "}}",
    "\\n",
    "\\N{DASH}",
    "\\\\",
    "\\{",
    "'",
    '"',
    "\n",
    "\r\n",
    "\\\n",
    ":",
    "!",
    "#",
    "é",
]


def _generated(seed: int, count: int) -> list[str]:
    import random

    chance = random.Random(seed)

    def field(depth: int) -> str:
        written = "{" + chance.choice(_EXPRESSIONS)
        if chance.random() < 0.2:
            written += chance.choice(["=", " = ", "= "])
        if chance.random() < 0.3:
            written += chance.choice(["!r", "!s", "!a", "!x", "! r"])
        if chance.random() < 0.3:
            pieces = [">", "10", ".2f", " ", "\\n", "{{"] + ([field(depth + 1)] if depth < 1 else [])
            written += ":" + "".join(chance.choice(pieces) for _ in range(chance.randint(0, 3)))
        return written + "}"

    literals = []
    for _ in range(count):
        body = "".join(
            field(0) if chance.random() < 0.4 else chance.choice(_TEXTS) for _ in range(chance.randint(0, 6))
        )
        quote = chance.choice(['"', "'", '"""', "'''"])
        literal = chance.choice(["f", "rf", "F", "fR", "t"]) + quote + body + quote
        if chance.random() < 0.2:  # a character dropped: often malformed
            dropped = chance.randrange(len(literal))
            literal = literal[:dropped] + literal[dropped + 1 :]
        literals.append(literal)
    return literals


def test_generated_literals_split_as_libcst_and_cpython_read_them() -> None:
    """Where libcst reads a literal, the split is its own (or None: where CPython refuses the
    literal too, e.g. `{x! r}`); where CPython reads it, the split says what CPython reads."""
    read_by_cpython = 0
    for literal in _generated(19, 600):
        parts = split_fstring(literal)
        try:
            expected = libcst_parts(literal).get((0, len(literal)))
        except cst.ParserSyntaxError:
            expected = None
        by_cpython = (
            cpython_reads(literal) and isinstance(_parse(literal), ast.JoinedStr) and _one_literal(literal)
        )
        if expected is not None and parts is not None:
            assert parts == expected, literal
        if by_cpython and parts is None and expected is None and sys.version_info >= (3, 12):
            continue  # a form of 3.12's grammar (PEP 701) that libcst and the split refuse alike
        if by_cpython:
            read_by_cpython += 1
            assert parts is not None, literal
            read = (symbolic(literal, parts), cpython_shape(literal))
            assert comparable(literal, parts, read[0]) == comparable(literal, parts, read[1]), literal
        elif expected is not None and parts is None:
            assert "! r" in literal or "\\N{" in literal, literal  # CPython refuses these
    assert read_by_cpython > 150  # (the others: 3.12 forms, t-strings, malformed)


def _one_literal(source: str) -> bool:
    """Whether `source` is one f-string (not a plain string, nor two written side by side)."""
    return (0, len(source)) in fstring_literals(source)


# --- the reference: libcst -------------------------------------------------------------


def libcst_parts(source: str) -> dict[tuple[int, int], list[Part]]:
    """Each f-string literal libcst reads in `source` (a file, or one literal): its
    (start, end) -> its parts, offsets relative to the literal's start."""
    module = cst.parse_module(source)
    wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
    ranges = wrapper.resolve(PositionProvider)
    starts = python_line_starts(source)
    code = module.code_for_node  # (whitespace with comments, as written)

    def offsets(node: cst.CSTNode) -> tuple[int, int]:
        where = ranges[node]
        return starts[where.start.line - 1] + where.start.column, starts[
            where.end.line - 1
        ] + where.end.column

    def parts(nodes: Any, at: int) -> list[Part]:
        read: list[Part] = []
        for node in nodes:
            start, end = offsets(node)
            if isinstance(node, (cst.FormattedStringText, cst.TemplatedStringText)):
                read.append(Text(start - at, end - at))
                continue
            expression_start, expression_end = offsets(node.expression)
            debug = (
                None
                if node.equal is None
                else f"{code(node.equal.whitespace_before)}={code(node.equal.whitespace_after)}"
            )
            spec = None if node.format_spec is None else parts(node.format_spec, at)
            read.append(
                Field(
                    start - at,
                    end - at,
                    expression_start - at,
                    expression_end - at,
                    debug,
                    node.conversion,
                    spec,
                )
            )
        return read

    found: dict[tuple[int, int], list[Part]] = {}
    for node in ranges:
        if isinstance(node, (cst.FormattedString, cst.TemplatedString)):
            start, end = offsets(node)
            found[start, end] = parts(node.parts, start)
    return found


# --- the other reference: what CPython's ast reads ------------------------------------


def _parse(expression: str) -> ast.expr:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # `\:` and the like, as written
        return ast.parse(f"({expression})", mode="eval").body


def cpython_reads(literal: str) -> bool:
    try:
        _parse(literal)
    except SyntaxError:  # a 3.12 form, on 3.11
        return False
    except ValueError:  # (3.12.1's parser refuses some literals: "field 'value' is required")
        return False
    return True


def comparable(literal: str, parts: list[Part], read: list[Any]) -> list[Any]:
    """What CPython reads, as far as this Python reads f-strings as Python 3.11 does. From
    3.12 CPython reads some texts otherwise (the text before a debug field `{x=}` loses its
    comments and is cut at a `!=`; a raw literal's format spec has its escapes decoded): there
    the fields alone are compared (expression, conversion, the spec's fields), on 3.11 all."""
    if sys.version_info < (3, 12) or not (_has_debug(parts) or "r" in literal[:3].lower()):
        return read
    return _fields(read)


def _fields(read: list[Any]) -> list[Any]:
    return [
        (value[0], value[1], None if value[2] is None else _fields(value[2]))
        for value in read
        if not isinstance(value, str)
    ]


def _has_debug(parts: list[Part]) -> bool:
    return any(
        isinstance(part, Field) and (part.debug is not None or _has_debug(part.spec or [])) for part in parts
    )


def cpython_shape(literal: str) -> list[Any]:
    joined = _parse(literal)
    assert isinstance(joined, ast.JoinedStr)
    return _values(joined)


def _values(joined: ast.JoinedStr) -> list[Any]:
    read: list[Any] = []
    for value in joined.values:
        if isinstance(value, ast.Constant):
            if value.value:  # (3.12 ends a format spec's fields with an empty string)
                read.append(value.value)
        else:
            assert isinstance(value, ast.FormattedValue)
            spec = value.format_spec
            assert spec is None or isinstance(spec, ast.JoinedStr)
            read.append((ast.dump(value.value), value.conversion, None if spec is None else _values(spec)))
    return read


_LINE_ENDS = re.compile(r"\r\n?")


def symbolic(literal: str, parts: list[Part]) -> list[Any]:
    """What CPython reads, from the parts: text decoded (`positions.decode_body`), a debug
    field's text, each field's expression parsed alone, its conversion, its spec."""
    raw = "r" in literal[: literal.index(literal[-1])].lower()
    read: list[Any] = []
    text = ""
    for part in parts:
        if isinstance(part, Text):
            written = _LINE_ENDS.sub("\n", literal[part.start : part.end])  # (as CPython reads a file)
            text += "".join(piece.text or "" for piece in decode_body(written, 0, raw, True))
            continue
        conversion = -1 if part.conversion is None else ord(part.conversion)
        if part.debug is not None:
            debug_end = literal.index(part.debug, part.expression_end) + len(part.debug)
            text += _LINE_ENDS.sub("\n", literal[part.start + 1 : debug_end])
            if part.conversion is None and part.spec is None:
                conversion = ord("r")
        if text:
            read.append(text)
            text = ""
        expression = _parse(literal[part.expression_start : part.expression_end])
        spec = None if part.spec is None else symbolic(literal, part.spec) if part.spec else []
        read.append((ast.dump(expression), conversion, spec))
    if text:
        read.append(text)
    return read


# --- every f-string of a set of files ------------------------------------------------


def fstring_literals(source: str) -> list[tuple[int, int]]:
    """Where CPython's tokenizer finds an f-string (3.11: one STRING token; 3.12: from
    FSTRING_START to its FSTRING_END) in `source`."""
    starts = python_line_starts(source)
    found: list[tuple[int, int]] = []
    open_at: list[int] = []
    for token in tokenize.generate_tokens(io.StringIO(source, newline="").readline):
        name = tokenize.tok_name[token.type]
        if name in ("FSTRING_START", "TSTRING_START"):
            open_at.append(starts[token.start[0] - 1] + token.start[1])
        elif name in ("FSTRING_END", "TSTRING_END"):
            found.append((open_at.pop(), starts[token.end[0] - 1] + token.end[1]))
        elif name == "STRING":
            prefix = token.string[: token.string.index(token.string[-1])].lower()
            if "f" in prefix or "t" in prefix:
                found.append(
                    (starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1])
                )
    return found


def disagreements(source: str) -> tuple[int, list[str]]:
    """How many f-string literals `source` has (the tokenizer's and those libcst reads
    inside them), and each whose split is not libcst's, or not CPython's reading."""
    checked = 0
    wrong: list[str] = []
    for begin, end in fstring_literals(source):
        literal = source[begin:end]
        for (start, stop), expected in libcst_parts(literal).items():
            checked += 1
            written = literal[start:stop]
            parts = split_fstring(written)
            if parts != expected:
                wrong.append(f"libcst: {written!r}: {parts} != {expected}")
            elif (
                parts is not None
                and cpython_reads(written)
                and symbolic(written, parts) != cpython_shape(written)
            ):
                wrong.append(f"CPython: {written!r}")
    return checked, wrong


def _repository_sources() -> list[Path]:
    return sorted(path for folder in ("tests", "fixtures") for path in (ROOT / folder).rglob("*.py"))


def test_repository_fstrings_split_as_libcst_and_cpython_read_them() -> None:
    checked = 0
    wrong: list[str] = []
    for path in _repository_sources():
        source = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            count, found = disagreements(source)
        except (tokenize.TokenError, SyntaxError, cst.ParserSyntaxError):  # a fixture of broken Python
            continue
        checked += count
        wrong += [f"{path.relative_to(ROOT)}: {line}" for line in found]
    assert wrong == []
    assert checked > 500  # the files were read: they hold that many f-strings


def _wheel_sources(wheel: str) -> list[tuple[str, str]]:
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        return [
            (name, archive.read(name).decode("utf-8", "surrogateescape"))
            for name in archive.namelist()
            if name.endswith(".py")
        ]


if __name__ == "__main__":
    total, bad, unread = 0, 0, 0
    for wheel in sys.argv[1:]:
        for name, text in _wheel_sources(wheel):
            try:
                count, found = disagreements(text)
            except (tokenize.TokenError, SyntaxError, cst.ParserSyntaxError):
                unread += 1
                continue
            total += count
            bad += len(found)
            for line in found:
                print(f"{Path(wheel).name}:{name}: {line}")
    print(f"{total} f-string literals checked, {bad} disagreements, {unread} files not read")

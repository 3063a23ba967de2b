"""ranges: the Python front-end's node positions come from libcst's position provider run
through a lean private-API state; they must equal libcst's public `PositionProvider` on
every file, and the front-end must read the same with either."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

import speclint.frontends.python.ranges as ranges
from speclint.frontends.python.extract import extract_python
from speclint.frontends.python.ranges import codegen_ranges, public_ranges

FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "python").glob("*.py"))
SNIPPETS = [
    "\ufeffimport sglang\nx = 1\n",
    "x = 1; y = 2;  # two\n\n\n# tail comment\n",
    "if a:\n\tb = [\n\t\t1,\n\t]\nelif c: d = (\n  2)\nelse:\n    pass\n",
    "@a.b(c)\n# between\n@d\nclass E(F, metaclass=G):\n    '''doc'''\n    def h(self, /, i, *, j=1, **k) -> 'E': ...\n",
    "s = f'{a!r:>{w}} {{x}} {b=}' f\"{'q'}\" r'\\x00' '''\nmulti\nline'''\n",
    "x = (yield)\ny = lambda *a, **k: a if k else -a\nz = [i for i in r if i async for j in s]\n",
    "match cmd:\n    case ['sglang', 'serve', *rest] if rest:\n        pass\n    case {'k': v, **kw} | C(x=1):\n        pass\n",
    "try:\n    import sglang\nexcept (ImportError, OSError) as e:\n    raise SystemExit(1) from e\nelse:\n    x = 1\nfinally:\n    del x\n",
    "with (open(a) as f,\n      open(b) as g):\n    async def h():\n        await f\n        async with g: yield\n",
    "x = 1 + \\\n    2\ncmd = ['python', '-m', 'sglang.launch_server', '--tp', 'é✓', \"日本\"]\n",
    "global_ = a[1:2, ::3] @ b ** -c // d << e if not f else g or h and i is not None\n",
    "def f():\n    nonlocal_ = 1\n    for k, v in d.items():\n        continue\n    while x:\n        break\n    else:\n        return\n",
    "type Point = tuple[float, float]\ndef g[T](x: T) -> T:\n    return x\n",
    "",
    "\n\n# only a comment",
]


def _sources() -> list[str]:
    found = [path.read_text() for path in FIXTURES] + SNIPPETS
    return [text.replace("\n", newline) for text in found for newline in ("\n", "\r\n", "\r")]


def _module(text: str) -> cst.Module | None:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None


def test_the_lean_state_is_in_use():
    """Else every test below compares the public path with itself."""
    assert ranges._fast_state() is not None


@pytest.mark.parametrize("index", range(len(_sources())))
def test_every_node_has_the_public_providers_range(index):
    module = _module(_sources()[index])
    if module is None:
        pytest.skip("libcst refuses this file (a syntax-error fixture)")
    fast = codegen_ranges(module)
    public = public_ranges(module)
    assert fast.by_id == {id(node): where for node, where in public.items()}
    assert all(fast[node] == where for node, where in public.items())
    assert len(public) > 0


def _extract_all() -> list[str]:
    return [
        repr((result.launches, result.diagnostics, result.comments))
        for result in (extract_python(text, "x.py") for text in _sources())
    ]


def test_the_front_end_reads_the_same_through_the_public_path(monkeypatch):
    lean = _extract_all()
    monkeypatch.setattr(ranges, "_STATE", [None])
    assert _extract_all() == lean


def test_a_private_state_that_disagrees_is_not_used(monkeypatch):
    """A libcst whose private state moved on (here: columns counted one too many) must not
    change a position: the sample check sends every file to the public path."""

    def shifted(self, value):
        self.tokens.append(value)
        self.column += len(value) + 1

    made = ranges._make_state
    monkeypatch.setattr(ranges, "TESTED_LIBCST", frozenset())
    monkeypatch.setattr(ranges, "_make_state", lambda: type("Shifted", (made(),), {"add_token": shifted}))
    assert ranges._checked_state() is None
    monkeypatch.setattr(ranges, "_make_state", lambda: None)
    assert ranges._checked_state() is None


def test_a_tested_libcst_skips_the_sample_and_another_runs_it(monkeypatch):
    """The check is skipped only for the releases listed as tested (the suite running on one
    is what lists it: `test_every_node_has_the_public_providers_range`)."""
    calls = []
    real = ranges.public_ranges
    monkeypatch.setattr(ranges, "public_ranges", lambda module: calls.append(module) or real(module))
    monkeypatch.setattr(ranges, "TESTED_LIBCST", frozenset({ranges.libcst_version()}))
    assert ranges._checked_state() is not None and calls == []
    monkeypatch.setattr(ranges, "TESTED_LIBCST", frozenset())
    assert ranges._checked_state() is not None and len(calls) == 1
    monkeypatch.setattr(ranges, "libcst_version", lambda: None)
    assert ranges._checked_state() is not None and len(calls) == 2


def test_the_installed_libcst_version_is_read():
    from importlib.metadata import version

    assert ranges.libcst_version() == version("libcst")


def test_a_missing_private_state_falls_back(monkeypatch):
    monkeypatch.setattr(ranges, "_STATE", [None])
    module = cst.parse_module("import sglang\nsglang.Engine(model_path='m')\n")
    public = public_ranges(module)
    assert codegen_ranges(module).by_id == {id(node): where for node, where in public.items()}


def test_too_deep_for_libcsts_code_generation_is_a_recursion_error_on_both_paths(monkeypatch):
    """libcst raises KeyError cleaning up after running out of stack; the front-end reports
    it as too deep either way."""
    text = "".join(f"{'if' if i == 0 else 'elif'} x == {i}:\n    y = {i}\n" for i in range(3000))
    module = cst.parse_module(text)
    with pytest.raises(RecursionError):
        codegen_ranges(module)
    monkeypatch.setattr(ranges, "_STATE", [None])
    with pytest.raises(RecursionError):
        codegen_ranges(module)

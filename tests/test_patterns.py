"""speclint's own patterns (`speclint.core.patterns`): `re.compile`'s Pattern objects, made from
their kept compiled form without importing `re`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from speclint.core import patterns
from speclint.core.kept import Kept

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "shell" / "eagle_topk1_draft_tokens.sh"

CASES = [
    (r"^(?:\s*(\w+)\s*\.)?\s*(\w+)", 0),  # dataclasses' own, compiled when it is imported
    (r"\n[ \t]*(?:(?:\d+(?:\.\d+)?|[^\s'\"\\#$;&|<>()]*/)[ \t]+)?--[A-Za-z]", 0),
    (r"(?<!\\)((?:\\\\)*)(\\[ \t\r]+)(#[^\n]*)?$", patterns.MULTILINE),
    (r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)", patterns.DOTALL),
    (
        r"""(?:^|[\s"'\[,])sglang(?:\[[^\]]*\])?\s*===?\s*v?(\d[\w.]*)""",
        patterns.IGNORECASE | patterns.MULTILINE,
    ),
    (r"(?P<name>[A-Za-z_]\w*)=(?P<value>\S*)", 0),
    (rb"[\xf1-\xf4][\x80-\xbf]{3}", 0),
    ("[\ud800-\udfff]", 0),
]
TEXTS = ["  typing . ClassVar", "x\n  --tp 2", "a \\  # c\n", "\\x41\\n", "sglang==0.5.2", "KEY=v w"]


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(patterns, "_STORE", [Kept(str(tmp_path), "patterns", 1)])
    return tmp_path


def test_the_flags_are_re_s_own():
    assert (patterns.IGNORECASE, patterns.MULTILINE, patterns.DOTALL, patterns.VERBOSE) == (
        re.I,
        re.M,
        re.S,
        re.X,
    )


@pytest.mark.skipif(
    not patterns.served(), reason="patterns are kept on Python 3.11 only (core.patterns.served)"
)
def test_a_kept_pattern_is_the_pattern_re_compiles_and_needs_no_re(store, monkeypatch):
    first = [patterns.compile(pattern, flags) for pattern, flags in CASES]  # compiled by re
    assert first == [re.compile(pattern, flags) for pattern, flags in CASES]
    patterns._STORE[0].save()
    monkeypatch.setattr(patterns, "_STORE", [Kept(str(store), "patterns", 1)])  # the next run
    monkeypatch.setitem(sys.modules, "re", None)  # `import re` would raise
    again = [patterns.compile(pattern, flags) for pattern, flags in CASES]
    monkeypatch.undo()
    for (pattern, flags), made in zip(CASES, again, strict=True):
        wanted = re.compile(pattern, flags)
        assert made == wanted and type(made) is re.Pattern
        assert (made.flags, made.groups, made.groupindex) == (wanted.flags, wanted.groups, wanted.groupindex)
        for text in TEXTS:
            subject = text.encode("latin-1", "replace") if isinstance(pattern, bytes) else text
            found, expected = made.search(subject), wanted.search(subject)
            assert (found and (found.span(), found.groups())) == (
                expected and (expected.span(), expected.groups())
            )


def test_a_damaged_recipe_is_compiled_again(store):
    kept = patterns._STORE[0]
    kept.put(("a+b", 0), (0, [1, 2, 3], 0, {}, ()))  # not the codes of `a+b`: _sre refuses them
    assert patterns.compile("a+b") == re.compile("a+b")
    kept.put(("c+", 0), "not a recipe")
    assert patterns.compile("c+") == re.compile("c+")


def test_flags_given_as_re_s_own_go_to_re():
    assert patterns.compile("a", re.I) == re.compile("a", re.I)


UNUSED = """
import sys
sys.dont_write_bytecode = False
sys.argv = ["speclint", "--no-cache", {path!r}]
from speclint.__main__ import main
try:
    main()
except SystemExit:
    pass
print("__file__" in vars(sys.modules["re"]), sys.modules["re"].compile("a+") == __import__("re").compile("a+"),
      file=sys.stderr)
"""


def test_a_shell_lint_with_its_patterns_kept_does_not_import_re(tmp_path):
    """`re` (with its parser and compiler) is a stand-in serving `compile` from kept patterns,
    and the real module on any other use (the second run: the first keeps the patterns). The
    launch is in a folder without a pyproject.toml (`tomllib` imports `re`)."""
    (tmp_path / "serve.sh").write_text(FIXTURE.read_text())
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(Path(patterns.__file__).parents[2])
    runs = [
        subprocess.run(
            [sys.executable, "-c", UNUSED.format(path="serve.sh")],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=environment,
            timeout=120,
            check=False,
        )
        for _ in range(2)
    ]
    kept = Path(patterns.__file__).parent / "__pycache__" / f"patterns.{sys.implementation.cache_tag}.kept"
    if not kept.exists():
        pytest.skip("speclint's folder is not writable: nothing is kept")
    assert runs[1].stderr.strip().splitlines()[-1] == "False True", runs[1].stderr

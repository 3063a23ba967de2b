"""Property-based, mutation and hostile-input tests of the Python (libcst), YAML (PyYAML) and
Markdown front-ends, through `lint_text`, `lint_path` and the CLI: any bytes, and any mangling
of the real fixtures, give findings with valid locations, never an exception, in bounded time
and memory. SPECLINT_FUZZ_EXAMPLES=2000 runs a longer campaign than the default."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.extract.python import extract_python
from speclint.extract.yaml_manifest import extract_yaml
from speclint.fix import apply_edits, collect_edits
from speclint.lint import lint_path, lint_text

EXAMPLES = int(os.environ.get("SPECLINT_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="SPECLINT_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=list(HealthCheck))
ROOT = Path(__file__).resolve().parent.parent / "fixtures"


def _seeds(folder: str, *patterns: str) -> list[str]:
    paths = sorted(p for pattern in patterns for p in (ROOT / folder).glob(pattern))
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths]


SEEDS = {
    "x.py": _seeds("python", "*.py"),
    "x.yaml": _seeds("k8s", "*.yaml") + _seeds("compose", "*.yml"),
    "x.md": _seeds("markdown", "*.md"),
}
HEADER = {"x.py": "import sglang\n", "x.yaml": "# sglang\n", "x.md": "sglang\n"}
FLAGS = ["--model-path", "--tp-size", "--tp", "8", "--speculative-algorithm", "EAGLE3",
         "--speculative-eagle-topk", "--speculative-num-steps", "--port", "sglang.launch_server",
         "python -m sglang.launch_server ", "sglang serve ", "/models/llama"]
COMMON = ["\"", "'", "\\", "\0", "\ufeff", "\udcff", "\r\n", "\n", " ", "\t", "(", ")", "[", "]",
          "{", "}", "#", ":", ",", "=", "$X", "${A}", "`", "\xff", "\u2028"] + FLAGS
VOCABULARY = {
    "x.py": COMMON + ['"""', "'''", "f'{", "}'", "rb'", "\\N{", "import subprocess\n",
                      "subprocess.run(", "shell=True", "os.execvp(", "sgl.Engine(", "ServerArgs(",
                      "**", "*", "lambda: ", "if x:\n    ", "else:\n", "def f():\n  ", "class C:\n ",
                      "cmd += ", ".append(", ".extend(", ".update(", "env=", "dict(", " + ",
                      "match x:\n case 1:\n  ", "async ", "await ", "@d\n", ";", "\\\n", "x = "],
    "x.yaml": COMMON + ["- ", "? ", ": ", "&a ", "*a", "<<: *a", "!!python/object/apply:os.system ",
                        "!!binary ", "!tag ", "|\n  ", ">-\n  ", "---\n", "...\n", "%YAML 1.1\n",
                        "containers:\n  - ", "command: [", "args:\n  - ", "env:\n  - name: X\n    value: ",
                        "services:\n  s:\n    ", "entrypoint: ", "image: lmsysorg/sglang:v0.5.6",
                        "bash -c '", "  ", "    "],
    "x.md": COMMON + ["```", "```bash\n", "```python\n", "```console\n$ ", "~~~", "````", "\n```\n",
                      "$ ", "> ", "    ", "<!-- speclint: disable=FLG001 -->", "# ", "* ", "```sh",
                      "```py\nimport subprocess\nsubprocess.run('", "bash -c '"],
}
KINDS = sorted(SEEDS)


def _check(text: str, path: str) -> None:
    start = time.monotonic()
    result = lint_text(text, path)
    assert time.monotonic() - start < 20, "took too long"
    lines = max(1, len(text.splitlines()) + 1)
    for finding in result.findings:
        span = finding.span
        assert 1 <= span.line <= lines and span.column >= 1, (finding.code, span)
        assert (span.end_line, span.end_column) >= (span.line, span.column), (finding.code, span)
    fixed, _ = apply_edits(text, collect_edits(result.findings))
    assert isinstance(fixed, str)


def _mutate(text: str, path: str, data) -> str:
    for _ in range(data.draw(st.integers(1, 5))):
        where = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["truncate", "insert", "delete", "flip", "crlf", "bom",
                                            "dup", "nul"]))
        if action == "truncate":
            text = text[:where]
        elif action == "insert":
            text = text[:where] + data.draw(st.sampled_from(VOCABULARY[path])) + text[where:]
        elif action == "delete":
            text = text[:where] + text[where + data.draw(st.integers(1, 20)):]
        elif action == "flip":
            byte = data.draw(st.integers(0, 255))
            text = text[:where] + bytes([byte]).decode("latin-1") + text[where + 1:]
        elif action == "crlf":
            text = text.replace("\n", "\r\n")
        elif action == "bom":
            text = "\ufeff" + text
        elif action == "nul":
            text = text[:where] + "\0" + text[where:]
        else:
            text = text[:where] + text[max(0, where - 200):where] + text[where:]
    return text


# ---- property-based ------------------------------------------------------------------------

@FUZZ
@given(st.sampled_from(KINDS), st.binary(max_size=1500))
def test_random_bytes(path, data):
    _check(HEADER[path] + data.decode("utf-8", errors="replace"), path)


@FUZZ
@given(st.sampled_from(KINDS), st.data())
def test_random_tokens(path, data):
    parts = data.draw(st.lists(st.sampled_from(VOCABULARY[path]) | st.text(max_size=6), max_size=60))
    _check(HEADER[path] + "".join(parts), path)


@FUZZ
@given(st.sampled_from(KINDS), st.data())
def test_mutated_fixtures(path, data):
    seed = data.draw(st.sampled_from(SEEDS[path]))
    _check(_mutate(seed, path, data), path)


def test_seeds_exist():
    assert len(SEEDS["x.py"]) >= 4 and len(SEEDS["x.yaml"]) >= 3 and SEEDS["x.md"]


# ---- hostile Python --------------------------------------------------------------------------

PY = "import subprocess\n"
LAUNCH_PY = "subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
DEEP = 10_000


def _located(result, needle: str) -> list[tuple[int, int]]:
    found = [(f.span.line, f.span.column) for f in result.findings if needle in f.message]
    assert found, [(f.code, f.message) for f in result.findings]
    return found


@pytest.mark.parametrize("expression", [
    "[" * DEEP + "]" * DEEP,                 # libcst's native parser crashed the process (SIGSEGV)
    "f(" * DEEP + ")" * DEEP,
    "(" * DEEP + "1" + ")" * DEEP,
    "{'a': " * DEEP + "1" + "}" * DEEP,
    "a" + " + a" * DEEP,                     # quadratic in libcst: minutes, then RecursionError
    "-" * DEEP + "1",
    "not " * DEEP + "a",
    "'a' " * DEEP,
    "a" + ".b()" * DEEP,
    "lambda: " * DEEP + "1",
    "a if b else " * DEEP + "c",
    "f'{" + "[" * DEEP + "]" * DEEP + "}'",
    "[x " + "for x in y " * DEEP + "]",
])
def test_deep_python_is_a_located_finding(expression):
    start = time.monotonic()
    result = lint_text(PY + "x = " + expression + "\n" + LAUNCH_PY, "deep.py")
    [(line, column)] = _located(result, "Python nested too deeply")
    assert line == 2 and 5 <= column <= 2000, column
    assert time.monotonic() - start < 5


def test_deep_python_in_markdown_points_into_the_markdown_file():
    text = "# Doc\n\n```python\nimport sglang\nx = " + "[" * DEEP + "]" * DEEP + "\n```\n"
    assert _located(lint_text(text, "deep.md"), "nested too deeply") == [(5, 105)]  # x = [[[...


def test_deep_python_backslash_continuations():
    result = lint_text(PY + "x = a" + " \\\n + a" * DEEP + "\n# sglang\n", "deep.py")
    assert _located(result, "nested too deeply")


def test_moderate_nesting_is_still_read():
    """Under the bounds the file is linted as before."""
    text = PY + "x = " + "[" * 90 + "]" * 90 + "\ny = a" + " + a" * 150 + "\n" + LAUNCH_PY.replace(
        "'--tp-size'", "'--tp-szie'")
    result = lint_text(text, "ok.py")
    assert any(f.code == "FLG001" and f.span.line == 4 for f in result.findings), result.findings


def test_deeply_indented_python_is_a_finding_not_a_crash():
    text = PY + "".join(" " * i + "if x:\n" for i in range(99)) + " " * 99 + "y = " + "[" * 60 + \
        "]" * 60 + "\n" + LAUNCH_PY
    result = lint_text(text, "indent.py")
    assert all(f.span.line >= 1 for f in result.findings)


@pytest.mark.parametrize("line", [
    "a = ['--x']\n" + "a = a + a\n" * 40,
    "a = '--x '\n" + "a = a + a\n" * 40,
    "a = '--x '\n" + "a = f'{a}{a}'\n" * 40,
    "a = ['--x']\n" + "a += a\n" * 40,
    "a = ['--x']\n" + "a.extend(a)\n" * 40,
    "a = ['--x']\n" + "a = [' '.join(a), ' '.join(a)]\n" * 40,
    "a = {'a': 1}\n" + "a = {'x': a, 'y': a}\n" * 40,
    "a = {'a': 1}\n" + "a = dict(x=a, y=a)\n" * 40,
    "a = ['--x']\n" + "a = [*a, *a]\n" * 40,
    "a = {'--x': 1}\n" + "a.update({**a, **{k: a for k in a}}, z=a)\n" * 40,
    "s = '" + "x" * 60_000 + "'\n" + "a = [" + ", ".join(["s"] * 1000) + "]\n",
])
def test_python_values_doubling_stay_small(line):
    """`a = a + a` forty times is a terabyte: past 64 KiB or 4096 elements the value is unknown."""
    text = PY + line + "import sglang\nsubprocess.run(['python', '-m', 'sglang.launch_server', *a])\n" \
        "subprocess.run('python -m sglang.launch_server ' + str(a), shell=True)\n" \
        "os.execl('python', 'python', '-m', 'sglang.launch_server', *a, *a, *a)\nsglang.Engine(**a)\n"
    tracemalloc.start()
    start = time.monotonic()
    try:
        lint_text(text, "bomb.py")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 10 and peak < 300 * 1024 * 1024, peak


def test_a_long_string_repeated_in_many_calls_is_bounded(monkeypatch):
    monkeypatch.setattr("speclint.extract.embedded.MAX_SHELL_CHARS", 512 * 1024)
    text = PY + "s = '--x " + "y" * 60_000 + "'\n" + \
        "subprocess.run(['python', '-m', 'sglang.launch_server', s])\n" * 200
    start = time.monotonic()
    result = lint_text(text, "many.py")
    assert time.monotonic() - start < 20
    assert _located(result, "more than 512 KiB of shell text")[0][0] > 2


def test_dict_keys_are_set_in_constant_time():
    """Keys were set by rebuilding the entry list each time: quadratic in a big dict literal."""
    from speclint.extract.python_values import Entries, Entry, Val
    from speclint.source import Span

    span = Span.point(1, 1)
    start = time.monotonic()
    entries = Entries()
    for i in range(200_000):
        entries.set(Entry(f"k{i % 150_000}", span, Val("const", span, 0, 1, i)))
    assert len(entries.list()) == 150_000 and time.monotonic() - start < 3
    text = PY + "cfg = {" + ", ".join(f"'k{i}': {i}" for i in range(200)) + ", 'k1': 'x'}\n" + \
        "import sglang\nsglang.Engine(model_path='m', **cfg)\n"
    assert lint_text(text, "dict.py").contexts


def test_python_lone_carriage_returns_end_lines():
    """libcst counts a lone CR as a line end; positions counted only LFs (IndexError)."""
    result = lint_text("import sglang\r\rsglang.Engine(\r\nmodel_path='m', tp_szie=2)\n", "cr.py")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("FLG001", 4, 17)]


def test_python_lone_carriage_returns_end_statements_for_the_nesting_prescan():
    """The pre-scan counted only LFs as line ends: a CR-only file of 100 statements was
    "nested too deeply"."""
    text = ("import sglang\n" + "x = a + b\n" * 300 + "sglang.Engine(model_path='m', tp_szie=2)\n").replace("\n", "\r")
    assert [f.code for f in lint_text(text, "cr.py").findings] == ["FLG001"]


def test_python_nul_inside_a_string_literal():
    """libcst reads it; `evaluated_value` (ast.literal_eval) raised SyntaxError."""
    _check("import sglang\nx = 'a\0b'\nsglang.Engine(model_path=x, tp_size=2)\n", "nul.py")


def test_many_names_and_branches_are_linear():
    """Each if/for/class copied the whole environment and merged every name (quadratic)."""
    text = "import sglang\n" + "".join(f"a{i} = {i}\n" for i in range(3000)) + \
        "if x:\n  a1 = 3\nelse:\n  a2 = 4\n" * 600 + "for i in x:\n  a3 = i\n" * 600 + \
        "class C:\n  a1 = 5\n" * 600 + "sglang.Engine(model_path='m', tp_szie=a1)\n"
    start = time.monotonic()
    result = lint_text(text, "names.py")
    assert time.monotonic() - start < 5
    assert any(f.code == "FLG001" for f in result.findings)


@pytest.mark.parametrize("text", [
    "import sglang\n\0x = 1\n",
    "import sglang\nx = '\udcff'\n",
    "\ufeffimport sglang\r\n" + LAUNCH_PY.replace("\n", "\r\n"),
    "import sglang\nx = '" + "a" * (1 << 20) + "'\n" + LAUNCH_PY,
    "import sglang\nx = '''unterminated\n" + LAUNCH_PY,
    "import sglang\n" + "(" * 300,
])
def test_odd_python_never_raises(text):
    _check(PY + text, "odd.py")


# ---- hostile YAML ----------------------------------------------------------------------------

def _laughs(levels: int = 9, width: int = 9) -> str:
    lines = ["# sglang", "l0: &l0 [\"--x\"]"]
    for level in range(1, levels + 1):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


YAML_CONTAINER = """
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: s
          command: ["python3", "-m", "sglang.launch_server"]
          args: ["--model-path", "m", "--tp-szie", "2"]
"""


@pytest.mark.parametrize("text", [
    _laughs() + "kind: Deployment\nspec: *l9\n" + YAML_CONTAINER.replace("kind: Deployment\n", "---\nkind: Deployment\n"),
    _laughs() + "spec: {template: {spec: {containers: *l9}}}\n",
    _laughs() + YAML_CONTAINER.replace('args: ["--model-path", "m", "--tp-szie", "2"]', "args: *l9"),
    "# sglang\nm0: &m0 {a: 1}\n" + "".join(
        f"m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 9)}], k{i}: 1}}\n" for i in range(1, 12))
    + "services:\n  s:\n    <<: *m11\n    command: python3 -m sglang.launch_server --tp 2\n",
    "# sglang\nservices: &s {a: {<<: *s, command: python3 -m sglang.launch_server}}\n",
    "# sglang\na: &a {<<: *a, containers: [*a]}\nspec: &b [*b, {containers: *b}]\n",
    "# sglang\nx: &x [*x, *x]\nservices: {s: {command: *x, entrypoint: *x, environment: *x}}\n",
])
def test_yaml_aliases_are_never_expanded(text):
    """Billion laughs: 9**9 references to one node must be followed once, not 387 million times."""
    tracemalloc.start()
    start = time.monotonic()
    try:
        result = lint_text(text, "laughs.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 5 and peak < 200 * 1024 * 1024, peak
    if "--tp-szie" in text:
        assert any(f.code == "FLG001" for f in result.findings), result.findings


def test_yaml_alias_repeating_a_long_scalar_is_bounded(monkeypatch):
    monkeypatch.setattr("speclint.extract.embedded.MAX_SHELL_CHARS", 512 * 1024)
    big = "python3 -m sglang.launch_server --x " + "y" * 100_000
    text = f"x-big: &big \"{big}\"\nservices:\n" + "".join(f"  s{i}: {{command: *big}}\n" for i in range(60))
    start = time.monotonic()
    result = lint_text(text, "c.yaml")
    assert time.monotonic() - start < 20
    assert _located(result, "more than 512 KiB of shell text")


@pytest.mark.parametrize("text,where", [
    ("# sglang\nx: " + "[" * 100_000 + "]" * 100_000 + "\n", (2, None)),
    ("# sglang\nx: " + "{a: " * 100_000 + "1" + "}" * 100_000 + "\n", (2, None)),
    ("# sglang\n" + "".join(" " * i + "- \n" for i in range(0, 4000, 2)), (None, None)),
    ("# sglang\n" + "".join(" " * i + "a:\n" for i in range(0, 4000, 2)), (None, None)),
])
def test_deep_yaml_is_a_located_finding(text, where):
    start = time.monotonic()
    result = lint_text(text, "deep.yaml")
    assert time.monotonic() - start < 10
    found = _located(result, "nested too deeply")
    assert where[0] is None or found[0][0] == where[0]


def test_moderate_yaml_nesting_is_still_read():
    """Under MAX_DEPTH (flow brackets plus block indents) the manifest is linted as before."""
    text = "# sglang\nx: " + "[" * 400 + "]" * 400 + "\n" + "y:\n" + "".join(
        " " * i + "- \n" for i in range(0, 200, 2)) + "---" + YAML_CONTAINER
    result = lint_text(text, "ok.yaml")
    assert [f.code for f in result.findings] == ["FLG001"], result.findings


def test_yaml_python_tags_are_never_constructed(tmp_path):
    target = tmp_path / "made"
    text = (f"# sglang\nx: !!python/object/apply:os.mkdir [\"{target}\"]\n"
            f"y: !!python/object/new:os.mkdir [\"{target}\"]\n"
            f"z: !!python/name:os.system\n" + YAML_CONTAINER.replace(
                '["--model-path", "m", "--tp-szie", "2"]',
                f'["--model-path", !!python/object/apply:os.mkdir ["{target}"], "--tp-szie", "2"]'))
    result = lint_text(text, "tags.yaml")
    assert not target.exists()
    assert any(f.code == "FLG001" for f in result.findings), result.findings


def test_yaml_extract_never_uses_an_unsafe_loader(monkeypatch):
    import yaml

    def refuse(*args, **kwargs):
        raise AssertionError("constructed")

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_document", refuse)
    assert extract_yaml("# sglang\n" + YAML_CONTAINER, "x.yaml").launches


@pytest.mark.parametrize("text", [
    "# sglang\nx: \"" + "a" * (1 << 20) + "\"\n",
    "# sglang\n" + "a" * (1 << 20) + "\n",
    "# sglang\nx: " + "#'\"" * 100_000 + "\n",
    "\ufeff# sglang\r\n" + YAML_CONTAINER.replace("\n", "\r\n"),
    "# sglang\n\0" + YAML_CONTAINER,
    "# sglang\nx: '\udcff'\n" + YAML_CONTAINER,
    "# sglang\n" + "- " * 50_000 + "x\n",
    "# sglang\n" + "&a " * 1000 + "x\n",
    "# sglang\nx: |\n" + "  " + "\\" * 100_000 + "\n",
])
def test_odd_yaml_never_raises(text):
    start = time.monotonic()
    _check(text, "odd.yaml")
    assert time.monotonic() - start < 10


# ---- hostile Markdown ------------------------------------------------------------------------

MD_LAUNCH = "python -m sglang.launch_server --model-path m --tp-szie 2"


def test_unterminated_fence_is_read_to_the_end():
    result = lint_text("# x\n\n```bash\n" + MD_LAUNCH + "\n", "open.md")
    assert [(f.code, f.span.line) for f in result.findings if f.code == "FLG001"] == [("FLG001", 4)]


@pytest.mark.parametrize("text", [
    "```bash\n" + MD_LAUNCH + " " + "a" * (1 << 20) + "\n```\n",
    "sglang " + "a" * (1 << 20) + "\n",
    "```" + "b" * (1 << 20) + "\nsglang\n",
    "```python\nimport sglang\nx = '" + "a" * (1 << 20) + "'\n```\n",
    ("```bash\n" + MD_LAUNCH + "\n```\n") * 1000,
    "```\n" * 50_000 + "sglang\n",
    "~~~console\n$ " + MD_LAUNCH + " \\\n" * 5000 + "\n",
    "\ufeff```bash\r\n" + MD_LAUNCH + "\r\n```\r\n",
    "```bash\n\0" + MD_LAUNCH + "\n```\n",
    "   ```python\n   import sglang\n" + "   x = (\n" * 300 + "```\n",
])
def test_odd_markdown_never_raises(text):
    start = time.monotonic()
    _check(text, "odd.md")
    assert time.monotonic() - start < 20


# ---- files and the CLI -----------------------------------------------------------------------

@pytest.mark.parametrize("name,data", [
    ("a.py", b"\xef\xbb\xbfimport sglang\r\n\xff\xfe" + LAUNCH_PY.encode()),
    ("b.yaml", b"# sglang\n\xc3(" + YAML_CONTAINER.encode()),
    ("c.md", b"```bash\r\n" + MD_LAUNCH.encode() + b"\xed\xa0\x80\r\n"),
    ("d.py", b"import sglang\nx = " + b"[" * DEEP + b"]" * DEEP),
])
def test_odd_files_give_findings_not_crashes(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    result = lint_path(str(path))
    assert result.error is None


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit")
def test_cli_on_hostile_files_is_bounded(tmp_path):
    """One run over every hostile file: exit 1, one located SLM001 each, no traceback, under
    a 2 GiB address-space limit."""
    files = {
        "lists.py": "import sglang\nx = " + "[" * DEEP + "]" * DEEP + "\n",
        "calls.py": "import sglang\nx = " + "f(" * DEEP + ")" * DEEP + "\n",
        "laughs.yaml": _laughs() + "spec: {template: {spec: {containers: *l9}}}\n"
                       "---\n" + YAML_CONTAINER,
        "flow.yaml": "# sglang\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "open.md": "```bash\n" + MD_LAUNCH + "\n",
        "deep.md": "```python\nimport sglang\nx = " + "(" * DEEP + ")" * DEEP + "\n```\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)

    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run([sys.executable, "-m", "speclint", "--output-format", "concise", str(tmp_path)],
                          capture_output=True, timeout=120, preexec_fn=limit,
                          env={**os.environ, "SPECLINT_WORKERS": "1"})
    out = done.stdout.decode()
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    for name in ("lists.py:2:", "calls.py:2:", "flow.yaml:2:", "deep.md:3:"):
        assert f"{tmp_path / name}" in out and "nested too deeply" in out, out
    assert f"{tmp_path / 'laughs.yaml'}" in out and "FLG001" in out, out
    assert f"{tmp_path / 'open.md'}:2:" in out, out


def test_direct_front_end_calls_never_raise():
    """The front-ends on their own (not only through lint_text) give diagnostics."""
    assert extract_python("import sglang\nx = " + "[" * DEEP + "]" * DEEP, "x.py").diagnostics
    assert extract_yaml("x: " + "[" * DEEP, "x.yaml").diagnostics

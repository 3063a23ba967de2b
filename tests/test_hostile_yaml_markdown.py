"""Hostile inputs for the YAML (PyYAML) and Markdown front-ends, and hostile files through
`lint_path` and the CLI: findings with valid locations, never an exception, in bounded time
and memory (split from test_fuzz_frontends.py, which fuzzes all three front-ends)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc

import pytest
from frontend_checks import DEEP, LAUNCH_PY, MD_LAUNCH, YAML_CONTAINER, check, laughs, located

from speclint.engine import lint_path, lint_text
from speclint.frontends.manifests.yaml_manifest import extract_yaml
from speclint.frontends.python.extract import extract_python

# ---- hostile YAML ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        laughs()
        + "kind: Deployment\nspec: *l9\n"
        + YAML_CONTAINER.replace("kind: Deployment\n", "---\nkind: Deployment\n"),
        laughs() + "spec: {template: {spec: {containers: *l9}}}\n",
        laughs() + YAML_CONTAINER.replace('args: ["--model-path", "m", "--tp-szie", "2"]', "args: *l9"),
        "# sglang\nm0: &m0 {a: 1}\n"
        + "".join(f"m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 9)}], k{i}: 1}}\n" for i in range(1, 12))
        + "services:\n  s:\n    <<: *m11\n    command: python3 -m sglang.launch_server --tp 2\n",
        "# sglang\nservices: &s {a: {<<: *s, command: python3 -m sglang.launch_server}}\n",
        "# sglang\na: &a {<<: *a, containers: [*a]}\nspec: &b [*b, {containers: *b}]\n",
        "# sglang\nx: &x [*x, *x]\nservices: {s: {command: *x, entrypoint: *x, environment: *x}}\n",
    ],
)
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
    monkeypatch.setattr("speclint.frontends.shell.embedded.MAX_SHELL_CHARS", 512 * 1024)
    big = "python3 -m sglang.launch_server --x " + "y" * 100_000
    text = f'x-big: &big "{big}"\nservices:\n' + "".join(f"  s{i}: {{command: *big}}\n" for i in range(60))
    start = time.monotonic()
    result = lint_text(text, "c.yaml")
    assert time.monotonic() - start < 20
    assert located(result, "more than 512 KiB of shell text")


@pytest.mark.parametrize(
    "text,where",
    [
        ("# sglang\nx: " + "[" * 100_000 + "]" * 100_000 + "\n", (2, None)),
        ("# sglang\nx: " + "{a: " * 100_000 + "1" + "}" * 100_000 + "\n", (2, None)),
        ("# sglang\n" + "".join(" " * i + "- \n" for i in range(0, 4000, 2)), (None, None)),
        ("# sglang\n" + "".join(" " * i + "a:\n" for i in range(0, 4000, 2)), (None, None)),
    ],
)
def test_deep_yaml_is_a_located_finding(text, where):
    start = time.monotonic()
    result = lint_text(text, "deep.yaml")
    assert time.monotonic() - start < 10
    found = located(result, "nested too deeply")
    assert where[0] is None or found[0][0] == where[0]


def test_moderate_yaml_nesting_is_still_read():
    """Under MAX_DEPTH (flow brackets plus block indents) the manifest is linted as before."""
    text = (
        "# sglang\nx: "
        + "[" * 400
        + "]" * 400
        + "\n"
        + "y:\n"
        + "".join(" " * i + "- \n" for i in range(0, 200, 2))
        + "---"
        + YAML_CONTAINER
    )
    result = lint_text(text, "ok.yaml")
    assert [f.code for f in result.findings] == ["FLG001"], result.findings


def test_yaml_python_tags_are_never_constructed(tmp_path):
    target = tmp_path / "made"
    text = (
        f'# sglang\nx: !!python/object/apply:os.mkdir ["{target}"]\n'
        f'y: !!python/object/new:os.mkdir ["{target}"]\n'
        f"z: !!python/name:os.system\n"
        + YAML_CONTAINER.replace(
            '["--model-path", "m", "--tp-szie", "2"]',
            f'["--model-path", !!python/object/apply:os.mkdir ["{target}"], "--tp-szie", "2"]',
        )
    )
    result = lint_text(text, "tags.yaml")
    assert not target.exists()
    assert any(f.code == "FLG001" for f in result.findings), result.findings


def test_yaml_extract_never_uses_an_unsafe_loader(monkeypatch):
    import yaml

    def refuse(*args, **kwargs):
        raise AssertionError("constructed")

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_document", refuse)
    assert extract_yaml("# sglang\n" + YAML_CONTAINER, "x.yaml").launches


@pytest.mark.parametrize(
    "text",
    [
        '# sglang\nx: "' + "a" * (1 << 20) + '"\n',
        "# sglang\n" + "a" * (1 << 20) + "\n",
        "# sglang\nx: " + "#'\"" * 100_000 + "\n",
        "\ufeff# sglang\r\n" + YAML_CONTAINER.replace("\n", "\r\n"),
        "# sglang\n\0" + YAML_CONTAINER,
        "# sglang\nx: '\udcff'\n" + YAML_CONTAINER,
        "# sglang\n" + "- " * 50_000 + "x\n",
        "# sglang\n" + "&a " * 1000 + "x\n",
        "# sglang\nx: |\n" + "  " + "\\" * 100_000 + "\n",
    ],
)
def test_odd_yaml_never_raises(text):
    start = time.monotonic()
    check(text, "odd.yaml")
    assert time.monotonic() - start < 10


# ---- hostile Markdown ------------------------------------------------------------------------


def test_unterminated_fence_is_read_to_the_end():
    result = lint_text("# x\n\n```bash\n" + MD_LAUNCH + "\n", "open.md")
    assert [(f.code, f.span.line) for f in result.findings if f.code == "FLG001"] == [("FLG001", 4)]


@pytest.mark.parametrize(
    "text",
    [
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
    ],
)
def test_odd_markdown_never_raises(text):
    start = time.monotonic()
    check(text, "odd.md")
    assert time.monotonic() - start < 20


# ---- files and the CLI -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,data",
    [
        ("a.py", b"\xef\xbb\xbfimport sglang\r\n\xff\xfe" + LAUNCH_PY.encode()),
        ("b.yaml", b"# sglang\n\xc3(" + YAML_CONTAINER.encode()),
        ("c.md", b"```bash\r\n" + MD_LAUNCH.encode() + b"\xed\xa0\x80\r\n"),
        ("d.py", b"import sglang\nx = " + b"[" * DEEP + b"]" * DEEP),
    ],
)
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
        "laughs.yaml": laughs() + "spec: {template: {spec: {containers: *l9}}}\n---\n" + YAML_CONTAINER,
        "flow.yaml": "# sglang\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "open.md": "```bash\n" + MD_LAUNCH + "\n",
        "deep.md": "```python\nimport sglang\nx = " + "(" * DEEP + ")" * DEEP + "\n```\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run(
        [sys.executable, "-m", "speclint", "--output-format", "concise", str(tmp_path)],
        capture_output=True,
        timeout=120,
        preexec_fn=limit,
        env={**os.environ, "SPECLINT_WORKERS": "1"},
    )
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

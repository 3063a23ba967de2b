"""`self.X` a base class's `__init__` sets from the arguments a subclass's `__init__` passes it
through `super().__init__(port=port, ...)`, read by the subclass's method that builds the
argv: per construction of the subclass in the file (its arguments, else the defaults), the
base's defaults for what the subclass does not pass, unknown (never a false error) for a
construction speclint cannot see."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

FILE = FixtureFile("python/inherited_constructor_attributes.py")


def _findings(text: str | None = None):
    result = lint_text(FILE.text if text is None else text, str(FILE.path))
    return [
        (f.code, *FILE.at(f.span), f.message, [(n.span.line, n.span.column, n.message) for n in f.notes])
        for f in result.findings
    ]


def test_the_findings_a_user_sees() -> None:
    assert [f[:4] for f in _findings()] == [
        ("SLM004", 30, 23, "str(self.port)"),
        ("FLG005", 31, 38, "self.mem_fraction"),
    ]


def test_the_argument_passed_up_to_the_base_is_read_for_the_construction() -> None:
    (found,) = [f for f in _findings() if f[0] == "FLG005"]
    assert "`0.8S` is not a valid value for `--mem-fraction-static`" in found[4]
    assert "invalid float value: '0.8S'" in found[4]
    assert found[5] == [
        (38, 51, "value assigned here"),
        (38, 14, "when SglangRunner(...) is constructed at line 38"),
    ]


def test_the_bases_default_is_read_and_a_construction_elsewhere_stays_unknown() -> None:
    (partly,) = [f for f in _findings() if f[0] == "SLM004"]
    message = partly[4]
    assert "`--model-path`" not in message  # BaseRunner's default: the subclass never passes it
    assert "the value of `--port` (parameter `port` of __init__())" in message
    assert (34, 24, "when SglangRunner(...) is constructed elsewhere (its arguments unknown)") in partly[5]


def test_valid_arguments_passed_up_add_nothing() -> None:
    text = FILE.text.replace('mem_fraction="0.8S"', 'mem_fraction="0.8"')
    assert [f[0] for f in _findings(text)] == ["SLM004"]


def test_a_bad_base_default_the_subclass_does_not_override_is_found() -> None:
    text = FILE.text.replace(
        'model_path="meta-llama/Llama-3.1-8B-Instruct", port=30000', 'model_path="m", port="80S0"'
    )
    text = text.replace(
        "super().__init__(port=port, mem_fraction=mem_fraction)",
        "super().__init__(mem_fraction=mem_fraction)",
    )
    found = [f for f in _findings(text) if f[0] == "FLG005"]
    assert [(f[1], f[2]) for f in found] == [(30, 27), (31, 38)]
    assert "`80S0` is not a valid value for `--port`" in found[0][4]


def test_the_base_named_explicitly_is_read_as_super_is() -> None:
    """`BaseRunner.__init__(self, port=port, ...)`, the older spelling of the same call."""
    explicit = FILE.text.replace("super().__init__(", "BaseRunner.__init__(self, ")
    assert explicit != FILE.text
    assert [f[:4] for f in _findings(explicit)] == [
        ("SLM004", 30, 23, "str(self.port)"),
        ("FLG005", 31, 38, "self.mem_fraction"),
    ]


def test_a_base_from_another_module_leaves_its_attributes_unknown() -> None:
    text = FILE.text.replace("class SglangRunner(BaseRunner):", "class SglangRunner(harness.Runner):")
    text = text.replace("import subprocess\n", "import subprocess\n\nimport harness\n")
    found = _findings(text)
    assert [f[0] for f in found] == ["SLM004"]  # never a false error: `self.model_path` unknown
    assert "`self.model_path` is only known when the program runs" in found[0][4]

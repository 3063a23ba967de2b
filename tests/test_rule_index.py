"""`rules.index` says, without importing a rule's module, what the engine and the rule
selection need of it: each row must match its rule's class, and each rule's gates must be open
wherever the rule reports something (else the engine, which runs a rule only where a gate is
open, would lose its findings)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import speclint.rules
from speclint.engine import lint_path, lint_text
from speclint.frontends import extract_file
from speclint.frontends.launch_mentions import launchers_not_read, no_launch_found
from speclint.rules import all_rules
from speclint.rules.base import FileContext, Rule
from speclint.rules.gates import asked, file_gates, launch_gates
from speclint.rules.index import ENTRIES
from speclint.rules.pages import page_example_gpu, page_examples, rule_page
from speclint.settings.options import LintOptions, Selection
from speclint.sglang.resolve.gpu_profiles import parse_gpu_setting

ROOT = Path(__file__).resolve().parent.parent
EVERY_RULE = LintOptions(selection=Selection(select=("ALL",)))
EVERY_GATE = asked(gate for entry in ENTRIES for gate in entry.gates)


def _rule_classes() -> dict[str, type[Rule]]:
    """Every rule class of every module in the rule families (`rules/<family>/<rule>.py`)."""
    found: dict[str, type[Rule]] = {}
    for family in pkgutil.iter_modules(speclint.rules.__path__):
        if not family.ispkg:
            continue
        package = importlib.import_module(f"speclint.rules.{family.name}")
        for module_info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{module_info.name}")
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, Rule)
                    and value.__module__ == module.__name__
                ):
                    found[value.code] = value
    return found


def test_the_index_lists_every_rule_class_once_in_code_order():
    classes = _rule_classes()
    codes = [entry.code for entry in ENTRIES]
    assert codes == sorted(classes) and len(set(codes)) == len(codes)
    assert [type(rule) for rule in all_rules()] == [classes[code] for code in codes]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.code)
def test_each_row_says_what_its_rule_class_says(entry):
    cls = _rule_classes()[entry.code]
    assert f"speclint.rules.{entry.module}" == cls.__module__ and entry.class_name == cls.__name__
    hooks = [
        h for h in ("check", "check_file", "check_suppressions") if getattr(cls, h) is not getattr(Rule, h)
    ]
    assert hooks == [entry.hook]
    row = (entry.name, entry.stage, entry.opt_in, entry.per_launch, entry.defers_to, entry.gates)
    assert row == (cls.name, cls.stage, cls.opt_in, cls.per_launch, cls.defers_to, cls.gates)
    assert entry.rule is entry.rule and type(entry.rule) is cls


def _sources() -> list[tuple[str, str | None, str | None]]:
    """(shell source, SGLang version, GPU) of every rule example and page example."""
    found = []
    for rule in all_rules():
        for which in ("invalid", "valid"):
            found.extend((e.source, e.sglang_version, e.gpu) for e in rule.examples(which))
        for blocks in page_examples(rule_page(rule)).values():
            found.extend((source, version, page_example_gpu(source)) for source, version in blocks)
    return found


def _ungated_launch_findings(contexts) -> list[tuple[str, frozenset[str]]]:
    """(code, the gates the launch opens) of each finding any rule reports on the launches,
    every rule run whatever its gates (as the engine picks them by argparse's stop)."""
    found = []
    for ctx in contexts:
        stop = ctx.parse_stop
        wanted = None if stop is None else "help" if stop.kind == "help" else "parse"
        opened = launch_gates(ctx, *EVERY_GATE)
        for entry in ENTRIES:
            if entry.hook != "check" or (wanted is not None and entry.stage != wanted):
                continue
            found.extend((entry.code, opened) for _ in entry.rule.check(ctx))
    return found


def _closed(found: list[tuple[str, frozenset[str]]]) -> list[str]:
    by_code = {entry.code: entry for entry in ENTRIES}
    return sorted({code for code, opened in found if not by_code[code].runs(opened)})


def test_every_finding_of_an_example_is_behind_an_open_gate(monkeypatch):
    monkeypatch.chdir(ROOT)  # examples name model folders under fixtures/
    found = []
    for source, version, gpu in _sources():
        profile = parse_gpu_setting(gpu) if gpu else None
        options = LintOptions(sglang_version=version, gpu=profile, selection=EVERY_RULE.selection)
        found.extend(_ungated_launch_findings(lint_text(source, "example.sh", options).contexts))
    assert found and _closed(found) == []


def test_every_finding_on_the_fixtures_is_behind_an_open_gate(monkeypatch):
    monkeypatch.chdir(ROOT)
    kinds = {".sh", ".py", ".yaml", ".yml", ".md", ".ipynb", ".service", ""}
    paths = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.is_file() and p.suffix in kinds)
    found = []
    for path in paths:
        found.extend(_ungated_launch_findings(lint_path(str(path.relative_to(ROOT)), EVERY_RULE).contexts))
    assert len(paths) > 50 and found and _closed(found) == []


def test_every_file_finding_is_behind_an_open_gate():
    sources = [source for source, _, _ in _sources()] + [
        'python -m sglang.launch_server --model-path "m\n',
        "python -m sglang.launch_server --model-path m \\ # note\n  --tp 2\n",
        "echo sglang.launch_server is started elsewhere\n",
    ]
    seen = set()
    for source in sources:
        extracted = extract_file("example.sh", source)
        diagnostics = list(extracted.diagnostics)
        unread = no_launch_found(source, extracted)
        diagnostics += ([unread] if unread is not None else []) + list(launchers_not_read(extracted))
        for diagnostic in diagnostics:
            ctx = FileContext("example.sh", [diagnostic])
            for entry in ENTRIES:
                if entry.hook == "check_file" and list(entry.rule.check_file(ctx)):
                    seen.add(entry.code)
                    assert entry.runs(file_gates({diagnostic.kind})), (entry.code, diagnostic.kind)
    assert {"SLM001", "SLM002", "SLM005"} <= seen

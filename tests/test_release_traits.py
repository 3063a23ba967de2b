"""Per-release facts live in speclint/sglang/ only (traits.py: a new modelled SGLang release is
one traits entry); rule and resolver code holds no release number."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import speclint.rules
import speclint.sglang
import speclint.sglang.resolve
from speclint.sglang.release_traits import ReleaseTraits
from speclint.sglang.traits import TRAITS

RESOLVE = Path(speclint.sglang.resolve.__file__).parent
RULES = Path(speclint.rules.__file__).parent
SGLANG = Path(speclint.sglang.__file__).parent
VERSION_TEXT = re.compile(r"\d+\.\d+\.\d+")
RELEASE = re.compile(r"v?\d+\.\d+\.\d+(?:\.?post\d+)?")
TRAIT_NAMES = [f.name for f in dataclasses.fields(ReleaseTraits)]


def release_literals(source: str) -> list[str]:
    """String constants that are exactly a release ("0.5.23"), as a version check writes them;
    docstrings and messages that mention a release are longer and pass."""
    return [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and RELEASE.fullmatch(node.value)
    ]


def test_scan_finds_version_checks():
    assert release_literals('if state.version == "0.5.23":\n    pass\n') == ["0.5.23"]
    assert release_literals('x = version in ("0.5.6.post2", "0.5.14")') == ["0.5.6.post2", "0.5.14"]
    assert release_literals('"""0.5.23 `_handle_dflash`: refuses ..."""') == []


def version_text_in_code(source: str) -> list[str]:
    """Every string literal of the code (f-string parts included) that holds a release number
    anywhere ("0.5.23", "deprecated in SGLang 0.5.23"). Documentation is left out: docstrings
    and other bare string statements, and a rule's own `Example(launch, "0.5.23")` (a test
    input: the launch text and the release it runs against)."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Example":
            skip.update(id(n) for a in node.args for n in ast.walk(a))
            skip.update(id(n) for k in node.keywords for n in ast.walk(k.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and VERSION_TEXT.search(node.value)
    ]


def test_code_scan_finds_version_text():
    assert version_text_in_code('if version == "0.5.23":\n    pass\n') == ["0.5.23"]
    assert version_text_in_code('m = f"deprecated in SGLang 0.5.23 ({x})"') == [
        "deprecated in SGLang 0.5.23 ("
    ]
    assert version_text_in_code('FOUND = {"0.5.14": 1}') == ["0.5.14"]
    assert version_text_in_code('"""0.5.23 `_handle_dflash`"""\nx = 1\n') == []
    assert version_text_in_code('invalid = (Example("launch --tp 2", "0.5.6.post2"),)') == []
    assert version_text_in_code('"""...0.5.23"""') == []


CODE = sorted(
    [f"resolve/{p.name}" for p in RESOLVE.glob("*.py")]
    + [f"rules/{p.relative_to(RULES).as_posix()}" for p in RULES.rglob("*.py")]
)


@pytest.mark.parametrize("module", CODE)
def test_no_release_numbers_in_rule_or_resolver_code(module):
    """Rules and the resolver ask `speclint.sglang.release(V)`; no module of theirs compares,
    looks up or states a release number of its own."""
    path = (RESOLVE if module.startswith("resolve/") else RULES).parent / module
    found = version_text_in_code(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{module} holds release numbers {found}: ask ctx.release (a Release "
        "from speclint.sglang) for the fact instead"
    )


def test_every_trait_is_required_so_every_release_states_it():
    defaulted = [
        f.name
        for f in dataclasses.fields(ReleaseTraits)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    ]
    assert defaulted == []
    for release, traits in TRAITS.items():
        assert isinstance(traits, ReleaseTraits), release
        assert [f.name for f in dataclasses.fields(traits)] == TRAIT_NAMES


def test_every_trait_says_what_sglang_does():
    tree = ast.parse((SGLANG / "release_traits.py").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ReleaseTraits"]
    documented = [
        a.target.id
        for a, doc in zip(cls.body, cls.body[1:])
        if isinstance(a, ast.AnnAssign)
        and isinstance(doc, ast.Expr)
        and isinstance(doc.value, ast.Constant)
        and isinstance(doc.value.value, str)
    ]
    assert documented == TRAIT_NAMES


@pytest.mark.parametrize("release", list(TRAITS))
def test_named_choices_are_ones_the_handlers_know(release):
    traits = TRAITS[release]
    assert traits.eagle_overlap in (
        "kept",
        "spec_v2_env",
        "spec_v2_listed",
        "beta_spec",
        "spec_v2_default",
        "disabled",
    )
    assert traits.parallel_steps in ("post_init_dp_is_tp", "post_init", "handlers", "hooks")
    assert traits.waterfill in (None, "deepep_waterfill", "waterfill")
    assert set(traits.a2a_info_backends) <= set(traits.a2a_spanning)
    assert bool(traits.ngram_device_error) == traits.has_ngram


def test_traits_made_from_another_release_are_what_replace_makes():
    """Entries of the table are made from other releases' without `dataclasses.replace`
    (`traits._replaced`, the instance dict with the changes): the same traits."""
    from speclint.sglang.traits import _replaced

    assert not hasattr(ReleaseTraits, "__post_init__")
    names = [f.name for f in dataclasses.fields(ReleaseTraits)]
    assert all(f.init for f in dataclasses.fields(ReleaseTraits))
    for traits in TRAITS.values():
        assert list(vars(traits)) == names
        change = {"has_ngram": not traits.has_ngram, "eagle_overlap": "changed"}
        made = _replaced(traits, change)
        assert made == dataclasses.replace(traits, **change) and list(vars(made)) == names
        assert _replaced(traits, {}) == traits


def test_a2a_spanning_backends_are_the_ones_each_release_reads():
    """`ReleaseTraits.a2a_spanning` (the all-to-all backends that set ep_size = tp_size) and
    `a2a_ep_size_hook` (whether `_a2a_ep_size` logs the change itself) against each release's
    own `_A2A_EP_SPANNING_BACKENDS` (0.5.15.post1+, tools/gen_sglang_moe_defaults.py
    `a2a_spanning`): every backend it lists spans, and a listed backend it lacks is not one of
    the release's --moe-a2a-backend choices (so no launch reaches it). 0.5.17 listed pplx and
    logged "... adjusted from 1 to the tensor parallel size [8]." at INFO (seed a2a-18001)."""
    from speclint.sglang.moe_readings import FILE, reading
    from speclint.sglang.release import Release
    from speclint.sglang.traits import traits_for

    read_in = 0
    for version in FILE.versions():
        read, traits = reading(version, "a2a_spanning"), traits_for(version)
        if read is None:
            assert not traits.a2a_ep_size_hook, version
            continue
        read_in += 1
        choices = Release(version).choices("--moe-a2a-backend") or ()
        assert set(read["backends"]) <= set(traits.a2a_spanning), version
        assert not (set(traits.a2a_spanning) - set(read["backends"])) & set(choices), version
        assert traits.a2a_ep_size_hook == read["logs"], version
    assert read_in >= 10  # 0.5.15.post1 - 0.5.23

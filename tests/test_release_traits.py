"""Per-release facts live in resolve/traits.py only: a new SGLang release is one traits entry."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import speclint.resolve
from speclint.resolve.traits import TRAITS, ReleaseTraits

RESOLVE = Path(speclint.resolve.__file__).parent
RELEASE = re.compile(r"v?\d+\.\d+\.\d+(?:\.?post\d+)?")
TRAIT_NAMES = [f.name for f in dataclasses.fields(ReleaseTraits)]


def release_literals(source: str) -> list[str]:
    """String constants that are exactly a release ("0.5.23"), as a version check writes them;
    docstrings and messages that mention a release are longer and pass."""
    return [node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and RELEASE.fullmatch(node.value)]


def test_scan_finds_version_checks():
    assert release_literals('if state.version == "0.5.23":\n    pass\n') == ["0.5.23"]
    assert release_literals('x = version in ("0.5.6.post2", "0.5.14")') == ["0.5.6.post2",
                                                                             "0.5.14"]
    assert release_literals('"""0.5.23 `_handle_dflash`: refuses ..."""') == []


@pytest.mark.parametrize("module", sorted(p.name for p in RESOLVE.glob("*.py")
                                          if p.name != "traits.py"))
def test_no_release_literals_outside_traits(module):
    found = release_literals((RESOLVE / module).read_text(encoding="utf-8"))
    assert not found, (f"resolve/{module} compares against {found}: add a named trait to "
                       "resolve/traits.py instead")


def test_every_trait_is_required_so_every_release_states_it():
    defaulted = [f.name for f in dataclasses.fields(ReleaseTraits)
                 if f.default is not dataclasses.MISSING
                 or f.default_factory is not dataclasses.MISSING]
    assert defaulted == []
    for release, traits in TRAITS.items():
        assert isinstance(traits, ReleaseTraits), release
        assert [f.name for f in dataclasses.fields(traits)] == TRAIT_NAMES


def test_every_trait_says_what_sglang_does():
    tree = ast.parse((RESOLVE / "traits.py").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ReleaseTraits"]
    documented = [a.target.id for a, doc in zip(cls.body, cls.body[1:])
                  if isinstance(a, ast.AnnAssign) and isinstance(doc, ast.Expr)
                  and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str)]
    assert documented == TRAIT_NAMES


@pytest.mark.parametrize("release", list(TRAITS))
def test_named_choices_are_ones_the_handlers_know(release):
    traits = TRAITS[release]
    assert traits.eagle_overlap in ("kept", "spec_v2_env", "beta_spec", "disabled")
    assert traits.parallel_steps in ("post_init", "handlers", "hooks")
    assert traits.waterfill in (None, "deepep_waterfill", "waterfill")
    assert set(traits.a2a_info_backends) <= set(traits.a2a_spanning)
    assert bool(traits.ngram_device_error) == traits.has_ngram

"""parsing: the Python front-end parses with libcst's per-node validation off (a private
path); the tree, the node positions and what the front-end reads must be those of libcst's
public `parse_module`, and validation must be back on for everything else."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode
from test_python_ranges import _module, _sources

import speclint.frontends.python.parsing as parsing
from speclint.frontends.python.extract import extract_python
from speclint.frontends.python.parsing import parse_module
from speclint.frontends.python.ranges import codegen_ranges


def test_the_private_path_is_in_use():
    """Else every comparison below compares the public path with itself."""
    assert parsing._skippable()


@pytest.mark.parametrize("index", range(len(_sources())))
def test_the_tree_and_its_positions_are_the_public_parsers(index):
    text = _sources()[index]
    public = _module(text)
    if public is None:
        with pytest.raises(cst.ParserSyntaxError):
            parse_module(text)
        return
    fast = parse_module(text)
    assert fast.deep_equals(public)
    assert fast.code == public.code
    assert list(codegen_ranges(fast).by_id.values()) == list(codegen_ranges(public).by_id.values())


def _extract_all() -> list[str]:
    return [
        repr((result.launches, result.diagnostics, result.comments))
        for result in (extract_python(text, "x.py") for text in _sources())
    ]


def test_the_front_end_reads_the_same_through_the_public_parser(monkeypatch):
    unchecked = _extract_all()
    monkeypatch.setattr(parsing, "_SKIPPABLE", [False])
    assert _extract_all() == unchecked


def test_nodes_made_after_a_parse_are_validated_again():
    parse_module("import sglang\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def (:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
    assert parsing._checking
    assert CSTNode.__dict__["__post_init__"] is parsing._post_init  # replaced once, not per parse


def test_a_libcst_whose_post_init_does_more_than_validate_keeps_it(monkeypatch):
    def post_init(self: CSTNode) -> None:
        self._validate()
        object.__setattr__(self, "_seen", True)

    monkeypatch.setattr(parsing, "_SKIPPABLE", [])
    monkeypatch.setattr(CSTNode, "__post_init__", post_init)
    assert not parsing._skippable()
    monkeypatch.setattr(parsing, "_SKIPPABLE", [])
    monkeypatch.setattr(CSTNode, "__post_init__", lambda self: None)
    assert not parsing._skippable()


def test_code_libcsts_validation_refuses_is_read():
    """libcst issue #1061: its parser reads this, its validation then raised a TypeError (a
    lint failure); the tree is the code as written."""
    text = "import sglang\nx = () if 0 else(lambda:())\n"
    assert parse_module(text).code == text
    result = extract_python(text, "x.py")
    assert result.launches == [] and result.diagnostics == []

"""The stored fixture bases (src/speclint/sglang/data/sglang_fixtures.json) are what
tools/gen_sglang_fixtures.py reads from each release's wheel."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import libcst as cst
import pytest

from speclint.sglang.fixtures import _DATA, PACKAGE, has_fixture, newest_fixture, read_versions
from speclint.sglang.flags.schema import supported_versions

ROOT = Path(__file__).resolve().parent.parent


def test_every_release_the_flags_cover_was_read_for_fixtures():
    assert set(read_versions()) == set(supported_versions())


def test_fixtures_exist_from_the_release_that_first_ships_them():
    assert not has_fixture("0.5.6.post1", f"{PACKAGE}.eagle_fixture", "EagleServerBase")
    assert has_fixture("0.5.7", f"{PACKAGE}.eagle_fixture", "EagleServerBase")
    newest = newest_fixture(f"{PACKAGE}.eagle_fixture", "EagleServerBase")
    assert newest is not None and newest.release == read_versions()[-1]
    assert newest_fixture(f"{PACKAGE}.eagle_fixture", "NoSuchBase") is None


def test_every_stored_text_is_python_the_front_end_reads():
    with open(_DATA, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    header = json.loads(lines[1].rstrip(","))
    texts = [json.loads(line.rstrip(",")) for line in lines[2 + len(header["versions"]) : -2]]
    assert len(texts) == header["texts"]
    for text in texts:
        cst.parse_module(text)


@pytest.mark.oracle
def test_regenerating_reproduces_the_stored_fixtures():
    """Reads every wheel again (downloads into .cache/sglang-wheels/ when missing)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from gen_sglang_fixtures import OUT, build, dump

    with open(OUT, encoding="utf-8") as handle:
        assert dump(build(list(read_versions()))) == handle.read()

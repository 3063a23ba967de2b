"""Regenerating a release's flags from its wheel reproduces the stored data (oracle: it
downloads the wheel into .cache/sglang-wheels/ when it is not there)."""

from __future__ import annotations

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
pytestmark = pytest.mark.oracle


@pytest.mark.parametrize("version", ["0.4.0", "0.4.10.post2", "0.5.10", "0.5.15"])
def test_regenerating_reproduces_the_stored_entries(version):
    from gen_sglang_schema import extract, load

    flags, facts = extract(version)
    data = load()
    stored = [data["flags"][i] for i in data["order"][version]]
    assert stored == json.loads(json.dumps(flags))
    parser = data["parser"]
    assert parser["facts"][parser["by_version"][version]] == json.loads(json.dumps(facts))

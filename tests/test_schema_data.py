"""Sanity checks of the stored SGLang flag data (no network; runs by default)."""

from __future__ import annotations

import json
import os

from speclint.sglang.flags.release_index import entry_versions, table, versions_with_option
from speclint.sglang.flags.schema import _DATA, load_schema, supported_versions
from speclint.sglang.flags.versions import version_key

VERSIONS = ("0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23")
# `pip index versions sglang`, 0.4.0 and later, when the data was generated (92 releases).
ALL_RELEASES = (
    "0.4.0 0.4.0.post1 0.4.0.post2 0.4.1 0.4.1.post1 0.4.1.post2 0.4.1.post3 0.4.1.post4 "
    "0.4.1.post5 0.4.1.post6 0.4.1.post7 0.4.2 0.4.2.post1 0.4.2.post2 0.4.2.post3 0.4.2.post4 "
    "0.4.3 0.4.3.post1 0.4.3.post2 0.4.3.post3 0.4.3.post4 0.4.4 0.4.4.post1 0.4.4.post2 "
    "0.4.4.post3 0.4.4.post4 0.4.5 0.4.5.post1 0.4.5.post2 0.4.5.post3 0.4.6 0.4.6.post1 "
    "0.4.6.post2 0.4.6.post3 0.4.6.post4 0.4.6.post5 0.4.7 0.4.7.post1 0.4.8 0.4.8.post1 0.4.9 "
    "0.4.9.post1 0.4.9.post2 0.4.9.post3 0.4.9.post4 0.4.9.post5 0.4.9.post6 0.4.10 "
    "0.4.10.post1 0.4.10.post2 0.5.1 0.5.1.post1 0.5.1.post2 0.5.1.post3 0.5.2 0.5.3 "
    "0.5.3.post1 0.5.3.post2 0.5.3.post3 0.5.4 0.5.4.post1 0.5.4.post2 0.5.4.post3 0.5.5 "
    "0.5.5.post1 0.5.5.post2 0.5.5.post3 0.5.6 0.5.6.post1 0.5.6.post2 0.5.7 0.5.8 0.5.8.post1 "
    "0.5.9 0.5.10 0.5.10.post1 0.5.11 0.5.12 0.5.12.post1 0.5.13 0.5.13.post1 0.5.14 0.5.15 "
    "0.5.15.post1 0.5.16 0.5.17 0.5.18 0.5.19 0.5.20 0.5.21 0.5.22 0.5.23"
).split()


def _raw():
    return table()


def test_versions_and_counts():
    assert supported_versions() == tuple(ALL_RELEASES)
    assert list(supported_versions()) == sorted(supported_versions(), key=version_key)
    counts = {v: len(load_schema(v).flags) for v in VERSIONS + ("0.4.0", "0.5.15")}
    # 0.5.23 checked against the live argparse parser (tests/test_schema_real_parser.py).
    assert counts == {
        "0.4.10.post2": 185,
        "0.5.6.post2": 292,
        "0.5.14": 420,
        "0.5.23": 531,
        "0.4.0": 82,
        "0.5.15": 437,
    }


def test_stored_compactly():
    """One shared table: the file stays far below the size where it would need gzip."""
    assert os.path.getsize(_DATA) < 1_000_000
    assert len(table()["flags"]) < 1500
    with open(_DATA, encoding="utf-8") as handle:
        assert json.load(handle)[0]["format"] == 2  # still one valid JSON document


def test_format_and_order_indices():
    raw = _raw()
    assert raw["format"] == 2
    belongs = entry_versions()
    for version in supported_versions():
        order = raw["order"][version]
        assert len(order) == len(set(order))
        for index in order:
            assert version in belongs[index]
    assert all(belongs), "every definition belongs to some release"
    parser = raw["parser"]
    for version in supported_versions():
        facts = parser["facts"][parser["by_version"][version]]
        assert facts["allow_abbrev"] is True and facts["positionals"] == []


def test_aliases_in_0_5_23():
    schema = load_schema("0.5.23")
    for a, b in (
        ("--tp-size", "--tensor-parallel-size"),
        ("--model", "--model-path"),
        ("--speculative-draft-model", "--speculative-draft-model-path"),
    ):
        assert schema.by_option[a] is schema.by_option[b]
    assert schema.by_option["--tp-size"].dest == "tp_size"
    assert schema.by_option["--tp-size"].default == 1
    assert schema.by_option["--speculative-algorithm"].choices is None


def test_cuda_graph_max_bs_removed():
    assert "--cuda-graph-max-bs" in load_schema("0.5.6.post2").by_option
    assert "--cuda-graph-max-bs" not in load_schema("0.5.23").by_option
    found = versions_with_option("--cuda-graph-max-bs")
    assert found[0] == "0.4.0" and found[-1] == "0.5.19"  # a deprecated alias from 0.5.14
    assert found == [v for v in supported_versions() if version_key(v) <= version_key("0.5.19")]
    assert load_schema("0.5.14").by_option["--cuda-graph-max-bs"].action == "deprecated"


def test_speculative_algorithm_choices():
    assert "--speculative-algorithm" not in load_schema("0.4.1.post3").by_option
    assert load_schema("0.4.1.post4").by_option["--speculative-algorithm"].choices == ("EAGLE",)
    spec = load_schema("0.5.6.post2").by_option["--speculative-algorithm"]
    assert spec.choices == ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM")
    assert load_schema("0.4.10.post2").by_option["--speculative-algorithm"].choices == (
        "EAGLE",
        "EAGLE3",
        "NEXTN",
    )


def test_kinds_and_deprecations():
    schema = load_schema("0.5.23")
    megamoe = schema.by_option["--no-speculative-enable-w4a4-mxfp4-megamoe"]
    assert megamoe.action == "boolean_optional" and not megamoe.takes_value
    dp = schema.by_option["--enable-dp-attention"]
    assert dp.action == "deprecated" and dp.deprecated and not dp.takes_value
    mono = schema.by_option["--monokernel-backend"]
    assert mono.action == "deprecated" and mono.takes_value and mono.choices == ("amd",)
    assert schema.by_option["--speculative-num-steps"].type == "int"
    assert schema.by_option["--speculative-eagle-topk"].takes_value
    assert not schema.by_option["--trust-remote-code"].takes_value
    for spec in schema.flags:
        assert spec.action in (
            "store",
            "store_true",
            "store_false",
            "store_const",
            "append",
            "append_const",
            "count",
            "boolean_optional",
            "help",
            "version",
            "deprecated",
            "other",
        )


def test_field_declared_twice_is_one_flag():
    """0.5.15/0.5.16 declare `dcp_size` twice in ServerArgs: one field, one flag."""
    for version in ("0.5.15", "0.5.16"):
        specs = [s for s in load_schema(version).flags if s.dest == "dcp_size"]
        assert len(specs) == 1

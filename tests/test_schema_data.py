"""Sanity checks of the stored SGLang flag data (no network; runs by default)."""

from __future__ import annotations

import json
from importlib import resources

from speclint.flags.schema import load_schema, supported_versions, versions_with_option

VERSIONS = ("0.4.10.post2", "0.5.6.post2", "0.5.14", "0.5.23")


def _raw():
    return json.loads(resources.files("speclint.flags").joinpath("data/sglang_flags.json").read_bytes())


def test_versions_and_counts():
    assert supported_versions() == VERSIONS
    counts = {v: len(load_schema(v).flags) for v in VERSIONS}
    # 0.5.23 checked against the live argparse parser (tests/test_schema_real_parser.py).
    assert counts == {"0.4.10.post2": 185, "0.5.6.post2": 292, "0.5.14": 420, "0.5.23": 531}


def test_format_and_order_indices():
    raw = _raw()
    assert raw["format"] == 1
    for version in VERSIONS:
        order = raw["order"][version]
        assert len(order) == len(set(order))
        for index in order:
            assert version in raw["flags"][index]["versions"]
    for index, entry in enumerate(raw["flags"]):
        for version in entry["versions"]:
            assert index in raw["order"][version]
    parser = raw["parser"]["by_version"]
    assert all(parser[v]["allow_abbrev"] is True and parser[v]["positionals"] == [] for v in VERSIONS)


def test_aliases_in_0_5_23():
    schema = load_schema("0.5.23")
    for a, b in (("--tp-size", "--tensor-parallel-size"), ("--model", "--model-path"),
                 ("--speculative-draft-model", "--speculative-draft-model-path")):
        assert schema.by_option[a] is schema.by_option[b]
    assert schema.by_option["--tp-size"].dest == "tp_size"
    assert schema.by_option["--tp-size"].default == 1
    assert schema.by_option["--speculative-algorithm"].choices is None


def test_cuda_graph_max_bs_removed():
    assert "--cuda-graph-max-bs" in load_schema("0.5.6.post2").by_option
    assert "--cuda-graph-max-bs" not in load_schema("0.5.23").by_option
    assert versions_with_option("--cuda-graph-max-bs") == ["0.4.10.post2", "0.5.6.post2", "0.5.14"]
    assert load_schema("0.5.14").by_option["--cuda-graph-max-bs"].action == "deprecated"


def test_speculative_algorithm_choices():
    spec = load_schema("0.5.6.post2").by_option["--speculative-algorithm"]
    assert spec.choices == ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM")
    assert load_schema("0.4.10.post2").by_option["--speculative-algorithm"].choices == (
        "EAGLE", "EAGLE3", "NEXTN")


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
        assert spec.action in ("store", "store_true", "store_false", "store_const", "append",
                               "append_const", "count", "boolean_optional", "help",
                               "version", "deprecated", "other")

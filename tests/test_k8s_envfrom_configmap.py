"""`envFrom: [{configMapRef: {name: N}, prefix: P}]` with ConfigMap N in the same manifest:
its keys are the container's variables (P before each), under what the container's `env:`
sets. Before, they were unknown ("not exported to the inner `bash -c` shell", later "not
assigned in this file"), so the launch was partly read and its values unchecked."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

MANIFEST = FixtureFile("k8s/envfrom_configmap.yaml")


def test_the_config_map_values_reach_the_container():
    (launch,) = extract_file(str(MANIFEST.path), MANIFEST.text).launches
    texts = [word.text for word in launch.args]
    assert texts[texts.index("--model-path") + 1] == "meta-llama/Llama-3.1-8B-Instruct"  # `env:` wins
    draft = texts[texts.index("--speculative-draft-model-path") + 1]
    assert draft == "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"  # `DRAFT_` + `PATH`


def test_a_bad_config_map_value_is_found_and_its_key_named():
    (finding,) = MANIFEST.findings()
    assert finding[:4] == ("FLG005", 25, 82, "$TP_SIZE")
    assert "`two` is not a valid value for `--tp-size`" in finding[4]
    (full,) = lint_text(MANIFEST.text, str(MANIFEST.path)).findings
    assert [(note.span.line, note.span.column) for note in full.notes] == [(33, 12)]

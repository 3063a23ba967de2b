"""`${!NAME[@]}` of an indexed array whose elements the script sets: its indices, 0 to n-1, so
a loop over them (`for i in "${!NODE_IPS[@]}"`) is read once per index, and `$i`, `${NAME[$i]}`
and `$((30000 + i))` have their value in each. An associative array's keys stay unknown
(tests/test_shell_assoc_arrays.py), and so do the indices of an array of unknown length."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

LOOPS = FixtureFile("shell/array_index_loop.sh")


def _value(launch, flag):
    texts = [word.text for word in launch.args]
    return launch.args[texts.index(flag) + 1].text


def test_a_loop_over_an_arrays_indices_reads_one_launch_per_index():
    launches = extract_file(str(LOOPS.path), LOOPS.text).launches
    nodes = [launch for launch in launches if launch.span.line == 6]
    assert [(_value(l, "--node-rank"), _value(l, "--nnodes")) for l in nodes] == [("0", "2"), ("1", "2")]
    assert {_value(l, "--dist-init-addr") for l in nodes} == {"10.0.0.1:5000"}
    assert [l.alternative.conditions[0].description for l in nodes] == [
        "$i is 0 (the loop at line 5)",
        "$i is 1 (the loop at line 5)",
    ]
    servers = [launch for launch in launches if launch.span.line == 14]
    assert [(_value(l, "--disaggregation-transfer-backend"), _value(l, "--port")) for l in servers] == [
        ("mooncake", "30000"),
        ("nixl", "30001"),
        ("mooncak", "30002"),
    ]


def test_a_value_of_one_index_is_found_and_named_and_nothing_is_said_unread():
    found = LOOPS.findings()
    assert [f[:4] for f in found] == [("FLG006", 12, 25, "mooncak")]  # the element, where it is written
    assert found[0][4].startswith("`mooncak` is not a valid value for `--disaggregation-transfer-backend`")
    (finding,) = lint_text(LOOPS.text, str(LOOPS.path)).findings
    notes = [(n.span.line, n.span.column, n.message) for n in finding.notes]
    assert (13, 10, "when $i is 2 (the loop at line 13)") in notes
    assert (15, 39, "expanded into the command here") in notes
    assert finding.fix_hint.startswith("did you mean `mooncake`?")


def test_the_indices_of_an_array_of_unknown_length_stay_unknown():
    text = (
        "NODES=($(scontrol show hostnames))\n"
        'for i in "${!NODES[@]}"; do\n'
        "  python3 -m sglang.launch_server --model-path /m --node-rank $i\n"
        "done\n"
    )
    found = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "serve.sh").findings]
    assert [f[:3] for f in found] == [("SLM004", 3, 63)]
    assert "--node-rank" in found[0][3]

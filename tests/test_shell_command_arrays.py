"""An array filled from an unquoted command substitution (`NODES=($(scontrol show hostnames
...))`) has any number of elements: `${NODES[1]}` is an unknown word (it was read as missing,
so `srun -w ${NODES[1]}` left the launch unread and `--flag ${NODES[1]}` was "needs a value"),
and `${#NODES[@]}` an unknown number (it was 1)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SCRIPT = FixtureFile("shell/slurm_node_array.sh")


def test_both_srun_launches_are_read():
    launches = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    modes = []
    for launch in launches:
        texts = [word.text for word in launch.args]
        modes.append(texts[texts.index("--disaggregation-mode") + 1])
    assert modes == ["prefill", "decode"]


def test_a_later_element_and_the_length_are_unknown_and_said():
    found = SCRIPT.findings()
    assert [f[0] for f in found] == ["SLM004"]
    (partly,) = found
    assert partly[1:4] == (12, 74, "${NODES[1]}:5000")
    assert "the value of `--dist-init-addr` (element 1 of $NODES (output of command substitution" in partly[4]
    assert "the value of `--nnodes` (length expansion `${#NODES[@]}`)" in partly[4]
    assert "needs a value" not in partly[4]


MAPFILE = FixtureFile("shell/mapfile_nodes.sh")


def test_mapfile_dash_t_names_the_array_it_fills():
    (partly,) = MAPFILE.findings()
    assert partly[:4] == ("SLM004", 5, 20, "${NODES[0]}:5000")
    assert "`--dist-init-addr` ($NODES is set by `mapfile` at line 3;" in partly[4]
    assert "not assigned in this file" not in partly[4]

"""bash associative arrays (`declare -A`): one key's value `${CFG[key]}` is read exactly, the
key expanded as bash expands it; `${CFG[@]}` / `${!CFG[@]}` stay unknown (bash gives them in no
defined order), and so does a key or an assignment speclint cannot read."""

from __future__ import annotations

from findings_at import findings_at
from fixture_file import FixtureFile

LAUNCH = "python3 -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "serve.sh", message=True)


def test_a_key_looked_up_by_a_known_name_is_its_value_and_the_rest_stays_unknown():
    fixture = FixtureFile("shell/assoc_array_config.sh")
    got = fixture.findings()
    assert [g[:4] for g in got] == [
        ("FLG005", 9, 75, "${TP_FOR[$NAME]}"),
        ("SLM004", 12, 46, "${PATH_FOR[$MODEL]}"),
        ("SLM004", 16, 56, '"${!EXTRA[@]}"'),
    ]
    assert got[0][4].startswith("`4x` is not a valid value for `--tp-size`")
    assert (
        "$PATH_FOR[$MODEL]: the key `$MODEL` is not known ($MODEL is not assigned in this file" in got[1][4]
    )
    assert "$EXTRA is an associative array: bash gives its keys and values in no defined order" in got[2][4]
    # `--model-path ${PATH_FOR[$NAME]}` (a quoted key in the array) is read: no finding names it
    assert not any("--model-path" in g[4] and g[1] == 9 for g in got)


def test_a_compound_assignment_after_declare_and_a_local_array_are_read():
    text = (
        f'declare -A D\nD=([tp]=5x [m]=/m)\n{LAUNCH} --tp-size "${{D[tp]}}"\n'
        f"serve() {{\n  local -A E=([port]=80x)\n  {LAUNCH} --port ${{E[port]}}\n}}\nserve\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("FLG005", 3, 59), ("FLG005", 6, 58)]
    assert got[0][4].startswith("`5x` is not a valid value for `--tp-size`")
    assert got[1][4].startswith("`80x` is not a valid value for `--port`")


def test_an_append_or_a_key_set_on_one_branch_leaves_the_value_unknown():
    text = (
        f"declare -A D=([tp]=2)\nD+=([tp]=4x)\n{LAUNCH} --tp-size ${{D[tp]}}\n"
        f'declare -A C\nif [ -n "$X" ]; then C[tp]=2; fi\n{LAUNCH} --tp-size ${{C[tp]}}\n'
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 3, 59), ("SLM004", 6, 59)]
    assert "$D is an associative array assigned with `+=`" in got[0][4]


def test_a_key_never_assigned_is_empty_as_bash_makes_it():
    text = f'declare -A D=([tp]=2)\n{LAUNCH} --tp-size "${{D[pp]}}"\n'
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 59)
    assert message.startswith("`` is not a valid value for `--tp-size`")


def test_the_bare_name_is_key_zero_as_bash_reads_it():
    text = f"declare -A D=([0]=8x [tp]=2)\n{LAUNCH} --tp-size $D\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 2, 59)
    assert message.startswith("`8x` is not a valid value for `--tp-size`")

"""GitHub Actions job matrices: a `run:` script's `${{ matrix.NAME }}` is read once per value
the job's `strategy.matrix` gives it (lists, less `exclude:`, with `include:`), each reading an
alternative of the launch; a finding only some values have names them. A matrix written as
an expression stays unknown and says so."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

WORKFLOW = FixtureFile("workflows/matrix_values.yml")


def _value(launch, flag):
    texts = [word.text for word in launch.args]
    return launch.args[texts.index(flag) + 1]


def test_each_matrix_combination_is_one_alternative_of_the_launch():
    launches = extract_file(str(WORKFLOW.path), WORKFLOW.text).launches
    serve = [launch for launch in launches if launch.span.line == 23]
    pairs = [(_value(l, "--attention-backend").text, _value(l, "--tp-size").text) for l in serve]
    # the product less the excluded (triton, 2), then the include entry that fits no combination
    assert pairs == [
        ("flashinfer", "1"),
        ("flashinfer", "2"),
        ("triton", "1"),
        ("flashinfer3", "1"),
        ("flashinfer3", "2"),
        ("fa3", "2"),
    ]
    assert [l.alternative.index for l in serve] == list(range(6))
    assert {l.alternative.count for l in serve} == {6}
    backend = _value(serve[0], "--attention-backend")
    assert WORKFLOW.at(backend.span) == (24, 33, "${{ matrix.backend }}")  # where the script reads it
    (condition, _tp) = serve[5].alternative.conditions
    assert WORKFLOW.at(condition.span) == (16, 22, "fa3")  # the include entry's value
    assert condition.description == "the matrix gives `matrix.backend` the value `fa3`"


def test_a_finding_of_some_matrix_values_names_them():
    found = WORKFLOW.findings()
    assert [f[:4] for f in found] == [
        ("FLG006", 24, 33, "${{ matrix.backend }}"),
        ("SLM004", 31, 93, "${{ matrix.backend }}"),
        ("FLG001", 41, 108, "--mem-fraction-statc"),  # every value has it: no note
    ]
    assert found[0][4].startswith("`flashinfer3` is not a valid value for `--attention-backend`")
    result = lint_text(WORKFLOW.text, str(WORKFLOW.path))
    (note,) = result.findings[0].notes
    assert WORKFLOW.at(note.span) == (13, 39, "flashinfer3")
    assert note.message == "when the matrix gives `matrix.backend` the value `flashinfer3`"


def test_a_matrix_from_an_expression_stays_unknown_with_its_reason():
    found = WORKFLOW.findings()
    assert (
        "`${{ matrix.backend }}` is a value of the job's matrix: the job's matrix is "
        "`${{ fromJSON(needs.plan.outputs.matrix) }}`, an expression known only when the workflow runs"
    ) in found[1][4]
    listed = (
        "on: push\njobs:\n  j:\n    strategy:\n      matrix:\n        tp: ${{ fromJSON(inputs.tps) }}\n"
        "    steps:\n      - run: python3 -m sglang.launch_server --model-path m --tp-size ${{ matrix.tp }}\n"
    )
    (partly,) = lint_text(listed, "ci.yml").findings
    assert (partly.code, partly.span.line, partly.span.column) == ("SLM004", 8, 71)
    assert "the matrix's `tp` is `${{ fromJSON(inputs.tps) }}`, an expression known only" in partly.message


def test_one_value_substitutes_and_an_include_only_matrix_gives_its_entries():
    text = (
        "on: push\njobs:\n  j:\n    container: lmsysorg/sglang:${{ matrix.version }}\n"
        "    strategy:\n      matrix:\n        include:\n          - {version: v0.5.6, tp: '2'}\n"
        "    steps:\n      - run: python3 -m sglang.launch_server --model-path m --tp-size ${{ matrix.tp }}\n"
    )
    (launch,) = extract_file("ci.yml", text).launches
    assert launch.alternative is None  # one combination: its values, no alternatives
    assert launch.image == "lmsysorg/sglang:v0.5.6"  # the container image reads the matrix too
    assert _value(launch, "--tp-size").text == "2"


def test_a_job_env_value_reading_the_matrix_is_filled_in_per_reading():
    launches = extract_file(str(WORKFLOW.path), WORKFLOW.text).launches
    models = [launch for launch in launches if launch.span.line == 41]
    assert [_value(launch, "--tp-size").text for launch in models] == ["2", "4"]
    assert [WORKFLOW.at(launch.env["TP"].span) for launch in models] == [(39, 11, "${{ matrix.tp }}")] * 2
    assert [c.description for launch in models for c in launch.alternative.conditions] == [
        "the matrix gives `matrix.tp` the value `2`",
        "the matrix gives `matrix.tp` the value `4`",
    ]
    assert lint_text(WORKFLOW.text, str(WORKFLOW.path)).findings[2].notes == []


def test_include_entries_extend_the_original_combinations_they_fit_or_stand_alone():
    text = (
        "on: push\njobs:\n  j:\n    strategy:\n      matrix:\n        tp: [1, 2]\n        quant: [fp8, awq]\n"
        "        include:\n          - backend: triton\n          - tp: 2\n            backend: fa3\n"
        "          - tp: 4\n          - tp: 4\n            quant: fp8\n"
        "    steps:\n      - run: >-\n          python3 -m sglang.launch_server --model-path m\n"
        "          --tp-size ${{ matrix.tp }} --quantization ${{ matrix.quant }}\n"
        "          --attention-backend ${{ matrix.backend }}\n"
    )
    launches = extract_file("ci.yml", text).launches
    read = [
        tuple(_value(launch, flag).text for flag in ("--tp-size", "--quantization", "--attention-backend"))
        for launch in launches
    ]
    assert read == [
        ("1", "fp8", "triton"),
        ("1", "awq", "triton"),
        ("2", "fp8", "fa3"),  # an added value overwritten by a later entry
        ("2", "awq", "fa3"),
        ("4", None, None),  # fits no original combination: one of its own
        ("4", "fp8", None),  # not added to the one an entry made
    ]
    unset = _value(launches[4], "--quantization")
    assert unset.dynamic_reason is not None and "`matrix.quant` is not set" in unset.dynamic_reason


OBJECTS = FixtureFile("workflows/matrix_objects.yml")


def test_a_key_of_a_mapping_the_matrix_lists_is_read_per_combination():
    launches = extract_file(str(OBJECTS.path), OBJECTS.text).launches
    pairs = [(_value(l, "--model-path").text, _value(l, "--tp-size").text) for l in launches]
    assert pairs == [("/models/llama", "2"), ("/models/qwen", "two")]  # flow and block mappings
    found = OBJECTS.findings()
    assert [f[:4] for f in found] == [
        ("FLG005", 15, 93, "${{ matrix.cfg.tp }}"),
        ("SLM004", 15, 121, "${{ matrix.cfg.port }}"),  # no mapping has `port`
    ]
    assert "invalid int value: 'two'" in found[0][4]
    result = lint_text(OBJECTS.text, str(OBJECTS.path))
    notes = result.findings[0].notes
    assert [OBJECTS.at(n.span) for n in notes] == [(12, 20, "/models/qwen")]
    assert notes[0].message == (
        "when the matrix gives `matrix.cfg.model` the value `/models/qwen` "
        "and the matrix gives `matrix.cfg.tp` the value `two`"
    )
    assert "`matrix.cfg.port` is not set (or not a string) in this combination" in found[1][4]

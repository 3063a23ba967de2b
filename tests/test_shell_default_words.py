"""`${NAME:-default}` whose default starts like a variable name and holds a `-`
(`${MODEL:-meta-llama/Llama-3.1-8B-Instruct}`): tree-sitter-bash splits that word into a
`variable_name` and a `word`; bash reads it as plain text, and so does speclint (it was an
unknown value, "shell syntax not analysed (variable_name)")."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

SCRIPT = FixtureFile("shell/env_default_names.sh")


def _value(launch, flag):
    texts = [word.text for word in launch.args]
    return launch.args[texts.index(flag) + 1]


def test_defaults_with_a_dash_are_read_as_written():
    (launch,) = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    model = _value(launch, "--model-path")
    assert model.text == "meta-llama/Llama-3.1-8B-Instruct"
    draft = _value(launch, "--speculative-draft-model-path")
    assert draft.text == "lmsys/sglang-EAGLE-LLaMA3-Instruct-8B"
    assert _value(launch, "--disaggregation-mode").text == "pre-fill"


def test_a_default_is_checked_and_nothing_is_said_unread():
    found = SCRIPT.findings()
    assert [f for f in found if f[0] == "SLM004"] == []
    (choice,) = [f for f in found if f[0] == "FLG006"]
    assert choice[1:4] == (10, 25, "${MODE:-pre-fill}")
    assert "`pre-fill` is not a valid value for `--disaggregation-mode`" in choice[4]
    assert "invalid choice: 'pre-fill'" in choice[4]

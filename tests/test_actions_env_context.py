"""GitHub Actions' `env` context: `${{ env.NAME }}` in a `run:` step is the value the workflow,
job or step `env:` gives NAME (written literally there), filled in before the shell runs; any
other expression stays an unknown value."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

WORKFLOW = FixtureFile("workflows/env_context.yml")


def test_env_context_values_are_filled_in():
    (launch,) = extract_file(str(WORKFLOW.path), WORKFLOW.text).launches
    assert launch.image == "lmsysorg/sglang:v0.5.6.post2-cu126"
    texts = [word.text for word in launch.args]
    model = launch.args[texts.index("--model-path") + 1]
    assert model.text == "Qwen/Qwen3-8B"
    assert WORKFLOW.at(model.span) == (17, 58, "${{ env.MODEL }}")


def test_the_step_env_reaches_the_container_through_the_expression():
    found = WORKFLOW.findings()
    (gpus,) = [f for f in found if f[0] == "PAR001"]
    assert gpus[1:4] == (16, 39, "CUDA_VISIBLE_DEVICES=${{ env.GPUS }}")
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in gpus[4]
    (partly,) = [f for f in found if f[0] == "SLM004"]
    assert "`${{ matrix.port }}` is a GitHub Actions expression" in partly[4]

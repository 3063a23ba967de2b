"""A SageMaker deployment that configures SGLang only through `SM_SGLANG_*` settings (the
container's serve script makes flags of them): speclint reads no launch there and says so
(SLM005 at the first setting), rather than "All checks passed" on zero launches."""

from __future__ import annotations

from fixture_file import FixtureFile


def test_sm_sglang_settings_are_said_not_read():
    found = FixtureFile("python/sagemaker_sm_sglang_env.py").findings()
    assert [(code, line, column, token) for code, line, column, token, _ in found] == [
        ("SLM005", 10, 10, "SM_SGLANG_MODEL_PATH"),
    ]
    assert found[0][4] == (
        "this file names `SM_SGLANG_MODEL_PATH` but speclint found no launch in it: nothing here was checked"
    )

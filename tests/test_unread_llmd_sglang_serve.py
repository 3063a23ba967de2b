"""llm-d's modelservice chart values `modelCommand: sglangServe` with `args:`: the chart renders
the SGLang command from them, which speclint has not read, so the file gets `no-launch-found`
(SLM005) at `sglangServe`, not "All checks passed: 0 launches"."""

from __future__ import annotations

from fixture_file import FixtureFile

VALUES = FixtureFile("unread/llmd_sglang_serve.yaml")


def test_the_llmd_sglang_serve_values_are_said_not_read():
    (finding,) = VALUES.findings()
    assert finding[:4] == ("SLM005", 7, 19, "sglangServe")
    assert (
        finding[4]
        == "this file names `sglangServe` but speclint found no launch in it: nothing here was checked"
    )


def test_a_word_holding_sglangserve_is_not_a_mention():
    from speclint.engine import lint_text

    assert lint_text("modelCommand: mysglangServer\nargs: [--port, '8200']\n", "values.yaml").findings == []

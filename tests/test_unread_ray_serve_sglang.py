"""Ray Serve LLM's SGLang engine (`ray.llm._internal.serve.engines.sglang`, `server_cls` with
`engine_kwargs`) starts SGLang through code speclint has not read: a file naming it and no
launch gets `no-launch-found` (SLM005) at the module, not "All checks passed: 0 launches"."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

APP = FixtureFile("unread/ray_serve_sglang.py")


def test_the_ray_serve_sglang_engine_is_said_not_read():
    (finding,) = APP.findings()
    assert finding[:4] == ("SLM005", 5, 24, "serve.engines.sglang")
    assert finding[4] == (
        "this file names `serve.engines.sglang` but speclint found no launch in it: nothing here was checked"
    )


def test_the_same_in_a_serve_config_yaml():
    text = (
        "applications:\n  - args:\n      llm_configs:\n        - server_cls: "
        "ray.llm._internal.serve.engines.sglang.sglang_engine.SGLangServer\n"
        "          engine_kwargs: {tp_size: 2}\n"
    )
    (finding,) = lint_text(text, "serve_config.yaml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 4, 41)

"""SGLang's classes that start a server from keyword arguments (`sgl.Runtime(...)`,
`HttpServerEngineAdapter(...)`), read as keyword launches with what each release's source says
they keep for themselves (speclint.sglang.launch_classes): in a .py file, a Markdown fence and
a notebook cell, with the finding's code, line:col of the exact token and message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from findings_at import findings_at

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
SPEC = (
    'speculative_algorithm="EAGLE", speculative_eagle_topk=1, speculative_num_steps=1, '
    "speculative_num_draft_tokens=16"
)


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


def located(text: str, path: str = "x.py", version: str | None = None) -> list[tuple]:
    """(code, line, column, token under the span, message) of each finding."""
    # (DRF011: the models' config.json files are not on disk here)
    return findings_at(text, path, LintOptions(sglang_version=version), skip={"DRF011"}, message=True)


def codes(found: list[tuple[str, int, int, str, str]]) -> list[str]:
    return [code for code, *_ in found]


def test_the_issue_example_gets_the_same_topk1_finding_as_engine():
    text = f'import sglang as sgl\nruntime = sgl.Runtime(model_path="meta-llama/Llama-3.1-8B-Instruct", {SPEC})\n'
    [spd] = [f for f in located(text) if f[0] == "SPD001"]
    assert spd[1:4] == (2, 181, "16")
    assert spd[4].startswith("`speculative_num_draft_tokens=16` is ignored: with `speculative_eagle_topk=1`")
    engine = located(text.replace("sgl.Runtime(", "sgl.Engine("))
    assert [f[0] for f in engine if f[0] == "SPD001"] == ["SPD001"]
    (ctx,) = lint_text(text, "x.py").contexts
    assert ctx.launch.entry == "sglang.Runtime"


@pytest.mark.parametrize(
    "head, call",
    [
        ("from sglang import Runtime\n", "Runtime"),
        ("import sglang\n", "sglang.Runtime"),
        ("from sglang.lang.backend.runtime_endpoint import Runtime as R\n", "R"),
        ("", "sgl.Runtime"),  # a snippet that omits its import
    ],
)
def test_every_name_sglang_gives_runtime_is_a_launch(head: str, call: str):
    text = f'{head}backend = {call}(model_path="m", speculative_num_stepz=3)\n'
    [(code, line, column, token, message)] = located(text)
    assert (code, line, token) == ("FLG001", 2 if head else 1, "speculative_num_stepz")
    assert message.startswith("`speculative_num_stepz` is not a ServerArgs field of SGLang 0.5.23")


def test_runtime_endpoint_and_a_file_own_runtime_class_are_not_launches():
    text = (
        "import sglang as sgl\n"
        'backend = sgl.RuntimeEndpoint("http://localhost:30000")\n'
        "class Runtime:\n    pass\n"
        'r = Runtime(model_path="m", tp_sise=2)\n'
    )
    assert lint_text(text, "x.py").contexts == []


def test_launch_timeout_is_runtimes_own_from_0_5_7_and_a_field_error_before():
    text = 'import sglang as sgl\nrt = sgl.Runtime(model_path="m", launch_timeout=600, log_level="warning")\n'
    assert located(text) == []  # 0.5.23: Runtime keeps launch_timeout; log_level is a field
    assert located(text, version="0.5.7") == []
    [(code, line, column, token, message)] = located(text, version="0.5.6")
    assert (code, line, column, token) == ("FLG001", 2, 34, "launch_timeout")
    assert message == (
        "`launch_timeout` is not a ServerArgs field of SGLang 0.5.6: the launch fails with __init__() "
        "got an unexpected keyword argument 'launch_timeout' (sglang.Runtime of SGLang 0.5.6 passes "
        "`launch_timeout` on to ServerArgs; it keeps it itself in SGLang 0.5.7 to 0.5.23)"
    )


def test_kwargs_dicts_merged_into_runtime_are_read_at_their_keys():
    text = (
        "import sglang as sgl\n"
        'cfg = {"speculative_algorithm": "EAGLE", "speculative_eagle_topk": 1,\n'
        '       "speculative_num_steps": 3, "speculative_num_draft_tokens": 8}\n'
        "cfg.update(launch_timeout=900)\n"
        'sgl.set_default_backend(sgl.Runtime(model_path="m", **cfg))\n'
    )
    found = located(text)
    [spd] = [f for f in found if f[0] == "SPD001"]
    assert spd[1:4] == (3, 68, "8")
    assert "FLG001" not in codes(found)  # launch_timeout from the dict: Runtime's own
    unknown = located(text.replace("**cfg", "**settings"))
    [(code, line, column, token, message)] = unknown
    assert (code, line, column, token) == ("SLM004", 5, 53, "**settings")


def test_positional_arguments_go_where_every_release_puts_them():
    # the first positional is log_level in every release: a field, passed on to ServerArgs
    text = 'import sglang as sgl\nrt = sgl.Runtime("info", model_path="m", tp_sise=2)\n'
    assert [f[:4] for f in located(text)] == [("FLG001", 2, 42, "tp_sise")]
    # the second is launch_timeout from 0.5.7 and ServerArgs' model_path before: not guessed
    [(code, line, column, token, message)] = located('import sglang as sgl\nsgl.Runtime("info", "m")\n')
    assert (code, line, column, token) == ("SLM004", 2, 21, '"m"')
    assert "positional argument 2 of sglang.Runtime sets `launch_timeout` or `model_path`" in message


def test_runtime_in_a_markdown_python_fence_with_and_without_its_import():
    text = (ROOT / "fixtures/markdown/runtime_fence.md").read_text()
    found = located(text, "doc.md")
    assert [f[:4] for f in found] == [
        ("SPD001", 15, 34, "16"),
        ("FLG001", 23, 70, "speculative_algoritm"),  # a later fence that writes no import
    ]
    assert found[1][4].startswith("`speculative_algoritm` is not a ServerArgs field of SGLang 0.5.23")


def test_runtime_in_a_notebook_cell_without_sglang_in_the_notebook():
    source = [f'backend = sgl.Runtime(model_path="m", {SPEC})\n']
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
    text = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    [spd] = [f for f in located(text, "n.ipynb") if f[0] == "SPD001"]
    assert spd[3] == "16"


def test_http_engine_adapter_is_a_keyword_launch_from_0_4_5_post1():
    text = (ROOT / "fixtures/python/http_engine_adapter.py").read_text()
    [spd] = located(text)
    assert spd[:4] == ("SPD001", 12, 34, "8")
    old = located(text, version="0.4.5")
    [missing] = [f for f in old if f[0] == "FLG009"]
    assert missing[1:4] == (6, 10, "")  # the whole call, lines 6-15: the text shows its first line
    assert missing[4] == (
        "`HttpServerEngineAdapter` does not exist in SGLang 0.4.5 (SGLang 0.4.5.post1 to 0.5.23 "
        "have it): importing it fails, so the launch never starts"
    )
    assert "FLG009" not in codes(located(text, version="0.4.5.post1"))


def _clear_class_caches() -> None:
    from speclint.sglang import launch_classes

    for cached in (launch_classes.class_of, launch_classes.newest_class, launch_classes.releases_with):
        cached.cache_clear()


def test_a_release_whose_classes_were_not_read_is_unverified(monkeypatch):
    """A schema regenerated without the launch-class data: findings say so, errors as warnings."""
    from speclint.sglang import launch_classes
    from speclint.sglang.linedata import LineData

    class Without056(LineData):
        def versions(self) -> tuple[str, ...]:
            return tuple(v for v in super().versions() if v != "0.5.6")

        def row(self, version: str):
            return None if version == "0.5.6" else super().row(version)

    monkeypatch.setattr(launch_classes, "_FILE", Without056(launch_classes._DATA))
    _clear_class_caches()
    try:
        text = 'import sglang as sgl\nrt = sgl.Runtime(model_path="m", tp_sise=2)\n'
        [finding] = lint_text(text, "x.py", LintOptions(sglang_version="0.5.6")).findings
    finally:
        _clear_class_caches()
    assert (finding.code, finding.severity.label) == ("FLG001", "warning")
    assert [n.message for n in finding.notes][-1] == (
        "unverified for SGLang 0.5.6: its Runtime was not read; keywords read as SGLang 0.5.23's "
        "Runtime takes them"
    )


def test_explain_says_what_the_checked_release_runtime_keeps():
    from speclint.engine import explain_facts

    text = 'import sglang as sgl\nrt = sgl.Runtime(model_path="m", launch_timeout=600)\n'
    (ctx,) = lint_text(text, "x.py").contexts
    assert explain_facts(ctx).fixture_notes == (
        "sglang.Runtime of SGLang 0.5.23 (sglang.lang.backend.runtime_endpoint) keeps `launch_timeout` "
        "itself and passes its other keywords to ServerArgs, `log_level` among them",
    )


def test_server_args_from_the_programs_own_command_line_is_reported_not_passed():
    """SGLang's own launch_server.py pattern: the settings come from `sys.argv`, which the file
    does not hold; with or without other launches in the file, a finding says so."""
    text = (
        "import argparse\n"
        "from sglang.srt.entrypoints.http_server import launch_server\n"
        "from sglang.srt.server_args import ServerArgs\n"
        "parser = argparse.ArgumentParser()\n"
        "ServerArgs.add_cli_args(parser)\n"
        "launch_server(ServerArgs.from_cli_args(parser.parse_args()))\n"
    )
    [(code, line, column, token, message)] = located(text)
    assert (code, line, column, token) == ("SLM005", 6, 15, "ServerArgs.from_cli_args")
    assert message == (
        "this file names `ServerArgs.from_cli_args` but speclint found no launch in it "
        "(`ServerArgs.from_cli_args(...)` at line 6 builds the server's settings from the program's "
        "own command line)"
    )
    beside = text + 'rt = ServerArgs(model_path="m")\n'
    [(code, line, column, token, message)] = located(beside)
    assert (code, line, column, token) == ("SLM005", 6, 15, "ServerArgs.from_cli_args")
    assert message.startswith("speclint did not read this launch: `ServerArgs.from_cli_args(...)` at line 6")


def test_prepare_server_args_of_an_unknown_argv_is_reported_beside_launches():
    text = (
        "import subprocess, sys\n"
        "from sglang.srt.server_args import prepare_server_args\n"
        "server_args = prepare_server_args(sys.argv[1:])\n"
        'subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n'
    )
    [(code, line, column, token, message)] = located(text)
    assert (code, line, column, token) == ("SLM005", 3, 15, "prepare_server_args")
    assert message == (
        "speclint did not read this launch: `prepare_server_args(...)` at line 3 parses an argv "
        "speclint cannot know (`sys.argv[1:]` is computed when the program runs), so nothing in it "
        "was checked"
    )

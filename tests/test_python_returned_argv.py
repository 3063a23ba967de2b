"""An adapter's `build_command()` that builds a launch's argv and returns it, never called in
the file (a serving framework calls it): the returned list is read as the launch, placed at the
`return`; a function the file calls is read where its result runs, once."""

from __future__ import annotations

import pytest
from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.settings.options import LintOptions


@pytest.fixture(autouse=True)
def _no_model_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))


ADAPTER = (
    '"""Starts an SGLang server for the benchmark runner."""\n'  # 1
    "\n"
    "\n"
    "class SglangBackend:\n"  # 4
    "    default_port = 30000\n"
    "\n"
    "    def build_command(self, model: str, port: int | None) -> list[str]:\n"  # 7
    '        cmd = ["python3", "-m", "sglang.launch_server", "--model-path", model]\n'  # 8
    '        cmd += ["--port", str(port or self.default_port)]\n'  # 9
    '        cmd += ["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d"]\n'
    '        cmd += ["--speculative-num-steps", "1", "--speculative-eagle-topk", "1"]\n'  # 11
    '        cmd += ["--speculative-num-draft-tokens", "16", "--max-running-requests", "32"]\n'  # 12
    "        return cmd\n"  # 13
)


def located(text: str) -> list[tuple]:
    # (DRF011, DRF012: the drafter's config.json is not on disk here)
    return findings_at(text, "backend.py", LintOptions(), skip={"DRF011", "DRF012"}, message=True)


def test_an_uncalled_method_returning_a_launch_argv_is_read_at_its_return():
    found = located(ADAPTER)
    spd = [f for f in found if f[0] == "SPD001"]
    assert [f[:4] for f in spd] == [("SPD001", 12, 52, "16")]
    assert "runs with 2, not 16" in spd[0][4]
    (launch,) = extract_file("backend.py", ADAPTER).launches
    assert (launch.span.line, launch.span.column) == (13, 9)  # the `return`
    assert launch.entry.endswith("sglang.launch_server")
    assert [w.text for w in launch.args][:2] == ["--model-path", None]  # (the parameter `model`)


def test_before_it_was_read_the_file_said_no_launch_was_found():
    # the same method whose name the file uses again: not read at its return (its caller is)
    called = ADAPTER + "\n\ncmd = SglangBackend().build_command('m', None)\n"
    assert not extract_file("backend.py", called).launches
    codes = [f[0] for f in located(called)]
    assert "SPD001" not in codes and "SLM005" in codes


def test_a_called_function_is_read_once_where_its_result_runs():
    text = (
        "import subprocess\n"
        "\n"
        "\n"
        "def command(model):\n"
        '    return ["python", "-m", "sglang.launch_server", "--model-path", model, "--tp", "2"]\n'
        "\n"
        "\n"
        'subprocess.Popen(command("Qwen/Qwen3-8B"))\n'
    )
    (launch,) = extract_file("run.py", text).launches
    assert launch.span.line == 8


def test_a_returned_list_of_another_program_is_not_a_launch():
    text = "def command(path):\n    return ['ls', '-l', path]\n"
    assert not extract_file("ls.py", text).launches


def test_a_module_level_function_with_if_arms_gives_one_launch_per_choice():
    text = (
        "def serve_cmd(model, speculative):\n"  # 1
        '    cmd = ["python", "-m", "sglang.launch_server", "--model-path", "m"]\n'
        "    if speculative:\n"  # 3
        '        cmd += ["--speculative-algorithm", "EAGLE", "--speculative-num-steps", "1",\n'
        '                "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "8"]\n'  # 5
        "    return cmd\n"  # 6
    )
    launches = extract_file("cmd.py", text).launches
    assert len(launches) == 2
    assert {launch.alternative.index for launch in launches if launch.alternative} == {0, 1}
    (spd,) = [f for f in lint_text(text, "cmd.py", LintOptions()).findings if f.code == "SPD001"]
    assert (spd.span.line, spd.span.column) == (5, 85)
    assert "runs with 2, not 8" in spd.message
    assert any("when the `if` branch at line 3 runs" in note.message for note in spd.notes)

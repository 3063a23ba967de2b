"""nox's `session.run(*args, env=...)` runs its arguments as a command's argv, with `env=`
laid over the environment nox runs in (nox 2024.4.15 `Session._run`): read as a launch."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

NOXFILE = FixtureFile("python/nox/noxfile.py")


def test_a_session_run_is_a_launch_with_its_env():
    found = [f[:4] for f in NOXFILE.findings()]
    assert ("PAR001", 19, 38, '"0"') in found
    (gpus,) = [f for f in NOXFILE.findings() if f[0] == "PAR001"]
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in gpus[4]
    assert "tp 2 makes SGLang start 2 workers" in gpus[4]


def test_starred_module_lists_are_spread_into_the_argv():
    found = NOXFILE.findings()
    assert not [f for f in found if f[0] == "SLM005"]
    (steps,) = [f for f in found if f[0] == "SPD002"]
    assert steps[1:4] == (5, 73, "3")
    assert "--speculative-num-steps is given without --speculative-eagle-topk" in steps[4]


def test_a_run_method_outside_a_noxfile_is_not_a_nox_session():
    text = 'import runner\n\nrunner.run("python", "-m", "sglang.launch_server", "--tp-szie", "2")\n'
    result = lint_text(text, "tasks.py")
    assert not [f for f in result.findings if f.code == "FLG001"]


def test_include_outer_env_false_gives_the_command_env_alone():
    text = (
        "import os\n"
        "import nox\n"
        'os.environ["CUDA_VISIBLE_DEVICES"] = "0"\n'
        "@nox.session\n"
        "def serve(session):\n"
        '    session.run("python", "-m", "sglang.launch_server", "--model-path", "/m", "--tp-size", "2",\n'
        '                env={"HF_HOME": "/cache"}, include_outer_env=False)\n'
        "@nox.session\n"
        "def other(session):\n"
        '    session.run("python", "-m", "sglang.launch_server", "--model-path", "/m", "--tp-size", "2",\n'
        '                env={"HF_HOME": "/cache"})\n'
    )
    gpus = [f for f in lint_text(text, "noxfile.py").findings if f.code == "PAR001"]
    assert [(f.span.line, f.span.column) for f in gpus] == [(3, 38)]
    assert [note.span.line for note in gpus[0].notes if "--tp-size 2 is set here" in note.message] == [10]

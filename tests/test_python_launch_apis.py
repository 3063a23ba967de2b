"""Python APIs that start SGLang for the program, read as launches instead of reported unread
(SLM005): docker-py's `client.containers.run/create(IMAGE, command=..., entrypoint=...,
environment=...)` (the image picks the release as `docker run` does), SkyPilot's
`sky.Task(setup=..., run=..., envs=...)` (bash scripts; `set_resources(sky.Resources(
image_id="docker:..."))` their container) and pexpect's `spawn`/`run`/`PopenSpawn`."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

DOCKER = FixtureFile("python/docker_py_containers.py")
SKY = FixtureFile("python/skypilot_task.py")
PEXPECT = FixtureFile("python/pexpect_spawn.py")

_TYPO = "`--tp-sise` is not an SGLang {} flag: argparse stops the launch with 'unrecognized arguments'; did you mean `--tp-size`?"
_HIGH = (
    "`high` is not a valid value for `--mem-fraction-static`: argparse stops the launch with "
    "'argument --mem-fraction-static: invalid float value: 'high''"
)


def _codes(text: str, path: str = "app.py") -> list[str]:
    return [f.code for f in lint_text(text, path).findings]


def test_docker_py_command_string_and_list_with_the_image_release() -> None:
    assert DOCKER.findings() == [
        ("FLG001", 13, 99, "--tp-sise", _TYPO.format("0.5.6.post2")),
        ("FLG005", 24, 108, "high", _HIGH),
    ]
    first, second = lint_text(DOCKER.text, str(DOCKER.path)).contexts
    # the tag is read through the constant, placed where it is written
    assert first.version.reason == "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 7)"
    assert DOCKER.at(first.launch.image_span) == (7, 9, '"lmsysorg/sglang:v0.5.6.post2-cu126"')
    assert second.version.version == "0.5.6.post2"
    # `entrypoint` then `command`: `python3 -m` + `sglang.launch_server ...`
    assert [w.text for w in second.launch.args] == [
        "--model-path",
        "Qwen/Qwen2.5-7B-Instruct",
        "--mem-fraction-static",
        "high",
    ]


def test_docker_py_environment_dict_and_list_are_the_launch_env() -> None:
    first, second = lint_text(DOCKER.text, str(DOCKER.path)).contexts
    assert {k: (w.text, DOCKER.at(w.span)) for k, w in first.launch.env.items()} == {
        "HF_TOKEN": ("hf_xxx", (14, 30, '"hf_xxx"')),
        "SGLANG_PORT": ("30000", (14, 55, '"30000"')),
    }
    token, devices = second.launch.env["HF_TOKEN"], second.launch.env["CUDA_VISIBLE_DEVICES"]
    assert (token.text, DOCKER.at(token.span)) == ("hf_xxx", (25, 18, '"HF_TOKEN=hf_xxx"'))
    assert devices.text is None  # `K` alone: the host's value
    assert devices.dynamic_reason == (
        "CUDA_VISIBLE_DEVICES is passed from the host's environment, which speclint does not know"
    )


def test_docker_py_without_a_command_or_with_another_image_command() -> None:
    plain = "import docker\ndocker.from_env().containers.run('lmsysorg/sglang:latest', detach=True)\n"
    assert lint_text(plain, "app.py").contexts == []
    assert _codes(plain) == []
    other = (
        "import docker\nc = docker.from_env()\n"
        "c.containers.run('lmsysorg/sglang:latest', 'python3 -m sglang.bench_serving --num-prompts 10')\n"
    )
    assert lint_text(other, "app.py").contexts == []


def test_skypilot_task_run_script_with_envs_and_docker_image() -> None:
    assert SKY.findings() == [("FLG001", 13, 3, "--tp-sise", _TYPO.format("0.5.6.post2"))]
    (ctx,) = lint_text(SKY.text, str(SKY.path)).contexts
    assert ctx.version.reason == "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 17)"
    assert SKY.at(ctx.launch.image_span) == (17, 66, '"docker:lmsysorg/sglang:v0.5.6.post2-cu126"')
    # `$MODEL` in `run` is read from `envs`
    model = ctx.launch.args[1]
    assert (model.text, SKY.at(model.span)) == ("Qwen/Qwen2.5-7B-Instruct", (11, 16, "$MODEL"))
    assert SKY.at(model.origin) == (15, 20, '"Qwen/Qwen2.5-7B-Instruct"')


def test_skypilot_chained_set_resources_and_no_image() -> None:
    chained = (
        "import sky\n"
        "t = sky.Task(run='python -m sglang.launch_server --model-path m --tp-sise 2').set_resources(\n"
        "    {sky.Resources(image_id='docker:lmsysorg/sglang:v0.5.6.post2-cu126')})\n"
    )
    found = lint_text(chained, "app.py")
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("FLG001", 2, 65)]
    assert found.findings[0].message == _TYPO.format("0.5.6.post2")
    bare = "from sky import Task\nt = Task(run='python -m sglang.launch_server --model-path m --tp-sise 2')\n"
    (ctx,) = lint_text(bare, "app.py").contexts
    assert ctx.launch.image is None
    assert ctx.version.reason.startswith("the newest supported release")


def test_skypilot_run_generator_is_not_read_and_says_so() -> None:
    text = (
        "import sky\n"
        "def gen(rank, ips):\n"
        "    return f'python -m sglang.launch_server --model-path m --tp {rank}'\n"
        "task = sky.Task(run=gen)\n"
    )
    found = lint_text(text, "app.py")
    assert [(f.code, f.span.line, f.span.column) for f in found.findings] == [("SLM005", 3, 24)]


def test_pexpect_command_string_and_program_with_args() -> None:
    assert PEXPECT.findings() == [
        ("FLG001", 6, 95, "--tp-sise", _TYPO.format("0.5.23")),
        ("FLG005", 11, 106, "high", _HIGH),
    ]
    first, second = lint_text(PEXPECT.text, str(PEXPECT.path)).contexts
    assert first.launch.env == {}
    assert {k: w.text for k, w in second.launch.env.items()} == {"CUDA_VISIBLE_DEVICES": "1"}


def test_pexpect_run_and_popen_spawn() -> None:
    text = (
        "import pexpect\nfrom pexpect.popen_spawn import PopenSpawn\n"
        "pexpect.run('python3 -m sglang.launch_server --model-path m --tp-sise 1')\n"
        "PopenSpawn('python3 -m sglang.launch_server --model-path m --tp-sise 2')\n"
        "pexpect.spawn('python3 -m sglang.launch_server --model-path m --tp-sise 3', [])\n"
    )
    found = lint_text(text, "app.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [
        ("FLG001", 3, 61),
        ("FLG001", 4, 60),
        ("FLG001", 5, 63),
    ]


def test_a_big_file_keeps_the_api_calls_in_its_selection() -> None:
    filler = "".join(f"def helper_{i}(x):\n    return x + {i}\n\n\n" for i in range(1200))
    assert len(filler) > 16 * 1024  # read through `select`
    for call in (
        "pexpect.spawn('python3 -m sglang.launch_server --model-path m --tp-sise 1')",
        "docker.from_env().containers.create('lmsysorg/sglang:latest', 'python3 -m sglang.launch_server --model-path m --tp-sise 1')",
        "sky.Task(run='python3 -m sglang.launch_server --model-path m --tp-sise 1')",
    ):
        text = f"import docker\nimport pexpect\nimport sky\n{filler}{call}\n"
        found = lint_text(text, "big.py").findings
        assert [(f.code, f.span.line) for f in found] == [("FLG001", 4804)], call


def test_no_shell_expands_a_dollar_name_from_the_given_environment() -> None:
    # docker-py and pexpect split the string into words; no shell expands `$MODEL`, so the
    # value given in `environment=` / `env=` is not the flag's value (it stays unknown)
    for call in (
        "docker.from_env().containers.run('lmsysorg/sglang:latest', "
        "'python3 -m sglang.launch_server --model-path $MODEL', environment={'MODEL': 'm'})",
        "pexpect.spawn('python3 -m sglang.launch_server --model-path $MODEL', env={'MODEL': 'm'})",
    ):
        (ctx,) = lint_text(f"import docker\nimport pexpect\n{call}\n", "app.py").contexts
        model = ctx.launch.args[1]
        assert model.text is None, call
        assert ctx.launch.env["MODEL"].text == "m", call


ENVIRON = FixtureFile("python/pexpect_docker_environ.py")


def test_pexpect_inherits_os_environ_and_docker_py_does_not() -> None:
    (finding,) = ENVIRON.findings()
    assert finding[:4] == ("PAR001", 10, 38, '"0"')
    assert finding[4].startswith("CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible (indices 0-0), but tp 2")
    local, container = lint_text(ENVIRON.text, str(ENVIRON.path)).contexts
    assert {k: w.text for k, w in local.launch.env.items()} == {
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/data/hf",
    }
    assert {k: w.text for k, w in container.launch.env.items()} == {"HF_TOKEN": "hf_xxx"}


def test_pexpect_env_replaces_os_environ_and_env_none_keeps_it() -> None:
    head = "import os\nimport pexpect\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
    launch = "pexpect.spawn('python3 -m sglang.launch_server --model-path m --tp-size 2'{})\n"
    (ctx,) = lint_text(head + launch.format(", env={'HF_HOME': '/h'}"), "app.py").contexts
    assert {k: w.text for k, w in ctx.launch.env.items()} == {"HF_HOME": "/h"}
    for given in (", env=None", ""):
        found = lint_text(head + launch.format(given), "app.py")
        assert [(f.code, f.span.line) for f in found.findings] == [("PAR001", 3)], given

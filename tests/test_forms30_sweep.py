"""Launch forms seen in public Python scripts, notebooks, docs, YAML (Helm, Kustomize, KubeRay,
Argo, SkyPilot, dstack, compose, Actions) and task files (sweep 30), each described by a fixture
of our own (fixtures/forms30): every launch is read whole, or what speclint could not read is
said (SLM004 partly read, SLM005 not read), and no finding is a false error. Each finding is
asserted at the token it names (code, line, column, text).

Also: a command a Python file (or a notebook cell, a doc's Python block, a task file) runs that
is not SGLang's launcher but passes one of SGLang's `--speculative-*` options is said not read at
that flag, even in a file that never names SGLang (never "All checks passed"); another engine's
speculative options (vLLM's `--speculative-config`, `--speculative-model`) stay silent."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # a driver starts the team's own server script with speculative flags; never names SGLang
    "forms30/p01_wrapper_argv_no_sglang.py": [("SLM005", 10, 14, "--speculative-algorithm")],
    # `os.system(f"torchrun ... my_serve.py --speculative-num-steps {steps} ...")`
    "forms30/p02_torchrun_os_system.py": [("SLM005", 4, 53, "--speculative-num-steps")],
    # vLLM's own speculative options, argv and shell: not SGLang's, nothing said
    "forms30/p03_other_engine_speculative.py": [],
    # a helper `launch(extra)` running a script with `*extra`, called with SGLang's flags
    "forms30/p04_helper_forwards_extra.py": [("SLM005", 9, 21, "--speculative-num-draft-tokens")],
    # argparse defining options named like SGLang's, running nothing: the file names the
    # speculative algorithm and holds no launch (as before)
    "forms30/p05_argparse_defines_flags.py": [("SLM005", 6, 22, "--speculative-algorithm")],
    # Ray Serve LLM with Ray's SGLang app builder and `engine_kwargs`: not read, said (was
    # "All checks passed: 0 launches")
    "forms30/p06_ray_serve_llm_engine_kwargs.py": [("SLM005", 4, 53, "build_sglang_openai_app")],
    # `sgl.Engine(**config["engine"])`, the dict from a YAML file read at run time
    "forms30/p07_engine_from_yaml_dict.py": [("SLM004", 9, 21, '**config["engine"]')],
    # `ServerArgs(**{k: v for ... in llm_config.items() ...})` then `Engine(server_args=...)`
    "forms30/p08_server_args_from_dict_param.py": [
        ("SLM004", 6, 30, "**{k: v for k, v in llm_config.items() if v is not None}")
    ],
    # an async runner: `create_subprocess_exec(*cmd)` with `*(extra_args or [])` in the list
    "forms30/p09_async_runner_star_extra.py": [("SLM004", 15, 29, "model"), ("FLG005", 17, 39, "0.85x")],
    # Modal: `@modal.web_server` running `" ".join(cmd)` with `shell=True`
    "forms30/p10_modal_web_server_popen.py": [("FLG003", 16, 10, "--tp"), ("FLG005", 16, 18, "two")],
    # argparse with `ServerArgs.add_cli_args` and `from_cli_args`: the program's own argv
    "forms30/p11_argparse_forward_namespace.py": [("SLM005", 10, 15, "ServerArgs.from_cli_args")],
    # a Helm template: `{{ .Values.x | quote }}` items in `args:` (partly read), a bad literal
    "forms30/y01_helm_values_args.yaml": [
        ("SLM004", 15, 15, "{{ .Values.model.path | quote }}"),
        ("FLG005", 19, 16, "0.9o"),
    ],
    # a KubeRay RayService on SGLang's image: the Serve app's code (`import_path`) starts the
    # server from another file; said not read (was "All checks passed: 0 launches")
    "forms30/y02_rayservice_serve_config.yaml": [("SLM005", 9, 9, "import_path")],
    # an Argo Workflow's daemon step: flow-style `command:` and `args:` lists
    "forms30/y03_argo_workflow_steps.yaml": [("FLG005", 17, 106, "4k")],
    # a Kustomize JSON patch appending flags to another file's container args: said not read,
    # as a patch
    "forms30/y04_kustomize_json_patch.yaml": [("SLM005", 12, 16, "--enable-torch-compile")],
    # SkyPilot: `run: |` with `$SKYPILOT_NUM_GPUS_PER_NODE`
    "forms30/y05_sky_run_block.yaml": [
        ("FLG003", 11, 5, "--tp"),
        ("SLM004", 11, 10, "$SKYPILOT_NUM_GPUS_PER_NODE"),
        ("FLG006", 12, 23, "lpm2"),
    ],
    # dstack: a `commands:` item written as a plain scalar over several lines
    "forms30/y06_dstack_service.dstack.yml": [("FLG006", 11, 25, "xgrammer")],
    # GitHub Actions: a `run: |` step starting the server in the background
    "forms30/y07/.github/workflows/smoke.yml": [("FLG006", 11, 46, "flashinfer2")],
    # compose: `command: >` folded over several lines
    "forms30/y08_compose_folded_command.yaml": [("FLG006", 9, 24, "fp9")],
    # a Job on the team's own image whose script passes SGLang's speculative flags: said as a
    # command not read (was: "flags written in YAML ... through a chart's template")
    "forms30/y10_job_wrapper_command.yaml": [("SLM005", 13, 62, "--speculative-num-steps")],
    # a pod template's start command as one string under a key speclint does not know
    "forms30/y09_runpod_template.yaml": [("SLM005", 5, 14, "sglang.launch_server")],
    # a Makefile: a launch read, and a recipe running the project's script with SGLang's
    # speculative flags held in a variable: said at the flag
    "forms30/Makefile": [("SLM005", 3, 14, "--speculative-algorithm"), ("FLG005", 6, 81, "2x")],
    # a Dockerfile on a plain Python image whose CMD runs the team's script with SGLang's
    # speculative flags; never names SGLang (was "All checks passed: 0 launches")
    "forms30/Dockerfile.bench": [("SLM005", 4, 40, "--speculative-num-steps")],
    # a justfile recipe with a parameter `{{tp}}`
    "forms30/justfile": [("SLM004", 4, 70, "{{tp}}"), ("FLG005", 4, 100, "lots")],
    # a poe task as one string in pyproject.toml
    "forms30/pyproject.toml": [("FLG005", 6, 86, "3O000")],
    # a notebook's Python cell: `subprocess.Popen([... wrapper ..., "--speculative-num-steps", ...])`
    "forms30/n01_popen_wrapper_cell.ipynb": [("SLM005", 8, 67, "--speculative-num-steps")],
    # a doc's ```python block: `os.system("python bench/serve.py ... --speculative-eagle-topk 4")`
    "forms30/d01_python_fence_wrapper.md": [("SLM005", 6, 58, "--speculative-eagle-topk")],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


def test_a_python_wrapper_run_is_said_not_read_and_never_passed() -> None:
    fixture = FixtureFile("forms30/p01_wrapper_argv_no_sglang.py")
    (finding,) = fixture.findings()
    assert "this command (`python serve.py`) is not SGLang's launcher" in finding[4]
    assert "passes `--speculative-algorithm`, an option of SGLang's server" in finding[4]
    from speclint_runs import run_speclint

    done = run_speclint("--no-cache", str(fixture.path))
    assert "All checks passed" not in done.stdout
    assert "SLM005" in done.stdout


_RUNS = {
    "argv": 'import subprocess\nsubprocess.run(["python", "serve.py", {flags}])\n',
    "shell": 'import os\nos.system("bash run.sh {flags}")\n',
    "named": 'import subprocess\ncmd = ["python3", "-m", "my_pkg.serve", {flags}]\nsubprocess.Popen(cmd)\n',
    "helper": "from tools import run_cmd\nrun_cmd('python serve.py {flags}')\n",
}


@pytest.mark.parametrize("form", sorted(_RUNS))
@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ("--speculative-eagle-topk 1", ["SLM005"]),
        ("--speculative-num-draft-tokens=4", ["SLM005"]),
        ("--speculative-draft-model-path d", ["SLM005"]),
        # another engine's speculative options: not SGLang's, nothing said
        ("--speculative-config x", []),
        ("--speculative-model d --num-speculative-tokens 3", []),
        # no speculative option: other engines share SGLang's other flag names
        ("--tensor-parallel-size 2 --max-model-len 4096", []),
    ],
)
def test_only_sglang_speculative_flags_make_a_python_wrapper_said(
    form: str, flags: str, said: list[str]
) -> None:
    if form in ("argv", "named"):
        flags = ", ".join(f'"{word}"' for word in flags.split())
    text = _RUNS[form].format(flags=flags)
    findings = lint_text(text, "w.py").findings
    assert [f.code for f in findings] == said
    for finding in findings:
        line = text.splitlines()[finding.span.line - 1]
        assert line[finding.span.column - 1 :].startswith("--speculative-")


def test_a_wrapper_of_vllm_or_named_vllm_is_not_said() -> None:
    text = 'import subprocess\nsubprocess.run(["vllm", "serve", "m", "--speculative-draft-model", "d"])\n'
    assert lint_text(text, "v.py").findings == []


def test_a_wrapper_beside_an_sglang_launch_is_said_once_at_its_own_flag() -> None:
    text = (
        "import subprocess\n"
        'subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", "m"])\n'
        'subprocess.run(["python", "serve.py", "--speculative-num-steps", "3"])\n'
    )
    findings = lint_text(text, "b.py").findings
    assert [(f.code, f.span.line, f.span.column) for f in findings] == [("SLM005", 3, 40)]


def test_flags_in_argparse_definitions_or_comments_are_not_a_command() -> None:
    text = (
        "import argparse\n"
        "p = argparse.ArgumentParser()\n"
        'p.add_argument("--speculative-num-steps", type=int)\n'
        "# subprocess.run(['python', 'serve.py', '--speculative-eagle-topk', '1'])\n"
        'if "--speculative-eagle-topk".startswith("--speculative-"):\n'
        "    pass\n"
    )
    assert lint_text(text, "d.py").findings == []


def test_a_make_variable_a_launch_expands_is_not_said() -> None:
    text = (
        "SPEC = --speculative-algorithm EAGLE --speculative-eagle-topk 1\n"
        "serve:\n\tpython -m sglang.launch_server --model-path m $(SPEC)\n"
    )
    codes = [f.code for f in lint_text(text, "Makefile").findings]
    assert "SLM005" not in codes


def test_a_makefile_that_never_names_sglang_is_read_for_a_wrapper() -> None:
    text = "serve:\n\t./serve.sh --speculative-num-steps 3\nother:\n\tvllm serve m --speculative-config x\n"
    (finding,) = lint_text(text, "Makefile").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 2, 13)
    assert "found no launch in it" in finding.message


def test_a_wrapper_run_by_the_interpreter_itself_is_said_and_the_launcher_is_read() -> None:
    text = (
        "import subprocess, sys\n"
        'subprocess.run([sys.executable, "serve.py", "--speculative-num-steps", "3"])\n'
        'subprocess.run([sys.executable, "-m", "sglang.launch_server", "--model-path", "m", "--tp", "x"])\n'
    )
    findings = lint_text(text, "s.py").findings
    assert [(f.code, f.span.line) for f in findings if f.code == "SLM005"] == [("SLM005", 2)]
    assert "(`python serve.py`)" in findings[0].message
    assert any(f.code == "FLG005" and f.span.line == 3 for f in findings)


def test_a_bash_cells_comment_is_not_named_as_its_command() -> None:
    """`%%bash` then `# the second run ...` above the command: the command is named, not the
    comment's first word."""
    second = FixtureFile("docs29/n06_code_cells_wrapper_only.ipynb").findings()[1]
    assert "this command (`python -m specbench.serve`)" in second[4]


def test_a_yaml_command_passing_the_flags_is_said_as_a_command_a_flag_list_as_helm_values() -> None:
    (job,) = FixtureFile("forms30/y10_job_wrapper_command.yaml").findings()
    # (the Job's command read as shell names its program: `shell.wrapper_flags`)
    assert "this command (`python bench/serve_and_measure.py`) is not SGLang's launcher" in job[4]
    step = "on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: python s.py --speculative-eagle-topk 1\n"
    (finding,) = lint_text(step, ".github/workflows/a.yml").findings
    assert (finding.span.line, finding.span.column) == (6, 26)
    assert "the command that passes it is not SGLang's launcher" in finding.message
    values = "image: lmsysorg/sglang:v0.5.9\nextraArgs: [--speculative-num-steps, '3']\n"
    (finding,) = lint_text(values, "values.yaml").findings
    assert "through a chart's template" in finding.message

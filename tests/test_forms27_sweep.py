"""Launch forms seen in public SGLang launch files (docker run variants, loops over GPUs,
commands kept in variables and here-documents, wrappers, Python launchers building the
command from templates, tables and their parameters), each described by a fixture of our own
(fixtures/shell/forms27, fixtures/python/forms27): every launch is found and read whole, or
what speclint could not read is said (SLM004 partly read, SLM005 not read), and no finding is
a false error. Each finding is asserted at the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # `--gpus '"device=0,1,2,3"'` (nested quotes), a flag given twice with the same value
    "shell/forms27/s01_docker_gpus_device_list.sh": [("FLG003", 17, 5, "--tp"), ("FLG005", 18, 28, "64x")],
    # detached `docker run -d -ti --rm`, `-w`, the release from the image tag
    "shell/forms27/s02_docker_detached_tag.sh": [("FLG005", 12, 79, "3000o")],
    # `bash -c "..."` as the container's command
    "shell/forms27/s03_docker_bash_c_env.sh": [("FLG005", 10, 149, "0.7x")],
    # `sudo docker run` with exported lower-case variables
    "shell/forms27/s04_sudo_docker_exported.sh": [("FLG003", 15, 89, "--tp"), ("FLG005", 15, 94, "${tp}")],
    # `--entrypoint ""`: the command after the image run as is
    "shell/forms27/s05_docker_entrypoint_empty.sh": [("FLG005", 17, 28, "4k")],
    # the ROCm image: its tag decides the release (0.5.3.post3)
    "shell/forms27/s06_rocm_docker.sh": [("FLG003", 12, 5, "--tp"), ("FLG005", 15, 24, "lots")],
    # `cmd=$(cat <<- EOF ... EOF)` then `if ...; then cmd="nohup ${cmd} > log 2>&1 &"; fi` and
    # `eval $cmd` (before: no launch found; `<<-` was not read, nor eval of a value an `if` set)
    "shell/forms27/s07_heredoc_cmd_eval.sh": [
        ("FLG003", 12, 1, "--tp"),
        ("FLG005", 14, 8, "60x1"),
        ("SLM004", 23, 6, "$cmd"),
    ],
    # the server's output piped to `tee`, the pipeline in the background
    "shell/forms27/s08_tee_background.sh": [
        ("FLG005", 16, 27, "0.1x"),
        ("FLG008", 17, 5, "--disable-cuda-graph"),
    ],
    # `for i in $(seq 0 7)`, the GPU exported in the loop, the port from arithmetic
    "shell/forms27/s09_seq_loop_export.sh": [("FLG006", 13, 13, "bfloat1")],
    # `for i in 6 7`, the GPU as a prefix assignment, `&` then `wait`
    "shell/forms27/s10_for_list_prefix.sh": [("FLG006", 14, 28, "flashinfer_x")],
    # `${X:-default}`, `${X:?message}`, a default from `$(ip route ...)`
    "shell/forms27/s11_required_and_default_vars.sh": [
        ("SLM004", 16, 22, "${DIST_INIT_ADDR}"),
        ("FLG005", 19, 24, "1e4x"),
    ],
    # `MODEL_PATH="${1:-...}"`, `exec python -m ...`; `--context-length 4k` is no error
    # (SGLang 0.5.23 reads it with human_readable_int)
    "shell/forms27/s12_positional_default_model.sh": [
        ("SLM004", 13, 18, '"$MODEL_PATH"'),
        ("FLG003", 15, 5, "--tp"),
    ],
    # the model from `$1`, `shift`, the rest passed on with `"$@"`
    "shell/forms27/s13_extra_args_passthrough.sh": [
        ("SLM004", 17, 16, '"$MODEL"'),
        ("FLG005", 20, 25, "0.88x"),
    ],
    # prefix assignments continued over lines, a virtualenv's interpreter by its path
    "shell/forms27/s14_continued_env_prefix.sh": [("FLG006", 14, 25, "prefil")],
    # `x=$1 && shift`, an export continued over lines ending in a commented-out variable
    "shell/forms27/s15_export_comment_continued.sh": [
        ("SLM004", 15, 46, '"$model_path"'),
        ("FLG003", 15, 60, "--tp"),
        ("FLG005", 17, 32, "4o000"),
    ],
    # `--model` (the alias), values after `=`, the GPUs in a continued prefix
    "shell/forms27/s16_model_alias_equals.sh": [("FLG005", 5, 23, "0.8.5")],
    # `nohup \` on its own line, the router in the background with `& \`, then a server
    "shell/forms27/s17_nohup_router_trailing.sh": [("FLG005", 14, 12, "8000x")],
    # a usage check on `$#`, the values from `$1` and `$2`, the TP from arithmetic
    "shell/forms27/s18_usage_check_positional.sh": [
        ("SLM004", 10, 18, '"/models/${model_name}"'),
        ("FLG003", 13, 5, "--tp"),
    ],
    # a launch ending before a commented-out line that ends in a backslash
    "shell/forms27/s19_commented_tail.sh": [("FLG005", 10, 27, "0.8x")],
    # `unset http_proxy`; a flag only a fork of SGLang adds: a true error
    "shell/forms27/s20_unset_proxy_fork_flag.sh": [
        ("FLG003", 13, 5, "--tp"),
        ("FLG001", 14, 5, "--enable-kvstore"),
    ],
    # argparse values in a multi-line f-string run by `execute_shell_command`
    "python/forms27/p01_execute_shell_command.py": [
        ("SLM004", 19, 46, "{args.model_path}"),
        ("FLG005", 20, 8, "8080x"),
    ],
    # flags from a YAML config joined into the command: said partly read
    "python/forms27/p02_config_joined_flags.py": [("SLM004", 10, 44, "{cmd_args}")],
    # `"python -m sglang.launch_server"` as one list element, the list joined for a shell
    "python/forms27/p03_joined_for_shell.py": [("SLM004", 21, 5, "model_path"), ("FLG006", 30, 6, "5")],
    # `export X= ;` before the launch in launch_server_cmd's text, which no shell reads
    "python/forms27/p04_cmd_with_export.py": [
        ("SLM001", 9, 18, ";"),
        ("SLM005", 10, 12, "sglang.launch_server"),
    ],
    # the router's launcher from f-strings joined over lines, `.split()`
    "python/forms27/p05_router_fstring_split.py": [
        ("SLM004", 13, 25, "{model_name}"),
        ("FLG005", 17, 34, "0.9x"),
    ],
    # `[sys.executable, "-m", ...]` from the function's parameters
    "python/forms27/p06_sys_executable_defaults.py": [
        ("SLM004", 17, 25, "model_path"),
        ("FLG003", 18, 10, "--tp"),
        ("FLG005", 21, 36, "many"),
    ],
    # a virtualenv's interpreter when it exists, `*(extra_args or [])`
    "python/forms27/p07_venv_python_extra.py": [("SLM004", 18, 29, "model"), ("FLG005", 20, 40, "8k")],
    # `TEMPLATE.format(a, b, model)` run by a shell in a loop: findings in the template (before:
    # at the name `command`)
    "python/forms27/p08_format_shell_loop.py": [("SLM004", 10, 87, '"{}"'), ("FLG005", 10, 166, "0.8x")],
    # a table of models picked by an argparse value
    "python/forms27/p09_models_table.py": [("SLM004", 29, 25, 'config["path"]'), ("FLG006", 35, 31, "lpn")],
    # launch_server_cmd imported from a CI patch or from SGLang
    "python/forms27/p10_ci_patched_import.py": [("FLG005", 15, 27, "two")],
    # a project's own copy of popen_launch_server, read through its body
    "python/forms27/p11_local_popen_helper.py": [("SLM004", 25, 9, "model"), ("FLG005", 43, 88, "sixteen")],
    # run_bench_one_batch / run_bench_offline_throughput given server flags: read as the
    # helper's source builds the command (forms28; before: said not read)
    "python/forms27/p12_bench_one_batch_helpers.py": [
        ("FLG002", 14, 22, "--cuda-graph-max-bs"),
        ("FLG005", 18, 73, "two"),
    ],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    found = [f[:4] for f in FixtureFile(relative).findings() if f[0] != "DRF011"]
    assert found == EXPECTED[relative]


def _found(script: str, path: str = "run.sh") -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in lint_text(script, path).findings]


def test_a_tab_indented_here_document_with_dash_is_read_where_written() -> None:
    script = "cmd=$(cat <<- EOF\n\tpython -m sglang.launch_server --model-path m \\\n\t\t--port 60x1\n\tEOF\n)\neval $cmd\n"
    assert _found(script) == [("FLG005", 3, 10)]


def test_a_partly_known_command_wrapped_again_keeps_its_flags_places() -> None:
    script = (
        'cmd="python -m sglang.launch_server --model-path $M --port 60x1"\n'
        'cmd="nohup ${cmd} > /tmp/l 2>&1 &"\n'
        "eval $cmd\n"
    )
    assert _found(script) == [("FLG005", 1, 60), ("SLM004", 3, 6)]  # (before: both at `$cmd`)


def test_a_percent_template_from_a_name_points_into_the_template() -> None:
    text = (
        "import subprocess\n"
        'TEMPLATE = "python -m sglang.launch_server --model-path %s --port 30x00"\n'
        'subprocess.Popen(TEMPLATE % "m", shell=True)\n'
    )
    assert _found(text, "serve.py") == [("FLG005", 2, text.splitlines()[1].index("30x00") + 1)]

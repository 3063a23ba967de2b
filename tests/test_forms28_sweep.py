"""Launch forms seen in public SGLang launch files (SkyPilot's `sky launch ... -- COMMAND`,
commands kept in variables run by a login shell, CI files, Slurm, process managers, task
runners), each described by a fixture of our own (fixtures/shell/forms28): every launch is
found and read whole, or what speclint could not read is said (SLM004 partly read, SLM005 not
read), and no finding is a false error. Each finding is asserted at the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.frontends import extract_file

EXPECTED = {
    # `sky launch ... -- python -m sglang.launch_server ...` and `sky exec CLUSTER 'CODE'` read
    # as the task's bash command (before: SLM005 not read); `sky jobs launch` too (forms29)
    "shell/forms28/s01_sky_launch_command.sh": [
        ("FLG003", 10, 3, "--tp"),
        ("FLG005", 10, 60, "0.85x"),
        ("FLG005", 14, 92, "eight"),
        ("FLG003", 17, 87, "--tp"),
    ],
    # `CMD+=" --port 30x0"`, then `CMD="${CMD} --tp ${TP}"` in an `if`, run by `sh -lc "${CMD}"`:
    # the value where it is written, on both paths (before: at `${CMD}` on the path with TP)
    "shell/forms28/s02_login_shell_command_variable.sh": [
        ("FLG005", 6, 15, "30x0"),
        ("FLG003", 8, 15, "--tp"),
        ("SLM004", 10, 9, "${CMD}"),
        ("FLG005", 12, 90, "4k"),
    ],
    # `read -r -d '' CMD << EOF || true` (unquoted, `\` continued), `<<'EOF'`, `IFS= read`, then
    # eval / bash -c / sh -c: read at the here-document's words (before: SLM005 not read)
    "shell/forms28/s03_read_heredoc_command.sh": [
        ("FLG005", 9, 53, "0.88x"),
        ("FLG005", 14, 89, "two"),
        ("FLG003", 19, 57, "--tp"),
        ("FLG005", 20, 60, "three"),
    ],
    # `cat > docker-compose.yml << EOF` and `tee sglang-deploy.yaml << 'EOF'`: the compose file and
    # the manifest read as those files are (before: SLM005 / nothing)
    "shell/forms28/s04_compose_heredoc.sh": [("FLG005", 8, 121, "two"), ("FLG005", 29, 97, "8k")],
    # `nohup env CUDA_VISIBLE_DEVICES=6,7 python ...  > log 2>&1 &` after `conda activate`;
    # `unset` of proxies; `module load` and a lower-case variable (`--context-length 32k` is
    # SGLang's own human-readable int: no finding)
    "shell/forms28/s05_nohup_env_prefix.sh": [
        ("FLG003", 9, 3, "--tp"),
        ("FLG005", 11, 10, "80o1"),
        ("FLG003", 17, 125, "--dp"),
        ("FLG006", 22, 89, "fifo"),
    ],
    # timeout, numactl, stdbuf | tee, taskset, nice, ionice, chrt, env -i, sudo -u -E, setsid nohup,
    # time, command: each server read
    "shell/forms28/s06_process_wrappers.sh": [
        ("FLG005", 4, 67, "3000O"),
        ("FLG003", 5, 106, "--tp"),
        ("FLG005", 5, 111, "one"),
        ("FLG005", 6, 85, "lots"),
        ("FLG005", 7, 85, "90%"),
        ("FLG006", 8, 66, "bf16"),
        ("FLG006", 9, 79, "fp16"),
        ("FLG006", 10, 72, "safetensor"),
        ("FLG005", 11, 94, "x"),
        ("FLG005", 12, 80, "one"),
        ("FLG005", 13, 79, "lots"),
        ("FLG005", 14, 73, "all"),
        ("FLG005", 15, 75, "never"),
    ],
    # uv run, conda run -n, pixi run, poetry run, micromamba run, tmux new-session -d, screen -dmS
    "shell/forms28/s07_env_runners.sh": [
        ("FLG005", 3, 61, "1a"),
        ("FLG005", 4, 94, "2b"),
        ("FLG005", 5, 63, "3c"),
        ("FLG005", 6, 65, "4d"),
        ("FLG005", 7, 76, "5e"),
        ("FLG005", 8, 85, "6f"),
        ("FLG005", 9, 82, "7g"),
    ],
    # a server per GPU in a loop, srun --container-image, docker exec -it, sglang serve,
    # `cmd=$(printf '... %s' ...)` then `eval $cmd` (before: passed over in silence), and
    # `gcloud compute ssh VM --command "..."`, read as `ssh VM '...'` (before: SLM005)
    "shell/forms28/s08_gpu_loop_and_containers.sh": [
        ("FLG005", 6, 49, "0.8x"),
        ("FLG005", 9, 104, "two"),
        ("FLG006", 11, 47, "xgrammars"),
        ("FLG005", 13, 77, "30k"),
        ("FLG005", 16, 115, "2x"),
    ],
    # a systemd unit (ExecStart= continued, Environment=), supervisord's [program:x], a CI
    # workflow's run: step, a go-task Taskfile
    "shell/forms28/sglang-llm.service": [("FLG003", 13, 44, "--tp"), ("FLG005", 13, 86, "0.8x")],
    "shell/forms28/sglang-supervisord.conf": [("FLG005", 6, 106, "two")],
    "shell/forms28/gpu-e2e.yml": [("FLG003", 15, 123, "--tp"), ("FLG005", 15, 128, "1x")],
    "shell/forms28/Taskfile.yml": [("FLG006", 8, 97, "flashinfers")],
}

LAUNCHES = {
    "shell/forms28/s02_login_shell_command_variable.sh": 3,  # (with and without TP: two paths)
    "shell/forms28/s03_read_heredoc_command.sh": 3,
    "shell/forms28/s04_compose_heredoc.sh": 2,
    "shell/forms28/s05_nohup_env_prefix.sh": 3,
    "shell/forms28/s06_process_wrappers.sh": 12,
    "shell/forms28/s07_env_runners.sh": 7,
    "shell/forms28/s08_gpu_loop_and_containers.sh": 9,  # (the loop: one per GPU)
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


@pytest.mark.parametrize("relative", sorted(LAUNCHES))
def test_every_launch_is_found(relative: str) -> None:
    script = FixtureFile(relative)
    assert len(extract_file(str(script.path), script.text).launches) == LAUNCHES[relative]


def test_a_read_here_document_without_r_and_with_a_backslash_is_still_said_unread() -> None:
    from speclint.engine import lint_text

    script = "read -d '' CMD << 'EOF'\npython -m sglang.launch_server --model-path m \\\n  --port 1x\nEOF\neval \"$CMD\"\n"
    assert [(f.code, f.span.line) for f in lint_text(script, "run.sh").findings] == [("SLM005", 2)]


def test_a_printf_format_with_other_directives_is_not_read() -> None:
    for directive, value in (("%5s", "1"), ("%x", "30"), ("%d", "010"), ("%d", "0x10"), ("%d", "$PORT")):
        script = f"cmd=$(printf 'python -m sglang.launch_server --model-path %s --port {directive}' m {value})\neval $cmd\n"
        assert extract_file("run.sh", script).launches == [], directive + " " + value


def test_a_printf_integer_directive_given_a_decimal_integer_is_read_at_its_argument() -> None:
    script = "cmd=$(printf 'python -m sglang.launch_server --model-path %s --tp-size %d --port %i%%' m two +7)\neval $cmd\n"
    assert extract_file("run.sh", script).launches == []  # (`two`: bash's printf %d refuses it)
    script = script.replace("two", "2")
    (launch,) = extract_file("run.sh", script).launches
    assert [(w.text, w.span.column) for w in launch.args[-4:]] == [
        ("--tp-size", script.index("--tp-size") + 1),
        ("2", script.index(" 2 ") + 2),
        ("--port", script.index("--port") + 1),
        ("7%", script.index("+7") + 1),
    ]


def test_sky_gives_the_command_the_variables_of_env_and_no_others() -> None:
    script = FixtureFile("shell/forms28/s01_sky_launch_command.sh")
    first, second, third = extract_file(str(script.path), script.text).launches
    assert {name: word.text for name, word in first.env.items()} == {
        "HF_TOKEN": None,  # `--env HF_TOKEN`: this shell's value, which the environment gives
        "SGLANG_DISABLE_CUDNN_CHECK": "1",
    }
    assert second.env == third.env == {}


def test_sky_with_an_option_not_known_is_not_read_and_its_env_file_is_said_unread() -> None:
    from speclint.engine import lint_text

    script = (
        "sky launch -c c --unknown-option x -- python -m sglang.launch_server --model-path m --port 1x\n"
        "sky launch -c c --env-file .env -- python -m sglang.launch_server --model-path m --port 2x\n"
    )
    found = [(f.code, f.span.line) for f in lint_text(script, "run.sh").findings]
    assert found == [("SLM005", 1), ("SLM004", 2), ("FLG005", 2)]  # (2: its env file not read)
    launch = extract_file("run.sh", script).launches[0]
    assert launch.env_unread is not None and "--env-file .env" in (launch.env_unread.dynamic_reason or "")


def test_sky_env_of_an_unknown_value_and_exec_with_cluster_option() -> None:
    script = (
        "sky launch -c c --env HF_TOKEN=$HF_TOKEN -- python -m sglang.launch_server --model-path m\n"
        "sky exec --cluster=c -- python -m sglang.launch_server --model-path m --port 2x\n"
    )
    first, second = extract_file("run.sh", script).launches
    assert first.env["HF_TOKEN"].text is None and "$HF_TOKEN" in (first.env["HF_TOKEN"].dynamic_reason or "")
    assert [w.text for w in second.args] == ["--model-path", "m", "--port", "2x"]  # (no CLUSTER word)

"""Launch forms seen in public SGLang launch files, each described by a fixture of our own
(fixtures/shell/forms29): every launch is found and read whole, or what speclint could not read
is said (SLM004 partly read, SLM005 not read), and no finding is a false error. Each finding is
asserted at the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.frontends import extract_file

EXPECTED = {
    # `${VAR:-default}` / `${VAR-default}` inline and assigned once: findings at the default's
    # token say it holds only when VAR is unset (or empty)
    "shell/forms29/s01_env_defaults.sh": [
        ("FLG005", 11, 25, '"$MEM_FRAC"'),
        ("FLG005", 11, 51, "30k"),
        ("FLG005", 11, 56, "--tp-size=${TP:-two}"),
    ],
    # compose's `${MEM_FRAC:-0.8o}` (no .env): the same said
    "shell/forms29/docker-compose.yml": [("FLG005", 8, 41, "0.8o")],
    # `CMD=$(printf '... %x' ...)` then `eval "$CMD"` / `bash -c "$CMD2"` beside a launch read:
    # each said not read at the word that runs it (before: nothing, the file "passed")
    "shell/forms29/s03_printf_eval_beside.sh": [
        ("SLM005", 6, 7, "$CMD"),
        ("SLM005", 8, 10, "$CMD2"),
    ],
    # prlimit, setpriv, unshare, nsenter, chpst, with-contenv, s6-setuidgid, cgexec, authbind,
    # catchsegv, xvfb-run, daemonize: each server read (before: SLM005 not read); firejail,
    # coproc, start-stop-daemon --exec, pdsh: still said not read
    "shell/forms29/s04_privilege_and_limit_wrappers.sh": [
        ("FLG005", 4, 104, "1x"),
        ("FLG005", 5, 103, "2x"),
        ("FLG005", 6, 85, "3x"),
        ("FLG005", 7, 74, "4x"),
        ("FLG005", 8, 87, "5x"),
        ("FLG005", 9, 68, "6x"),
        ("FLG005", 10, 72, "7x"),
        ("FLG005", 11, 80, "8x"),
        ("FLG005", 12, 86, "8O"),
        ("FLG005", 13, 65, "9x"),
        ("FLG005", 14, 94, "10x"),
        ("SLM005", 15, 36, "python3 -m sglang.launch_server"),
        ("FLG005", 16, 102, "13x"),
        ("SLM005", 18, 8, "python3 -m sglang.launch_server"),
        ("SLM005", 19, 47, "/usr/bin/python3 -- -m sglang.launch_server"),
        ("SLM005", 20, 20, "python3 -m sglang.launch_server"),
    ],
    # make's `$(or $(SERVER_PORT),3OOOO)` read as its default, said so (before: SLM004 partly
    # read); `$(if $(TP),--tp-size $(TP),)` of a variable not set stays partly read; `docker run
    # $(REPO):$(VERSION) python3 -m ...` in a recipe
    "shell/forms29/Makefile": [
        ("FLG005", 12, 30, "3OOOO"),
        ("SLM004", 16, 3, "$(if $(TP),--tp-size $(TP),)"),
        ("FLG005", 20, 72, "0.7x"),
    ],
}

LAUNCHES = {
    "shell/forms29/s01_env_defaults.sh": 1,
    "shell/forms29/s02_sky_jobs_and_serve.sh": 2,  # (the job's command, the service's YAML)
    "shell/forms29/s03_printf_eval_beside.sh": 1,
    "shell/forms29/s04_privilege_and_limit_wrappers.sh": 12,
    "shell/forms29/Makefile": 3,
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


@pytest.mark.parametrize("relative", sorted(LAUNCHES))
def test_every_launch_is_found(relative: str) -> None:
    script = FixtureFile(relative)
    assert len(extract_file(str(script.path), script.text).launches) == LAUNCHES[relative]


def test_a_default_the_environment_decides_is_said_in_the_message_or_a_note() -> None:
    found = FixtureFile("shell/forms29/s01_env_defaults.sh").findings()
    assert found[1][4].endswith("(the default of ${PORT-30k}, used when PORT is unset)")
    assert found[2][4].endswith("(the default of ${TP:-two}, used when TP is unset or empty)")
    from speclint.engine import lint_text

    script = FixtureFile("shell/forms29/s01_env_defaults.sh")
    first = lint_text(script.text, str(script.path)).findings[0]
    # `MEM_FRAC="${MEM_FRAC:-0.9x}"` then `"$MEM_FRAC"`: said once, at the assignment
    assert [(n.span.line, n.span.column, n.message) for n in first.notes] == [
        (7, 17, "the default of ${MEM_FRAC:-0.9x}, used when MEM_FRAC is unset or empty")
    ]
    assert "the default of" not in first.message


def test_compose_default_is_said() -> None:
    (finding,) = FixtureFile("shell/forms29/docker-compose.yml").findings()
    assert finding[4].endswith("(the default of ${MEM_FRAC:-0.8o}, used when MEM_FRAC is unset or empty)")


def test_a_value_the_script_sets_is_not_said_to_be_a_default() -> None:
    from speclint.engine import lint_text

    script = 'PORT=""\npython -m sglang.launch_server --model-path m --port ${PORT:-3x}\n'
    (finding,) = lint_text(script, "run.sh").findings
    assert (finding.code, finding.span.column) == ("FLG005", 62)
    assert "the default of" not in finding.message  # PORT is empty here: the default always runs
    script = "python -m sglang.launch_server --model-path m --port ${PORT:-30000} --tp-size 3x\n"
    (finding,) = lint_text(script, "run.sh").findings
    assert "the default of" not in finding.message  # (a finding on another word)


def test_the_sky_task_yaml_reads_with_the_command_lines_env() -> None:
    """`sky jobs launch ... -- CMD` read as `sky launch` is; `sky serve up sky-serve.yaml --env
    TP=eight` reads the YAML next to the script with TP overridden; a command given to `sky
    serve up` (which SkyPilot refuses) stays said not read; a task YAML not on disk: nothing."""
    script = FixtureFile("shell/forms29/s02_sky_jobs_and_serve.sh")
    from speclint.engine import lint_text

    found = lint_text(script.text, str(script.path)).findings
    in_script = [(f.code, *script.at(f.span)) for f in found if f.span.file is None]
    assert in_script == [
        ("FLG005", 6, 95, "3000O"),
        ("SLM005", 12, 17, "python -m sglang.launch_server"),
    ]
    in_yaml = [
        (f.code, f.span.file.rsplit("/", 1)[-1], f.span.line, f.span.column) for f in found if f.span.file
    ]
    assert in_yaml == [("FLG005", "sky-serve.yaml", 12, 64), ("FLG006", "sky-serve.yaml", 13, 51)]
    eight = next(f for f in found if f.span.file and f.code == "FLG005")
    assert "`eight`" in eight.message
    assert [(n.span.file, n.span.line, n.span.column) for n in eight.notes] == [(str(script.path), 8, 52)]


def test_a_printf_launch_alone_in_a_file_is_still_said() -> None:
    from speclint.engine import lint_text

    script = "cmd=$(printf 'python -m sglang.launch_server --model-path %s --port %x' m 30)\neval $cmd\n"
    assert [(f.code, f.span.line) for f in lint_text(script, "run.sh").findings] == [("SLM005", 1)]
    script = "cmd=$(printf 'echo %x' 30)\neval $cmd\npython -m sglang.launch_server --model-path m\n"
    assert lint_text(script, "run.sh").findings == []  # (a printf that runs no launcher: nothing)


def test_make_or_default_is_said_and_a_set_value_wins() -> None:
    (first, *_) = FixtureFile("shell/forms29/Makefile").findings()
    assert first[4].endswith(
        "(the default of $(or $(SERVER_PORT),3OOOO), used when SERVER_PORT is unset or empty)"
    )
    text = "PORT := 4x\nserve:\n\tpython -m sglang.launch_server --model-path m --port $(or $(PORT),3OOOO)\n"
    from speclint.engine import lint_text

    (finding,) = lint_text(text, "Makefile").findings
    assert "`4x`" in finding.message and "the default of" not in finding.message


def test_nested_defaults_are_each_said_and_a_finding_on_the_flag_is_not() -> None:
    from speclint.engine import lint_text

    script = (
        "python -m sglang.launch_server --model-path m --dp-size ${DP:-${FALLBACK_DP:-x}} --bogus=${B:-1}\n"
    )
    dp, bogus = lint_text(script, "run.sh").findings
    assert (dp.code, dp.span.column) == ("FLG005", 78)  # (at `x`)
    assert dp.message.endswith(
        "(the default of ${FALLBACK_DP:-x}, used when FALLBACK_DP is unset or empty; "
        "the default of ${DP:-${FALLBACK_DP:-x}}, used when DP is unset or empty)"
    )
    assert bogus.code == "FLG001" and "the default of" not in bogus.message


def test_a_yaml_that_is_no_skypilot_task_is_not_read_as_one(tmp_path) -> None:
    from speclint.engine import lint_path

    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: s\n"
        "      image: lmsysorg/sglang:latest\n"
        "      command: [python3, -m, sglang.launch_server, --model-path, m, --port, 1x]\n"
    )
    (tmp_path / "task.yaml").write_text(
        "resources: {accelerators: H100:1}\nrun: python -m sglang.launch_server --model-path m --port 2x\n"
    )
    script = tmp_path / "run.sh"
    script.write_text("sky launch deploy.yaml\nsky launch -c c task.yaml\n")
    found = [(f.code, f.path.rsplit("/", 1)[-1], f.span.line) for f in lint_path(str(script)).findings]
    assert found == [("FLG005", "task.yaml", 2)]  # (the Pod is not what `sky launch` runs)


def test_a_printf_whose_argument_holds_the_launcher_is_said_too() -> None:
    from speclint.engine import lint_text

    script = (
        "python -m sglang.launch_server --model-path m &\n"
        'CMD=$(printf "%s --port %x" "python -m sglang.launch_server --model-path m" 30)\n'
        'eval "$CMD"\n'
    )
    (finding,) = lint_text(script, "run.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 7)
    assert "its `%x` directive, which speclint does not read" in finding.message

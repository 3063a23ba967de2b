"""Files of commands another program runs: Makefiles, justfiles, Procfiles, systemd units,
supervisord programs and tox environments, each read as its program reads it, with every
finding at the token in the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from findings_at import text_at
from frontend_checks import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path
from speclint.runner.walk import iter_lint_paths

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "commands"


def lint(name: str, text: str | None = None):
    return lint_text(text if text is not None else (FIXTURES / name).read_text(), name)


def found(result) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


def args(name: str, text: str) -> list[list[str | None]]:
    return [[w.text for w in launch.args] for launch in extract_file(name, text).launches]


@pytest.mark.parametrize(
    "name, kind",
    [
        ("Makefile", "makefile"),
        ("makefile", "makefile"),
        ("GNUmakefile", "makefile"),
        ("serve.mk", "makefile"),
        ("justfile", "justfile"),
        ("Justfile", "justfile"),
        (".justfile", "justfile"),
        ("Procfile", "procfile"),
        ("Procfile.dev", "procfile"),
        ("sglang.service", "systemd"),
        ("supervisord.conf", "supervisord"),
        ("tox.ini", "tox"),
    ],
)
def test_file_names(name, kind, tmp_path):
    assert file_kind(name) == kind
    (tmp_path / name).write_text("x\n")
    assert is_lintable_path(str(tmp_path / name))


def test_a_shell_suffix_is_a_shell_script_but_where_the_name_says_another_kind():
    assert file_kind("scripts/serve.sh", "python -m sglang.launch_server\n") == "shell"
    assert file_kind("serve.bash") == "shell" and file_kind("launch.json.sh") == "shell"
    assert file_kind("Procfile.sh") == "procfile"
    assert file_kind("ci/Dockerfile.sh") == "dockerfile" and file_kind("Containerfile.bash") == "dockerfile"
    assert file_kind("serve.Sh") is None  # (the suffixes are matched as written)


def test_a_conf_file_is_supervisords_only_with_a_program_command(tmp_path):
    program = tmp_path / "sglang.conf"
    program.write_text("[program:sglang]\ndirectory=/srv\ncommand=python -m sglang.launch_server\n")
    other = tmp_path / "nginx.conf"
    other.write_text("[program:x]\nuser=nobody\n[other]\ncommand=x\n")
    assert file_kind(str(program), program.read_text()) == "supervisord" and is_lintable_path(str(program))
    assert file_kind(str(other), other.read_text()) is None and not is_lintable_path(str(other))
    walked = [Path(p).name for p, _ in iter_lint_paths([str(tmp_path)])]
    assert walked == ["sglang.conf"]
    (diagnostic,) = extract_file(str(other), other.read_text()).diagnostics
    assert diagnostic.kind == "unsupported-input" and "supervisord program" in diagnostic.message


def test_makefile_recipe_with_continuations_and_variables():
    text = (FIXTURES / "Makefile").read_text()
    result = lint("Makefile", text)
    assert found(result) == [
        ("DRF011", 11, 54),  # the target's config.json is not on disk: at `$(MODEL)`
        ("DRF012", 12, 27),
        ("SPD003", 12, 27),
        ("SPD001", 13, 87),
        ("SLM004", 19, 3),
    ]
    drafter, _, draft_tokens, unread = result.findings[1:]
    assert text_at(text, drafter.span) == "EAGLE"
    assert "drafter whose name says EAGLE-3 ('lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B'" in drafter.message
    assert text_at(text, draft_tokens.span) == "16" and "runs with 4, not 16" in draft_tokens.message
    assert "`$(if ...)` is a make function" in unread.message
    serve, dev = extract_file("Makefile", text).launches
    model = serve.args[1]  # `$(MODEL)`: the value, pointing at the reference
    assert model.text == "meta-llama/Llama-3.1-8B-Instruct" and text_at(text, model.span) == "$(MODEL)"
    tp = serve.args[3]  # `$$TP` is the shell's `$TP`, set on the same recipe line
    assert tp.text == "2" and text_at(text, tp.span) == "$$TP" and tp.origin.line == 11
    assert [w.text for w in serve.args][-4:] == ["--port", "30000", "--host", "0.0.0.0"]  # `?=` default
    assert dev.args[2].splat and text_at(text, dev.args[2].span) == "$(if $(TP),--tp $(TP),)"


def test_make_variables_known_and_unknown():
    text = (
        "A = --tp-size $(B)\nB = 2\nexport CUDA_VISIBLE_DEVICES := 0,1\n"
        "ifeq ($(GPU),h100)\nC = --dp 2\nendif\nserve: D = 4\n# a comment \\\nB = 3\n"
        "serve:\n\tpython -m sglang.launch_server $(A) $(C) $(D) $(E) $@ --port=$(B)0\n"
    )
    launch, without_c = extract_file("Makefile", text).launches  # one per branch of the `ifeq`
    words = launch.args
    assert [w.text for w in words[:2]] == ["--tp-size", "2"]  # `=` expanded where it is used
    assert [w.text for w in words[2:4]] == ["--dp", "2"] and text_at(text, words[2].span) == "$(C)"
    assert launch.alternative.description == "`ifeq ($(GPU),h100)` at line 4 holds"
    assert without_c.alternative.description == "`ifeq ($(GPU),h100)` at line 4 does not hold"
    assert "$(C) is not set in this makefile" in without_c.args[2].dynamic_reason
    reasons = [w.dynamic_reason for w in words[4:7]]
    assert "target-specific value (line 7)" in reasons[0]
    assert "not set in this makefile" in reasons[1] and "automatic variable" in reasons[2]
    assert words[7].text == "--port=20" and text_at(text, words[7].span) == "--port=$(B)0"
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"


def test_docker_run_in_a_recipe_takes_the_image_tag_from_make_variables():
    text = (
        "REPO := lmsysorg/sglang\nVERSION := v0.5.6.post2\n\nrun:\n\tdocker run -it --rm \\\n\t--gpus all \\\n"
        "\t$(REPO):$(VERSION) \\\n\tpython3 -m sglang.launch_server \\\n\t  --model-path /models/llama --tp-szie 2\n"
    )
    result = lint_text(text, "docker.mk")
    assert found(result) == [("FLG001", 9, 31)] and "SGLang 0.5.6.post2 flag" in result.findings[0].message
    assert result.contexts[0].version.version == "0.5.6.post2"


def test_one_shell_runs_a_rules_lines_in_one_shell():
    recipe = "serve:\n\t@TP=2\n\t@python -m sglang.launch_server --tp-size $$TP\n"
    assert args("Makefile", recipe)[0][1] is None  # each line its own shell: $TP unset there
    assert args("Makefile", ".ONESHELL:\n" + recipe) == [["--tp-size", "2"]]


def test_a_launch_a_make_function_builds_is_reported():
    result = lint_text((ROOT / "fixtures" / "unread" / "Makefile").read_text(), "Makefile")
    assert found(result) == [("SLM005", 4, 2)] and result.contexts == []
    assert "`$(foreach ...)` is a make function that names the launcher" in result.findings[0].message


def test_systemd_exec_start_with_environment():
    text = (FIXTURES / "sglang.service").read_text()
    result = lint("sglang.service", text)
    assert found(result) == [("DRF011", 13, 18), ("SPD003", 14, 5), ("SPD001", 14, 69)]
    assert text_at(text, result.findings[0].span) == "${MODEL}"
    assert text_at(text, result.findings[1].span) == "$SPEC" and text_at(text, result.findings[2].span) == "8"
    assert "runs with 3, not 8" in result.findings[2].message
    (launch,) = extract_file("sglang.service", text).launches
    model = launch.args[1]  # `${MODEL}` from Environment=, quoted pair
    assert model.text == "/models/llama-3.1-8b-instruct" and text_at(text, model.span) == "${MODEL}"
    assert model.origin.line == 9
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert [w.text for w in launch.args[4:8]] == [
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-num-steps",
        "2",
    ]


def test_systemd_prefixes_specifiers_escapes_and_environment_files():
    unit = "[Service]\nEnvironment=TP=2\n{}\n"
    assert args(
        "a.service", unit.format("ExecStart=@/usr/bin/python3 py3 -m sglang.launch_server --tp $TP")
    ) == [["--tp", "2"]]
    assert args("a.service", unit.format("ExecStart=:python3 -m sglang.launch_server --tp $TP")) == [
        ["--tp", "$TP"]  # `:` no expansion: the text reaches SGLang
    ]
    text = unit.format('ExecStart=-python3 -m sglang.launch_server --served-model-name "a\\sb" %i --port $$5')
    (launch,) = extract_file("a.service", text).launches
    assert [w.text for w in launch.args][:2] == ["--served-model-name", "a b"]
    assert "systemd specifier" in (launch.args[2].dynamic_reason or "")
    assert launch.args[-1].text == "$5"
    with_file = "[Service]\nEnvironment=TP=2\nEnvironmentFile=/etc/sglang.env\nExecStart=python3 -m sglang.launch_server --tp ${TP}\n"
    (launch,) = extract_file("a.service", with_file).launches
    assert (
        launch.args[1].dynamic and "EnvironmentFile=/etc/sglang.env (line 3)" in launch.args[1].dynamic_reason
    )
    split = "[Service]\nEnvironment='ARGS=--served-model-name \"my model\" --tp 2'\nExecStart=python3 -m sglang.launch_server $ARGS\n"
    assert args("a.service", split) == [["--served-model-name", "my model", "--tp", "2"]]  # quotes respected
    two = "[Service]\nType=oneshot\nExecStart=python3 -m sglang.launch_server --tp 1 ; python3 -m sglang.launch_server --tp 2\n"
    assert args("a.service", two) == [["--tp", "1"], ["--tp", "2"]]
    broken = lint_text("[Service]\nExecStart=python3 -m sglang.launch_server --host '0.0.0.0\n", "a.service")
    assert found(broken) == [("SLM005", 2, 22), ("SLM001", 2, 50)]  # at the quote
    assert "systemd ignores this line" in broken.findings[1].message
    assert "(the quote opened here is never closed" in broken.findings[0].message


def test_procfile_line():
    text = (FIXTURES / "Procfile").read_text()
    result = lint("Procfile", text)
    assert found(result) == [("SLM004", 1, 50), ("FLG001", 1, 90)]
    assert (
        text_at(text, result.findings[1].span) == "--tp-szie"
        and "did you mean `--tp-size`" in result.findings[1].message
    )
    assert "$MODEL_PATH is not assigned in this file" in result.findings[0].message
    broken = lint_text("web: python -m sglang.launch_server --host '0.0.0.0\n", "Procfile")
    assert ("SLM001", 1, 44) in found(broken)  # read as the shell front-end reads a .sh file


def test_supervisord_program():
    text = (FIXTURES / "supervisord.conf").read_text()
    result = lint("supervisord.conf", text)
    assert found(result) == [("SLM004", 4, 42), ("SPD003", 5, 29), ("SPD004", 5, 93)]
    assert (
        "`%(ENV_SGLANG_PORT)s` is supervisord's environment variable SGLANG_PORT"
        in result.findings[0].message
    )
    assert text_at(text, result.findings[2].span) == "4" and "= 10, silently" in result.findings[2].message
    (launch,) = extract_file("supervisord.conf", text).launches
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0" and launch.env["HF_HOME"].text == "/models/hf"
    assert launch.args[3].splat  # a whole word of `%(...)s` may be several words
    inline = "[program:s]\ncommand=python -m sglang.launch_server --tp 2 $TP ;--tp 4\n"
    assert args("s.conf", inline) == [["--tp", "2", "$TP"]]  # no shell: `$TP` is text; `;` comment


def test_justfile_recipe():
    text = (FIXTURES / "justfile").read_text()
    result = lint("justfile", text)
    assert found(result) == [("SLM004", 7, 66), ("FLG003", 8, 66), ("FLG001", 8, 73)]
    assert "`{{port}}` is a recipe parameter" in result.findings[0].message
    (launch,) = extract_file("justfile", text).launches
    assert (
        launch.args[1].text == "meta-llama/Llama-3.1-8B-Instruct"
        and text_at(text, launch.args[1].span) == "{{model}}"
    )
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    shebang = "serve:\n    #!/usr/bin/env bash\n    TP=2\n    python -m sglang.launch_server --tp $TP\n"
    assert args("justfile", shebang) == [["--tp", "2"]]
    python = (
        "serve:\n    #!/usr/bin/env python3\n    import os; os.system('python -m sglang.launch_server')\n"
    )
    assert [f.code for f in lint_text(python, "justfile").findings] == ["SLM005"]


def test_tox_commands():
    text = (FIXTURES / "tox.ini").read_text()
    result = lint("tox.ini", text)
    assert found(result) == [("FLG001", 8, 21), ("SLM004", 8, 33)]
    assert "`{posargs}` is the arguments given to tox" in result.findings[1].message
    ignored = "[testenv]\ncommands =\n    - python -m sglang.launch_server --tp 2\n    !python -m sglang.launch_server --tp 3\n"
    assert args("tox.ini", ignored) == [["--tp", "2"], ["--tp", "3"]]
    assert args("tox.ini", "[tox]\ncommands = python -m sglang.launch_server --tp 2\n") == []


VOCABULARY = [
    '"', "'", "\\", "\n", "\t", " ", "$", "$$", "$(", "${", "}", ")", "{{", "}}", "%(", "%", ":", "=",
    ";", "#", "@", "-", "\\\n", "[program:x]\ncommand=", "[Service]\nExecStart=", "[testenv]\ncommands =",
    "python -m sglang.launch_server ", "--tp ", "2", "define X\n", "endef\n", "ifeq (a,b)\n", "endif\n",
    "\\x4", "\\u12", "\\0", "X := ", "export ", "serve:\n\t", "web: ", "{posargs}", "#!/bin/bash\n",
]  # fmt: skip


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(["Makefile", "justfile", "Procfile", "a.service", "supervisord.conf", "tox.ini"]),
    st.lists(st.sampled_from(VOCABULARY) | st.text(max_size=4), max_size=60),
)
def test_random_tokens_never_raise(name, parts):
    check("# sglang\n" + "".join(parts), name)

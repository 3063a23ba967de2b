"""Task runners configured in TOML: pixi (`pixi.toml`: `[tasks]`, a feature's tasks, `cmd` as
a string or a list, `env`, `[activation.env]`, `{{ arg }}` templates) and poethepoet
(`[tool.poe.tasks]` of pyproject.toml: a string, `cmd`, `shell`, `env`, `[tool.poe.env]`,
a sequence's inline tasks). Each word points where the TOML string writes it (basic,
literal and multi-line strings). Before, these files were not read: SLM001 (no front-end)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path

PIXI = FixtureFile("commands/pixi.toml")
POE = FixtureFile("commands/poe/pyproject.toml")


def test_pixi_tasks_are_checked_at_their_words() -> None:
    findings = PIXI.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 11, 68, "--mem-fraction-statics"),
        ("FLG005", 20, 31, "three"),
        ("SLM004", 27, 52, "{{ model }}"),
        ("FLG006", 27, 96, "flashinfers"),
        ("FLG005", 33, 22, "'eighty'"),
        ("SLM005", 37, 8, '"python -m sglang.launch_server --model-path x"'),
    ]
    assert "did you mean `--mem-fraction-static`?" in findings[0][4]
    assert "invalid int value: 'three'" in findings[1][4]  # (an item of `cmd = [...]`)
    assert "`{{ model }}` is filled in when pixi runs the task (a task argument)" in findings[2][4]
    assert "invalid int value: 'eighty'" in findings[4][4]  # (a multi-line string's third line)
    assert findings[5][4] == (
        "speclint did not read this string, which runs `sglang.launch_server`: only pixi tasks, "
        "poe `cmd`/`shell` tasks, PDM and Hatch scripts and mise tasks are read in a TOML file, so "
        "nothing in it was checked"
    )


def test_pixi_env_and_activation_env_are_the_launchs_environment() -> None:
    launches = extract_file(str(PIXI.path), PIXI.text).launches
    assert len(launches) == 4  # (the commented task and `check` are not launches)
    assert launches[0].env["HF_HOME"].text == "/data/hf"
    env = launches[1].env
    assert env["CUDA_VISIBLE_DEVICES"].text == "0"
    assert env["TOKENIZERS"].text is None
    assert "`$HOME/tok` names a variable, worked out when pixi runs the task" in (
        env["TOKENIZERS"].dynamic_reason or ""
    )


def test_poe_tasks_are_checked_at_their_words() -> None:
    findings = POE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 11, 70, "${PORT}"),
        ("FLG005", 11, 88, "two"),
        ("FLG001", 17, 27, "--chunked-prefil-size"),
        ("FLG006", 22, 82, "fp9"),
        ("FLG005", 27, 88, "many"),
    ]
    assert "`PORT` is this default only where the environment poe runs in does not set it" in findings[0][4]
    assert "did you mean `--chunked-prefill-size`?" in findings[2][4]  # (a ''' cmd: its lines one command)
    assert "invalid choice: 'fp9'" in findings[3][4]  # (a `shell` task)
    assert "invalid int value: 'many'" in findings[4][4]  # (an inline task of a sequence)
    # (the hatch script at line 31 is a launch: tests/test_toml_scripts.py)


def test_poe_env_is_the_launchs_environment() -> None:
    launches = extract_file(str(POE.path), POE.text).launches
    assert [launch.args[1].text for launch in launches] == ["Qwen/Qwen3-8B"] * 5  # (4 poe, 1 hatch)
    assert launches[1].env["SGLANG_LOG_LEVEL"].text == "debug"
    assert "SGLANG_LOG_LEVEL" not in launches[0].env


def test_toml_files_are_read_by_name_and_a_file_not_read_says_so(tmp_path) -> None:
    assert file_kind("pixi.toml") == "pixi"
    assert file_kind("x/pyproject.toml") == "pyproject"
    assert is_lintable_path("x/pixi.toml") and is_lintable_path(str(POE.path))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert not is_lintable_path(str(tmp_path / "pyproject.toml"))  # (a folder walk reads one naming sglang)
    text = '[tool.other]\nserve = "python -m sglang.launch_server --model-path m"\n'
    (finding,) = lint_text(text, "pyproject.toml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 2, 20)
    assert "names `sglang.launch_server` but speclint found no launch in it" in finding.message


def test_a_file_that_is_not_toml_is_a_syntax_error_at_tomllibs_place() -> None:
    text = '[tasks]\nserve = "python -m sglang.launch_server --tp 2\n'
    codes = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "pixi.toml").findings]
    assert ("SLM001", 2, 47, "not TOML (Illegal character '\\n'): nothing in this file was read") in codes
    assert any(code[0] == "SLM005" for code in codes)


def test_escapes_and_literal_strings_keep_each_words_place() -> None:
    text = '[tasks]\nserve = { cmd = "python -m sglang.launch_server --model-path m --tp \\u0032x" }\n'
    (finding,) = [f for f in lint_text(text, "pixi.toml").findings if f.code == "FLG005"]
    assert (finding.span.line, finding.span.column, finding.span.end_column) == (2, 69, 76)  # `\u0032x`
    assert "invalid int value: '2x'" in finding.message
    text = "[tool.poe.tasks]\nserve = 'python -m sglang.launch_server --model-path m --tp \\x'\n"
    (finding,) = [f for f in lint_text(text, "pyproject.toml").findings if f.code == "FLG005"]
    assert (finding.span.line, finding.span.column, finding.span.end_column) == (2, 61, 63)
    assert "invalid int value: 'x'" in finding.message  # (a literal string: `\x` is shell's escape)


def test_every_kind_of_toml_string_decodes_as_tomllib_reads_it_each_character_at_its_place() -> None:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib

    from speclint.frontends.commands.toml_text import TomlDocument, TomlString, read_toml

    text = (
        '[a]\nb.c = "x\\ty\\u00e9"\nd = \'raw\\n\'\ne = """\nline \\\n    joined ""quoted"""""\n'
        "f = '''\nkeep\\n ''x'''''\n[[g]]\nh = { i = [\"j\", 'k'] }\n"
    )
    document = read_toml(text)
    assert isinstance(document, TomlDocument)
    expected = tomllib.loads(text)
    assert [s.value for s in document.strings] == [
        expected["a"]["b"]["c"],
        expected["a"]["d"],
        expected["a"]["e"],
        expected["a"]["f"],
        "j",
        "k",
    ]
    for string in document.strings:
        assert isinstance(string, TomlString)
        for char, begin, end, _ in string.chars:
            if end == begin + 1:
                assert text[begin] == char  # (an escape maps to the whole escape)


def test_tool_pixi_in_pyproject_and_a_targets_tasks_are_read() -> None:
    text = (
        "[tool.pixi.target.linux-64.tasks]\n"
        'serve = { cmd = "python -m sglang.launch_server --model-path m --tp-sizes 2" }\n'
    )
    (finding,) = lint_text(text, "pyproject.toml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 2, 64)
    assert "did you mean `--tp-size`?" in finding.message


def test_a_poe_script_run_by_python_is_said_not_read_and_a_comment_line_disables_a_finding() -> None:
    text = (
        '[tool.poe.tasks]\nok = "python -m sglang.launch_server --model-path m"\n'
        '[tool.poe.tasks.py]\ninterpreter = "python"\n'
        "shell = \"import os; os.system('python -m sglang.launch_server --model-path m')\"\n"
    )
    (finding,) = lint_text(text, "pyproject.toml").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 5, 9)
    assert "speclint did not read this string, which runs `sglang.launch_server`" in finding.message
    text = '[tasks]\n# speclint: disable=FLG001\nserve = "python -m sglang.launch_server --model-path m --tp-sizes 2"\n'
    assert lint_text(text, "pixi.toml").findings == []
    assert [f.code for f in lint_text(text.replace("# speclint", "# x"), "pixi.toml").findings] == ["FLG001"]


POE_ENVFILE = FixtureFile("commands/poe_envfile/pyproject.toml")
POE_TASKS = FixtureFile("commands/poe_tasks/poe_tasks.toml")


def test_poe_envfiles_are_read_from_disk_beside_the_pyproject() -> None:
    findings = POE_ENVFILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 14, 86, "${TP}"),
        ("SLM004", 17, 52, "${MODEL}"),
        ("FLG005", 21, 115, "${STEPS}"),
        ("SLM005", 32, 10, '"sglang.launch_server:run_server"'),
        ("SLM005", 35, 8, "\"subprocess.call(['python', '-m', 'sglang.launch_server'])\""),
    ]
    assert "invalid int value: 'two'" in findings[0][4]  # (`export TP="two"` in .env)
    assert (
        "`MODEL` may be set again: poe loads the envfile `local.env` (line 18), not on disk, which may set it"
        in findings[1][4]
    )
    assert "`MEM` may be set again" in findings[1][4]
    assert findings[3][4] == (
        "speclint did not read this launch: the poe `script` task at line 32, which names `sglang.launch_server`: "
        "poe imports and calls it in Python, which speclint never does, so nothing in it was checked"
    )
    assert "poe evaluates it in Python, which speclint never does" in findings[4][4]


def test_poe_envfile_values_and_a_sequences_env_reach_the_tasks_it_runs() -> None:
    launches = extract_file(str(POE_ENVFILE.path), POE_ENVFILE.text).launches
    assert len(launches) == 5  # serve, serve-local, serve-eagle, then `up`: serve-eagle and serve with TP=4
    serve = launches[0]
    assert (serve.env["MODEL"].text, serve.env["TP"].text, serve.env["PORT"].text) == (
        "Qwen/Qwen3-8B",
        "two",
        "30000",
    )
    assert (serve.env["MODEL"].span.line, serve.env["MODEL"].span.column) == (7, 11)  # (`envfile = ".env"`)
    assert [launch.env["TP"].text for launch in launches[3:]] == ["4", "4"]
    assert launches[4].args[5].text == "4"  # (`--tp-size ${TP}` of `serve`, run by `up`)


def test_poe_tasks_toml_is_read_with_its_settings_at_the_top() -> None:
    assert file_kind("x/poe_tasks.toml") == "poe" and is_lintable_path(str(POE_TASKS.path))
    findings = POE_TASKS.findings()
    assert [f[:4] for f in findings] == [
        ("FLG005", 8, 71, "${SGLANG_PORT}"),
        ("FLG006", 8, 106, "flashinfers"),
    ]
    assert "invalid int value: 'port-8080'" in findings[0][4]  # (`dev`'s env, running `serve`)
    launches = extract_file(str(POE_TASKS.path), POE_TASKS.text).launches
    assert launches[0].env["MODEL_ID"].text == "meta-llama/Llama-3.1-8B-Instruct"  # (.env.example)


def test_an_envfile_value_speclint_does_not_parse_is_unknown_with_its_reason(tmp_path) -> None:
    (tmp_path / ".env").write_text("MODEL='Qwen/Qwen3-8B' # the model\nTP=2\\\n  3\n")
    text = '[tool.poe]\nenvfile = ".env"\n[tool.poe.tasks]\nserve = "python -m sglang.launch_server --model-path $MODEL --tp-size $TP"\n'
    path = tmp_path / "pyproject.toml"
    (launch,) = extract_file(str(path), text).launches
    assert launch.env["MODEL"].text == "Qwen/Qwen3-8B"
    assert launch.env["TP"].text is None
    assert "`TP` in .env (line 2) has a backslash outside quotes" in (launch.env["TP"].dynamic_reason or "")
    (finding,) = lint_text(text, str(path)).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM004", 4, 71)


POE_GROUPS = FixtureFile("commands/poe_groups/pyproject.toml")


def test_poe_group_parallel_and_switch_tasks_are_read_and_an_include_too() -> None:
    findings = POE_GROUPS.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 18, 88, "--tp-szie"),  # a group's task
        ("FLG006", 21, 99, "halff"),  # an inline task of a `parallel`
        ("FLG001", 27, 70, "--mem-fraction-statc"),  # the default case of a `switch`
        ("FLG003", 2, 66, "e, a"),  # (the span is in tasks/extra.toml: `--tp`, below)
    ]
    (abbreviated,) = [f for f in lint_text(POE_GROUPS.text, str(POE_GROUPS.path)).findings if f.span.file]
    assert (abbreviated.path, abbreviated.span.column) == (
        str(POE_GROUPS.path.parent / "tasks" / "extra.toml"),
        66,
    )
    assert abbreviated.message.startswith("`--tp` abbreviates `--tp-size`")
    launches = extract_file(str(POE_GROUPS.path), POE_GROUPS.text).launches
    # `tasks`, then the groups, then the included file's task (its `bench`, read from disk:
    # tests/test_poe_include.py)
    assert [launch.span.line for launch in launches] == [26, 27, 18, 21, 2]
    assert launches[-1].span.file == str(POE_GROUPS.path.parent / "tasks" / "extra.toml")
    assert {launch.env["SGLANG_PORT"].text for launch in launches} == {"30000"}  # [tool.poe.env]

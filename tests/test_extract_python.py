"""Python front-end: argv lists, shell strings and keyword APIs, with exact positions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import text_at

from speclint.engine import lint_text
from speclint.frontends import extract_file, file_kind, is_lintable_path
from speclint.settings.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "python"
KIMI = LintOptions(
    model_configs=(
        ("/models/Kimi-K2.5", str(ROOT / "fixtures/models/kimi-k2.5")),
        ("/models/kimi-eagle3", str(ROOT / "fixtures/models/eagle3-kimi-k2.5")),
    )
)


def read(name: str) -> str:
    return (FIXTURES / name).read_text()


def launches(name: str):
    return extract_file(str(FIXTURES / name), read(name)).launches


def findings(name: str, options: LintOptions = LintOptions()):
    return lint_text(read(name), "x.py", options).findings


def test_argv_list_built_with_constants_plus_append_extend_and_star():
    launch, called = launches("kimi_eagle_wrapper.py")  # main(port) alone, and main(30000) of the file
    assert (
        called.args[10].text == "30000" and called.args[10].span.line == 18
    )  # written in main(), given at line 24
    assert called.alternative.conditions[0].description == "main() is called at line 24"
    texts = [w.text for w in launch.args]
    assert texts == [
        "--model-path",
        "/models/Kimi-K2.5",
        "--trust-remote-code",
        "--tp",
        "8",
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-draft-model-path",
        "/models/kimi-eagle3",
        "--port",
        None,
        "--host",
        "0.0.0.0",
    ]
    model = launch.args[1]
    assert (model.span.line, text_at(read("kimi_eagle_wrapper.py"), model.span)) == (13, "TARGET")
    assert model.origin is not None and model.origin.line == 7
    assert launch.args[6].span.line == 16  # cmd.append("EAGLE")
    assert launch.args[10].dynamic and "port" in launch.args[10].dynamic_reason
    assert launch.env["CUDA_VISIBLE_DEVICES"].text == "0,1,2,3,4,5,6,7"
    assert launch.span.line == 20  # the Popen call


def test_seed_eagle_with_eagle3_drafter_reported_at_the_list_item():
    [drf] = [f for f in findings("kimi_eagle_wrapper.py", KIMI) if f.code == "DRF001"]
    assert (drf.span.line, drf.span.column) == (16, 17)
    assert text_at(read("kimi_eagle_wrapper.py"), drf.span) == "EAGLE"


def test_engine_topk1_override_reported_at_the_keyword_line():
    [spd] = [f for f in findings("engine_topk1.py") if f.code == "SPD001"]
    assert (spd.span.line, spd.span.column) == (10, 34)
    assert text_at(read("engine_topk1.py"), spd.span) == "16"


def test_engine_inline_text():
    text = (
        "import sglang as sgl\nllm = sgl.Engine(model_path='/m', speculative_algorithm='EAGLE',\n"
        "    speculative_draft_model_path='/d', speculative_eagle_topk=1,\n"
        "    speculative_num_steps=1, speculative_num_draft_tokens=16)\n"
    )
    [spd] = [f for f in lint_text(text, "x.py").findings if f.code == "SPD001"]
    assert (spd.span.line, spd.span.column) == (4, 59)


def test_keyword_apis_dict_merges_update_and_unknown_field():
    engine, server_args, popen, dynamic = launches("keyword_apis.py")
    assert engine.kwargs_style and engine.entry == "sglang.Engine"
    pairs = {k.text: v.text for k, v in engine.kwargs}
    assert pairs == {
        "model_path": "'/models/llama'",
        "tp_size": "2",
        "speculative_algorithm": "'EAGLE3'",
        "speculative_draft_model_path": "'/models/llama-eagle3'",
        "speculative_eagle_topk": "1",
        "speculative_num_steps": "1",
        "speculative_num_draft_tokens": "16",
        "max_running_requests": "32",
    }
    draft_tokens = [k for k, _ in engine.kwargs if k.text == "speculative_num_draft_tokens"][0]
    assert draft_tokens.span.line == 9 and draft_tokens.expanded_at.line == 11
    assert server_args.entry == "ServerArgs" and server_args.kwargs[1][0].text == "cuda_graph_max_bs"
    assert [w.text for w in popen.args][:4] == ["--model-path", "/models/llama", "--tp-size", "2"]
    assert [w.text for w in popen.args][5] == "0.8"
    assert dynamic.kwargs[1][0].splat and dynamic.kwargs[1][0].text is None
    found = {(f.code, f.span.line) for f in findings("keyword_apis.py")}
    assert ("SPD001", 9) in found  # CONFIG["speculative_num_draft_tokens"] = 16
    assert ("VER001", 13) in found  # cuda_graph_max_bs= (a field up to 0.5.13.post1) is a TypeError on 0.5.23
    assert ("FLG001", 13) not in found  # one finding per token
    assert ("FLG001", 19) in found  # popen_launch_server other_args


def test_unknown_kwargs_make_settings_dynamic():
    text = (
        "import sglang\ndef f(extra):\n    sglang.Engine(model_path='/m', speculative_algorithm='EAGLE',"
        " speculative_draft_model_path='/d', speculative_eagle_topk=1, speculative_num_steps=1,"
        " speculative_num_draft_tokens=16, **extra)\n"
    )
    assert not [f for f in lint_text(text, "x.py").findings if f.code in ("SPD001", "FLG011")]


def test_shell_strings_positions_map_back():
    text = read("shell_strings.py")
    fstring, system, helper, execvp, asyncio_exec = launches("shell_strings.py")
    assert text_at(text, fstring.args[2].span) == "--tp-szie" and fstring.args[1].text == "/models/llama"
    assert system.args[-1].text == "2" and system.args[-1].span.line == 10
    flag = helper.args[2]
    assert flag.text == "--speculative-eagle-top-k" and (flag.span.line, flag.span.column) == (14, 2)
    assert execvp.span.line == 17 and text_at(text, execvp.args[2].span) == "--tp-szie"
    assert asyncio_exec.args[-1].splat


def test_branches_are_alternatives_and_loops_make_values_dynamic():
    text = (
        "import subprocess, sys\ncmd = ['python', '-m', 'sglang.launch_server', '--model-path', 'm']\n"
        "if sys.argv[1:]:\n    cmd += ['--tp', '2']\nfor x in sys.argv:\n    subprocess.run(['sglang', 'serve', x])\n"
        "subprocess.run(cmd)\nfor y in sys.argv:\n    cmd += [y]\nsubprocess.run(cmd)\n"
    )
    result = extract_file("x.py", text)
    loop, with_tp, without, after_loop = result.launches
    assert loop.args[0].dynamic
    assert [w.text for w in with_tp.args] == ["--model-path", "m", "--tp", "2"]  # one launch per arm
    assert [w.text for w in without.args] == ["--model-path", "m"]
    assert (with_tp.alternative.index, without.alternative.index) == (0, 1)
    assert [w.text for w in after_loop.args][:2] == ["--model-path", "m"] and after_loop.args[2].splat


def test_syntax_error_is_one_diagnostic():
    result = extract_file("broken.py", read("syntax_error.py"))
    assert result.launches == [] and [d.kind for d in result.diagnostics] == ["syntax-error"]
    assert result.diagnostics[0].span.line == 4


def test_no_sglang_is_cheap_and_empty(monkeypatch):
    result = extract_file("plain.py", read("no_sglang.py"))
    assert result.launches == [] and result.diagnostics == []
    code = (
        "import sys, speclint.engine as l; l.lint_text(open(sys.argv[1]).read(), sys.argv[1]);"
        "print('libcst' in sys.modules, 'yaml' in sys.modules)"
    )
    for path in (FIXTURES / "no_sglang.py", ROOT / "fixtures/shell/kimi_eagle_launch.sh"):
        out = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, check=True
        ).stdout
        assert out.strip() == "False False"
    import speclint.frontends.python.extract as python_extract

    parsed: list[str] = []  # a file that never names SGLang is not parsed at all
    monkeypatch.setattr(python_extract, "extract_python", lambda text, path: parsed.append(path))
    big = "import os\n" + "x = os.path.join('a', 'b')\n" * 20000
    assert extract_file("big.py", big).launches == [] and parsed == []


def test_dispatch():
    assert file_kind("a.py") == "python" and file_kind("k.yml") == "yaml" and file_kind("R.md") == "markdown"
    assert is_lintable_path("a.py") and is_lintable_path("b.yaml") and is_lintable_path("c.md")
    assert not is_lintable_path("a.txt")


def test_comments_are_collected():
    text = "import sglang  # speclint: ignore\n"
    assert extract_file("x.py", text).comments[0][1] == "# speclint: ignore"


LAUNCH_LINE = 'subprocess.run(["python", "-m", "sglang.launch_server", "--tp", "2"])\n'


def _tp_position(text: str) -> tuple[int, int]:
    [finding] = [f for f in lint_text(text, "w.py").findings if f.code == "FLG003"]
    return finding.span.line, finding.span.column


def test_a_line_holding_only_a_backslash_keeps_later_positions_exact():
    # libcst drops such a line and would report the launch one line early
    text = "import subprocess\nx = 1\n\\\ny = 2\n" + LAUNCH_LINE
    assert _tp_position(text) == (5, LAUNCH_LINE.index("--tp") + 1)
    indented = "import subprocess\nif True:\n    x = 1\n    \\\n    y = 2\n" + LAUNCH_LINE
    assert _tp_position(indented) == (6, LAUNCH_LINE.index("--tp") + 1)


def test_a_backslash_line_inside_a_string_is_left_alone():
    text = 'import subprocess\ns = """\n\\\n"""\n' + LAUNCH_LINE
    assert _tp_position(text) == (5, LAUNCH_LINE.index("--tp") + 1)
    from speclint.frontends.python.select import lone_backslashes_as_comments

    assert lone_backslashes_as_comments(text) == text
    assert lone_backslashes_as_comments("x = 1\n\\\ny = 2\n") == "x = 1\n#\ny = 2\n"
    assert lone_backslashes_as_comments("x = 1\n  \\\ny = 2\n") == "x = 1\n  \\\ny = 2\n"

"""`python -m MODULE` run from a Python argv list: a module of SGLang's that speclint does not
read as a launch is said unread (SLM005, as in shell: `frontends/shell/sglang_modules.py`),
and a module handed to a helper of the file as a parameter is read per call
(`calls.walk_call_sites`: a function that launched nothing alone, called with a string
naming SGLang), or from the parameter's default."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("python/entry_module_argv.py")


def test_unread_modules_are_said_and_modules_through_a_helper_are_checked() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in FILE.findings()]
    assert found == [
        ("SLM005", 10, 52, "module"),  # start_module("sglang.bench_latency", ...): no release has it
        ("SLM005", 17, 37, "sglang.launch_serve"),
        ("SLM005", 18, 42, "sglang.compile_deep_gemm"),
        ("FLG005", 19, 74, "two"),  # start_module("sglang.launch_server", [...])
        ("FLG005", 20, 48, "eighty"),  # start_default([...]): the module is the default
    ]


def test_the_notes_name_the_module_and_why() -> None:
    notes = {line: message for code, line, _, _, message in FILE.findings() if code == "SLM005"}
    assert notes[10] == (
        "speclint did not read this command: no SGLang release speclint read (0.4.0 to 0.5.23) runs "
        "`sglang.bench_latency` as a script, so what it does with its arguments is not known; "
        "nothing in it was checked"
    )
    assert "`sglang.compile_deep_gemm` parses SGLang's server flags" in notes[18]


def test_each_helper_launch_is_read_with_the_call_s_values() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(FILE.path), FILE.text).launches
    assert [(launch.span.line, [w.text for w in launch.args][:2]) for launch in launches] == [
        (10, ["--model-path", "m"]),  # the helper's `subprocess.Popen(...)`, walked for line 19
        (14, ["--model-path", "m"]),
    ]

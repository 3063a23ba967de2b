"""Python launch forms of issue 14: command strings split or joined, argv from helper
functions, class attributes of test classes, snippets without imports, and relations
between unknown values. Each fixture describes its form; findings are asserted at the
token they point at."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "python"


def read(name: str) -> str:
    return (FIXTURES / name).read_text()


def found(name: str) -> list[tuple]:
    """(code, line, column, the text the finding points at) of every finding."""
    return findings_at(read(name), str(FIXTURES / name))


def launches(name: str):
    return extract_file(str(FIXTURES / name), read(name)).launches


def test_shlex_split_fstring_join_and_str_split():
    assert found("shlex_and_join.py") == [
        ("DRF011", 14, 52, "{MODEL}"),  # the f-string field, known through MODEL
        ("SLM004", 14, 67, "{port}"),  # the field speclint cannot know
        ("SPD001", 16, 90, "8"),  # inside the split string, at the token
        ("FLG001", 20, 75, "--tp-szie"),  # " ".join([...]) handed to os.system
        ("FLG003", 23, 68, "--mem-fraction"),  # line.split(): where the string is written
    ]
    split, joined, method = launches("shlex_and_join.py")
    port = split.args[3]
    assert split.args[2].text == "--port" and port.text is None and not port.splat
    assert "find_free_port" in port.dynamic_reason  # an f-string field: one unknown word
    assert [w.text for w in split.args[-2:]] == ["--max-running-requests", "32"]  # `+ [...]`
    assert (
        split.span.line == 18 and joined.span.line == 20 and method.span.line == 24
    )  # shell text: its words


def test_argv_returned_by_a_helper_function():
    assert found("helper_argv.py") == [
        ("DRF011", 12, 29, "model"),
        ("SLM004", 19, 40, "str(steps)"),  # start(steps): unknown
        ("SPD001", 20, 48, "8"),
    ]
    from_start, module_level = launches("helper_argv.py")
    assert [w.text for w in module_level.args[:4]] == [
        "--model-path",
        "/models/llama",
        "--trust-remote-code",
        "--port",
    ]
    assert module_level.args[4].text == "31000"  # the keyword argument beat the default
    steps = from_start.args[
        from_start.args.index(next(w for w in from_start.args if w.text == "--speculative-num-steps")) + 1
    ]
    assert steps.text is None and steps.dynamic_reason == "parameter `steps` of start()"
    assert steps.identity is not None and steps.identity.name == "steps"


def test_class_attributes_set_in_setup_and_read_in_another_method():
    assert found("unittest_class_args.py") == [
        ("DRF011", 11, 44, "self.model"),
        ("SPD001", 22, 48, "6"),
        ("FLG003", 31, 46, "--mem-fraction"),
    ]
    eagle, based = launches("unittest_class_args.py")
    assert eagle.args[1].text == "/models/llama"  # cls.model, set after the method that reads it
    assert [w.text for w in based.args[2:]] == ["--tp-size", "2", "--mem-fraction", "0.7"]


def test_snippets_without_imports_and_no_false_launch():
    assert found("snippet_without_imports.py") == [
        ("DRF011", 4, 29, '"/models/llama"'),
        ("SPD001", 6, 98, "16"),
        ("FLG001", 8, 84, "--tp-szie"),
        ("FLG003", 10, 102, "--dp"),
        ("FLG001", 10, 109, "--tp-sise"),
        ("FLG002", 12, 70, "--cuda-graph-max-bs"),
    ]
    entries = [launch.entry for launch in launches("snippet_without_imports.py")]
    assert len(entries) == 4 and entries[0] == "sglang.Engine"  # not `Engine(url=...)` of line 15


def test_unknown_values_keep_their_identity_k_to_k_plus_one():
    assert found("unknown_relations.py") == [
        ("SLM004", 10, 34, "model"),
        ("SPD001", 11, 103, "k"),
        ("SLM004", 16, 34, "model"),  # run_right: k + 1, nothing else to say
        ("DRF011", 24, 81, "/models/llama"),
        ("SLM004", 26, 50, "str(k)"),
        ("SPD001", 27, 59, "{k}"),
    ]
    [keyword] = [
        f
        for f in lint_text(read("unknown_relations.py"), "x.py").findings
        if f.code == "SPD001" and f.span.line == 11
    ]
    assert "(k → k + 1;" in keyword.message and "whatever k is" in keyword.message
    assert "pass k - 1 as the steps" in keyword.fix_hint


def test_explain_shows_the_symbolic_change():
    out = subprocess.run(
        [sys.executable, "-m", "speclint", "explain", str(FIXTURES / "unknown_relations.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    assert out.count("speculative_num_draft_tokens: k (unknown) → k + 1 (unknown)") == 2
    assert "speculative_num_draft_tokens: k + 1 (unknown)\n" in out  # run_right: nothing changes
    import json

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "speclint",
            "explain",
            "--output-format",
            "json",
            str(FIXTURES / "unknown_relations.py"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    [change] = [a for a in json.loads(out)[0]["adjustments"] if a["field"] == "speculative_num_draft_tokens"]
    assert change["symbolic"] == {"from": "k", "to": "k + 1"} and change["from"] is None


def test_same_name_in_two_functions_is_not_one_value():
    text = (
        "import sglang as sgl\n"
        "def a(k):\n    steps = k\n"
        "def b(k):\n    sgl.Engine(model_path='m', speculative_algorithm='EAGLE', speculative_draft_model_path='d',\n"
        "        speculative_num_steps=steps, speculative_eagle_topk=1, speculative_num_draft_tokens=k,\n"
        "        max_running_requests=4)\n"
    )
    assert [f.code for f in lint_text(text, "x.py").findings if f.code == "SPD001"] == []


def test_drafter_named_eagle3_without_config_is_a_warning_and_the_config_wins():
    from speclint.settings.options import LintOptions

    text = (
        'llm = sgl.Engine(model_path="moonshotai/Kimi-K2.6", speculative_algorithm="NEXTN",\n'
        '                 speculative_draft_model_path="org/Kimi-K2.6-eagle3-mla", max_running_requests=8)\n'
    )
    [warning] = [
        f for f in lint_text(text, "x.py").findings if f.code.startswith("DRF0") and f.code != "DRF011"
    ]
    assert (warning.code, warning.severity.label, warning.span.line, warning.span.column) == (
        "DRF012",
        "warning",
        1,
        75,
    )
    assert text[74:81] == '"NEXTN"'
    assert "inferred from the name" in warning.message and "'org/Kimi-K2.6-eagle3-mla'" in warning.message
    assert "--model-config org/Kimi-K2.6-eagle3-mla=FOLDER" in warning.fix_hint
    assert [(n.span.line, n.span.column) for n in warning.notes] == [(2, 47)]
    models = ROOT / "fixtures" / "models"
    eagle1 = LintOptions(
        model_configs=(("org/Kimi-K2.6-eagle3-mla", str(models / "eagle3-named-eagle-config")),)
    )
    assert not [f for f in lint_text(text, "x.py", eagle1).findings if f.code in ("DRF001", "DRF012")]
    eagle3 = LintOptions(model_configs=(("org/Kimi-K2.6-eagle3-mla", str(models / "eagle3-kimi-k2.5")),))
    codes = [f.code for f in lint_text(text, "x.py", eagle3).findings]
    assert "DRF001" in codes and "DRF012" not in codes  # the config says it, as an error


def notes_of(finding) -> list[tuple[int, int, str]]:
    return [(n.span.line, n.span.column, n.message) for n in finding.notes]


def test_kwargs_update_in_if_elif_arms_are_alternative_launches():
    findings = lint_text(read("kwargs_arms.py"), "x.py").findings
    assert found("kwargs_arms.py") == [
        ("SLM004", 11, 30, "model"),
        ("DRF011", 13, 83, '"/models/llama-eagle"'),
        ("SPD001", 14, 103, "k"),
        ("DRF011", 16, 84, '"/models/llama-eagle3"'),
        ("SPD001", 17, 103, "k"),
        ("DRF011", 19, 83, '"/models/llama-nextn"'),
        ("SPD001", 20, 103, "k"),
        ("FLG001", 22, 54, "speculative_ngram_window"),
    ]
    by_line = {f.span.line: f for f in findings}
    assert notes_of(by_line[14])[-1] == (12, 5, "when the `if` branch at line 12 runs")
    assert notes_of(by_line[20])[-1] == (18, 5, "when the `elif` branch at line 18 runs")
    assert notes_of(by_line[22])[-1] == (21, 5, "when the `elif` branch at line 21 runs")
    # one partly-read finding for the launch (`model` is unknown in every arm), naming the
    # unknown `k` of each speculative arm in its notes
    [partly] = [f for f in findings if f.code == "SLM004"]
    assert {(line, column) for line, column, message in notes_of(partly) if "parameter `k`" in message} == {
        (14, 45),
        (14, 103),
        (17, 45),
        (17, 103),
        (20, 45),
        (20, 103),
    }
    engines = launches("kwargs_arms.py")
    assert len(engines) == 5 and {launch.span for launch in engines} == {engines[0].span}
    assert [launch.alternative.index for launch in engines] == [0, 1, 2, 3, 4]


def test_argv_list_extended_in_arms_then_appended():
    assert found("argv_arms.py") == [("FLG001", 9, 14, "--tp-szie")]
    [finding] = lint_text(read("argv_arms.py"), "x.py").findings
    assert notes_of(finding) == [(8, 1, "when the `else` branch at line 8 runs")]
    eight, four = launches("argv_arms.py")
    assert [w.text for w in eight.args[2:]] == ["--tp-size", "8", "--trust-remote-code"]
    assert [w.text for w in four.args[2:]] == ["--tp-szie", "4", "--trust-remote-code"]


def test_more_arms_than_the_bound_is_one_partly_read_launch():
    arms = "".join(
        f"{'if' if i == 0 else 'elif'} x == {i}:\n    kw.update(tp_size={i + 1})\n" for i in range(20)
    )
    text = "import sglang as sgl\nkw = dict(model_path='m')\n" + arms + "sgl.Engine(**kw)\n"
    [launch] = extract_file("x.py", text).launches
    assert launch.alternative is None and any(k.splat for k, _ in launch.kwargs)


def test_a_base_launch_is_checked_once_per_subclass_of_the_file():
    assert found("unittest_subclass_args.py") == [
        ("DRF011", 14, 43, "cls.model"),  # TestChain's drafter, not on disk
        ("FLG003", 15, 73, "--mem-fraction"),  # in the base's call: every class, reported once
        ("SPD001", 21, 54, "8"),  # only TestChain's other_args
        ("FLG001", 26, 20, "--tp-szie"),  # only TestTree's
    ]
    by_code = {f.code: f for f in lint_text(read("unittest_subclass_args.py"), "x.py").findings}
    assert notes_of(by_code["FLG003"]) == []
    assert notes_of(by_code["SPD001"])[-1] == (18, 7, "when the class is TestChain (line 18)")
    assert notes_of(by_code["FLG001"]) == [(24, 7, "when the class is TestTree (line 24)")]
    base, chain, tree = launches("unittest_subclass_args.py")
    assert [launch.alternative.index for launch in (base, chain, tree)] == [0, 1, 2]
    assert [w.text for w in base.args[:4]] == ["--model-path", "/models/llama", "--max-running-requests", "8"]
    assert tree.args[1].text == "/models/qwen"


def test_the_issue_thread_form_is_a_name_inferred_warning():
    path = ROOT / "fixtures" / "markdown" / "issue_eagle3_drafter_name.md"
    text = path.read_text()
    [finding] = [f for f in lint_text(text, str(path)).findings if f.code == "DRF012"]
    line = text.splitlines()[finding.span.line - 1]
    assert (finding.span.line, line[finding.span.column - 1 : finding.span.end_column - 1]) == (9, "EAGLE")
    assert finding.severity.label == "warning" and "inferred from the name" in finding.message


def test_a_launch_from_a_function_parameter_is_read_per_call_of_the_file():
    assert found("launch_from_parameters.py") == [
        ("SLM004", 11, 64, "args"),  # start() alone: called from elsewhere, args unknown
        ("FLG001", 17, 53, "--tp-szie"),  # the first call's flags, where that call writes them
    ]
    by_code = {f.code: f for f in lint_text(read("launch_from_parameters.py"), "x.py").findings}
    assert notes_of(by_code["FLG001"]) == [(17, 5, "when start() is called at line 17")]
    own, first, second = launches("launch_from_parameters.py")
    assert [launch.alternative.index for launch in (own, first, second)] == [0, 1, 2]
    assert [w.text for w in second.args] == ["--model-path", "/models/llama", "--tp-size", "2"]


def test_a_command_string_with_a_runtime_value_read_through_a_variable_keeps_its_known_words():
    """`cmd = f"... {extra}"` then `subprocess.run(cmd, shell=True)` / `launch_server_cmd(cmd)`:
    the words written in the f-string are checked (each at its token in the string, as for a
    fully known string), the runtime value makes the launch partly read (at its `{...}`)."""
    assert found("command_string_in_a_variable.py") == [
        ("FLG005", 12, 69, "x"),
        ("SLM004", 12, 71, "{extra}"),
        ("FLG001", 18, 64, "--tp-szie"),
        ("SLM004", 18, 76, "{cmd_args}"),
    ]
    from_argv, from_config = launches("command_string_in_a_variable.py")
    assert [w.text for w in from_argv.args[:4]] == ["--model-path", "m", "--tp-size", "x"]
    assert from_argv.args[-1].text is None and "sys.argv[1]" in (from_argv.args[-1].dynamic_reason or "")
    assert [w.text for w in from_config.args[:4]] == ["--model-path", "m", "--tp-szie", "2"]

"""Makefiles whose launch depends on make conditionals (`ifeq`/`ifneq`/`ifdef`/`else ifeq`),
included makefiles (`include`, `-include`), `define` values run through `$(call ...)`, and
SGLang's benchmark scripts named in make functions: what a user sees for each (code, line:col,
message)."""

from __future__ import annotations

import subprocess
import sys

from findings_at import text_at
from frontend_checks import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speclint.engine import lint_text
from speclint.frontends import extract_file


def found(result) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.column) for f in result.findings]


BRANCHES = (
    "MODEL := meta-llama/Llama-3.1-8B-Instruct\n"  # 1
    "ifeq ($(GPU),h100)\n"  # 2
    "  BACKEND := fa3\n"  # 3
    "else ifeq ($(GPU),a100)\n"  # 4
    "  BACKEND := flashinfer\n"  # 5
    "else\n"  # 6
    "  BACKEND := tritn\n"  # 7
    "endif\n"  # 8
    "\n"
    "serve:\n"  # 10
    "\tpython -m sglang.launch_server --model-path $(MODEL) --attention-backend $(BACKEND)\n"  # 11
)


def test_a_value_set_in_each_branch_is_read_per_branch():
    result = lint_text(BRANCHES, "Makefile")
    assert found(result) == [("FLG006", 11, 75)]
    (finding,) = result.findings
    assert text_at(BRANCHES, finding.span) == "$(BACKEND)"
    assert "`tritn` is not a valid value for `--attention-backend`" in finding.message
    assert [n.message for n in finding.notes] == [
        "when `ifeq ($(GPU),h100)` at line 2 does not hold and `ifeq ($(GPU),a100)` at line 4 does not hold"
    ]
    assert [(n.span.line, n.span.column) for n in finding.notes] == [(2, 1)]
    launches = extract_file("Makefile", BRANCHES).launches
    assert [launch.args[3].text for launch in launches] == ["fa3", "flashinfer", "tritn"]
    assert [launch.alternative.count for launch in launches] == [3, 3, 3]


def test_a_condition_on_values_the_file_sets_is_decided():
    text = BRANCHES.replace("MODEL :=", "GPU := a100\nMODEL :=")
    assert found(lint_text(text, "Makefile")) == []
    (launch,) = extract_file("Makefile", text).launches
    assert launch.args[3].text == "flashinfer" and launch.alternative is None
    defined = "TP = 2\nifdef TP\nX := --tp-size $(TP)\nendif\nifndef TP\nX := --tp-size 3\nendif\n"
    (launch,) = extract_file("Makefile", defined + "s:\n\tpython -m sglang.launch_server $(X)\n").launches
    assert [w.text for w in launch.args] == ["--tp-size", "2"] and launch.alternative is None


def test_a_recipe_inside_a_branch_is_read_and_one_outside_a_taken_branch_is_not():
    text = (
        "ifneq ($(USE_DOCKER),1)\nserve:\n\tpython -m sglang.launch_server --model-path m --tp-szie 2\n"
        "endif\nifeq (a, b)\nother:\n\tpython -m sglang.launch_server --model-path m --bogus\nendif\n"
    )
    result = lint_text(text, "Makefile")
    assert found(result) == [("FLG001", 3, 48)]
    assert "`--tp-szie` is not an SGLang" in result.findings[0].message


def test_more_branches_than_speclint_follows_leave_their_values_unknown_with_the_reason():
    lines = [f"ifeq ($(O{i}),1)\nF{i} := --x{i}\nendif\n" for i in range(6)]
    text = (
        "".join(lines)
        + "serve:\n\tpython -m sglang.launch_server --model-path m "
        + " ".join(f"$(F{i})" for i in range(6))
    )
    result = lint_text(text + "\n", "Makefile")
    (launch,) = extract_file("Makefile", text).launches
    reason = launch.args[2].dynamic_reason
    assert "$(F0) is set inside a make conditional (line 2)" in reason
    assert "`ifeq ($(O0),1)` (line 1) may or may not hold ($(O0) is not set in this makefile" in reason
    assert "SLM004" in [f.code for f in result.findings]


def test_an_included_makefile_is_read_from_disk(tmp_path):
    (tmp_path / "config.mk").write_text("PORT ?= 3000x\nTP = 2\n")
    text = "include config.mk\n\nserve:\n\tpython -m sglang.launch_server --model-path m --tp-size $(TP) --port $(PORT)\n"
    makefile = tmp_path / "Makefile"
    makefile.write_text(text)
    result = lint_text(text, str(makefile))
    assert found(result) == [("FLG005", 4, 71)]
    assert text_at(text, result.findings[0].span) == "$(PORT)"
    assert "`3000x` is not a valid value for `--port`" in result.findings[0].message


def test_an_included_makefile_not_on_disk_leaves_what_it_may_set_unknown(tmp_path):
    text = (
        "TP := 2\n-include local.mk\nPORT ?= 30000\n\n"
        "serve:\n\tpython -m sglang.launch_server --model-path m --tp-size $(TP) --port $(PORT)\n"
    )
    makefile = tmp_path / "Makefile"
    result = lint_text(text, str(makefile))
    assert found(result) == [("SLM004", 6, 58)]
    message = result.findings[0].message
    assert (
        "$(TP) may be set again by `-include local.mk` (line 2), whose file local.mk is not on disk"
        in message
    )
    (launch,) = extract_file(str(makefile), text).launches
    assert (
        "$(PORT) is set with `?=` (line 3), and `-include local.mk` (line 2)" in launch.args[5].dynamic_reason
    )
    (tmp_path / "local.mk").write_text("TP := 4\n")
    (launch,) = extract_file(str(makefile), text).launches
    assert [w.text for w in launch.args[2:6]] == ["--tp-size", "4", "--port", "30000"]


def test_a_recipe_of_an_included_makefile_is_said_to_be_unread_here(tmp_path):
    (tmp_path / "serve.inc").write_text("serve:\n\tpython -m sglang.launch_server --model-path m\n")
    (tmp_path / "cmd.mk").write_text("SERVE = python -m sglang.launch_server --model-path m --tp-szie 2\n")
    text = "include serve.inc cmd.mk\n\nrun:\n\t$(SERVE)\n"
    result = lint_text(text, str(tmp_path / "Makefile"))
    assert found(result) == [("SLM005", 1, 1), ("FLG001", 4, 2)]
    assert text_at(text, result.findings[1].span) == "$(SERVE)"
    assert "serve.inc, included here, runs the launcher in its recipe at line 2" in result.findings[0].message


def test_a_define_that_names_a_benchmark_script_run_through_call_is_reported():
    text = (
        "define BENCH\npython -m sglang.bench_one_batch_server --model-path $(1) --batch-size 1\nendef\n\n"
        "bench:\n\t$(call BENCH,meta-llama/Llama-3.1-8B-Instruct)\n"
        "offline:\n\t$(foreach b,1 8,python -m sglang.benchmark.offline_throughput --model-path m --batch $(b);)\n"
        "serve:\n\tpython -m sglang.launch_server --model-path m --tp-szie 2\n"
    )
    result = lint_text(text, "Makefile")
    assert found(result) == [("SLM005", 6, 2), ("SLM005", 8, 2), ("FLG001", 10, 48)]
    assert result.findings[0].message.startswith(
        "`$(call BENCH ...)` runs `BENCH`, set with `define`, whose text names the launcher: speclint does "
        "not evaluate make functions"
    )
    assert result.findings[1].message.startswith(
        "`$(foreach ...)` is a make function that names the launcher"
    )


def test_each_branch_of_a_conditional_inside_a_rule_is_a_launch_of_its_own():
    text = (
        "serve:\nifeq ($(GPU),h100)\n\tpython -m sglang.launch_server --model-path m --tp-size 8 --tp-szie 8\n"
        "else\n\tpython -m sglang.launch_server --model-path m --tp-size 4 --bogus-flag\nendif\n"
    )
    result = lint_text(text, "Makefile")
    assert found(result) == [("FLG001", 3, 60), ("FLG001", 5, 60)]
    assert [text_at(text, f.span) for f in result.findings] == ["--tp-szie", "--bogus-flag"]
    assert all(not f.notes for f in result.findings)  # each launch runs in one branch only


def test_a_value_is_expanded_with_the_values_set_last_even_after_a_condition_used_it():
    text = (
        "A = 2\nB = --tp-size $(A)\nifeq ($(B),--tp-size 2)\nC := --dp-size 2\nendif\nA = 4\n"
        "serve:\n\tpython -m sglang.launch_server --model-path m $(B) $(C)\n"
    )
    (launch,) = extract_file("Makefile", text).launches
    assert [w.text for w in launch.args[2:]] == ["--tp-size", "4", "--dp-size", "2"]
    assert text_at(text, launch.args[3].span) == "$(B)" and launch.alternative is None


def test_the_result_cache_sees_an_included_makefile_appear_and_change(tmp_path):
    text = "-include local.mk\nPORT ?= 30000\nserve:\n\tpython -m sglang.launch_server --model-path m --port $(PORT)\n"
    (tmp_path / "Makefile").write_text(text)

    def run() -> str:
        command = [sys.executable, "-m", "speclint", "--output-format", "concise"]
        command += ["--cache-dir", str(tmp_path / "cache"), str(tmp_path / "Makefile")]
        return subprocess.run(command, capture_output=True, text=True).stdout

    assert "Makefile:4:55: SLM004" in run()  # local.mk may set PORT: unknown
    (tmp_path / "local.mk").write_text("PORT = 3000x\n")
    assert "Makefile:4:55: FLG005" in run()
    (tmp_path / "local.mk").write_text("PORT = 30001\n")
    assert "FLG005" not in run() and "SLM004" not in run()


MAKE_WORDS = [
    "\n", "\t", " ", "$(", ")", ",", "'", '"', "ifeq (", "ifneq ", "ifdef X\n", "ifndef Y\n", "else\n",
    "else ifeq ($(G),1)\n", "endif\n", "include a.mk\n", "-include $(X).mk\n", "X := ", "Y = ", "$(X)",
    "$(call X,1)", "define X\n", "endef\n", "serve:\n\t", "python -m sglang.launch_server --tp-size ", "2",
]  # fmt: skip


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(MAKE_WORDS) | st.text(max_size=3), max_size=50))
def test_random_conditionals_and_includes_never_raise(tmp_path_factory, parts):
    folder = tmp_path_factory.mktemp("make")
    (folder / "a.mk").write_text("".join(parts[::2]))
    check("# sglang\n" + "".join(parts), str(folder / "Makefile"))

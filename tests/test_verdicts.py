"""Issue 16, "wrong or misleading today": each verdict as a user sees it on the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from speclint.cli import main

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "fixtures" / "models"
LAUNCH = "python -m sglang.launch_server"
TOPK1 = (
    f"{LAUNCH} --model-path /m --speculative-algorithm EAGLE --speculative-draft-model-path /d"
    " --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 16"
    " --max-running-requests 8\n"
)


def check(*args: str, input: str | None = None, cwd: Path | None = None):
    if cwd is None:
        return CliRunner().invoke(main, list(args), input=input)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args), input=input)
    finally:
        os.chdir(old)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# --- unknown selectors ------------------------------------------------------------------------


def test_an_unknown_selector_on_the_command_line_is_a_usage_error(tmp_path):
    script = write(tmp_path, "a.sh", f"{LAUNCH} --model-path m\n")
    done = check("--select", "FOO", str(script))
    assert done.exit_code == 2 and "All checks passed" not in done.output
    assert "--select: unknown rule selector `FOO`" in done.output
    assert "rule families are DRF, FLG, PAR, SLM, SPD, VER" in done.output
    typo = check("--ignore", "unknwn-flag", str(script))
    assert typo.exit_code == 2
    assert "unknown rule selector `unknwn-flag`" in typo.output
    assert "did you mean `unknown-flag`?" in typo.output
    assert check("--select", "SDP001", str(script)).output.count("did you mean `SPD001`?") == 1


def test_an_unknown_selector_in_pyproject_is_a_config_error(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.speclint]\nselect = ["FLG", "SDP"]\n')
    write(tmp_path, "a.sh", f"{LAUNCH} --model-path m\n")
    done = check("a.sh", cwd=tmp_path)
    assert done.exit_code == 2
    assert "pyproject.toml [tool.speclint]: `select`: unknown rule selector `SDP`" in done.output
    assert "did you mean `SPD`?" in done.output


# --- --help in a launch -----------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h", "--he"])
def test_help_in_a_launch_is_not_an_unknown_flag(tmp_path, flag):
    script = write(tmp_path, "help.sh", f"{LAUNCH} {flag}\n")
    done = check(str(script))
    assert done.exit_code == 0 and "FLG001" not in done.output and "FLG011" not in done.output
    assert done.output.startswith("All checks passed: 1 launch in 1 file")
    opted = check("--extend-select", "FLG012", str(script))
    assert opted.exit_code == 0
    assert (
        f"help.sh:1:32: FLG012 [info] `{flag}` prints SGLang's help and exits 0: no server "
        "starts, and no other check applies to this launch"
    ) in opted.output
    assert opted.output.count("help.sh:1:") == 1  # nothing else about this launch


def test_help_in_a_readme_fence_is_quiet(tmp_path):
    readme = write(tmp_path, "README.md", f"List the flags:\n\n```bash\n{LAUNCH} --help\n```\n")
    done = check(str(readme))
    assert done.exit_code == 0 and "All checks passed" in done.output


def test_an_error_before_help_still_stops_the_launch(tmp_path):
    script = write(tmp_path, "bad.sh", f"{LAUNCH} --model-path m --tp-size x --help\n")
    done = check(str(script))
    assert done.exit_code == 1 and "FLG005 [error]" in done.output


# --- safe and unsafe fixes ----------------------------------------------------------------------


def test_topk1_rewrite_is_unsafe_and_fix_keeps_the_intent(tmp_path):
    script = write(tmp_path, "topk.sh", TOPK1)
    done = check("--fix", str(script))
    assert script.read_text() == TOPK1  # the author's 16 is not erased
    assert "SPD001 [warning]" in done.output and done.exit_code == 1
    assert "No fixes applied; 1 unsafe fix not applied (`--unsafe-fixes` applies them)." in done.output
    unsafe = check("--fix", "--unsafe-fixes", str(script))
    assert "--speculative-num-draft-tokens 4 " in script.read_text()
    assert "Fixed 1 finding." in unsafe.output


def test_fixable_findings_are_marked_and_show_fixes_prints_the_edit(tmp_path):
    script = write(tmp_path, "a.sh", f"{LAUNCH} --model-path m --port 1 --tp-size 2 --port 2\n" + TOPK1)
    done = check("--show-fixes", str(script))
    assert "a.sh:1:47: FLG007 [*] [warning]" in done.output  # safe: dropping the overridden copy
    assert "a.sh:2:" in done.output and "SPD001 [warning]" in done.output  # unsafe: no mark
    assert (
        "= fix (applied by --fix): remove the overridden `--port 1`: line 1: remove `--port 1`"
    ) in done.output
    assert (
        "= fix (unsafe: applied only with --unsafe-fixes): write the draft tokens SGLang "
        "uses (4): line 2: `16` → `4`"
    ) in done.output
    assert done.output.rstrip().endswith(
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the "
        "`--unsafe-fixes` option)."
    )
    marked = check("--unsafe-fixes", "--output-format", "concise", str(script))
    assert "SPD001 [*] [warning]" in marked.output
    fixed = check("--fix", "--show-fixes", str(script))
    assert "Fixed 1 finding; 1 unsafe fix not applied" in fixed.output
    assert f"{script}:\n    1 × FLG007 (duplicate-flag)" in fixed.output


def test_json_says_how_a_finding_can_be_fixed():
    done = check("--output-format", "json", "-", input=TOPK1)
    [spd] = [f for f in json.loads(done.output) if f["code"] == "SPD001"]
    assert spd["fix_applicability"] == "unsafe"


# --- did you mean, from the drafter ----------------------------------------------------------


def test_unknown_algorithm_suggestion_follows_the_drafter(tmp_path):
    script = write(
        tmp_path,
        "e4.sh",
        f"{LAUNCH} --model-path /t --speculative-algorithm EAGLE4 --speculative-draft-model-path /d\n",
    )
    maps = [
        "--model-config",
        f"/t={MODELS / 'llama-3.1-8b-instruct'}",
        "--model-config",
        f"/d={MODELS / 'eagle3-llama-3.1-8b-instruct'}",
    ]
    done = check(*maps, str(script))
    assert "SPD008 [error]" in done.output
    assert "= help: write `--speculative-algorithm EAGLE3`" in done.output
    assert "the drafter is EAGLE3 (its architecture is LlamaForCausalLMEagle3)" in done.output
    eagle1 = ["--model-config", f"/d={MODELS / 'eagle-llama-3.1-8b-instruct'}"]
    assert "write `--speculative-algorithm EAGLE`" in check(*maps[:2], *eagle1, str(script)).output


# --- argparse stops a launch: one notion for check and explain ----------------------------------


def test_an_ambiguous_flag_drops_findings_about_after_parsing(tmp_path):
    script = write(
        tmp_path, "amb.sh", f"{LAUNCH} --model-path /m --speculative-algorithm EAGLE --speculative-draft /d\n"
    )
    done = check("--select", "ALL", "--output-format", "json", str(script))
    assert [f["code"] for f in json.loads(done.output)] == ["FLG002"]  # no SPD003/SPD005/DRF011
    assert "drafter checks skipped" not in check(str(script)).output
    explained = check("explain", str(script))
    assert (
        "SGLang's argument parser stops this launch before any resolution: error: ambiguous "
        "option: --speculative-draft could match --speculative-draft-model-path"
    ) in explained.output
    assert "(line 1, column 78)" in explained.output
    as_json = json.loads(check("explain", "--output-format", "json", str(script)).output)
    assert as_json[0]["rejection"]["sglang_handler"] == "argparse"
    assert as_json[0]["rejection"]["message"].startswith("error: ambiguous option")


def test_explain_and_check_agree_on_where_argparse_stops(tmp_path):
    """argparse's order, not the order speclint found problems in: the bad value of an
    earlier flag stops it before an unknown flag; -h before an error exits 0 with the help."""
    script = write(
        tmp_path,
        "two.sh",
        f"{LAUNCH} --model-path m --bogus --tp-size x\n{LAUNCH} --model-path m -h --bogus\n",
    )
    out = check("explain", str(script)).output
    assert "error: argument --tp-size: invalid int value: 'x' (line 1" in out
    assert "`-h` prints SGLang's help and exits 0 (line 2" in out
    assert "FLG001" in check(str(script)).output.split("two.sh:2")[0]
    assert "two.sh:2:" not in check(str(script)).output  # help: nothing else checked


# --- explain --compare, and the log of the dp-attention rewrite -----------------------------------


def test_explain_compare_labels_the_other_release_and_logs_match_par003(tmp_path):
    script = write(tmp_path, "dp.sh", f"{LAUNCH} --model-path /m --tp-size 4 --enable-dp-attention\n")
    compared = check("explain", "--compare", "0.5.6.post2", str(script))
    assert "  SGLang 0.5.6.post2 (from --compare)" in compared.output
    explained = check("explain", "--sglang-version", "0.5.23", str(script))
    assert (
        "enable_dp_attention: True → False  (--enable-dp-attention is replaced by "
        "--attn-dp-size; SGLang logs one warning)"
    ) in explained.output
    assert "(a warning at parse time)" in check("--sglang-version", "0.5.23", str(script)).output


def test_a_version_older_than_every_release_says_so(tmp_path):
    script = write(tmp_path, "a.sh", f"{LAUNCH} --model-path m\n")
    done = check("--sglang-version", "0.3.0", str(script))
    assert (
        "checked against SGLang 0.4.0 (--sglang-version names 0.3.0, older than every "
        "release speclint knows (the oldest is 0.4.0): checked against 0.4.0, unverified "
        "for 0.3.0)"
    ) in done.output
    assert "closest older release" not in done.output


# --- speclint run ------------------------------------------------------------------------------


def run_cli(args: list[str], cwd: Path, path_first: str | None = None):
    smi = ROOT / "fixtures" / "nvidia-smi"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("NVIDIA_SMI_", "SPECLINT_", "CUDA_VISIBLE"))
    }
    env["PATH"] = os.pathsep.join(p for p in (path_first, str(smi), env.get("PATH", "")) if p)
    env["SPECLINT_GPU_BACKEND"] = "nvidia-smi"
    env["NVIDIA_SMI_FIXTURE"] = str(smi / "clean-8x")
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=cwd,
    )


def test_run_reads_wrapped_launches_the_project_config_and_model_configs(tmp_path):
    bin_folder = tmp_path / "bin"
    fake = write(bin_folder, "timeout", '#!/bin/sh\necho "launched $*"\n')
    fake.chmod(0o755)
    write(
        tmp_path,
        "pyproject.toml",
        '[tool.speclint]\nignore = ["SPD003"]\n'
        f'[tool.speclint.models]\n"/t" = "{MODELS / "llama-3.1-8b-instruct"}"\n',
    )
    command = [
        "run",
        "--",
        "timeout",
        "600",
        "python",
        "-m",
        "sglang.launch_server",
        "--model-path",
        "/t",
        "--speculative-algorithm",
        "EAGLE4",
        "--speculative-draft-model-path",
        "/d",
    ]
    refused = run_cli(
        [*command[:1], "--model-config", f"/d={MODELS / 'eagle3-llama-3.1-8b-instruct'}", *command[1:]],
        tmp_path,
        str(bin_folder),
    )
    assert refused.returncode == 1 and "launched" not in refused.stdout
    assert "<command line>:1:" in refused.stderr and "SPD008 [error]" in refused.stderr
    assert "write `--speculative-algorithm EAGLE3`" in refused.stderr  # both configs were read
    ok = run_cli(
        [
            "run",
            "--",
            "timeout",
            "600",
            "python",
            "-m",
            "sglang.launch_server",
            "--model-path",
            "/t",
            "--speculative-algorithm",
            "NGRAM",
        ],
        tmp_path,
        str(bin_folder),
    )
    assert ok.returncode == 0, ok.stderr
    assert "SPD003" not in ok.stderr  # ignored by the project's configuration
    assert ok.stdout.startswith("launched 600 python -m sglang.launch_server")


# --- standard input ------------------------------------------------------------------------------


def test_fix_and_diff_on_standard_input():
    text = f"{LAUNCH} --model-path /m --tp-size 4 --port 1 --tp-size 8\n"
    diff = check("--diff", "-", input=text)
    assert diff.exit_code == 1
    assert "-python -m sglang.launch_server --model-path /m --tp-size 4 --port 1 --tp-size 8" in diff.output
    assert "1 file would be changed" in diff.output
    fixed = check("--fix", "-", input=text)
    assert fixed.output.startswith(f"{LAUNCH} --model-path /m --port 1 --tp-size 8\n")
    assert "Fixed 1 finding." in fixed.output


def test_stdin_filename_picks_the_front_end_the_name_and_the_config(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.speclint]\nignore = ["FLG001"]\n')
    python = (
        'import subprocess\nsubprocess.run(["python", "-m", "sglang.launch_server", '
        '"--model-path", "m", "--bogus", "--port", "1", "--port", "2"])\n'
    )
    done = check("--stdin-filename", "tools/launch.py", "-", input=python, cwd=tmp_path)
    assert "tools/launch.py:2:" in done.output and "FLG007" in done.output
    assert "FLG001" not in done.output  # the configuration of the named file applies
    assert check("--stdin-filename", "x.sh", "a.sh").exit_code == 2


# --- configuration, suppressions, line ends, folder walks --------------------------------------


def test_dot_speclint_toml_with_a_tool_table_gets_a_hint(tmp_path):
    write(tmp_path, ".speclint.toml", '[tool.speclint]\nignore = ["SPD003"]\n')
    write(tmp_path, "a.sh", f"{LAUNCH} --model-path m\n")
    done = check("a.sh", cwd=tmp_path)
    assert done.exit_code == 2
    assert (
        "unknown key `tool`: in .speclint.toml the settings go at the top level; "
        "`[tool.speclint]` is the table for pyproject.toml"
    ) in done.output


def test_trailing_suppression_on_the_last_line_covers_the_continued_command(tmp_path):
    script = write(
        tmp_path,
        "a.sh",
        f"{LAUNCH} --model-path /m \\\n"
        "  --speculative-algorithm NGRAM \\\n"
        "  --port 30000  # speclint: disable=SPD003\n",
    )
    done = check(str(script))
    assert done.exit_code == 0 and "SPD003" not in done.output and "SLM003" not in done.output
    alone = write(
        tmp_path,
        "b.sh",
        f"{LAUNCH} --model-path /m --speculative-algorithm NGRAM\necho done  # speclint: disable=SPD003\n",
    )
    assert "SPD003" in check(str(alone)).output  # another command's comment covers nothing


def test_a_continuation_before_a_crlf_line_end_is_reported(tmp_path):
    script = tmp_path / "crlf.sh"
    script.write_bytes(f"{LAUNCH} --model-path /m \\\r\n  --tp-size 2\r\n".encode())
    done = check(str(script))
    assert done.exit_code == 1
    assert (
        "crlf.sh:1:48: SLM002 [error] `\\` before a CRLF line end is not a line continuation in bash"
    ) in done.output
    assert "`--tp-size` on the next line is not passed to SGLang" in done.output


def test_folder_walks_respect_gitignore_and_excludes(tmp_path):
    bad = f"{LAUNCH} --model-path m --bogus\n"
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "out/\n*.generated.sh\n!keep.generated.sh\n")
    write(tmp_path, "out/a.sh", bad)
    write(tmp_path, "b.generated.sh", bad)
    write(tmp_path, "keep.generated.sh", bad)
    write(tmp_path, "scripts/c.sh", bad)
    write(tmp_path, "scripts/legacy/d.sh", bad)
    write(tmp_path, "build/e.sh", bad)

    def linted(*args: str) -> set[str]:
        done = check("--output-format", "json", *args, ".", cwd=tmp_path)
        return {os.path.normpath(f["path"]) for f in json.loads(done.output)}

    assert linted() == {"keep.generated.sh", "scripts/c.sh", "scripts/legacy/d.sh"}
    assert linted("--no-respect-gitignore") == {
        "out/a.sh",
        "b.generated.sh",
        "keep.generated.sh",
        "scripts/c.sh",
        "scripts/legacy/d.sh",
    }
    assert linted("--extend-exclude", "scripts/legacy") == {"keep.generated.sh", "scripts/c.sh"}
    assert "build/e.sh" in linted("--exclude", "node_modules")  # replaces the built-in list
    write(tmp_path, "pyproject.toml", '[tool.speclint]\nextend-exclude = ["legacy"]\n')
    assert linted() == {"keep.generated.sh", "scripts/c.sh"}
    named = check("--output-format", "json", "out/a.sh", cwd=tmp_path)  # named files: linted
    assert json.loads(named.output)[0]["path"] == "out/a.sh"


def test_exclude_patterns_match_a_name_the_path_or_a_trailing_part_of_it(tmp_path):
    bad = f"{LAUNCH} --model-path m --bogus\n"
    for name in ("a.sh", "gen/b.sh", "x/gen/c.sh", "x/y/gen/d.sh", "x/keep/e.sh", "x/gen.sh"):
        write(tmp_path, name, bad)

    def linted(*args: str, root: str = ".") -> set[str]:
        done = check("--output-format", "json", *args, root, cwd=tmp_path)
        return {os.path.relpath(os.path.join(tmp_path, f["path"]), tmp_path) for f in json.loads(done.output)}

    everything = {"a.sh", "gen/b.sh", "x/gen/c.sh", "x/y/gen/d.sh", "x/keep/e.sh", "x/gen.sh"}
    assert linted() == everything
    assert linted("--extend-exclude", "gen") == everything - {"gen/b.sh", "x/gen/c.sh", "x/y/gen/d.sh"}
    assert linted("--extend-exclude", "gen/") == linted("--extend-exclude", "gen")
    assert linted("--extend-exclude", "x/gen") == everything - {"x/gen/c.sh"}
    assert linted("--extend-exclude", "gen/*.sh") == everything - {"gen/b.sh", "x/gen/c.sh", "x/y/gen/d.sh"}
    assert linted("--extend-exclude", "g?n*") == {"a.sh", "x/keep/e.sh"}
    assert linted("--extend-exclude", "[xy]") == {"a.sh", "gen/b.sh"}
    # the patterns are matched from the walked folder, not from where speclint runs
    assert linted("--extend-exclude", "gen/c.sh", root="x") == everything - {"x/gen/c.sh"} - {
        "a.sh",
        "gen/b.sh",
    }


# --- messages ------------------------------------------------------------------------------------


def test_deprecated_flag_says_what_replaces_it(tmp_path):
    script = write(
        tmp_path, "a.sh", f"{LAUNCH} --model-path m --dp-size 2 --tp-size 2 --enable-dp-attention\n"
    )
    done = check("--sglang-version", "0.5.23", "--select", "FLG008", str(script))
    assert (
        "FLG008 [warning] `--enable-dp-attention` is deprecated in SGLang 0.5.23: argparse "
        "still takes it, and SGLang names `--attn-dp-size <dp-size>` as its replacement"
    ) in done.output
    assert "= help: write `--attn-dp-size <dp-size>` instead" in done.output


def test_invalid_choice_suggests_the_close_one_and_marks_a_cut_list(tmp_path):
    script = write(tmp_path, "a.sh", f"{LAUNCH} --model-path m --quantization fp9\n")
    done = check("--sglang-version", "0.5.23", str(script))
    assert "= help: did you mean `fp8`? (choices: awq, fp8," in done.output
    assert "more))" in done.output and ", … (" in done.output


def test_draft_token_hint_reads_an_8_token_chain(tmp_path):
    script = write(tmp_path, "a.sh", TOPK1.replace("draft-tokens 16", "draft-tokens 8"))
    assert "for an 8-token chain write" in check(str(script)).output
    assert "for a 16-token chain write" in check("-", input=TOPK1).output


def test_summary_names_each_release_once_with_the_image_file(tmp_path):
    write(
        tmp_path,
        "a.sh",
        f"docker run lmsysorg/sglang:v0.5.6.post2 \\\n  {LAUNCH} --model-path m\n{LAUNCH} --model-path m\n",
    )
    write(tmp_path, "b.sh", f"{LAUNCH} --model-path m --sglang-never\n")
    done = check("--sglang-version", "0.5.23", "a.sh", "b.sh", cwd=tmp_path)
    last = [line for line in done.output.splitlines() if line.startswith("Found ")][0]
    assert last.count("SGLang 0.5.23") == 1
    assert "image" not in last  # --sglang-version decided every launch
    images = check("a.sh", cwd=tmp_path).output.splitlines()[-1]
    assert (
        "checked against SGLang 0.5.23 (the newest supported release: no --sglang-version "
        "and no image tag) and SGLang 0.5.6.post2 (from the image "
        "lmsysorg/sglang:v0.5.6.post2 at a.sh:1)."
    ) in images


def test_top_level_help_names_every_input_kind_and_keeps_whole_descriptions():
    done = check("--help")
    assert "in shell scripts" not in done.output
    assert "Python launchers" in done.output
    commands = done.output.split("Commands:")[1].splitlines()
    assert "(by code, e.g." not in done.output
    assert not [line for line in commands if line.endswith("...")]  # no description cut
    assert "rule       Print a rule's documentation page." in done.output

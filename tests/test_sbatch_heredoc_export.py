"""`sbatch << EOF` whose batch script carries `#SBATCH --export=...`: the script's own option
sets the environment the script gets, as Slurm's `_opt_batch_script` reads it (only before
the first command; `--export` on the command line or `SBATCH_EXPORT` wins over it); values
it sets point at their place in the here-document."""

from __future__ import annotations

from findings_at import text_at
from fixture_file import FixtureFile

from speclint.core.launches import Launch
from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("shell/sbatch_heredoc_export.sh")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def _launches() -> list[Launch]:
    return extract_file(str(FIXTURE), TEXT).launches


def test_the_scripts_export_list_is_applied_with_exact_positions() -> None:
    findings = _findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 12, 46, "$MODEL"),
        ("FLG006", 18, 71, "$SCHED"),
        ("FLG001", 18, 78, "--prot"),
        ("FLG001", 34, 83, "--tp-sise"),
    ]
    # `#SBATCH --export=NONE`: the caller's exported MODEL does not reach the batch script
    assert "($MODEL is not passed to the batch script of `sbatch` (line 7);" in findings[0][4]
    assert findings[1][4].startswith("`lpmm` is not a valid value for `--schedule-policy`")


def test_a_value_the_list_sets_points_into_the_here_document() -> None:
    lint = lint_text(TEXT, str(FIXTURE))
    invalid = next(f for f in lint.findings if f.code == "FLG006")
    assert [(_at(n.span), n.message) for n in invalid.notes] == [((17, 66, "lpmm"), "value assigned here")]
    second = _launches()[1]
    assert _at(second.env["SCHED"].span) == (17, 66, "lpmm")
    # Slurm sets CUDA_VISIBLE_DEVICES itself, whatever the list says
    visible = second.env["CUDA_VISIBLE_DEVICES"]
    assert visible.text is None and "Slurm sets CUDA_VISIBLE_DEVICES" in (visible.dynamic_reason or "")


def test_the_command_line_wins_and_a_command_ends_the_directives() -> None:
    third, fourth = _launches()[2:4]
    for launch in (third, fourth):  # --export=ALL given to sbatch; #SBATCH after `echo`
        words = [w.text for w in launch.args]
        assert words[words.index("--model-path") + 1] == "Qwen/Qwen2.5-7B-Instruct"
    assert third.env["MEM"].text == "0.85"


def test_an_unquoted_tab_stripped_here_document_expands_the_list_first() -> None:
    fifth = _launches()[4]
    words = [w.text for w in fifth.args]
    assert words[words.index("--model-path") + 1] == "Qwen/Qwen2.5-7B-Instruct"
    assert words[words.index("--mem-fraction-static") + 1] == "0.85"
    # `"MODEL=$MODEL"`: the quotes dropped as Slurm drops them; the value where $MODEL is
    assert _at(fifth.env["MODEL"].span) == (33, 26, "$MODEL")


def test_a_list_speclint_cannot_read_leaves_no_callers_value_known() -> None:
    text = (
        "export MODEL=m\nsbatch <<EOF\n#SBATCH --export=$LIST\n"
        "python3 -m sglang.launch_server --model-path \\$MODEL\nEOF\n"
    )
    (launch,) = extract_file("a.sh", text).launches
    model = launch.args[1]
    assert model.text is None
    assert model.dynamic_reason == "the `#SBATCH --export` list at line 3 holds a word speclint cannot know"
    (finding,) = lint_text(text, "a.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM004", 4, 46)


def test_directive_words_are_split_as_slurm_splits_them() -> None:
    for directives, model in (
        ('#SBATCH -J "my job" --export NONE\n', None),  # a quoted value, `--export VALUE`
        ("#SBATCH --wait # --export=NONE\n", "m"),  # an unquoted `#` starts a comment
        ("# #SBATCH --export=NONE\n#SBATCH --export=ALL\n", "m"),  # not at the line's start
        (" #SBATCH --export=NONE\n", "m"),
        ("#SBATCH --export=NONE\n#SBATCH --export=ALL\n", "m"),  # the last one counts
        ("\n# job\n#SBATCH --export=NONE\n", None),  # blank lines and comments before it
        ("#SBATCH --export=NONE hetjob\n", None),
        ("#SBATCH hetjob\n#SBATCH --export=NONE\n", "m"),  # another job component's
    ):
        text = (
            f"export MODEL=m\nsbatch <<'EOF'\n{directives}"
            "python3 -m sglang.launch_server --model-path $MODEL\nEOF\n"
        )
        (launch,) = extract_file("a.sh", text).launches
        assert launch.args[1].text == model, directives
    text = "export SBATCH_EXPORT=ALL\nexport MODEL=m\nsbatch <<'EOF'\n#SBATCH --export=NONE\n"
    (launch,) = extract_file(
        "a.sh", text + "python3 -m sglang.launch_server --model-path $MODEL\nEOF\n"
    ).launches
    assert launch.args[1].text == "m"  # SBATCH_EXPORT wins over the script's option


def test_sbatch_merges_the_list_in_order_a_later_item_wins() -> None:
    # sbatch's `_env_merge_filter`: `ALL` merges the caller's variables where it stands
    for listed, model in (("ALL,MODEL=x", "x"), ("MODEL=x,ALL", "m"), ("all", "m"), ("MODEL", "m")):
        for script in (
            f"sbatch <<'EOF'\n#SBATCH --export={listed}\n",
            f"sbatch --export={listed} <<'EOF'\n",
        ):
            text = f"export MODEL=m\n{script}python3 -m sglang.launch_server --model-path $MODEL\nEOF\n"
            (launch,) = extract_file("a.sh", text).launches
            assert launch.args[1].text == model, script
    wrap = "export MODEL=m\nsbatch --export=ALL,MODEL=x --wrap 'python3 -m sglang.launch_server --model-path $MODEL'\n"
    (launch,) = extract_file("a.sh", wrap).launches
    assert launch.args[1].text == "x"
    origin = launch.args[1].origin
    assert origin is not None and text_at(wrap, origin) == "x"  # where the list sets it

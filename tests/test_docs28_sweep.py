"""Launch forms seen in public docs, issue threads, blog posts and deployment manifests (sweep
28), each described by a fixture of our own (fixtures/docs28): every launch is read whole, or
what speclint could not read is said (SLM004 partly read, SLM005 not read), and no finding is
a false error. Each finding is asserted at the token it names (code, line, column, text)."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # an untagged fence opening with plain notes (the GPUs, "P1D2"), then exports and a launch naming
    # an exported address
    "docs28/d01_fence_label_lines_then_exports.md": [
        ("FLG003", 9, 71, "--trust-remote"),
        ("FLG003", 9, 101, "--tp"),
        ("FLG005", 9, 134, "64x"),
        ("FLG008", 9, 138, "--enable-dp-attention"),
    ],
    # "command is : ` python3 ... `": a code span with a leading space and runs of spaces
    "docs28/d02_inline_leading_space.md": [
        ("FLG003", 3, 68, "--tp"),
        ("FLG005", 3, 98, "0.9.3"),
    ],
    # "server cmd:" on its own line, the launch in a code span on the next; a client command after it
    "docs28/d03_server_cmd_label_inline.md": [
        ("FLG003", 6, 71, "--tp"),
        ("FLG003", 6, 78, "--dp"),
        ("FLG005", 6, 83, "8x"),
        ("FLG008", 6, 86, "--enable-dp-attention"),
    ],
    # an unfenced `docker run` pasted into an issue, `\` continuations, a mirror registry's image tag
    # (the release read from it), `>log 2>&1 &`
    "docs28/d04_unfenced_docker_run_paragraph.md": [
        ("SLM004", 11, 18, "/models/$MODEL_NAME"),
        ("FLG003", 12, 5, "--tp"),
        ("FLG005", 13, 27, "0.9x"),
    ],
    # one fence, "Prefill Node:" and "Decode Node:" labels, each with exports and a launch
    "docs28/d05_fence_node_labels_exports.md": [
        ("FLG005", 6, 151, "8k"),
        ("FLG002", 10, 112, "--cuda-graph-max-bs"),
    ],
    # a bug report's fence: abbreviated flags (`--disable-overlap`), a deprecated flag
    "docs28/d06_abbrev_disable_overlap.md": [
        ("FLG003", 6, 9, "--tp"),
        ("FLG003", 11, 9, "--disable-overlap"),
        ("FLG008", 12, 9, "--disable-cuda-graph"),
    ],
    # a comment line above `nohup ... > log 2>&1 &`, `--model` for `--model-path`
    "docs28/d07_nohup_comment_model_abbrev.md": [
        ("FLG003", 3, 65, "--tp"),
        ("PAR003", 3, 92, "--enable-dp-attention"),
    ],
    # a benchmark thread: result comments, then the old `sglang.bench_latency`, which no release read
    # runs: said not read, never checked as a server launch
    "docs28/d08_bench_latency_comment_results.md": [
        ("SLM005", 6, 12, "sglang.bench_latency"),
        ("SLM005", 9, 12, "sglang.bench_latency"),
    ],
    # a docs table naming flags with em dashes and `…` (a mention, no launch): said, never an error
    "docs28/d09_em_dash_method_table.md": [("SLM005", 5, 34, "speculative-algorithm")],
    # a wrapper that starts the server itself, its own flags (`--num-steps`): not SGLang's, said not
    # read at the launcher named in prose
    "docs28/d10_wrapper_serving_script.md": [("SLM005", 2, 12, "sglang.launch_server")],
    # a review's ````diff adding a fence whose launch has an env prefix
    "docs28/d11_diff_env_prefixed_launch.md": [("FLG005", 9, 171, "1x")],
    # an unfenced command in an issue with `{placeholder}` values and a comma after its last flag
    "docs28/d12_unfenced_braces_trailing_comma.md": [
        ("SLM004", 3, 29, "{trained/model/name}"),
        ("FLG003", 5, 9, "--tp"),
    ],
    # a text fence of a wrapper's elided worker command lines (`... --port 30000`): no launch, nothing said
    "docs28/d13_elided_worker_lines_text.md": [],
    # argparse's usage and error pasted as text, then the launch in a code span
    "docs28/d14_pasted_usage_message.md": [("FLG001", 10, 71, "--enable_metrics")],
    # a tutorial's Popen list whose dashes were lost in copying: not a launch; said at the file's line
    # of `'python'` (before: the block's line 3)
    "docs28/d15_popen_dashes_lost.md": [("SLM005", 6, 17, "sglang.launch_server")],
    # a usage synopsis, `<model-name-or-path> [options]`
    "docs28/d16_usage_synopsis_options.md": [("SLM004", 4, 27, "<model-name-or-path>")],
    # "WRONG"/"RIGHT" in one fence, each a launch with `&` then curl
    "docs28/d17_wrong_then_right_blocks.md": [("FLG005", 9, 85, "3000o")],
    # a Dynamo page: the ingress backgrounded, then `python3 -m dynamo.sglang` taking SGLang's flags
    # (a misspelt choice)
    "docs28/d18_dynamo_frontend_then_worker.md": [
        ("FLG003", 10, 3, "--tp"),
        ("SLM004", 12, 20, "${HEAD_PREFILL_NODE_IP}:29500"),
        ("FLG006", 15, 25, "prefil"),
    ],
    # a support-features table: flag names in code spans, one split over `<br>` (mentions, no launch)
    "docs28/d19_support_table_split_flag.md": [],
    # a SLURM job: `#SBATCH` lines, `model=MODEL_PATH` in capitals, `srun ... python3 -m
    # sglang.launch_server` quoted values, `&` then `wait`
    "docs28/d20_slurm_caps_placeholders.md": [
        ("FLG003", 18, 5, "--tp"),
        ("SLM004", 19, 22, '"$NCCL_INIT_ADDR"'),
    ],
    # a vendor blog (Chinese headings): an NPU `docker run ... bash`, then the launch in the next fence
    "docs28/d21_npu_docker_then_launch.md": [("FLG005", 16, 146, "3000o")],
    # a blog's Deployment: `$(VAR)` args from `env:`, a literal value and two configMapKeyRef of the
    # ConfigMap in the same file (before: the model and the running requests unknown, SLM004)
    "docs28/y01_deployment_env_from_configmap.yaml": [
        ("FLG005", 46, 15, "$(CHUNK)"),
        ("FLG005", 48, 15, "$(MAX_RUNNING)"),
    ],
    # a tutorial's compose file: `${VAR:-default}` values in a folded `command: >`
    "docs28/y02_compose_default_expansions.yaml": [
        ("FLG003", 14, 7, "--tp"),
        ("FLG005", 14, 43, "0.9x"),
    ],
    # rst bullet and auto-numbered list items whose text is the command, one going on over an
    # indented line of flags (before: SLM005, the bullet taken for prose)
    "docs28/r01_bullet_item_commands.rst": [
        ("FLG005", 6, 82, "2x"),
        ("FLG005", 10, 25, "0.9x"),
        ("FLG003", 13, 72, "--tp"),
        ("FLG006", 13, 119, "fa9"),
    ],
    # an issue: "for the decode node I only added these", a fence of SGLang flags, no launcher
    # (before: "All checks passed: 0 launches")
    "docs28/f01_decode_node_flag_fence.md": [("SLM005", 7, 1, "--disaggregation-mode")],
    # a review's suggested change: a diff of flag lines (the removed line not the one named)
    "docs28/f02_review_diff_flag_lines.md": [("SLM005", 7, 6, "--mem-fraction-static")],
    # a comparison page: vLLM's flags in a fence (`--gpu-memory-utilization` is no SGLang
    # option) and TGI's in prose: not SGLang's, nothing said
    "docs28/f03_other_engine_flags.md": [],
    # flags every one of which SGLang also has, but introduced as vLLM's (the sentence above,
    # the fence's comment): not reported as SGLang's
    "docs28/f04_other_engine_named_above.md": [],
    # a flag fragment on a page whose launch is read: the launch is what was checked, and the
    # fragment, which no launch reads, is said not read (it was passed in silence before)
    "docs28/f05_fragment_beside_launch.md": [("SLM005", 10, 1, "--dp-size")],
    # an issue's "**Decode node**" then a paragraph of one code span of flags
    "docs28/f07_flag_span_paragraph.md": [("SLM005", 7, 2, "--disaggregation-mode")],
    # the same flags in a code span inside a sentence: a mention of flags, not said
    "docs28/f08_flag_span_in_sentence.md": [],
    # an rst literal block of flags after `::`
    "docs28/f06_rst_literal_flags.rst": [("SLM005", 6, 5, "--disaggregation-mode")],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


@pytest.mark.parametrize(
    "item",
    [
        "- Start it: python -m sglang.launch_server --model-path m --tp-size 2x",  # prose first
        "- python -m sglang.launch_server --model-path <path> --tp-size 2x",  # a placeholder
        "- *python -m sglang.launch_server --model-path m --tp-size 2x*",  # emphasis
    ],
)
def test_a_rst_list_item_that_is_not_a_literal_command_stays_unread(item: str) -> None:
    found = [(f.code, f.span.column) for f in lint_text(f"Steps\n\n{item}\n", "p.rst").findings]
    assert [code for code, _ in found] == ["SLM005"]


def test_a_rst_item_command_ends_where_the_next_item_starts() -> None:
    text = "Steps\n\n- python -m sglang.launch_server --model-path m\n- --tp-size 2x\n"
    assert [f.code for f in lint_text(text, "p.rst").findings] == []  # the flag item is not its flag


def test_a_flag_only_block_is_said_not_read_and_never_passed() -> None:
    fixture = FixtureFile("docs28/f01_decode_node_flag_fence.md")
    (finding,) = fixture.findings()
    assert "holds only flags (`--disaggregation-mode`, an option of SGLang's server)" in finding[4]
    assert "nothing here was checked" in finding[4]
    from speclint_runs import run_speclint

    done = run_speclint("--no-cache", str(fixture.path))
    assert "All checks passed" not in done.stdout
    assert "1 file naming SGLang with no launch found" in done.stdout


@pytest.mark.parametrize(
    "block",
    [
        "--disaggregation-mode decode --tp-size 2x\n",  # a flag SGLang has: said
        "--disaggregation-mode decode --no-such-sglang-flag 1\n",  # one it never had: not SGLang's
        "--disaggregation-mode decode\npython -m other.server\n",  # not only flags
    ],
)
def test_only_blocks_of_sglang_options_alone_are_said(block: str) -> None:
    text = f"SGLang decode node:\n\n```bash\n{block}```\n"
    said = [f.code for f in lint_text(text, "i.md").findings]
    assert said == (["SLM005"] if "2x" in block else [])


def test_a_config_map_key_the_file_does_not_hold_stays_unknown() -> None:
    text = FixtureFile("docs28/y01_deployment_env_from_configmap.yaml").text
    elsewhere = text.replace("key: model_id", "key: model_name")  # no such key in the ConfigMap
    found = [(f.code, f.span.line) for f in lint_text(elsewhere, "d.yaml").findings]
    assert found == [("SLM004", 44), ("FLG005", 46), ("FLG005", 48)]

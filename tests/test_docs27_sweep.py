"""Launch forms seen in public docs, issue threads, notebooks and deployment manifests, each
described by a fixture of our own (fixtures/docs27): every launch is read whole, or what
speclint could not read is said (SLM004 partly read, SLM005 not read), and no finding is a
false error. Each finding is asserted at the token it names (code, line, column, text)."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # an issue reply quoting, three `>` deep, an inline code span with env words and nohup
    "docs27/d01_nested_quote_inline.md": [
        ("FLG008", 6, 188, "--enable-dp-attention"),
        ("FLG005", 6, 232, "0.85x"),
    ],
    # a PR description: "command", an untagged fence with the launch, `# and rank 1`, a
    # benchmark in a `( cd ... && ... )` subshell
    "docs27/d02_pr_command_two_ranks.md": [
        ("FLG003", 6, 94, "--tp"),
        ("FLG003", 6, 102, "--dp"),
        ("PAR003", 6, 110, "--enable-dp-attention"),
    ],
    # two launches in one fence, blank lines between, `--model` for `--model-path`
    "docs27/d03_two_backends_abbrev.md": [
        ("FLG003", 6, 69, "--tp"),
        ("FLG003", 9, 69, "--tp"),
        ("FLG006", 9, 195, "fa9"),
    ],
    # a review comment: a ````diff fence whose added lines hold a Markdown fence with a launch
    "docs27/d04_review_diff.md": [("FLG005", 9, 166, "0x")],
    # `ps aux` output: the command line of a running server is not a launch; said not read
    "docs27/d05_ps_output.md": [("SLM005", 5, 88, "sglang.launch_server")],
    # a compose service in a yaml fence: `entrypoint:` the launcher, `command: >` folded flags
    "docs27/d06_compose_entrypoint_folded.md": [("SLM004", 11, 20, "${SGLANG_MODEL}")],
    # `--gpus '"device=0,..."'`, a flag given twice (argparse keeps the last)
    "docs27/d07_docker_device_quotes_dup.md": [
        ("FLG007", 12, 5, "--attention-backend"),
        ("FLG003", 16, 5, "--tp"),
    ],
    # `sudo docker run -d` with quoted `--env "K=V"` words and a placeholder token
    "docs27/d08_sudo_env_quotes.md": [("FLG005", 15, 15, "two")],
    # CJK comments in the fence, `--model`, an empty fence after it
    "docs27/d09_cjk_notes_empty_fence.md": [
        ("FLG003", 8, 69, "--tp"),
        ("FLG005", 8, 103, "3000o"),
    ],
    # MkDocs `??? code "service.yaml"` collapsible holding an indented SkyPilot yaml fence
    "docs27/d10_mkdocs_collapsible_yaml.md": [
        ("FLG003", 15, 9, "--tp"),
        ("SLM004", 15, 14, "$SKYPILOT_NUM_GPUS_PER_NODE"),
        ("FLG005", 16, 59, "0.9x"),
    ],
    # an em dash pasted for `--` in an inline code span that shows the model
    "docs27/d11_inline_em_dash.md": [("FLG010", 3, 75, "—tp"), ("FLG010", 3, 79, "2")],
    # ... and in a partial one (no model shown: before, only SLM004)
    "docs27/d12_inline_em_dash_partial.md": [
        ("FLG010", 3, 40, "—tp"),
        ("FLG010", 3, 44, "2"),
        ("SLM004", 3, 45, ""),
    ],
    # MkDocs content tabs (`=== "pip"`) each holding an indented fence, one with an image tag
    "docs27/d13_mkdocs_content_tabs.md": [("FLG005", 7, 95, "3000o"), ("FLG006", 14, 85, "qwen9")],
    # a GitHub alert (`> [!TIP]`) quoting a fence with `\` continuations
    "docs27/d14_github_alert_quote_fence.md": [("FLG005", 9, 28, "lots")],
    # a `console` fence with `$ ` under a numbered list item
    "docs27/d15_list_item_prompt_fence.md": [("FLG001", 8, 35, "--sliding-window-size")],
    # a table cell whose command goes on over `<br>` in a second code span
    "docs27/d16_table_br_cell.md": [("FLG006", 3, 124, "bfloat32")],
    # Docusaurus MDX: `import` lines, `<Tabs>`/`<TabItem>` around a fence
    "docs27/d17_mdx_tabs.mdx": [("FLG006", 8, 108, "fp9")],
    # `export` lines before the launch in one fence
    "docs27/d18_env_var_line_then_launch.md": [
        ("FLG003", 8, 100, "--tp"),
        ("VER001", 8, 107, "--enable-ep-moe"),
    ],
    # a review diff of a doc: the removed `-$ ...` line (with `---flag`) is not checked, the
    # added `+$ ...` line is
    "docs27/d19_review_diff_prompt_lines.md": [("FLG006", 9, 140, "prefil")],
    # a `text` fence of elided commands (`CUDA_VISIBLE_DEVICES=0 ... --port 30000`): no launch
    "docs27/d21_text_fence_elided.md": [],
    # `# Node 0` then variables and a `nohup ... > decode.log 2>&1 &` launch
    "docs27/d22_issue_heading_node_blocks.md": [
        ("SLM004", 8, 18, "${MODEL}"),
        ("FLG003", 15, 5, "--tp"),
        ("FLG006", 16, 20, "moe_wna17"),
    ],
    # `<details><summary>` then a fence with no blank line: CommonMark keeps it in the HTML
    # block (before: SLM005 said not read)
    "docs27/h01_details_fence_no_blank.md": [("FLG005", 6, 96, "ten")],
    # `<pre><code class="language-bash">` with a `\` continuation
    "docs27/h02_pre_code_html.md": [("FLG003", 3, 3, "--tp"), ("FLG006", 3, 28, "fastest")],
    # the same with `<your model>` in it: a browser shows no such text; said not read
    "docs27/h03_details_fence_markup.md": [("SLM005", 4, 12, "sglang.launch_server")],
    # a notebook cell printing the command to run in a terminal (before: SLM005)
    "docs27/n01_print_command.ipynb": [("FLG005", 15, 106, "2x")],
    # `!nohup ... > server.log 2>&1 &`
    "docs27/n02_bang_nohup.ipynb": [("FLG005", 7, 117, "0.8x")],
    # `%%bash --bg` cell magic with `\` continuations
    "docs27/n03_bash_bg_magic.ipynb": [("FLG006", 10, 28, "fa9")],
    # a command string run with subprocess.Popen(cmd, shell=True)
    "docs27/n04_popen_shell_string.ipynb": [("FLG003", 8, 96, "--tp"), ("FLG005", 8, 101, "2x")],
    # `.. code-block:: bash` with `:caption:` and `:linenos:` options
    "docs27/r01_code_block_caption.rst": [("FLG005", 10, 26, "3000o")],
    # `Start the server with::` then an indented literal block
    "docs27/r02_literal_after_colons.rst": [("FLG005", 6, 96, "0.8x")],
    # a paragraph line that is itself the command, between sentence lines (before: SLM005)
    "docs27/r03_paragraph_command.rst": [("FLG005", 5, 80, "2x")],
    # sphinx-design `.. tab-set::`/`.. tab-item::` holding a code-block with options and a
    # `.. note::` with a `::` literal block (`--nccl-init-addr`: an alias SGLang keeps)
    "docs27/r05_sphinx_design_tabs.rst": [("FLG005", 12, 61, "2x"), ("FLG003", 20, 84, "--tp")],
    # a paragraph that is a command over two lines, the second starting with a flag
    "docs27/r06_paragraph_two_lines.rst": [("FLG005", 4, 36, "high")],
    # `.. code-block:: console` with `$ ` and `> ` prompts, then server output
    "docs27/r04_prompt_console.rst": [("FLG005", 8, 46, "lots")],
    # a StatefulSet: `command: [/bin/bash, -c]`, comment lines, then `args: - |` script
    "docs27/y01_statefulset_bash_c_comments.yaml": [
        ("FLG003", 29, 11, "--tp"),
        ("SLM004", 32, 23, "$POD_INDEX"),
        ("FLG005", 35, 51, "two"),
    ],
    # a LeaderWorkerSet whose leader and worker each list the argv one word an item, with
    # `$(LWS_LEADER_ADDRESS)` references
    "docs27/y02_lws_command_list.yaml": [
        ("SLM004", 31, 13, "$(LWS_LEADER_ADDRESS):20102"),
        ("FLG006", 37, 13, "decoder"),
        ("SLM004", 55, 13, "$(LWS_LEADER_ADDRESS):20102"),
    ],
    # SkyPilot two-node task: arithmetic over SKYPILOT_* variables in `run: |`
    "docs27/y03_skypilot_two_nodes.yaml": [
        ("FLG003", 20, 5, "--tp"),
        ("SLM004", 20, 10, "$(($SKYPILOT_NUM_GPUS_PER_NODE * $SKYPILOT_NUM_NODES))"),
        ("FLG005", 26, 24, "forever"),
    ],
    # compose `command: [...]` flow list over three lines, GPUs from deploy.resources
    "docs27/y04_compose_list_command.yaml": [("FLG003", 11, 78, "--tp"), ("FLG005", 11, 86, "two")],
    # a Dynamo graph: `/bin/sh -c` and one args string running `python3 -m dynamo.sglang`
    "docs27/y05_dynamo_graph_args.yaml": [("FLG003", 30, 121, "--tp"), ("FLG005", 30, 192, "0.8x")],
    # a KServe ServingRuntime (`--flag=value` args) and an InferenceService choosing it
    "docs27/y06_kserve_runtime.yaml": [("FLG006", 18, 29, "priority-first")],
    # a Helm values file alone: its extraArgs reach a template not beside it; said not read
    "docs27/y07_helm_values/values.yaml": [("SLM005", 12, 6, "--schedule-conservativeness")],
    # cloud-init runcmd with a pip pin deciding the release
    "docs27/y08_cloud_init_runcmd.yaml": [("FLG003", 5, 109, "--tp"), ("FLG005", 5, 114, "1x")],
    # a RayJob entrypoint
    "docs27/y09_ray_serve_runtime_env.yaml": [("FLG005", 6, 120, "0.8x")],
    # compose extension fields merged with `<<: [*a, *b]`, `image: $VAR`, ROCm devices
    "docs27/y11_compose_anchors_merge.yaml": [
        ("FLG006", 19, 107, "deepseek-r9"),
        ("FLG005", 24, 102, "0.8x"),
    ],
    # compose `entrypoint:` the launcher, `command:` a plain scalar over several lines
    "docs27/y12_compose_plain_multiline.yaml": [("FLG005", 16, 17, "lots")],
    # a Dockerfile CMD exec form continued with `\` over lines, after a HEALTHCHECK
    "docs27/y13_dockerfile_cmd_continued.Dockerfile": [
        ("FLG003", 7, 7, "--model"),
        ("FLG003", 8, 7, "--tp"),
        ("FLG006", 10, 18, "bfloat32"),
    ],
    # a GitHub Actions step in a container job, the model from a `${{ }}` expression
    "docs27/y10_github_actions_step.yaml": [
        ("SLM004", 12, 56, "${{ matrix.model || 'Qwen/Qwen2.5-0.5B-Instruct' }}"),
        ("FLG009", 13, 26, "--cuda-graph-max-bs-decode"),
    ],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


def test_a_pasted_dash_in_a_partial_inline_command_is_named() -> None:
    findings = FixtureFile("docs27/d12_inline_em_dash_partial.md").findings()
    (flag,) = [f for f in findings if f[3] == "—tp"]
    found = lint_text(FixtureFile("docs27/d12_inline_em_dash_partial.md").text, "d.md").findings
    notes = [(n.span.line, n.span.column, n.message) for f in found if f.code == "FLG010" for n in f.notes]
    assert [n[:2] for n in notes] == [(3, 40)] and "U+2014 EM DASH here, not `-`" in notes[0][2]
    assert flag[4].startswith("`—tp` is not attached to any flag")


def test_an_inline_model_flag_typed_with_an_en_dash_is_checked_whole() -> None:
    text = "Run `python -m sglang.launch_server –-model-path Qwen/Qwen2-7B --tp 2`.\n"
    found = [(f.code, f.span.column) for f in lint_text(text, "a.md").findings]
    assert found[:2] == [("FLG011", 6), ("FLG010", 37)]  # was one SLM004: its rest may hold any flags
    plain = "Run `python -m sglang.launch_server --tp 2`.\n"  # no pasted dash: a partial launch
    assert [f.code for f in lint_text(plain, "a.md").findings] == ["SLM004", "FLG003"]


def test_a_rst_paragraph_is_read_only_where_its_line_is_a_literal_command() -> None:
    said = "Then run python -m sglang.launch_server --tp-size 2x on the node.\n"
    assert [f.code for f in lint_text(said, "p.rst").findings] == ["SLM005"]
    marked = "Run it\n*python -m sglang.launch_server --tp-size 2x*\n"  # emphasis: not as written
    assert [f.code for f in lint_text(marked, "p.rst").findings] == ["SLM005"]
    for prose in ("--model-path m starts the server", "--model-path <path> --tp-size 2x"):
        text = f"Intro\n\npython -m sglang.launch_server {prose}\n"  # a sentence, a placeholder
        assert [f.code for f in lint_text(text, "p.rst").findings] == ["SLM005"], prose
    continued = "Run\npython -m sglang.launch_server --model-path m\n--tp-size 2x\n"
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(continued, "p.rst").findings]
    assert found == [("FLG005", 3, 11)]


@pytest.mark.parametrize(
    "line",
    [
        'print(f"python -m sglang.launch_server --model-path {model} --tp-size 2x")',  # a placeholder
        'print("python -m sglang.launch_server --model-path <path> --tp-size 2x")',
        'print("python -m sglang.launch_server --model-path m --tp-size 2x and then query it")',
        'print("Run python -m sglang.launch_server --model-path m --tp-size 2x")',
    ],
)
def test_a_printed_command_not_plain_stays_unread(line: str) -> None:
    import json

    cell = {"cell_type": "code", "metadata": {}, "source": [line], "outputs": [], "execution_count": None}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    codes = [f.code for f in lint_text(json.dumps(notebook, indent=1), "n.ipynb").findings]
    assert codes == ["SLM005"]

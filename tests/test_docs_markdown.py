"""Markdown forms real docs use (markdown-it-py front-end): findings at exact positions in
the .md file, and no launch invented from a mention."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from findings_at import findings_at

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
MD = ROOT / "fixtures/markdown"


def findings(name: str) -> tuple[str, list[tuple]]:
    """(text, [(code, line, column, severity, the text the finding points at)])."""
    text = (MD / name).read_text()
    return text, findings_at(text, name, severity=True)


def errors(found) -> list[tuple[str, int, int, str]]:
    return [
        (code, line, column, token) for code, line, column, severity, token in found if severity == "error"
    ]


def test_fences_in_admonitions_tabs_list_items_and_quotes():
    _, found = findings("mkdocs_admonitions.md")
    assert errors(found) == [
        ("FLG001", 9, 95, "--tp-szie"),  # ???+ tip body, continued lines
        ("FLG001", 16, 80, "--speculative-num-stepz"),  # !!! note > === "Shell" tab
        ("FLG001", 23, 63, "--tp-szie"),  # list item indented four spaces
        ("FLG001", 28, 61, "--tp-szie"),  # block quote
    ]
    # argparse stops at `--tp-szie`: what would happen after parsing (SPD003) is not reported
    assert ("SPD003", 8, 33, "warning", "EAGLE3") not in found


def test_inline_code_and_prose_lines():
    text, found = findings("inline_and_prose.md")
    assert errors(found) == [("FLG001", 3, 121, "--mem-fraction-statc"), ("FLG001", 7, 69, "--tp-szie")]
    assert ("FLG003", 5, 53, "info", "--speculative-algo") in found
    launches = extract_file("p.md", text).launches
    assert [launch.span.line for launch in launches] == [3, 5, 7, 11]  # line 9 only names the module
    inline, short, prose, parenthesised = launches
    assert inline.env["CUDA_VISIBLE_DEVICES"].text == "0,1"
    assert [w.text for w in inline.args] == [
        "--model-path",
        "/models/llama",
        "--tp-size",
        "2",
        "--mem-fraction-statc",
        "0.8",
    ]
    assert short.args[0].splat and short.args[-1].splat  # no model shown; `...` leaves words out
    assert [w.text for w in prose.args][-2:] == ["--port", "30000"]  # the full stop is prose
    assert [w.text for w in parenthesised.args] == ["--model-path", "/models/llama", "--port", "30000"]


def test_flag_lists_without_the_command():
    text, found = findings("flag_lists.md")
    assert errors(found) == [("FLG001", 12, 1, "--tp-szie"), ("FLG001", 18, 4, "--speculative-eagle-top-k")]
    assert ("FLG003", 17, 4, "info", "--speculative-algo") in found
    assert not any(code == "FLG011" for code, *_ in found)  # no invented missing --model-path
    block, bullets = extract_file("f.md", text).launches
    assert block.entry == bullets.entry and "sglang.launch_server" in block.entry
    assert block.args[0].splat and block.args[0].dynamic_reason.startswith("the rest of the launch")
    assert [w.text for w in block.args[1:5]] == [
        "--model-path",
        "/models/Kimi-K2",
        "--speculative-algorithm",
        "EAGLE",
    ]
    assert bullets.env["SGLANG_ENABLE_SPEC_V2"].text == "1"
    assert bullets.env["SGLANG_ENABLE_SPEC_V2"].span.line == 19


def test_python_fences_placeholders_and_doc_syntax_errors():
    text, found = findings("doc_fences.md")
    assert errors(found) == [
        ("FLG001", 4, 59, "--tp-szie"),  # a shell command in a ```python fence
        ("FLG001", 9, 60, "--tp-szie"),  # an IPython `!` line
        ("FLG001", 14, 92, "--tp-szie"),
    ]
    assert ("SLM001", 19, 71, "warning", ")") in found  # a doc fence never gives an error syntax finding
    launches = {launch.span.line: launch for launch in extract_file("d.md", text).launches}
    model = launches[13].args[1]
    assert (
        model.text is None
        and "placeholder" in model.dynamic_reason
        and "<your-model>" in model.dynamic_reason
    )
    assert text.splitlines()[12][model.span.column - 1 : model.span.end_column - 1] == "<your-model>"
    assert not model.splat  # one unknown word, not a redirection from `your-model`
    assert [w.text for w in launches[14].args][2:4] == ["--speculative-draft-model-path", None]
    port = launches[15].args[3]
    assert port.text is None and "<port>" in port.dynamic_reason and launches[15].args[4].splat


def test_original_fixture_unchanged():
    text = (MD / "README_launch.md").read_text()
    found = {(f.code, f.span.line, f.span.column) for f in lint_text(text, "R.md").findings}
    assert {("SPD001", 8, 87), ("FLG001", 15, 5), ("SPD001", 28, 47), ("FLG001", 34, 43)} <= found


def test_mentions_are_not_launches():
    text = (
        "# sglang\n\nSee `--speculative-num-steps` and `python -m sglang.launch_server --help`.\n\n"
        "- `--speculative-num-steps`: steps\n- `--speculative-eagle-topk`: branching\n\n"
        "Run python -m sglang.launch_server to start it.\n\n"
        "```text\npython -m sglang.launch_server --bogus 1\n```\n\n"
        "```\n--model other --speculative-model x --num-speculative-tokens 5\n```\n"
    )
    result = extract_file("m.md", text)
    # `--help` is read as a launch: argparse prints the flags and starts nothing, so no rule
    # but help-flag (FLG012, opt-in for `check`; the API runs every rule) reports on it
    assert [launch.args[-1].text for launch in result.launches] == ["--help"]
    found = [(f.code, f.severity.label, f.span.line) for f in lint_text(text, "m.md").findings]
    # the `text` block is shown, not run, so not a launch; but it opens with the launcher, so
    # it is said to be unchecked (an info), never passed over beside the file's other launches
    assert found == [("FLG012", "info", 3), ("SLM005", "info", 11)]


def test_markdown_it_is_loaded_only_for_markdown():
    code = (
        "import sys, speclint.engine as l; l.lint_text(open(sys.argv[1]).read(), sys.argv[1]);"
        "print('markdown_it' in sys.modules)"
    )
    for path, expected in (
        (ROOT / "fixtures/shell/kimi_eagle_launch.sh", "False"),
        (MD / "flag_lists.md", "True"),
    ):
        out = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, check=True
        ).stdout
        assert out.strip() == expected


def test_fragments_in_sentences_and_other_engines_lists_are_not_launches():
    text = (
        "# sglang\n\n- **Best**: use EAGLE-3 with `--speculative-algorithm EAGLE3`.\n\n"
        "Flag rationale:\n- `--kv-cache-dtype fp8` doubles KV capacity.\n"
        "- `--speculative-algo NEXTN` is the MTP path.\n- `VLLM_ROCM_USE_AITER_FP4BMM=0` is mandatory.\n\n"
        "Older builds use `python3 -m sglang.launch_server` instead.\n"
    )
    assert extract_file("e.md", text).launches == []


def test_notebook_lines_pasted_into_a_shell_block_and_mdx():
    text = "```bash\n%cd /content\n!python -m sglang.launch_server \\\n  --model-path m --tp-szie 2 &\n```\n"
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "colab.md").findings]
    assert found == [("FLG001", 4, 18)]
    assert [(f.code, f.span.line) for f in lint_text(text, "page.mdx").findings] == [("FLG001", 4)]


def test_tab_indented_admonition_body():
    text = '???+ tip "Run"\n\t```bash\n\tpython -m sglang.launch_server --model-path m --tp-szie 2\n\t```\n'
    assert [(f.code, f.span.line, f.span.column) for f in lint_text(text, "t.md").findings] == [
        ("FLG001", 3, 48)
    ]


def test_env_block_after_a_flag_list_is_its_environment():
    text = (
        "Launch flags:\n\n- `--speculative-algorithm EAGLE --speculative-num-steps 3`\n"
        "- `--speculative-eagle-topk 1`\n\n```bash\nexport SGLANG_ENABLE_SPEC_V2=1\n```\n\nDone.\n"
    )
    [launch] = extract_file("l.md", text).launches
    env = launch.env["SGLANG_ENABLE_SPEC_V2"]
    assert env.text == "1" and (env.span.line, env.span.column) == (7, 30)  # the value as written
    assert [w.text for w in launch.args[1:]] == [
        "--speculative-algorithm",
        "EAGLE",
        "--speculative-num-steps",
        "3",
        "--speculative-eagle-topk",
        "1",
    ]


def test_array_of_prefixed_flags_in_a_fence_is_read():
    """A README fence holding only slime's `SGLANG_ARGS=(--sglang-...)` array (the shell
    front-end's prefixed-flag fragment) is read from Markdown too, at the fence's lines."""
    from speclint.settings.options import LintOptions

    text = (ROOT / "fixtures/slime/README.md").read_text()
    result = lint_text(text, "README.md", LintOptions(sglang_version="0.5.23"))
    found = [(f.code, f.span.line, f.span.column) for f in result.findings if f.code != "SLM004"]
    assert found == [
        ("FLG001", 11, 4)
    ]  # argparse stops the launch: SPD003/SPD001 (after parsing) are not reported (issue 16)

"""Launch forms seen in public docs, notebooks, issue threads and Python files (sweep 29), each
described by a fixture of our own (fixtures/docs29): every launch is read whole, or what
speclint could not read is said (SLM004 partly read, SLM005 not read), and no finding is a false
error. Each finding is asserted at the token it names (code, line, column, text).

Also: a command that is not SGLang's launcher but passes SGLang's `--speculative-*` flags, on a
page that may never name SGLang, is said not read (never "All checks passed"); a code block of
flags alone beside a launch is said not read, once per block, unless a launch read it; a finding
in an f-string's literal part sits on the word, whatever the f-string's form."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

from speclint.engine import lint_text

EXPECTED = {
    # MkDocs: content tabs (`=== "SGLang"`) inside an admonition (`!!! tip`), the fence indented
    # twice; the other tab's command is another server's and not read
    "docs29/d01_admonition_tabs_indented.md": [("FLG003", 10, 13, "--tp")],
    # an admonition's indented fence: a comment per node, two `\` continued launches
    "docs29/d02_admonition_note_two_nodes.md": [
        ("FLG003", 8, 73, "--tp"),
        ("FLG003", 11, 73, "--tp"),
    ],
    # `<details>`/`<summary>` inside a numbered list item, the fence indented with the item
    "docs29/d03_details_in_list_item.md": [("FLG006", 9, 141, "lpm2")],
    # an issue template: `### Reproduction` holds the launch; `### Environment` a text block whose
    # `sglang: 0.4.6` line is the release the launch is checked against
    "docs29/d04_issue_template_reproduction.md": [
        ("DRF011", 12, 46, "meta-llama/Llama-3.1-8B-Instruct"),
        ("SPD003", 13, 27, "EAGLE3"),
    ],
    # a pull request's test plan: a table of flag code spans (mentions, not launches), then a
    # launch whose first line is an env prefix continued with `\`
    "docs29/d05_pr_table_env_prefix.md": [("SPD003", 14, 27, "STANDALONE")],
    # argparse's error pasted in an indented block, naming another engine's flags: not a launch
    "docs29/d06_pasted_error_other_engine_flags.md": [],
    # a harness that starts the server itself, on a page that never names SGLang, passing
    # SGLang's speculative flags: said not read (was "All checks passed: 0 launches")
    "docs29/d07_wrapper_never_names_engine.md": [("SLM005", 7, 3, "--speculative-num-steps")],
    # a launch, then two blocks of flags to add for other nodes: each said not read, at its block
    "docs29/d08_launch_then_node_fragments.md": [
        ("SLM005", 12, 1, "--disaggregation-mode"),
        ("SLM005", 18, 1, "--dist-init-addr"),
    ],
    # a launch read, and a project's own script passing SGLang's speculative flags beside it
    "docs29/d09_wrapper_beside_launch.md": [("SLM005", 12, 47, "--speculative-algorithm")],
    # a notebook: a markdown cell's "equivalent to executing" fence, then `launch_server_cmd`
    # with a triple-quoted, `\` continued command
    "docs29/n01_markdown_then_launch_cmd.ipynb": [
        ("FLG003", 28, 22, "--tp"),
        ("FLG006", 28, 47, "xgrammar2"),
    ],
    # a `%%bash` cell: an export, then `nohup ... > log 2>&1 &` and a sleep
    "docs29/n02_bash_magic_nohup.ipynb": [
        ("FLG003", 9, 82, "--tp"),
        ("FLG006", 9, 119, "fp9"),
    ],
    # `!VAR=x python -m ...` with IPython's `{model}` and `$tp` filled in from earlier cells
    "docs29/n03_bang_env_prefix_substitution.ipynb": [
        ("SLM004", 17, 76, "{model}"),
        ("FLG003", 17, 84, "--tp"),
        ("FLG003", 17, 93, "--dp"),
        ("PAR003", 17, 100, "--enable-dp-attention"),
    ],
    # `launch_server_cmd` of adjacent string literals: each flag at its own literal
    "docs29/n04_launch_cmd_concat_speculative.ipynb": [
        ("FLG003", 13, 12, "--mem-fraction"),
        ("FLG002", 13, 31, "--cuda-graph-max-bs"),
    ],
    # a notebook whose only command is a harness's, in a markdown cell
    "docs29/n05_markdown_wrapper_only.ipynb": [("SLM005", 10, 78, "--speculative-num-steps")],
    # a notebook's `!` line and `%%bash` cell running a harness with SGLang's speculative flags,
    # the notebook never naming SGLang: each said not read (was "All checks passed")
    "docs29/n06_code_cells_wrapper_only.ipynb": [
        ("SLM005", 25, 54, "--speculative-num-steps"),
        ("SLM005", 37, 8, "--speculative-eagle-topk"),
    ],
    # `launch_server_cmd("""export X=1 ;\npython3 -m ...""")`: SGLang splits the text on
    # whitespace, so `;` is an argument and the command is `export`: said, never checked as a launch
    "docs29/p01_launch_cmd_export_prefix.py": [
        ("SLM001", 7, 25, ";"),
        ("SLM005", 8, 12, "sglang.launch_server"),
    ],
    # `launch_server_cmd(f"...", host=..., port=...)`: the model from argparse, partly read
    "docs29/p02_launch_cmd_fstring_keywords.py": [
        ("SLM004", 11, 52, "{args.model}"),
        ("FLG006", 11, 85, "flashinfer2"),
    ],
    # SGLang's older helper name, `execute_shell_command("""...""")`
    "docs29/p03_execute_shell_command.py": [
        ("FLG003", 6, 29, "--tp"),
        ("FLG006", 6, 55, "deepseek-r2"),
    ],
    # flags joined from a config file at run time: said partly read at the f-string's field
    "docs29/p04_flags_joined_from_config.py": [("SLM004", 7, 40, "{cmd_args}")],
    # the router's launcher from a parenthesised run of f-strings with subscripts and calls
    "docs29/p05_router_fstring_concat.py": [("SLM004", 10, 25, "{model_name}")],
    # an async runner: an argv list ending in `*(extra_args or [])`, run by create_subprocess_exec
    "docs29/p06_async_runner_extra_args.py": [("SLM004", 15, 29, "model")],
    # an argv list grown with `+=` then run as `cmd + extra_args`: the extra words may set any
    # flag again (argparse keeps the last), so the misspelt algorithm before them is no error
    "docs29/p07_list_grown_then_extra.py": [("SLM004", 6, 74, "model")],
    # `sgl.Engine(**engine_kwargs)` with a `dict(...)` built above
    "docs29/p08_engine_kwargs_dict.py": [("VER001", 11, 5, "cuda_graph_max_bs")],
    # f-strings as argv elements: the finding on the value inside the f-string
    "docs29/p09_fstring_list_elements.py": [("SPD008", 7, 54, "EAGEL")],
    # a notebook exported by nbconvert: `get_ipython().system(...)` (a `!` line, IPython's
    # `{model}` an unknown value), `run_cell_magic('bash', ...)`, `getoutput(...)` with `{{...}}`
    # (one brace to the shell: valid JSON); a `%%writefile` cell only writes its text
    "docs29/p10_nbconvert_ipython_calls.py": [
        ("SLM004", 16, 67, "{model}"),
        ("FLG006", 16, 120, "fp9"),
        ("FLG006", 22, 184, "round_robin2"),
        ("SLM004", 28, 77, "{model}"),
    ],
    # `os.system(shlex.join(cmd) + " &")`: each element one word again (a name with a blank
    # too); said at the element (was: not read, nothing said)
    "docs29/p11_shlex_join_system.py": [("FLG006", 14, 24, "fp9")],
    # the helper imported under `if is_in_ci(): ... else: ...`; an f-string of module constants,
    # one a placeholder (`<add-your-api-key>`) that SGLang's helper passes on as written
    "docs29/p12_ci_import_switch_fstring_helper.py": [
        ("FLG006", 20, 25, "triton2"),
        ("SLM001", 22, 15, "{API_KEY}"),
    ],
    # `.. code-block:: console` with `$ ` prompts, continuation lines without one, output lines
    "docs29/r01_console_prompts_continued.rst": [("FLG003", 8, 48, "--max-running-request")],
    # a code-block nested in a `.. note::`
    "docs29/r02_note_nested_code_block.rst": [
        ("DRF011", 10, 52, "meta-llama/Llama-3.1-8B-Instruct"),
        ("SPD003", 11, 35, "EAGLE"),
    ],
    # sphinx-design's tab-set holding a harness command with SGLang's speculative flag
    "docs29/r03_tab_set_wrapper.rst": [("SLM005", 10, 80, "--speculative-num-steps")],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    assert [f[:4] for f in FixtureFile(relative).findings()] == EXPECTED[relative]


def test_a_wrapper_page_is_said_not_read_and_never_passed() -> None:
    fixture = FixtureFile("docs29/d07_wrapper_never_names_engine.md")
    (finding,) = fixture.findings()
    assert "this command (`python -m specbench.serve`) is not SGLang's launcher" in finding[4]
    assert "passes `--speculative-num-steps`, an option of SGLang's server" in finding[4]
    from speclint_runs import run_speclint

    done = run_speclint("--no-cache", str(fixture.path))
    assert "All checks passed" not in done.stdout
    assert "SLM005" in done.stdout


_WRAPPER = "```bash\npython -m bench.serve --model-path m {flags}\n```\n"


@pytest.mark.parametrize(
    ("above", "flags", "said"),
    [
        ("", "--speculative-eagle-topk 1", ["SLM005"]),
        ("", "--speculative-num-draft-tokens=4", ["SLM005"]),
        # another engine's speculative flags: not SGLang's, nothing said
        ("", '--speculative-config \'{"method": "ngram"}\'', []),
        ("", "--speculative-model m2 --num-speculative-tokens 3", []),
        # introduced as another engine's run
        ("With vLLM we ran:\n\n", "--speculative-eagle-topk 1", []),
        # no speculative flag: other engines share SGLang's other flag names
        ("", "--tensor-parallel-size 2 --max-model-len 4096", []),
        # the flag only in a comment
        ("", "--port 1  # add --speculative-eagle-topk 1 for drafts", []),
    ],
)
def test_only_sglang_speculative_flags_make_a_wrapper_said(above: str, flags: str, said: list[str]) -> None:
    text = f"# Bench\n\n{above}{_WRAPPER.format(flags=flags)}"
    assert [f.code for f in lint_text(text, "w.md").findings] == said


def test_a_flag_block_a_launch_read_is_not_said_again() -> None:
    """A speculative flag list is read as a launch (`flag_lists`): its flags were checked."""
    text = (
        "# Run\n\n```bash\npython -m sglang.launch_server --model-path m\n```\n\n"
        "Add for drafts:\n\n```bash\n--speculative-algorithm EAGLE --speculative-num-steps 3\n```\n"
    )
    codes = [f.code for f in lint_text(text, "r.md").findings]
    assert "SLM005" not in codes


def test_a_fragment_beside_a_launch_says_no_launch_read_it() -> None:
    (finding,) = FixtureFile("docs29/d08_launch_then_node_fragments.md").findings()[:1]
    assert "without the command that takes them" in finding[4]
    assert "did not read them as part of any launch in this file" in finding[4]


def test_fragments_said_once_each_and_in_rst_too() -> None:
    text = (
        "Run\n===\n\n.. code-block:: bash\n\n   python -m sglang.launch_server --model-path m\n\n"
        "Decode::\n\n   --disaggregation-mode decode\n\nPrefill::\n\n   --disaggregation-mode prefill\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "r.rst").findings]
    assert found == [("SLM005", 10, 4), ("SLM005", 14, 4)]


_FSTRINGS = [
    'f"python -m sglang.launch_server --model-path {m} --host \\"h\\" --speculative-algorithm EAGEL"',
    "f\"python -m sglang.launch_server --model-path {d['m']} --speculative-algorithm EAGEL\"",
    "f\"python -m sglang.launch_server --model-path {m} --chat-template {'{'}x --speculative-algorithm EAGEL\"",
    'f"python -m sglang.launch_server --model-path {m:>{w}} --speculative-algorithm EAGEL"',
    'f"python -m sglang.launch_server --model-path {m!r} --json {{}} --speculative-algorithm EAGEL"',
    'F"python -m sglang.launch_server --model-path {m}\\t--speculative-algorithm EAGEL"',
    'f"python -m sglang.launch_server --served-model-name é --model-path {m} --speculative-algorithm EAGEL"',
    '"python -m sglang.launch_server " f"--model-path {m} --speculative-algorithm EAGEL"',
    "f\"python -m sglang.launch_server --model-path {m} --speculative-algorithm {'EAGEL'}\"",
]


@pytest.mark.parametrize("literal", _FSTRINGS)
def test_a_finding_in_an_fstring_sits_on_the_word(literal: str) -> None:
    """The same column on every Python (3.12+ reads the parts' places from CPython, earlier ones
    from the source text)."""
    line = f"cmd = {literal}"
    text = f"import subprocess\n\nm = input()\n{line}\nsubprocess.run(cmd, shell=True)\n"
    found = [
        (f.code, f.span.line, f.span.column) for f in lint_text(text, "l.py").findings if f.code == "SPD008"
    ]
    at = line.rindex("EAGEL") + 1 if "{'EAGEL'}" not in line else line.index("{'EAGEL'}") + 1
    assert found == [("SPD008", 4, at)]


def test_a_finding_in_a_triple_quoted_fstring_sits_on_its_line() -> None:
    text = (
        "import subprocess\n\nm = input()\n"
        'cmd = f"""python -m sglang.launch_server --model-path {m} \\\n'
        '  --speculative-algorithm EAGEL --tp {m}"""\n'
        "subprocess.run(cmd, shell=True)\n"
    )
    found = [
        (f.code, f.span.line, f.span.column) for f in lint_text(text, "l.py").findings if f.code == "SPD008"
    ]
    assert found == [("SPD008", 5, 27)]


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("get_ipython().system('python -m sglang.launch_server --model-path m --tp-size 2x')", ["FLG005"]),
        # IPython fills `{tp}` in: an unknown value, never the text `{tp}` checked as an int
        ("get_ipython().system('python -m sglang.launch_server --model-path m --tp-size {tp}')", ["SLM004"]),
        # `{{}}` is `{}` to the shell: valid JSON, no error
        (
            "get_ipython().system('python -m sglang.launch_server --model-path m "
            "--json-model-override-args {{}}')",
            [],
        ),
        (
            "get_ipython().run_cell_magic('sh', '', 'python -m sglang.launch_server --model-path m --port 3x')",
            ["FLG005"],
        ),
        (
            "get_ipython().run_cell_magic('script', 'bash', "
            "'python -m sglang.launch_server --model-path m --port 3x')",
            ["FLG005"],
        ),
        # a cell magic that does not run a shell
        ("get_ipython().run_cell_magic('python3', '', 'print(1)')", []),
        # another object's `system`: not read as IPython's, said not read (the launcher is named)
        ("shell().system('python -m sglang.launch_server --model-path m --port 3x')", ["SLM005"]),
    ],
)
def test_an_exported_notebook_cell_command_is_read(call: str, said: list[str]) -> None:
    text = f"import os\n\n{call}\n"
    assert [f.code for f in lint_text(text, "nb.py").findings] == said


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ('"--port", "3x"', ["FLG005"]),
        # an element with a blank is one word to the shell: the name, not a flag
        ('"--served-model-name", "a --port 3x"', []),
        # `*extra` may be any words: partly read, the known flag still checked
        ('"--port", "3x", *extra', ["FLG005", "SLM004"]),
    ],
)
def test_shlex_join_is_read_word_for_word(words: str, said: list[str]) -> None:
    text = (
        "import os, shlex\n\ndef run(extra):\n"
        f'    cmd = ["python3", "-m", "sglang.launch_server", "--model-path", "m", {words}]\n'
        "    os.system(shlex.join(cmd))\n"
    )
    assert [f.code for f in lint_text(text, "s.py").findings] == said


def test_a_page_of_many_fragments_says_the_cap_on_the_last() -> None:
    blocks = "".join(
        f"Step {i}:\n\n```bash\npython bench.py --speculative-num-steps {i}\n```\n\n" for i in range(60)
    )
    found = lint_text(f"# Steps\n\n{blocks}", "s.md").findings
    assert len(found) == 50
    assert "this command (`python bench.py`)" in found[0].message
    assert "speclint says the first 50 only" in found[-1].message
    assert all("first 50" not in f.message for f in found[:-1])

"""A doc block that runs the launcher in a form speclint does not read as a command (a
`powershell` block, a `json` block that is no debug configuration, an HTML `<pre><code>`
block, a `text` block that opens with the command) is reported beside the file's other
launches (SLM005, info), never passed over under "All checks passed"; a `docker-compose` block
is read as YAML."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

READ = "```bash\npython3 -m sglang.launch_server --model-path Qwen/Qwen3-8B\n```\n\n"


def _found(text: str) -> list[tuple]:
    return findings_at(text, "README.md", message=True)


def _unread(why: str) -> str:
    return (
        "speclint did not read the command that runs `python -m sglang.launch_server` in this code "
        f"block ({why}), so nothing in this launch was checked"
    )


def test_a_block_in_a_language_speclint_does_not_read_is_reported():
    text = READ + "```fish\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2\n```\n"
    assert _found(text) == [
        (
            "SLM005",
            6,
            1,
            "python -m sglang.launch_server",
            _unread("speclint does not read `fish` code blocks"),
        )
    ]


def test_a_powershell_block_doing_more_than_the_launch_is_reported():
    # (a block holding just the launch in plain words is read: test_docs_windows_continuations)
    text = (
        READ + "```powershell\nSet-Location D:\\sglang\n"
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2\n```\n"
    )
    assert _found(text) == [
        (
            "SLM005",
            7,
            1,
            "python -m sglang.launch_server",
            _unread("a `powershell` block is read only when it holds just the launch, in plain words"),
        )
    ]


def test_a_json_config_naming_the_launcher_is_reported_at_the_launcher():
    text = READ + '```json\n{"command": "python -m sglang.launch_server --port 30000"}\n```\n'
    assert [(c, line, col, tok) for c, line, col, tok, _ in _found(text)] == [
        ("SLM005", 6, 14, "python -m sglang.launch_server")
    ]


def test_an_html_pre_block_with_markup_in_it_is_reported():
    # (a `<pre>` of plain text is read: test_docs_html_pre)
    text = (
        READ + "<pre><code>python -m sglang.launch_server --model-path Qwen/Qwen3-8B &amp;\n</code></pre>\n"
    )
    assert _found(text) == [
        ("SLM005", 5, 12, "python -m sglang.launch_server", _unread("it is inside an HTML block"))
    ]


def test_an_html_comment_is_not_reported():
    text = READ + "<!-- python -m sglang.launch_server --model-path old/model -->\n"
    assert _found(text) == []


def test_a_text_block_opening_with_the_launcher_is_said_but_a_log_line_is_not():
    text = READ + "```text\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B\n```\n"
    assert _found(text) == [
        (
            "SLM005",
            6,
            1,
            "python -m sglang.launch_server",
            _unread("a `text` block is shown as text, not read as a command"),
        )
    ]
    log = READ + "```text\n[INFO] started: python -m sglang.launch_server --model-path m\n```\n"
    assert _found(log) == []


def test_a_docker_compose_block_is_read_as_yaml():
    text = (
        READ + "```docker-compose\nservices:\n  sglang:\n    image: lmsysorg/sglang:latest\n"
        "    command: python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --dtype float64\n```\n"
    )
    found = _found(text)
    assert [(c, line, col, tok) for c, line, col, tok, _ in found] == [("FLG006", 9, 81, "float64")]
    assert found[0][4].startswith("`float64` is not a valid value for `--dtype`")


def test_a_docker_run_command_under_the_docker_tag_is_read_as_shell():
    text = READ + (
        "```docker\ndocker run --gpus all lmsysorg/sglang:v0.5.5 \\\n"
        "    python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --dtype float64\n```\n"
    )
    result = lint_text(text, "README.md")
    assert [c.launch.span.line for c in result.contexts] == [2, 6]
    assert result.contexts[1].version.version == "0.5.5"
    found = _found(text)
    assert [(c, line, col, tok) for c, line, col, tok, _ in found] == [("FLG006", 7, 72, "float64")]

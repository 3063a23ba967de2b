"""A ```dockerfile fence in a doc is read by the Dockerfile front-end (ENTRYPOINT + CMD as
Docker combines them, ENV, the FROM tag picking the release), with findings at their line and
column in the Markdown file; an abridged one that does not parse is left alone."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at

from speclint.engine import lint_text

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "markdown" / "dockerfile_fence.md"
TEXT = FIXTURE.read_text()


def test_each_fence_is_a_launch_checked_where_it_is_written():
    result = lint_text(TEXT, str(FIXTURE))
    assert [c.launch.span.line for c in result.contexts] == [8, 19]
    assert findings_at(TEXT, str(FIXTURE), skip={"DRF011"}) == [  # (DRF011: no config.json here)
        ("SPD001", 11, 41, "16"),
        ("FLG001", 19, 57, "--tp-szie"),
    ]
    spd001 = result.findings[[f.code for f in result.findings].index("SPD001")]
    assert "with `--speculative-eagle-topk 1` SGLang sets speculative_num_draft_tokens to" in spd001.message
    flg001 = result.findings[[f.code for f in result.findings].index("FLG001")]
    assert flg001.message.startswith("`--tp-szie` is not an SGLang 0.5.2 flag")


def test_the_model_comes_from_the_fence_env():
    result = lint_text(TEXT, str(FIXTURE))
    model = result.contexts[1].launch.args[1]
    assert (model.text, model.span.line, model.span.column) == ("Qwen/Qwen3-8B", 19, 50)


def test_an_abridged_fence_is_no_syntax_error_and_its_unread_launch_is_said():
    text = (
        '```dockerfile\nFROM lmsysorg/sglang:v0.5.2\nCMD ["python3", "-m", "sglang.launch_server", ...\n```\n'
    )
    (finding,) = lint_text(text, "README.md").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 24)
    assert '(the command `"python3",` at line 3 names the launcher' in finding.message

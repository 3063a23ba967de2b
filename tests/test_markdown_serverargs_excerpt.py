"""A ```python excerpt that builds `ServerArgs(...)` without its import, in a doc about SGLang
(an issue's reproduction), is read as a launch (was: "All checks passed: 0 launches"); in a
doc that never names SGLang, `ServerArgs` may be any class and is left alone."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

SNIPPET = '```python\nargs = ServerArgs(model_path="Qwen/Qwen3-8B", tp_size=2, dp_size=3, enable_dp_attention=True)\n```\n'


def test_a_server_args_excerpt_in_an_sglang_doc_is_a_launch():
    text = "Reproduction on SGLang:\n\n" + SNIPPET
    result = lint_text(text, "issue.md")
    assert len(result.contexts) == 1
    assert [f for f in findings_at(text, "issue.md") if f[0] == "PAR002"] == [("PAR002", 4, 55, "2")]
    assert result.findings[0].message.startswith(
        "tp_size=2 is not a multiple of the attention-DP size 3 (dp_size=3 with enable_dp_attention=True)"
    )


def test_server_args_in_a_doc_not_about_sglang_is_not_read():
    result = lint_text("Our own config class:\n\n" + SNIPPET, "notes.md")
    assert result.contexts == [] and result.findings == []

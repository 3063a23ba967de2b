"""Forms a survey of public files showed misread: a fence ending in a continuation, a fence
of prefixed flags one per line, and "did you mean" for a flag missing its leading words."""

from __future__ import annotations

from pathlib import Path

from findings_at import findings_at
from speclint_runs import run_speclint

from speclint.engine import lint_text
from speclint.frontends import extract_file

ROOT = Path(__file__).resolve().parent.parent
FORMS = ROOT / "fixtures/markdown/fence_forms.md"
LAUNCH = "python -m sglang.launch_server --model-path m --tp-size 2 \\\n"


def _found(text: str, name: str) -> list[tuple]:
    return findings_at(text, name, message=True)


def test_fence_ending_in_continuation_is_no_syntax_error():
    found = _found(FORMS.read_text(), "fence_forms.md")
    assert [f for f in found if f[0] == "SLM001"] == []
    assert ("FLG001", 7, 3) in [f[:3] for f in found]


def test_shell_script_ending_in_continuation_is_no_syntax_error():
    assert _found(LAUNCH, "run.sh") == []
    assert _found(LAUNCH + "\n  \n", "run.sh") == []
    # an escaped backslash is an argument, not a continuation
    assert [f[:3] for f in _found(LAUNCH.replace("\\\n", "\\\\\n"), "run.sh")] == [("FLG010", 1, 59)]


def test_syntax_error_at_end_of_input_names_no_empty_token():
    found = _found("python -m sglang.launch_server --model-path m\nif true; then\n  echo (\n", "run.sh")
    messages = [m for code, _, _, _, m in found if code == "SLM001"]
    assert messages and all("near ``" not in m for m in messages)


def test_fence_of_prefixed_flag_lines_is_one_launch():
    text = FORMS.read_text()
    launches = [launch for launch in extract_file("fence_forms.md", text).launches if launch.span.line >= 13]
    assert [(launch.span.line, launch.span.end_line) for launch in launches] == [(13, 16)]
    result = lint_text(text, "fence_forms.md")
    found = [(f.code, f.span.line, f.span.column) for f in result.findings if f.span.line >= 13]
    assert found == [("SLM004", 13, 1), ("SPD003", 13, 32), ("SPD001", 16, 39)]
    spd001 = next(f for f in result.findings if f.code == "SPD001")
    assert "with `--speculative-eagle-topk 1`" in spd001.message and "runs with 4, not 8" in spd001.message


def test_did_you_mean_names_the_flag_the_unknown_one_ends():
    out = run_speclint("--no-cache", str(FORMS)).stdout
    assert "fence_forms.md:7:3: FLG001 [error] `--draft-model-path` is not an SGLang 0.5.23 flag" in out
    assert "did you mean `--speculative-draft-model-path`?" in out
    assert "`--model-path`?" not in out


def test_yaml_fences_with_flag_maps_are_read_at_markdown_positions():
    text = (ROOT / "fixtures/markdown/yaml_fences.md").read_text()
    launches = extract_file("yaml_fences.md", text).launches
    assert [(launch.span.line, launch.span.column) for launch in launches] == [(10, 7), (14, 7), (23, 3)]
    found = [
        (code, line, column) for code, line, column, *_ in _found(text, "yaml_fences.md") if code != "DRF011"
    ]
    assert found == [
        ("SLM004", 10, 7),
        ("FLG001", 12, 7),
        ("SLM004", 14, 7),
        ("SPD003", 24, 26),
        ("SPD001", 27, 33),
    ]
    flg001 = next(m for code, _, _, _, m in _found(text, "yaml_fences.md") if code == "FLG001")
    assert flg001.startswith("`--speculative-eagle-top-k` is not an SGLang 0.5.23 flag")


def test_yaml_fence_without_flags_or_not_parsing_yields_nothing():
    text = "```yaml\nname: job\nresources:\n  gpus_per_node: 4\n```\n\n```yaml\nbackend: [speculative\n```\n"
    assert extract_file("a.md", text).launches == []
    assert _found(text, "a.md") == []

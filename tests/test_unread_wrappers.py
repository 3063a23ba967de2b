"""A command that runs SGLang's launcher through a command speclint does not read (`firejail`,
`watch`, a function it does not follow) is reported at the launcher's words even when the
file has launches speclint reads, so the run never says "All checks passed" over it; the
launcher named inside one quoted word, or printed, is not a launch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from speclint.engine import lint_path, lint_text

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "unread" / "wrapped_beside_launch.sh"


def _says(words: str, through: str) -> str:
    return (
        f"speclint did not read this command, which runs `{words}` through `{through}`: "
        f"speclint reads no launch through `{through}`, so nothing in this launch was checked"
    )


def test_each_wrapped_launcher_beside_a_read_launch_is_reported_at_its_words():
    result = lint_path(str(FIXTURE))
    assert len(result.contexts) == 1  # the plain launch on line 6 is read
    found = [
        (f.code, f.severity.label, f.span.line, f.span.column, f.span.end_column, f.message)
        for f in result.findings
    ]
    assert found == [
        ("SLM005", "info", 7, 24, 55, _says("python3 -m sglang.launch_server", "firejail")),
        ("SLM005", "info", 9, 13, 25, _says("sglang serve", "watch")),
        (
            "SLM005",
            "info",
            10,
            16,
            62,
            _says("/usr/bin/python3.11 -u -m sglang.launch_server", "with_retries"),
        ),
    ]


def test_the_run_does_not_say_all_checks_passed():
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "--no-cache", str(FIXTURE.relative_to(ROOT))],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert "fixtures/unread/wrapped_beside_launch.sh:7:24: SLM005 [info] speclint did not read" in done.stdout
    assert "All checks passed" not in done.stdout
    assert "Found 3 findings (3 info): 1 launch in 1 file" in done.stdout


def test_mentions_in_one_quoted_word_or_printed_are_not_launches():
    text = (
        "python -m sglang.launch_server --model-path m &\n"
        'pkill -f "sglang.launch_server"\n'
        "ps aux | grep 'python -m sglang.launch_server'\n"
        'echo "python -m sglang.launch_server --model-path m"\n'
        "printf '%s\\n' python -m sglang.launch_server\n"
        "sglang_watchdog --target sglang.launch_server\n"
        "speclint run --wait 60 -- python -m sglang.launch_server --model-path m\n"  # checked when it runs
    )
    assert lint_text(text, "a.sh").findings == []


def test_the_interpreter_must_run_the_launcher_module():
    text = "python -m sglang.launch_server --model-path m &\nxargs python -m sglang.bench_serving --port 1\n"
    assert lint_text(text, "a.sh").findings == []


def test_a_file_without_a_launch_keeps_its_one_finding():
    text = "watch -n 60 python -m sglang.launch_server --model-path m --port 30000\n"
    (finding,) = lint_text(text, "a.sh").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 1, 23)
    assert "this file names `sglang.launch_server` but speclint found no launch" in finding.message


def test_a_wrapped_launcher_in_a_markdown_fence_points_into_the_doc():
    text = (
        "Serve one model, then one per draft:\n\n```bash\n"
        "python -m sglang.launch_server --model-path m &\n"
        "firejail --quiet python -m sglang.launch_server --model-path m --speculative-draft-model-path d\n"
        "```\n"
    )
    (finding,) = lint_text(text, "README.md").findings
    assert (finding.code, finding.span.line, finding.span.column, finding.span.end_column) == (
        "SLM005",
        5,
        18,
        48,
    )
    assert finding.message == _says("python -m sglang.launch_server", "firejail")


def test_the_router_co_launcher_run_through_firejail_is_reported_too():
    text = (
        "python -m sglang.launch_server --model-path m &\n"
        "firejail --quiet python -m sglang_router.launch_server --model-path m --dp-size 2\n"
    )
    (finding,) = lint_text(text, "a.sh").findings
    assert (finding.code, finding.span.line, finding.span.column, finding.span.end_column) == (
        "SLM005",
        2,
        18,
        55,
    )
    assert finding.message == _says("python -m sglang_router.launch_server", "firejail")


def test_a_wrapper_run_with_exec_is_named_not_exec():
    fixture = ROOT / "fixtures" / "unread" / "exec_wrapper.sh"
    (finding,) = lint_path(str(fixture)).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 5, 50)
    assert finding.message == (
        "this file names `sglang.launch_server` but speclint found no launch in it (the command "
        "`/opt/site/bin/gpu-run` at line 5 names the launcher, and speclint reads no launch through "
        "`/opt/site/bin/gpu-run`)"
    )

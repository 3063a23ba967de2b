"""`python -m sglang_router.launch_server`: sglang-router's co-launcher is read as a launch.
Its words are SGLang's flags (checked as `sglang.launch_server`'s) plus the router's own
options, which come from each sglang-router release's source (tools/gen_sglang_router.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from speclint.core.findings import Severity
from speclint.engine import lint_path, lint_text
from speclint.sglang.router import router_presence, router_versions

ROOT = Path(__file__).resolve().parent.parent
ROUTER = "python -m sglang_router.launch_server"


def found(path: str) -> list[tuple[str, int, int]]:
    """Findings as the command line shows them (DRF011, config.json not on disk, is opt-in)."""
    findings = lint_path(str(ROOT / path)).findings
    return [(f.code, f.span.line, f.span.column) for f in findings if f.code != "DRF011"]


def test_a_co_launch_gets_sglangs_checks_and_no_unknown_router_flags():
    assert found("fixtures/shell/router_colaunch_eagle.sh") == [("DRF012", 8, 27), ("SPD003", 8, 27)]
    assert found("fixtures/k8s/router_colaunch_eagle.yaml") == [("DRF012", 27, 15), ("SPD003", 27, 15)]


def test_a_misspelt_router_flag_is_unknown_with_a_did_you_mean():
    (finding,) = lint_path(str(ROOT / "fixtures/python/router_colaunch_eagle.py")).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG001", 14, 10)
    assert finding.message.startswith(
        f"`--router-polcy` is neither an SGLang 0.5.23 flag nor an option of `{ROUTER}` (sglang-router "
    )
    assert finding.message.endswith("did you mean `--router-policy`?")


def test_router_options_take_their_values_as_the_router_parser_does():
    """`--worker-urls` takes any number of words (nargs='*'), `--router-dp-aware` none: the
    words after them are read as the router's parser reads them, never as unknown flags."""
    text = f"{ROUTER} --model-path m --dp-size 2 --worker-urls http://a:1 http://b:2 --router-dp-aware --tp-szie 2\n"
    findings = lint_text(text, "a.sh").findings
    codes = [(f.code, f.span.column) for f in findings]
    assert codes == [("FLG013", text.index("--router-dp-aware") + 1), ("FLG001", text.index("--tp-szie") + 1)]
    assert "did you mean `--tp-size`?" in findings[1].message


def test_the_same_flags_under_sglang_launch_server_are_unknown():
    text = "python -m sglang.launch_server --model-path m --router-policy cache_aware\n"
    (finding,) = lint_text(text, "a.sh").findings
    assert finding.code == "FLG001" and finding.message.startswith(
        "`--router-policy` is not an SGLang 0.5.23 flag"
    )


def test_a_router_flag_only_some_releases_have_says_so_at_most_a_warning():
    assert router_presence("--router-prefill-policy")[-1] == router_versions()[-1]
    assert router_versions()[-1] not in router_presence("--router-cache-routing-prob")
    text = f"{ROUTER} --model-path m --dp-size 2 --router-prefill-policy random --router-cache-routing-prob 0.5\n"
    findings = lint_text(text, "a.sh").findings
    assert [(f.code, f.severity, f.span.column) for f in findings] == [
        ("FLG013", Severity.INFO, text.index("--router-prefill") + 1),
        ("FLG013", Severity.WARNING, text.index("--router-cache-routing") + 1),
    ]
    assert f"(unverified for sglang-router {router_versions()[-1]})" in findings[1].message


def test_a_launch_router_alone_is_not_a_launch_and_not_reported():
    text = "python -m sglang_router.launch_router --worker-urls http://a:30000 http://b:30000 --policy cache_aware\n"
    result = lint_text(text, "a.sh")
    assert result.findings == [] and not result.launch_not_found


def test_a_co_launch_speclint_cannot_read_is_still_reported():
    text = "watch -n 600 python -m sglang_router.launch_server --model-path m --dp-size 2\n"
    (finding,) = lint_text(text, "a.sh").findings
    assert (finding.code, finding.span.column) == ("SLM005", 24)
    assert "names `sglang_router.launch_server`" in finding.message


def test_a_co_launch_in_a_markdown_fence_is_read():
    line = f"{ROUTER} --model-path m --dp-size 2 --router-polcy random"
    (finding,) = lint_text(f"Serve:\n\n```bash\n{line}\n```\n", "a.md").findings
    assert (finding.code, finding.span.line, finding.span.column) == (
        "FLG001",
        4,
        line.index("--router-polcy") + 1,
    )


def test_router_options_leave_the_effective_configuration_as_one_worker_has_it(tmp_path):
    """The router's options never reach ServerArgs: `explain` resolves the co-launch's SGLang
    fields as one worker's, the same SGLang flags under `sglang.launch_server` with the
    co-launcher's `dp_size = 1`, and names the entry."""
    flags = "--model-path m --speculative-algorithm NGRAM"
    (tmp_path / "co.sh").write_text(
        f"{ROUTER} {flags} --dp-size 2 --router-policy cache_aware --worker-urls a b\n"
    )
    (tmp_path / "plain.sh").write_text(f"python -m sglang.launch_server {flags} --dp-size 1\n")

    def explain(name: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "explain", "--gpu", "H100", str(tmp_path / name)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.stdout.splitlines()

    co, plain = explain("co.sh"), explain("plain.sh")
    assert co[0].endswith(f"co.sh:1: {ROUTER}")
    assert "    --router-policy cache_aware" in co and "    --worker-urls a b" in co
    resolved = co[co.index("  effective configuration:") :]
    expected = plain[plain.index("  effective configuration:") :]
    worker = (
        "    dp_size: 2 → 1  (sglang_router.launch_server starts 2 workers, each with a copy of the "
        "server arguments where dp_size = 1, before SGLang resolves it in the worker; silent)"
    )
    assert resolved == [worker if line == "    dp_size: 1" else line for line in expected]
    assert any(line.startswith("    speculative_eagle_topk: ") for line in resolved)


def test_a_co_launch_in_prose_an_inline_span_and_a_python_shell_string_is_read():
    line = f"Run `{ROUTER} --model-path m --dp-size 2 --router-polcy x`, or `python -m sglang.launch_server --model-path m --tp-szie 2`."
    findings = lint_text(line + "\n", "a.md").findings
    assert [(f.code, f.span.column) for f in findings] == [
        ("FLG001", line.index("--router-polcy") + 1),
        ("FLG001", line.index("--tp-szie") + 1),
    ]
    call = f'run("{ROUTER} --model-path m --dp-size 2 --router-polcy x")'
    python = f"import subprocess\n\n\ndef run(cmd):\n    subprocess.run(cmd, shell=True)\n\n\n{call}\n"
    (finding,) = lint_text(python, "a.py").findings
    assert (finding.code, finding.span.line, finding.span.column) == (
        "FLG001",
        8,
        call.index("--router-polcy") + 1,
    )


def test_a_co_launch_in_a_makefile_recipe_is_read_and_one_in_a_make_function_is_reported():
    recipe = f"\t{ROUTER} --model-path m --dp-size 2 --router-polcy x"
    (finding,) = lint_text(f"serve:\n{recipe}\n", "Makefile").findings
    assert (finding.code, finding.span.line, finding.span.column) == (
        "FLG001",
        2,
        recipe.index("--router-polcy") + 1,
    )
    text = f"PORTS := 1 2\nserve:\n\t$(foreach p,$(PORTS),{ROUTER} --model-path m --port $(p) &)\n"
    (finding,) = lint_text(text, "Makefile").findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 2)
    assert "`$(foreach ...)` is a make function that names the launcher" in finding.message

"""Checks shared by the hostile-input tests of the front-ends (not a test module)."""

from __future__ import annotations

import time

from speclint.engine import lint_text
from speclint.runner.fix import apply_edits, collect_edits

PY = "import subprocess\n"
LAUNCH_PY = (
    "subprocess.run(['python', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-size', '2'])\n"
)
MD_LAUNCH = "python -m sglang.launch_server --model-path m --tp-szie 2"
DEEP = 10_000
"""Nesting depth of the hostile inputs: past every front-end's bound, and past where
libcst's native parser crashed the interpreter (3,000)."""


def check(text: str, path: str) -> None:
    start = time.process_time()  # (CPU time: a bound on the work, not on how busy the machine is)
    result = lint_text(text, path)
    assert time.process_time() - start < 20, "took too long"
    lines = max(1, len(text.splitlines()) + 1)
    for finding in result.findings:
        span = finding.span
        assert 1 <= span.line <= lines and span.column >= 1, (finding.code, span)
        assert (span.end_line, span.end_column) >= (span.line, span.column), (finding.code, span)
    fixed, _ = apply_edits(text, collect_edits(result.findings, unsafe=True))
    assert isinstance(fixed, str)


def located(result, needle: str) -> list[tuple[int, int]]:
    found = [(f.span.line, f.span.column) for f in result.findings if needle in f.message]
    assert found, [(f.code, f.message) for f in result.findings]
    return found


def laughs(levels: int = 9, width: int = 9) -> str:
    lines = ["# sglang", 'l0: &l0 ["--x"]']
    for level in range(1, levels + 1):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


YAML_CONTAINER = """
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: s
          command: ["python3", "-m", "sglang.launch_server"]
          args: ["--model-path", "m", "--tp-szie", "2"]
"""


DOCKERFILE = (
    "FROM lmsysorg/sglang:v0.5.23\nENV TP=2\n"
    'CMD ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp-szie", "2"]\n'
)
WORKFLOW = (
    "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n"
    "      - run: |\n          python3 -m sglang.launch_server --model-path m --tp-szie 2\n"
)
CONFIG_YAML = "model-path: /models/llama\ntp-size: 2\nspeculative-algorithm: EAGLE\ntp-szie: 2\n"

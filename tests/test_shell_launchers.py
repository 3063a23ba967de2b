"""Shell forms: launchers and wrappers in front of SGLang (srun, mpirun, apptainer, kubectl
exec, ...), an interpreter held in a variable, launches in alias bodies and eval strings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from speclint.engine import lint_path
from speclint.frontends.shell.script import extract_shell

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "shell"


def _unknown_flag_positions(name: str) -> list[tuple[int, int, int]]:
    result = lint_path(str(FIXTURES / name))
    return [(f.span.line, f.span.column, f.span.end_column) for f in result.findings if f.code == "FLG001"]


def _written_positions(name: str, token: str, first_line: int) -> list[tuple[int, int, int]]:
    lines = (FIXTURES / name).read_text().split("\n")
    return [
        (number, line.index(token) + 1, line.index(token) + 1 + len(token))
        for number, line in enumerate(lines, 1)
        if number >= first_line and token in line
    ]


def test_every_launcher_form_is_read_with_exact_positions():
    assert _unknown_flag_positions("launchers.sh") == _written_positions("launchers.sh", "--tp-szie", 5)


def test_launchers_give_their_environment_and_image():
    text = (FIXTURES / "launchers.sh").read_text()
    launches = {launch.span.line: launch for launch in extract_shell(text, "launchers.sh").launches}
    assert len(launches) == 12
    assert launches[7].image == "lmsysorg/sglang:v0.5.6.post2"  # srun --container-image (pyxis)
    assert launches[8].env["NCCL_IB_DISABLE"].text == "1"  # mpirun -x NAME=VALUE
    span = launches[8].env["NCCL_IB_DISABLE"].span
    assert text.split("\n")[7][span.column - 1 : span.end_column - 1] == "1"
    assert launches[9].env["SGLANG_LOG_LEVEL"].text == "debug"  # mpiexec -genv NAME VALUE
    assert launches[12].image == "lmsysorg/sglang:v0.5.6.post2"  # apptainer exec docker://...
    assert launches[12].env["SGLANG_USE_MODELSCOPE"].text == "1"
    assert launches[14].env["SGLANG_X"].text == "1" and launches[14].image is None  # docker exec
    assert launches[15].image == "lmsysorg/sglang:v0.5.14"  # podman run
    assert launches[16].env == {}  # kubectl exec: the pod's environment, not ours
    for launch in launches.values():
        assert [w.text for w in launch.args] == ["--model-path", "/m", "--tp-szie", "2"]


def test_the_container_image_picks_the_release():
    result = lint_path(str(FIXTURES / "launchers.sh"))
    by_line = {f.span.line: f.message for f in result.findings if f.code == "FLG001"}
    assert "SGLang 0.5.6.post2" in by_line[7] and "SGLang 0.5.6.post2" in by_line[12]
    assert "SGLang 0.5.14" in by_line[15]


def test_interpreter_variables_alias_bodies_and_eval_strings():
    found = _unknown_flag_positions("interpreter_alias_eval.sh")
    expected = _written_positions("interpreter_alias_eval.sh", "--tp-szie", 4)
    # `eval "$CMD"` (line 10) points inside the string line 9 writes, at the flag itself
    assert sorted(found) == sorted(expected)


def test_wrapper_options_that_take_a_value_are_not_the_command():
    text = (
        "srun --partition gpu --job-name python python3 -m sglang.launch_server --tp 2\n"
        "mpirun --hostfile python -np 2 python3 -m sglang.launch_server --tp 2\n"
        "kubectl exec python -n python -- python3 -m sglang.launch_server --tp 2\n"
        "apptainer exec --bind python:/x img python3 -m sglang.launch_server --tp 2\n"
    )
    launches = extract_shell(text, "t.sh").launches
    assert [launch.span.line for launch in launches] == [1, 2, 3, 4]
    assert all([w.text for w in launch.args] == ["--tp", "2"] for launch in launches)


def test_kubectl_logs_is_not_a_launch_and_apptainer_run_is():
    # `apptainer run IMAGE CMD...` hands CMD to the runscript, which for an image built from a
    # Docker image without an ENTRYPOINT runs it: read as `docker run IMAGE CMD` is
    text = "kubectl logs pod -- python3 -m sglang.launch_server --tp 2\n"
    assert extract_shell(text, "t.sh").launches == []
    (launch,) = extract_shell(
        "apptainer run img.sif python3 -m sglang.launch_server --tp 2\n", "t.sh"
    ).launches
    assert [w.text for w in launch.args] == ["--tp", "2"]


def test_cli_reads_an_alias_body():
    script = "alias serve='python -m sglang.launch_server --model-path m --tp-szie 2'\n"
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "--output-format", "json", "-"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    findings = json.loads(done.stdout)
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("FLG001", 1, 60)]


def test_a_required_variable_is_unknown_not_missing():
    """`${X:?message}` stops the script when X is unset: past it, X has a value from the
    environment (unknown, never empty), so `--dist-init-addr $X` is not a missing value."""
    text = (
        "ADDR=${ADDR:?set ADDR to node 0}\n"
        "python -m sglang.launch_server --model-path m --dist-init-addr $ADDR --port ${P:?}\n"
    )
    (launch,) = extract_shell(text, "t.sh").launches
    assert [w.text for w in launch.args] == ["--model-path", "m", "--dist-init-addr", None, "--port", None]
    codes = [f.code for f in lint_path_text(text)]
    assert codes == ["SLM004"]


def lint_path_text(text: str):
    from speclint.engine import lint_text

    return lint_text(text, "t.sh").findings


def test_an_unknown_array_expanded_quoted_may_hold_any_flags():
    text = 'source ./args.sh\npython -m sglang.launch_server "${SERVER_ARGS[@]}"\n'
    (launch,) = extract_shell(text, "t.sh").launches
    (word,) = launch.args
    assert word.splat and "`source ./args.sh` at line 1" in word.dynamic_reason
    (finding,) = lint_path_text(text)
    assert "a word that may hold any flags" in finding.message

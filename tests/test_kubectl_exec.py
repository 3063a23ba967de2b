"""`kubectl exec -i POD [-c C] -- bash << EOF` / `-- python3 - << EOF`: `-i` (`--stdin`)
passes the script's standard input, the here-document, to the pod's program, read as its
script (the pod's environment and image not known); `kubectl exec POD -- bash -c "..."`
takes the script as a word. Without `-i` nothing reaches the pod: said, not read."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends.shell.docker import kubectl_stdin_command

FILE = FixtureFile("shell/kubectl_exec.sh")


def test_the_here_document_kubectl_exec_i_passes_is_the_pods_script():
    found = FILE.findings()
    assert [(c, line, col, text) for c, line, col, text, _ in found] == [
        ("FLG001", 6, 60, "--tp-szie"),  # bash << EOF with -i -c server --
        ("SLM004", 6, 79, '"\\$PORT"'),  # `\$` in an unquoted here-document: the pod's shell expands it
        ("FLG006", 11, 105, "halff"),  # --stdin ... -- python3 - << 'PY'
        ("FLG001", 13, 92, "--mem-fraction-statc"),  # bash -c "..."
        ("SLM005", 15, 1, "python3 -m sglang.launch_server"),  # no -i: nothing reaches the pod
    ]
    messages = [m for *_, m in found]
    assert "did you mean `--tp-size`?" in messages[0]
    assert (
        "$PORT comes from the environment of the pod's container `kubectl exec` runs in (line 5)"
        in messages[1]
    )
    assert messages[4] == (
        "speclint did not read this here-document, given to `kubectl`, which holds `python3 -m "
        "sglang.launch_server`: `kubectl exec` without `-i` passes no standard input, so the program "
        "it starts in the container never gets it; nothing in this launch was checked"
    )


def test_no_image_of_this_script_is_given_to_the_pods_launch():
    text = (
        "#!/bin/bash\npip install sglang==0.4.6\n"
        "kubectl exec -i sglang-0 -- bash -s <<'EOF'\n"
        "python3 -m sglang.launch_server --model-path /m --tp-szie 2\nEOF\n"
    )
    found = lint_text(text, "serve.sh").findings
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("FLG001", 4, 49)]
    assert "is not an SGLang 0.5.23 flag" in found[0].message  # the pod's release is not known


def test_which_word_kubectl_exec_runs_with_its_standard_input():
    def command(line: str) -> str | None:
        words: list[str | None] = [None if w == "$X" else w for w in line.split()]
        at = kubectl_stdin_command(words)
        return None if at is None else words[at]

    assert command("exec -i p -c s -- bash") == "bash"
    assert command("-n ns exec -it p -- python3 -") == "python3"
    assert command("exec -ic s p bash") == "bash"  # the old form without `--`
    assert command("exec --stdin=true $X -- sh -s") == "sh"  # the pod's name not known
    assert command("exec p -- bash") is None  # no -i
    assert command("exec --stdin=false p -- bash") is None
    assert command("get pods") is None

"""A here-document that speclint does not read as a script but that holds a launcher command
(`docker exec -i c bash << EOF`, `cat > notes.txt << EOF`) is reported (SLM005 at the launcher's
words), even in a file with other launches: never "All checks passed" over it."""

from __future__ import annotations

from findings_at import findings_at

SERVE = "python3 -m sglang.launch_server --model-path /m --port 30000\n"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "serve.sh", message=True)


def test_a_here_document_given_to_kubectl_exec_is_reported_beside_a_launch():
    # without -i kubectl passes no standard input (`docker exec -i CONTAINER bash` and
    # `kubectl exec -i POD -- bash` read it: test_docker_exec, test_kubectl_exec)
    text = (
        SERVE + "kubectl exec sglang-0 -- bash <<'EOF'\n  python3 -m sglang.launch_server --tp-szie 2\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 3, 3)
    assert message.startswith(
        "speclint did not read this here-document, given to `kubectl`, which holds "
        "`python3 -m sglang.launch_server`"
    )


def test_a_here_document_written_to_a_file_is_reported():
    # (to a shell script, `/tmp/node1.sh`, it is read: tests/test_heredoc_written_script.py)
    text = SERVE + "cat > /tmp/node1.cmd <<EOF\n# node 1\nsglang serve --model-path /m\nEOF\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 4, 1)
    assert "written to a file, which holds `sglang serve`" in message


def test_a_usage_text_printed_by_cat_and_a_commented_line_are_not_launches():
    text = (
        SERVE
        + "cat <<EOF\nusage: python -m sglang.launch_server --model-path M\nEOF\n"
        + "docker exec -i c bash <<EOF\n# python -m sglang.launch_server --tp 2\necho hi\nEOF\n"
    )
    assert findings(text) == []

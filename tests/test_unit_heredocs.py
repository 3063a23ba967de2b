"""A systemd service unit that a script writes with a here-document (`cat >
/etc/systemd/system/x.service << EOF`, `sudo tee ... <<'EOF'`) is read as a `.service` file
is: its `ExecStart=` launch is checked, findings at their place in the here-document; an
unquoted delimiter expands the script's variables first, a quoted one leaves `$X` to the
unit's `Environment=`. A unit that starts no launch speclint reads stays reported."""

from __future__ import annotations

from findings_at import findings_at

from speclint.engine import lint_text

EXEC = "ExecStart=/usr/bin/python3 -m sglang.launch_server --model-path /m"
SERVE = "python3 -m sglang.launch_server --model-path /m"


def findings(text: str) -> list[tuple]:
    """(code, line, column, the text it points at, message) of each finding."""
    return findings_at(text, "setup.sh", message=True)


def test_an_unquoted_here_document_expands_the_scripts_variables_into_the_unit():
    text = (
        "TP=2x\n"
        "cat > /etc/systemd/system/sglang.service << EOF\n"
        "[Unit]\nDescription=SGLang\n\n[Service]\n"
        f"{EXEC} --tp-size $TP\n"
        "Restart=always\nEOF\nsystemctl daemon-reload\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 7, 78)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_a_quoted_delimiter_leaves_the_variable_to_the_units_environment():
    text = (
        "PORT=1\n"
        "sudo tee /etc/systemd/system/sglang.service > /dev/null <<'EOF'\n"
        "[Service]\nEnvironment=PORT=3000x\n"
        f"{EXEC} --port $PORT\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 5, 75)
    assert message.startswith("`3000x` is not a valid value for `--port`")


def test_a_variable_the_script_does_not_know_is_unknown_in_the_unit():
    text = (
        "cat > /etc/systemd/system/${NAME}.service <<-EOF\n"
        "\t[Service]\n"
        f"\tEnvironment=HF_TOKEN=$TOKEN\n\t{EXEC} $EXTRA --tp-size 2x\n\tEOF\n"
    )
    got = findings(text)
    assert [(c, line, col) for c, line, col, _, _ in got] == [("SLM004", 4, 69), ("FLG005", 4, 86)]
    assert "($EXTRA is not assigned in this file (comes from the environment))" in got[0][4]


def test_each_call_of_a_function_writing_the_unit_is_read_with_its_words():
    text = (
        "install() {\ncat > /etc/systemd/system/sglang.service << EOF\n[Service]\n"
        f"{EXEC} --tp-size $1\nEOF\n}}\ninstall 2\ninstall 3x\n"
    )
    result = lint_text(text, "setup.sh")
    ((finding,),) = [result.findings]
    assert (finding.code, finding.span.line, finding.span.column) == ("FLG005", 4, 78)
    assert finding.message.startswith("`3x` is not a valid value for `--tp-size`")
    assert [n.message for n in finding.notes] == ["when install() is called at line 8"]


def test_a_unit_that_starts_no_launch_read_stays_reported():
    text = (
        "cat > /etc/systemd/system/sglang.service << EOF\n[Service]\n"
        "ExecStart=/usr/bin/watch python3 -m sglang.launch_server --model-path /m\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 3, 37)
    assert message.startswith("this file names `sglang.launch_server` but speclint found no launch")


def test_a_file_that_is_not_a_unit_stays_a_here_document_not_read():
    text = f"{SERVE}\ncat > run.txt << EOF\n{SERVE} --tp-size 2x\nEOF\n"
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("SLM005", 3, 1)
    assert "written to a file" in message


def test_sudo_as_a_user_tee_writes_the_unit():
    text = (
        "sudo -u root tee /etc/systemd/system/sglang.service <<EOF\n"
        "[Unit]\nDescription=SGLang\n[Service]\n"
        f"{EXEC} --tp-size 2x\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 5, 78)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_sudo_tee_append_with_options_writes_the_unit():
    text = (
        "sudo -E -- tee -a /etc/systemd/system/sglang.service > /dev/null <<'EOF'\n"
        f"[Service]\n{EXEC} --port 3000x\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 3, 75)
    assert message.startswith("`3000x` is not a valid value for `--port`")


def test_cat_piped_to_sudo_tee_writes_the_unit():
    text = (
        "TP=2x\n"
        "cat <<EOF | $SUDO tee /etc/systemd/system/sglang.service >/dev/null\n"
        f"[Service]\nUser=sglang\n{EXEC} --tp-size $TP\nRestart=always\nEOF\n"
    )
    ((code, line, column, _, message),) = findings(text)
    assert (code, line, column) == ("FLG005", 5, 78)
    assert message.startswith("`2x` is not a valid value for `--tp-size`")


def test_cat_piped_to_a_command_other_than_tee_is_no_unit():
    text = f"cat <<EOF | ssh-add -\n[Service]\n{EXEC} --tp-size 2x\nEOF\n"
    assert [(c, line, col) for c, line, col, _, _ in findings(text)] == [("SLM005", 3, 31)]

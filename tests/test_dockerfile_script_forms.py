"""More ways a Dockerfile's start script is made and run: one `RUN` writing two files from two
here-documents (`RUN <<EOT1 cat > /start.sh && <<EOT2 cat > /other.sh`, `RUN cat > /a.sh <<'A'
&& cat > /b.sh <<'B'`), each body read at its own lines; an exec-form command that starts a
shell running the script (`["bash", "-c", "/start.sh"]`, `["sh", "-c", "exec /run.sh ..."]`,
`["/bin/bash", "/start.sh"]`); and a script copied from the build context (`COPY start.sh
/start.sh`), read from disk next to the Dockerfile with findings in it, or reported unread
when it is not there."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

TWO = FixtureFile("docker/two-heredocs.Dockerfile")
SHELL = FixtureFile("docker-context/Dockerfile")
SCRIPT = FixtureFile("docker-context/start.sh")


def test_each_here_document_of_one_run_is_read_at_its_own_lines() -> None:
    findings = TWO.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 7, 84, "--tp-sise"),
        ("FLG005", 22, 27, "high"),
    ]
    assert findings[0][4].startswith(
        "`--tp-sise` is not an SGLang 0.5.6.post2 flag: argparse stops the launch with 'unrecognized arguments'"
    )
    assert findings[1][4].startswith("`high` is not a valid value for `--mem-fraction-static`")


def test_the_first_body_of_a_leading_here_document_is_expanded_with_the_build_values() -> None:
    leading = extract_file(str(TWO.path), TWO.text).launches[0]
    words = [w.text for w in leading.args]
    port = leading.args[words.index("--port") + 1]
    # `<<EOT1` is unquoted: `$PORT` is the ARG's default when the image is built
    assert (port.text, TWO.at(port.span)) == ("30000", (7, 78, "$PORT"))


def test_the_other_body_is_a_file_the_command_does_not_run() -> None:
    launches = extract_file(str(TWO.path), TWO.text).launches
    assert [launch.span.line for launch in launches] == [7, 21]  # not the health check's lines


def _in_dockerfile() -> list[tuple[str, int, int, str, str]]:
    """The findings of the Dockerfile that are in it (not in the script it copies)."""
    found = lint_text(SHELL.text, str(SHELL.path)).findings
    return [(f.code, *SHELL.at(f.span), f.message) for f in found if f.span.file is None]


def test_an_exec_form_shell_running_the_written_script_reads_it() -> None:
    assert [f[:4] for f in _in_dockerfile() if f[1] < 12] == [
        ("FLG001", 5, 71, "--tp-sise"),  # ENTRYPOINT ["bash", "-c", "/start.sh"]
        ("FLG005", 10, 94, "lots"),  # CMD ["sh","-c","exec /run.sh --port 30000"]
    ]


def test_a_script_copied_from_the_build_context_is_read_from_disk() -> None:
    result = lint_text(SHELL.text, str(SHELL.path))
    (copied,) = [f for f in result.findings if f.path.endswith("start.sh")]
    assert (copied.code, *SCRIPT.at(copied.span)) == ("FLG006", 4, 23, "fastest")
    assert copied.path == str(SCRIPT.path) and copied.span.file == str(SCRIPT.path)
    assert copied.message.startswith("`fastest` is not a valid value for `--schedule-policy`")
    assert copied.fix is None  # a finding in another file than the one linted is not fixed
    (launch,) = [x for x in extract_file(str(SHELL.path), SHELL.text).launches if x.span.file]
    model = launch.args[[w.text for w in launch.args].index("--model-path") + 1]
    # the stage's ENV reaches the script; the value is written in the script
    assert (model.text, SCRIPT.at(model.span)) == ("Qwen/Qwen2.5-7B-Instruct", (3, 46, '"$MODEL"'))


def test_a_copied_script_not_on_disk_is_reported_unread() -> None:
    (unread,) = [f for f in _in_dockerfile() if f[1] >= 12]
    assert unread[:4] == ("SLM005", 20, 5, '["sh", "-c", "exec /opt/serve.sh --port 30000"]')
    assert unread[4] == (
        "speclint did not read the script CMD runs: it is copied from the build context, and "
        f"`{SHELL.path.parent / 'serve.sh'}` is not on disk next to the Dockerfile, so nothing in "
        "it was checked"
    )


def test_a_copied_script_alone_is_not_all_checks_passed() -> None:
    text = 'FROM lmsysorg/sglang:v0.5.6\nCOPY entrypoint.sh /\nENTRYPOINT ["/entrypoint.sh"]\n'
    result = lint_text(text, "/nonexistent-folder/Dockerfile")
    assert [(f.code, f.span.line, f.span.column) for f in result.findings] == [("SLM005", 3, 12)]
    assert "`/nonexistent-folder/entrypoint.sh` is not on disk" in result.findings[0].message
    mirrored = text.replace("lmsysorg/sglang:", "registry.local:5000/lmsysorg/sglang:")
    assert [f.code for f in lint_text(mirrored, "/nonexistent-folder/Dockerfile").findings] == ["SLM005"]


def test_a_copied_script_in_an_image_not_sglangs_is_not_reported() -> None:
    for image in ("python:3.12", "registry.local:5000/myorg/app:sglang-v1"):
        text = f'FROM {image}\nCOPY entrypoint.sh /\nENTRYPOINT ["/entrypoint.sh"]\n'
        assert lint_text(text, "/nonexistent-folder/Dockerfile").findings == [], image


def test_a_shell_running_other_code_is_not_the_script() -> None:
    text = (
        "FROM lmsysorg/sglang:v0.5.6\n"
        "RUN cat > /start.sh <<'EOF'\npython3 -m sglang.launch_server --model-path m --tp-sise 2\nEOF\n"
        'CMD ["bash", "-c", "/start.sh || echo $?"]\n'
    )
    assert extract_file("Dockerfile", text).launches == []


def test_a_copied_file_that_is_not_a_shell_script_is_reported_not_read_as_shell(tmp_path) -> None:
    (tmp_path / "serve").write_text(
        "#!/usr/bin/env python3\nimport os\nos.system('python3 -m sglang.launch_server --model-path m')\n"
    )
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        'FROM lmsysorg/sglang:v0.5.6\nCOPY serve /usr/local/bin/\nCMD ["/usr/local/bin/serve"]\n'
    )
    (finding,) = lint_text(dockerfile.read_text(), str(dockerfile)).findings
    assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 3, 5)
    assert finding.message == (
        "speclint did not read the script CMD runs: it is copied from the build context, and "
        f"`{tmp_path / 'serve'}` is not a shell script (speclint reads a copied start script as "
        "shell only), so nothing in it was checked"
    )


def test_a_script_copied_into_the_workdir_and_run_by_a_relative_path(tmp_path) -> None:
    (tmp_path / "run.sh").write_text("python3 -m sglang.launch_server --model-path m --tp-sise 2\n")
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        'FROM lmsysorg/sglang:v0.5.6\nWORKDIR /app\nCOPY run.sh .\nCMD ["bash", "-lc", "./run.sh"]\n'
    )
    (finding,) = lint_text(dockerfile.read_text(), str(dockerfile)).findings
    assert (finding.code, finding.path, finding.span.line, finding.span.column) == (
        "FLG001",
        str(tmp_path / "run.sh"),
        1,
        48,
    )


def test_a_dockerfile_shown_in_a_document_does_not_read_or_report_a_copied_script(tmp_path) -> None:
    (tmp_path / "start.sh").write_text("python3 -m sglang.launch_server --model-path m --tp-sise 2\n")
    readme = tmp_path / "README.md"
    readme.write_text(
        "```dockerfile\nFROM lmsysorg/sglang:v0.5.6\nCOPY start.sh /start.sh\n"
        'ENTRYPOINT ["bash", "-c", "/start.sh"]\n```\n'
    )
    assert lint_text(readme.read_text(), str(readme)).findings == []

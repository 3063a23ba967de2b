"""More ways a Dockerfile's start script is made and run: one `RUN` writing two files from two
here-documents (`RUN <<EOT1 cat > /start.sh && <<EOT2 cat > /other.sh`, `RUN cat > /a.sh <<'A'
&& cat > /b.sh <<'B'`), each body read at its own lines."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

TWO = FixtureFile("docker/two-heredocs.Dockerfile")


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

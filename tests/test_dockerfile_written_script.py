"""A Dockerfile that writes its start script (`RUN cat > /start.sh <<EOF`, `COPY <<EOF
/entrypoint.sh`, `RUN printf/echo ... > /run.sh`) and runs it (`CMD ["bash", "/start.sh"]`,
`ENTRYPOINT ["/entrypoint.sh"]`, `CMD sh /run.sh`): the launch inside the script is read as
the shell code the container runs, findings at their place in the Dockerfile; a script whose
written text speclint cannot know is reported at the instruction that runs it."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

FILE = FixtureFile("docker/written-script.Dockerfile")
FIXTURE, TEXT = FILE.path, FILE.text
_at, _findings = FILE.at, FILE.findings


def test_each_written_script_is_read_with_positions_in_the_dockerfile() -> None:
    assert [f[:4] for f in _findings()] == [
        ("FLG001", 8, 54, "--tp-sise"),
        ("SLM004", 16, 51, '"$MODEL"'),
        ("FLG005", 16, 82, "high"),
        ("FLG005", 21, 78, "x"),
        ("FLG005", 22, 68, "two"),
        ("SLM005", 29, 5, '["/serve.sh"]'),
    ]


def test_an_unquoted_here_document_is_expanded_when_the_image_is_built() -> None:
    first = extract_file(str(FIXTURE), TEXT).launches[0]
    words = [w.text for w in first.args]
    # `$TP` is the build's ARG value; `\$MODEL` is left to the script, which gets the ENV
    assert words[words.index("--tp-sise") + 1] == "2"
    assert _at(first.args[words.index("--tp-sise") + 1].span) == (8, 64, "$TP")
    assert words[words.index("--model-path") + 1] == "Qwen/Qwen2.5-7B-Instruct"
    # `\${PORT:-30000}` is the script's own default, PORT being set nowhere
    assert words[words.index("--port") + 1] == "30000"


def test_a_quoted_here_document_is_written_as_it_stands() -> None:
    second = extract_file(str(FIXTURE), TEXT).launches[1]
    model = second.args[[w.text for w in second.args].index("--model-path") + 1]
    # a stage of its own: the first stage's ENV MODEL is not its environment
    assert model.text is None and "$MODEL" in (model.dynamic_reason or "")


def test_an_expansion_the_build_makes_leaves_the_script_unread_and_reported() -> None:
    unread = _findings()[-1][4]
    assert unread == (
        "speclint did not read this launch: the script CMD runs was written by the Dockerfile, "
        "and the build expands `$(` in its unquoted here-document: the text written is not "
        "known, so nothing in it was checked"
    )


def test_a_script_the_command_does_not_run_is_not_a_launch() -> None:
    text = (
        "FROM lmsysorg/sglang:v0.5.6\n"
        "RUN cat > /start.sh <<'EOF'\npython3 -m sglang.launch_server --model-path m\nEOF\n"
        'CMD ["bash", "/other.sh"]\n'
    )
    assert extract_file("Dockerfile", text).launches == []
    (finding,) = lint_text(text, "Dockerfile").findings
    assert (finding.code, finding.span.line) == ("SLM005", 3)

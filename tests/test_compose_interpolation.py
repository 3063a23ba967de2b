"""Docker Compose fills in `${NAME:-default}`, `${NAME}`, `${NAME:?err}` and `$$` in every
value before it starts a service (Compose specification, "Interpolation"), from the calling
environment and the project's `.env`: the container never sees the expression."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file
from speclint.frontends.manifests.compose_env import parse_dotenv

FIXTURE = FixtureFile("compose/interpolated/compose.yaml")


def test_an_interpolated_list_item_is_its_value_not_the_expression():
    codes = [(code, line, column, text) for code, line, column, text, _ in FIXTURE.findings()]
    assert ("FLG005", 8, 63, "${TP:-2}") not in codes
    gpus = next(f for f in FIXTURE.findings() if f[0] == "PAR001" and f[1] == 14)
    assert "but tp 4 makes SGLang start 4 workers" in gpus[4]


def test_the_project_env_file_sets_the_value_pointing_at_the_reference():
    result = lint_text(FIXTURE.text, str(FIXTURE.path))
    gpus = next(f for f in result.findings if f.code == "PAR001" and f.span.line == 14)
    assert [FIXTURE.at(note.span) for note in gpus.notes if "--tp 4" in note.message] == [(8, 63, "${TP:-2}")]


def test_a_required_variable_the_env_file_does_not_set_is_unknown_and_says_why():
    (code, line, column, text, message) = next(
        f for f in FIXTURE.findings() if f[0] == "SLM004" and f[1] == 8
    )
    assert (line, column, text) == (8, 32, "${MODEL:?set MODEL}")
    assert (
        "`${MODEL:?set MODEL}` is set by Docker Compose from the environment `docker compose` runs in"
        in message
    )
    assert "`.env` next to the compose file does not set MODEL" in message


def test_the_image_tag_and_environment_values_are_interpolated():
    launches = extract_file(str(FIXTURE.path), FIXTURE.text).launches
    assert [launch.image for launch in launches] == ["lmsysorg/sglang:v0.5.6.post2"] * 3
    findings = FIXTURE.findings()
    assert ("PAR001", 19, 29, "${GPUS:-0}") in [f[:4] for f in findings]
    assert not [f for f in findings if f[0] == "SLM004" and f[1] == 22]  # BENCH_TP="2" in .env


def test_without_an_env_file_a_default_is_the_value_and_a_bare_name_unknown():
    text = (
        "services:\n"
        "  sglang:\n"
        "    image: lmsysorg/sglang:v0.5.6.post2\n"
        "    environment:\n"
        "      PORT: '8000'\n"
        '    command: ["python3", "-m", "sglang.launch_server", "--model-path", "/m", "--tp-size", "${TP:-2}"]\n'
        "  other:\n"
        "    image: lmsysorg/sglang:v0.5.6.post2\n"
        "    environment:\n"
        "      PORT: '8000'\n"
        "    command: python3 -m sglang.launch_server --model-path /m --port $PORT\n"
    )
    result = lint_text(text, "compose.yaml")
    assert [f.code for f in result.findings] == ["SLM004"]
    (partly,) = result.findings
    assert (partly.span.line, partly.span.column) == (11, 69)
    assert "`$PORT` is set by Docker Compose from the environment `docker compose` runs in" in partly.message
    assert "no `.env` file is next to the compose file" in partly.message


def test_the_env_file_syntax_as_compose_documents_it():
    text = "# c\nA=1\nexport B='x $y'\nC=\"a\\tb\" # note\nD=v # note\nE=${A}\nF=\n"
    assert parse_dotenv(text) == {"A": "1", "B": "x $y", "C": "a\tb", "D": "v", "E": None, "F": ""}


def test_a_literal_block_command_is_one_command_across_its_lines():
    """Compose splits a string `command:` into words: the line ends of a `|` block are
    blanks, not the ends of separate commands (no false "no --model-path")."""
    found = [f[:4] for f in FIXTURE.findings() if f[1] >= 23]
    assert found == [("FLG001", 29, 7, "--tp-szie")]

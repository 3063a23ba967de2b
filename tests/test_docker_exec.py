"""`docker exec` / `podman exec` in front of the server: the command run in the container is the
launch (`-it`, `-e NAME=VALUE`, `-w DIR` skipped, `-e` values its environment), and with `-i`
a here-document is the standard input of the container's command: `python3 -` reads it as its
program (read by the Python front-end), `bash -s` as its script (before: the here-document
was not read, nothing said); `docker compose exec SERVICE` keeps standard input open unless
`-d`. Without `-i` the here-document never reaches the container."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/docker_exec.sh")


def test_commands_and_here_documents_run_in_the_container_are_checked() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 5, 62, "--tp-sise"),
        ("FLG005", 6, 86, "high"),
        ("FLG001", 10, 94, "--mem-fraction-statics"),
        ("FLG006", 13, 78, "fifo"),
        ("FLG001", 13, 83, "--tp-sise"),
        ("SLM004", 13, 102, '"$PORT"'),
        ("FLG001", 21, 92, "--tp-sise"),  # `docker compose exec SERVICE`: stdin open by default
    ]
    assert findings[2][4].startswith("`--mem-fraction-statics` is not an SGLang 0.5.23 flag")
    assert "invalid choice: 'fifo'" in findings[3][4]
    assert (
        "$PORT comes from the environment of the container `docker exec` runs in (line 12)" in findings[5][4]
    )


def test_the_containers_environment_and_no_image() -> None:
    launches = extract_file(str(FILE.path), FILE.text).launches
    assert len(launches) == 5  # not the here-documents of `docker exec` without -i, `compose exec -d`
    command, podman, program, script, _ = launches
    assert {name: word.text for name, word in command.env.items()} == {"SGLANG_LOG_LEVEL": "debug"}
    assert FILE.at(command.env["SGLANG_LOG_LEVEL"].span) == (4, 37, "debug")
    assert {name: word.text for name, word in script.env.items()} == {"CUDA_VISIBLE_DEVICES": "0"}
    assert [launch.image for launch in launches] == [None, None, None, None, None]
    assert FILE.at(program.args[0].span) == (10, 61, "--model-path")

"""`docker run --env-file FILE` (podman too): the file is read from disk beside the script with
docker's env-file rules (docker/cli `pkg/kvfile`: `NAME=VALUE` as written, `#` lines skipped,
leading blanks dropped, a bare `NAME` the host's value; `-e` over every file, docker/cli
`readKVStrings`), so a `bash -c` in the container sees its values. Before: the file was not
read, and its variables were said to be "not exported to the inner `bash -c` shell". A value
in quotes (docker releases differ) and a file not on disk leave the values unknown, the reason
naming the file; podman's own forms (quotes, `export`, `NAME*`) are unknown for podman."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/docker_env_file.sh")


def test_the_env_files_values_reach_the_inner_shell() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("FLG006", 6, 105, '"$SCHEDULE"'),
        ("SLM004", 8, 86, '"$CACHE_DIR"'),
        ("SLM004", 10, 57, '"$MODEL_PATH"'),
        ("SLM004", 12, 86, '"$CACHE_DIR"'),
    ]
    assert "invalid choice: 'fifo'" in findings[0][4]  # `  SCHEDULE=fifo`: leading blanks dropped
    assert (
        "$CACHE_DIR in docker_env_file.env (line 5) is quoted: some docker releases keep the quotes"
        in findings[1][4]
    )
    assert (
        "$MODEL_PATH may be set by `--env-file ./serve.local.env` (line 9), which speclint could not"
        " read (not on disk)" in findings[2][4]
    )
    assert "$PORT may be set by `--env-file ./serve.local.env` (line 9)" in findings[2][4]
    assert (  # podman reads quotes its own way (its `--env-file` reference)
        "$CACHE_DIR is set by `CACHE_DIR` in docker_env_file.env (line 5), which podman reads by its"
        " own rules (not read here)" in findings[3][4]
    )
    assert "not exported" not in " ".join(f[4] for f in findings)


def test_file_values_then_e_over_them() -> None:
    first, second, _, podman = extract_file(str(FILE.path), FILE.text).launches
    assert [word.text for word in first.args[:4]] == ["--model-path", "/models/qwen3", "--tp-size", "2"]
    assert [word.text for word in second.args[:2]] == ["--model-path", "/models/qwen3"]
    assert first.env["HF_TOKEN"].text == "hf_example"  # bare `HF_TOKEN`: the host's exported value
    assert second.env["TP"].text == "4"  # no -e: the file's
    assert FILE.at(second.env["TP"].span) == (7, 23, "docker_env_file.env")
    assert podman.env["MODEL_PATH"].text == "/models/qwen3"  # a plain line: podman's as docker's

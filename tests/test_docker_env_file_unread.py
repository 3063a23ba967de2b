"""`docker run --env-file FILE IMAGE python3 -m sglang.launch_server ...` with no inner shell,
FILE not on disk: the file may set any variable the server reads (SGLANG_*,
CUDA_VISIBLE_DEVICES...), so the launch is said partly read at the file's name, the reason
naming it. Before: nothing was said (the launch looked checked whole). The reason is kept when
the container's command goes through `sudo -E`, `env`, `numactl`, `torchrun`; `env -i` drops the file's
variables; `-e` values stay known over the file."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file

FILE = FixtureFile("shell/docker_env_file_unread.sh")
UNREAD = (
    "the container's environment (any variable the server reads (SGLANG_*, CUDA_VISIBLE_DEVICES...)"
    " may be set by `--env-file ./serve.prod.env` (line {}), which speclint could not read (not on disk))"
)


def test_an_unread_env_file_is_said_at_its_name() -> None:
    findings = FILE.findings()
    assert [f[:4] for f in findings] == [
        ("SLM004", 6, 34, "./serve.prod.env"),
        ("SLM004", 8, 34, "./serve.prod.env"),
        ("PAR001", 8, 75, "0"),
        ("SLM004", 11, 65, '"$MODEL_PATH"'),
        ("SLM004", 13, 64, '"$MODEL_PATH"'),
        ("SLM004", 16, 34, "./serve.prod.env"),  # through torchrun
    ]
    assert "speclint cannot know " + UNREAD.format(6) + "; checks that need this value" in findings[0][4]
    assert UNREAD.format(8) in findings[1][4]
    # `-e CUDA_VISIBLE_DEVICES=0` is laid over the file: still known, still checked
    assert "CUDA_VISIBLE_DEVICES=0 leaves 1 GPU visible" in findings[2][4]
    # through `sudo -E` in the container: the reason still names the file
    assert (
        "$MODEL_PATH may be set by `--env-file ./serve.prod.env` (line 10), which speclint could not read"
        in findings[3][4]
    )
    assert UNREAD.format(10) in findings[3][4]
    # `env -i`: the file's variables are gone
    assert "serve.prod.env" not in findings[4][4]


def test_the_launches_carry_the_unread_file() -> None:
    launches = extract_file(str(FILE.path), FILE.text).launches
    unread = [launch.env_unread for launch in launches]
    assert [FILE.at(word.span) if word else None for word in unread] == [
        (6, 34, "./serve.prod.env"),
        (8, 34, "./serve.prod.env"),
        (10, 39, "./serve.prod.env"),
        None,  # env -i
        None,  # a file read whole
        (16, 34, "./serve.prod.env"),  # torchrun's worker
    ]
    assert launches[1].env["CUDA_VISIBLE_DEVICES"].text == "0"

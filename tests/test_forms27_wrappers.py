"""The prefix wrappers of shell/run_wrappers.py (flock, caffeinate, enroot start, doppler run)
say why a launch after them was not read (the option speclint does not know, a word not known
where options may be, doppler without `--`); flock's lock file may be a value speclint does not
know (it is not part of the launch); and what `doppler run` may set is named as doppler's
secrets. Also: findings on flags kept in a dict point at the dict's entry, not at the loop's
name (the same for every pass)."""

from __future__ import annotations

import pytest

from speclint.engine import lint_text

LAUNCH = "python3 -m sglang.launch_server --model-path m --port 1x"


def _findings(script: str, path: str = "run.sh") -> list[tuple[str, int, int, str]]:
    return [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(script, path).findings]


@pytest.mark.parametrize("lock", ['"$LOCK"', '"${LOCK_DIR}/sglang.lock"', "$'/tmp/l'"])
def test_flock_reads_the_launch_after_a_lock_file_in_a_variable(lock: str) -> None:
    script = f"flock -n {lock} {LAUNCH}\n"
    assert [f[:3] for f in _findings(script)] == [("FLG005", 1, script.index("1x") + 1)]


@pytest.mark.parametrize(
    ("prefix", "said"),
    [
        (
            "flock --fcntl /tmp/l",
            "`--fcntl` is not an option speclint knows for `flock` (its table is read from util-linux flock(1))",
        ),
        ("flock -qn /tmp/l", "`-q` is not an option speclint knows for `flock`"),
        ("flock $OPTS /tmp/l", "`$OPTS` is not known, and may hold options of `flock`"),
        (
            "caffeinate -x",
            "`-x` is not an option speclint knows for `caffeinate` (its table is read from macOS caffeinate(8))",
        ),
        ("enroot start --bogus img", "`--bogus` is not an option speclint knows for `enroot start`"),
        ("enroot exec 4242", "speclint reads only `enroot start [options] IMAGE COMMAND...`"),
        (
            "doppler run --unknown-flag --",
            "`--unknown-flag` is not an option speclint knows for `doppler run`",
        ),
        (
            "doppler run",
            "without `--` before it, doppler's flag parser (cobra) takes the command's own options as its flags",
        ),
    ],
)
def test_a_wrapper_launch_not_read_says_why(prefix: str, said: str) -> None:
    script = f"{prefix} {LAUNCH}\n"
    beside = "python3 -m sglang.launch_server --model-path m\n"  # (a file with a launch)
    ((code, line, column, message),) = _findings(beside + script)
    assert (code, line, column) == ("SLM005", 2, script.index("python3") + 1)
    assert message.startswith(
        "speclint did not read this command, which runs `python3 -m sglang.launch_server` through "
    )
    assert said in message and message.endswith("; nothing in this launch was checked")


def test_a_file_whose_only_wrapper_launch_is_not_read_names_the_option() -> None:
    ((code, _, _, message),) = _findings(f"flock --fcntl /tmp/l {LAUNCH}\n")
    assert code == "SLM005"
    assert "(speclint did not read the `flock` command at line 1: `--fcntl` is not an option" in message


def test_what_doppler_may_set_is_named_as_doppler_secrets() -> None:
    script = f"doppler run -p proj -- {LAUNCH}\n"
    (partly,) = [f for f in _findings(script) if f[0] == "SLM004"]
    assert "speclint cannot know doppler's secrets (any variable the server reads" in partly[3]
    assert "container" not in partly[3]
    docker = _findings("docker run --env-file missing.env img " + LAUNCH + "\n", "/nonexistent/run.sh")
    assert any("the container's environment (" in f[3] for f in docker if f[0] == "SLM004")


DICT_LOOPS = """import subprocess

FLAGS = {
    "--model-path": "m",
    "--tp-size": "2x",
}
cmd = ["python3", "-m", "sglang.launch_server"]
for flag, value in FLAGS.items():
    cmd += [flag, value]
subprocess.Popen(cmd)
argv = ["python3", "-m", "sglang.launch_server"]
argv += [w for k, v in {"--model-path": "m", "--port": "3o"}.items() for w in (k, str(v))]
subprocess.Popen(argv)
"""


def test_a_dict_loops_values_are_found_where_the_dict_writes_them() -> None:
    lines = DICT_LOOPS.splitlines()
    found = [f[:3] for f in _findings(DICT_LOOPS, "serve.py") if f[0] != "DRF011"]
    assert found == [
        ("FLG005", 5, lines[4].index("2x") + 1),  # (before: at `value`, line 9)
        ("FLG005", 12, lines[11].index("3o") + 1),  # (before: at `w`)
    ]

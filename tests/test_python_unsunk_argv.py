"""An argv list of the file that runs SGLang's launcher but that no call speclint reads runs
(`threading.Thread(target=subprocess.run, ...)`, `os.spawnlp`): said unread (SLM005) at the
module's name in a file whose other launches are read (`python/unsunk.py`); it was passed
over. A list a read call runs, and one in a comment, are not said."""

from __future__ import annotations

from fixture_file import FixtureFile

FILE = FixtureFile("python/unsunk_argv.py")

SAID = (
    "speclint did not read the launch these argv words make, which run `sglang.launch_server`: no "
    "call speclint reads runs them (a thread, `os.spawn*`, a library's runner), so nothing in this "
    "launch was checked"
)


def test_the_lists_no_read_call_runs_are_said() -> None:
    assert FILE.findings() == [
        ("SLM005", 12, 31, "sglang.launch_server", SAID),
        ("SLM005", 16, 54, "sglang.launch_server", SAID),
    ]


def test_the_list_a_read_call_runs_is_a_launch() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(FILE.path), FILE.text).launches
    assert [launch.span.line for launch in launches] == [8]

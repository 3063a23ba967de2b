"""The stored launch test helpers (src/speclint/sglang/data/sglang_helpers.json) are what
tools/gen_sglang_helpers.py reads from each release's wheel."""

from __future__ import annotations

from pathlib import Path

from regenerated import assert_regenerates, use_tools

from speclint.sglang.flags.schema import supported_versions
from speclint.sglang.helpers import _DATA, HelperWord, newest_helper, read_versions, reading

ROOT = Path(__file__).resolve().parent.parent


def test_every_release_the_flags_cover_was_read_for_helpers():
    assert set(read_versions()) == set(supported_versions())


def test_pd_helper_first_ships_in_0_4_6_post4_and_builds_launch_server():
    assert reading("0.4.6.post3", "popen_launch_pd_server") is None
    pd = newest_helper("popen_launch_pd_server")
    assert pd is not None and pd.release == read_versions()[-1]
    assert [w.text for w in pd.command[:4]] == ["python3", "-m", "sglang.launch_server", "--model-path"]
    assert pd.command[4:] == (HelperWord(param="model"), HelperWord(splat="other_args", str_items=True))
    assert (pd.position("model"), pd.position("other_args"), pd.position("env")) == (0, 4, 5)


def test_popen_launch_server_entry_as_each_release_builds_it():
    old = reading("0.4.0", "popen_launch_server")
    assert old is not None
    assert HelperWord(splat="other_args", str_items=False) in old.command  # no str() before 0.4.3.post3
    assert [w.text for w in old.command[:3]] == ["python3", "-m", "sglang.launch_server"]
    new = newest_helper("popen_launch_server")
    assert new is not None
    assert [w.text for w in new.command[:2]] == ["sglang", "serve"]  # 0.5.10 on, plain call
    assert new.other_args_appended and new.other_args_appended[0][1][0].text == "--device"


def test_regenerating_from_the_cached_wheels_reproduces_the_stored_helpers():
    use_tools()
    from gen_sglang_helpers import build, dump

    assert_regenerates(_DATA, read_versions(), lambda: dump(build(list(read_versions()))))


def test_what_chooses_the_command_popen_launch_server_builds_is_recorded():
    new = newest_helper("popen_launch_server")
    pd = newest_helper("popen_launch_pd_server")
    assert new is not None and pd is not None
    assert new.command_decided_by == (("num_replicas", "None"), ("pd_separated", "False"))
    assert pd.command_decided_by == ()

"""A workflow `env:` string of flags expanded unquoted in a step (`$SGLANG_ARGS`), or a
compose service's `environment:` entry expanded by its `bash -c` (`$$SGLANG_ARGS`): its flags
are read as the launch's words, so the file is not also told that its `--speculative-*` flags
are "outside every launch speclint read" (SLM005, which said they were not checked while the
launch's findings came from them)."""

from __future__ import annotations

from fixture_file import FixtureFile

WORKFLOW = FixtureFile("workflows/env_flag_string.yml")


def test_the_env_flags_are_checked_and_not_called_unread():
    found = WORKFLOW.findings()
    assert [f[:4] for f in found] == [
        ("SPD002", 11, 73, "$SGLANG_ARGS"),
        ("SPD003", 11, 73, "$SGLANG_ARGS"),
    ]
    assert "--speculative-eagle-topk is given without --speculative-num-steps" in found[0][4]


SERVICE = FixtureFile("compose/env_flag_string.yml")


def test_a_compose_environment_string_is_read_too():
    found = SERVICE.findings()
    assert [f[:4] for f in found] == [
        ("SPD002", 8, 82, "$$SGLANG_ARGS"),
        ("SPD003", 8, 82, "$$SGLANG_ARGS"),
    ]

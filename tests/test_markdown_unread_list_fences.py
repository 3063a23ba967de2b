"""A doc's YAML or Dockerfile fence that holds the launcher as list items but that speclint
does not read (a bare `command:` fragment, a Dockerfile excerpt with no `FROM`): said at the
module's name (SLM005) in a doc whose other blocks are read; it was passed over ("All checks
passed") because no line runs `python -m sglang.launch_server` as words (docs/blocks.py)."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/unread_list_fences.md")


def test_each_unread_fence_is_said_at_the_module() -> None:
    assert DOC.findings() == [
        (
            "SLM005",
            12,
            29,
            "sglang.launch_server",
            "speclint did not read the command that runs `sglang.launch_server` in this code block "
            "(it is not YAML speclint could read as a manifest), so nothing in this launch was checked",
        ),
        (
            "SLM005",
            18,
            24,
            "sglang.launch_server",
            "speclint did not read the command that runs `sglang.launch_server` in this code block "
            "(it is not a Dockerfile speclint could read), so nothing in this launch was checked",
        ),
    ]


def test_the_shell_block_is_still_read() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(DOC.path), DOC.text).launches
    assert [launch.span.line for launch in launches] == [6]

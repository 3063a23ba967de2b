"""A fence's language written with a suffix: the file's name (`bash:launch_eagle.sh`, Qiita
and Zenn) or HackMD's line numbering (`sh=`). Before, the tag was read whole (`bash:launch_eagle.sh`
is no language speclint reads) and the block reported not read."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/fence_info_suffixes.md")


def test_a_language_with_a_file_name_is_the_language() -> None:
    assert (
        "SPD001",
        7,
        87,
        "6",
        "`--speculative-num-draft-tokens 6` is ignored: with `--speculative-eagle-topk 1` SGLang "
        "sets speculative_num_draft_tokens to speculative_num_steps + 1 = 3 and runs with 3, "
        "not 6 (it logs one warning)",
    ) in DOC.findings()


def test_a_language_with_hackmd_line_numbers_is_the_language() -> None:
    assert ("SPD001", 13, 174, "7") in [f[:4] for f in DOC.findings()]


def test_an_unread_language_is_named_without_its_suffix() -> None:
    assert (
        "SLM005",
        19,
        1,
        "python3 -m sglang.launch_server",
        "speclint did not read the command that runs `python3 -m sglang.launch_server` in this code "
        "block (speclint does not read `fish` code blocks), so nothing in this launch was checked",
    ) in DOC.findings()

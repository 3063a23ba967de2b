"""vast.ai's `vastai create instance ID --image IMAGE --onstart-cmd 'CODE'` (vast-cli vast.py:
"contents of onstart script as single argument"): CODE is read as the instance's onstart
script, against the release of `--image`, `--onstart-cmd=CODE` and `--image=IMAGE` too; a
variable the script does not set is the instance's, not this script's, and said unknown."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.frontends import extract_file

ONSTART = FixtureFile("shell/vastai_onstart.sh")


def test_the_onstart_script_is_read_against_the_image_release():
    result = lint_text(ONSTART.text, str(ONSTART.path))
    assert [(f.code, *ONSTART.at(f.span)) for f in result.findings] == [
        ("FLG001", 8, 90, "--mem-fraction-statc"),
        ("SLM004", 12, 63, "$MODEL"),
    ]
    unknown, model = result.findings
    assert unknown.message.startswith("`--mem-fraction-statc` is not an SGLang 0.5.9 flag")
    assert unknown.fix_hint == "replace with `--mem-fraction-static`"
    assert (
        "$MODEL is not set in the onstart script of `vastai create instance` (line 11): the "
        "instance's environment comes from `--env` and the image" in model.message
    )


def test_each_onstart_script_is_one_launch_at_its_own_words():
    launches = extract_file(str(ONSTART.path), ONSTART.text).launches
    assert [ONSTART.at(launch.span)[:2] for launch in launches] == [(8, 18), (12, 18)]
    tp = [word.text for word in launches[1].args]
    assert tp[tp.index("--tp-size") + 1] == "2"


def test_a_vastai_command_without_an_onstart_script_is_no_launch():
    text = "vastai create instance 1 --image lmsysorg/sglang:v0.5.9-cu129 --args python3 -m sglang.launch_server\n"
    assert extract_file("rent.sh", text).launches == []

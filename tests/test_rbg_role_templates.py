"""RoleBasedGroup roles whose pod comes from a role template (`templateRef: {name, patch}`):
the patch's container is merged into the template's, so a role patched over a template of the
same file is checked against the release of the template's image; a template from another file
leaves the release unknown, said so in the release the launch is checked against."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.frontends import extract_file
from speclint.sglang.flags.versions import choose_version


def test_a_patched_role_is_checked_against_its_templates_image():
    fixture = FixtureFile("k8s/rbg_role_templates.yaml")
    got = fixture.findings()
    assert [g[:4] for g in got] == [("FLG005", 33, 72, "2x"), ("FLG009", 33, 78, "--attn-dp-size")]
    assert "does not exist yet in SGLang 0.5.2" in got[1][4]


def test_the_merged_container_keeps_the_templates_env_and_image_where_written():
    fixture = FixtureFile("k8s/rbg_role_templates.yaml")
    prefill, decode = extract_file(str(fixture.path), fixture.text).launches
    assert prefill.image == "lmsysorg/sglang:v0.5.2"
    assert prefill.image_span is not None and fixture.at(prefill.image_span)[:2] == (15, 22)
    assert prefill.env["SGLANG_LOG_LEVEL"].text == "info"
    assert [w.text for w in prefill.args][-1] == "prefill"
    assert [w.text for w in decode.args][-1] == "decode"


def test_a_template_from_another_file_leaves_the_release_unknown():
    fixture = FixtureFile("k8s/rbg_role_templates.yaml")
    decode = extract_file(str(fixture.path), fixture.text).launches[1]
    assert decode.image_span is not None and fixture.at(decode.image_span) == (39, 17, "sglang-shared-base")
    reason = choose_version(None, decode.image).reason
    assert reason.startswith("the newest supported release, unverified: the RoleBasedGroup role's container")
    assert "role template `sglang-shared-base`, which is not in this file" in reason
    assert "set --sglang-version to the SGLang it runs" in reason

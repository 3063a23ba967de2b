"""An SGLang image pulled through a registry on a port of its own
(`mirror.corp.example:5000/lmsysorg/sglang:v0.4.6.post1-cu124`): the port is not the tag, the
tag after the last `/` names the release, as for `lmsysorg/sglang:...`."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.sglang.flags.versions import version_from_image


def test_the_release_is_the_tag_after_the_registry_port() -> None:
    compose = FixtureFile("compose/mirror_registry_port.yml")
    assert compose.findings() == [
        (
            "FLG009",
            9,
            7,
            "--enable-dp-lm-head",
            "`--enable-dp-lm-head` does not exist yet in SGLang 0.4.6.post1 (it exists in 0.4.6.post4 "
            "and later): argparse stops the launch with 'unrecognized arguments'",
        )
    ]


def test_the_summary_names_the_image_release() -> None:
    from click.testing import CliRunner

    from speclint.cli import main

    compose = FixtureFile("compose/mirror_registry_port.yml")
    output = CliRunner().invoke(main, ["check", "--no-cache", str(compose.path)]).output
    assert "checked against SGLang 0.4.6.post1 (from the image mirror.corp.example:5000/" in output


def test_registry_ports_and_untagged_images() -> None:
    assert version_from_image("10.0.0.8:5000/lmsysorg/sglang:v0.5.2-cu124") == "0.5.2"
    assert version_from_image("registry.local:443/team/sglang:v0.4.6.post1") == "0.4.6.post1"
    assert version_from_image("registry.local:5000/lmsysorg/sglang") is not None  # untagged: latest
    assert version_from_image("registry.local:5000/team/server:v0.5.2") is None  # not SGLang's image
    assert version_from_image("registry.local:5000/lmsysorg/sglang:dev") is None

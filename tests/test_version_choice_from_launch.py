"""`VersionChoice.from_launch`: set where the release is chosen (`choose_version`), true only
when the launch's own image tag, package pin or stated version chose it; VER002 reads it (not
the reason's words)."""

from __future__ import annotations

from speclint.sglang.flags.versions import STATED, choose_version


def test_the_launch_s_own_names_choose_it():
    assert choose_version(None, "lmsysorg/sglang:v0.5.6.post2-cu126").from_launch
    assert choose_version(None, "sglang[all]==0.4.6.post1").from_launch
    assert choose_version(None, STATED + "0.5.9").from_launch
    older = choose_version(None, "lmsysorg/sglang:v0.3.0")  # not read: the oldest, still the image's
    assert older.unread == "SGLang 0.3.0" and older.from_launch


def test_other_sources_do_not(tmp_path):
    assert not choose_version("0.5.14", "lmsysorg/sglang:v0.5.6").from_launch
    assert not choose_version(None, "lmsysorg/sglang:v0.5.6", configured="0.5.14").from_launch
    assert not choose_version(None, "runpod/worker-sglang:2.0.2").from_launch
    assert not choose_version(None, None).from_launch


def test_a_requirements_pin_under_a_folder_named_images_is_not_the_image(tmp_path):
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "requirements.txt").write_text("sglang==0.5.6.post2\n")
    script = folder / "launch.sh"
    script.write_text("")
    choice = choose_version(None, "lmsysorg/sglang:dev", path=str(script))
    assert choice.version == "0.5.6.post2" and "image" in choice.reason  # (the folder's name)
    assert not choice.from_launch

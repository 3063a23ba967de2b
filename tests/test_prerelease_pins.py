"""A pre-release of SGLang named by a pin or a document (`sglang==0.5.2rc2`, `sglang version:
0.5.2rc2`, "running sglang 0.5.2rc2") is checked against the closest older bundled release,
and the summary says which and that it is unverified for the pre-release. Before, the pin was
ignored and the launch checked against the newest release "with no image tag": a launch
written for 0.5.2rc2 got 0.5.23's FLG002 for `--cuda-graph-max-bs`, a flag 0.5.2 accepted."""

from __future__ import annotations

from click.testing import CliRunner

from speclint.cli import main

LAUNCH = "python -m sglang.launch_server --model-path /m --cuda-graph-max-bs 8"
UNVERIFIED = (
    "names 0.5.2rc2, which is not bundled: checked against the closest older release, unverified for 0.5.2rc2"
)


def _check(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "concise", str(path)])
    return result.output


def test_a_package_pin_of_a_release_candidate(tmp_path) -> None:
    output = _check(tmp_path, "serve.sh", f"#!/bin/bash\nuv run --with sglang==0.5.2rc2 {LAUNCH}\n")
    assert "FLG002" not in output
    assert f"checked against SGLang 0.5.1.post3 (the package pin sglang==0.5.2rc2 {UNVERIFIED} at " in output


def test_a_document_version_line_of_a_release_candidate(tmp_path) -> None:
    text = f"# Bug\n\nsglang version: 0.5.2rc2\n\n```bash\n{LAUNCH}\n```\n"
    output = _check(tmp_path, "issue.md", text)
    assert "FLG002" not in output
    assert f"(the SGLang version the document states {UNVERIFIED} at " in output


def test_a_sentence_naming_a_release_candidate(tmp_path) -> None:
    text = f"I am running sglang 0.5.2rc2 and the server stops:\n\n```bash\n{LAUNCH}\n```\n"
    assert "checked against SGLang 0.5.1.post3" in _check(tmp_path, "issue.md", text)


def test_the_option_names_a_release_candidate(tmp_path) -> None:
    path = tmp_path / "serve.sh"
    path.write_text(f"#!/bin/bash\n{LAUNCH}\n")
    args = ["check", "--no-cache", "--sglang-version", "0.5.2rc2", str(path)]
    output = CliRunner().invoke(main, args).output
    assert f"checked against SGLang 0.5.1.post3 (--sglang-version {UNVERIFIED})" in output


def test_a_development_build_still_picks_no_release(tmp_path) -> None:
    text = f"sglang: 0.5.10.post1.dev20260426+g1234abc\n\n```bash\n{LAUNCH}\n```\n"
    assert "checked against SGLang 0.5.23 (the newest supported release" in _check(tmp_path, "a.md", text)


def test_an_image_tag_of_a_release_candidate(tmp_path) -> None:
    text = f"#!/bin/bash\ndocker run --gpus all lmsysorg/sglang:v0.5.2rc2-cu126 {LAUNCH.replace('python', 'python3')}\n"
    output = _check(tmp_path, "serve.sh", text)
    assert (
        f"checked against SGLang 0.5.1.post3 (the image lmsysorg/sglang:v0.5.2rc2-cu126 {UNVERIFIED} at "
        in output
    )

"""A launch of a release speclint has not read (an image tag, pin or --sglang-version naming a
release that is not bundled) is checked against the closest one read: what its findings say of
SGLang is unverified for the release that runs, so each is at most a warning and says so."""

from __future__ import annotations

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

LAUNCH = "python3 -m sglang.launch_server --model-path m --bogus-flag 1 --tp-size two\n"


def _found(text: str, version: str | None = None) -> list[tuple[str, str, int, int, str]]:
    options = LintOptions(sglang_version=version, read_pyproject=False)
    return [
        (f.code, f.severity.label, f.span.line, f.span.column, f.message)
        for f in lint_text(text, "serve.sh", options).findings
    ]


def test_an_image_of_a_pre_release_not_bundled_gives_warnings_that_say_so():
    text = "docker run --gpus all lmsysorg/sglang:v0.5.0rc0-cu126 " + LAUNCH
    found = _found(text)
    flag, value = text.index("--bogus-flag") + 1, text.index("two") + 1
    assert [f[:4] for f in found] == [("FLG001", "warning", 1, flag), ("FLG005", "warning", 1, value)]
    assert found[0][4] == (
        "`--bogus-flag` is not an SGLang 0.4.10.post2 flag: argparse stops the launch with "
        "'unrecognized arguments' (unverified for SGLang 0.5.0rc0, which speclint has not read: "
        "checked against SGLang 0.4.10.post2)"
    )


def test_a_release_newer_than_every_one_read_gives_warnings():
    found = _found(LAUNCH, "0.9.0")
    assert {f[1] for f in found} == {"warning"} and len(found) == 2
    assert all(
        f[4].endswith(
            "(unverified for SGLang 0.9.0, which speclint has not read: checked against SGLang 0.5.23)"
        )
        for f in found
    )


def test_a_bundled_release_keeps_its_errors():
    for found in (_found("docker run lmsysorg/sglang:v0.5.6.post2-cu126 " + LAUNCH), _found(LAUNCH)):
        assert [(f[0], f[1]) for f in found] == [("FLG001", "error"), ("FLG005", "error")]
        assert all("unverified" not in f[4] for f in found)


def test_warnings_of_a_release_not_read_say_so_too():
    # SPD001 and SPD003 are warnings on every release: what they say SGLang does (2 draft tokens,
    # max_running_requests 48) was read for 0.5.23, not for the 0.9.0 that runs
    text = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE "
        "--speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 16\n"
    )
    found = [f for f in _found(text, "0.9.0") if f[0].startswith("SPD")]
    assert sorted(f[0] for f in found) == ["SPD001", "SPD003"]
    assert {f[1] for f in found} == {"warning"}
    for finding in found:
        assert finding[4].endswith(
            "(unverified for SGLang 0.9.0, which speclint has not read: checked against SGLang 0.5.23)"
        )
    assert all("unverified" not in f[4] for f in _found(text, "0.5.23"))

"""A Markdown document's own statement of the SGLang release (`sglang: 0.5.17`, as `python -m
sglang.check_env` prints it in an issue's Environment section; `SGLang Version: 0.5.6.post2`
in a model page's Test Environment list) picks the release its launches are checked
against, unless a launch names its own image. Before: the newest release, so an issue
written for 0.5.17 got 0.5.23's errors (FLG002 on `--cuda-graph-max-bs`, which 0.5.17 takes)."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text

ISSUE = FixtureFile("markdown/issue_check_env_version.md")
MODEL_PAGE = FixtureFile("markdown/model_page_test_environment.md")
TWO = FixtureFile("markdown/two_stated_versions.md")


def _findings(fixture: FixtureFile) -> list[tuple[str, int, int, str, str]]:
    """Its findings but FLG003's (`--tp` written for `--tp-size`: every release's) and DRF011's
    (the drafter's config.json is not on disk)."""
    return [finding for finding in fixture.findings() if finding[0] not in ("FLG003", "DRF011")]


def test_an_issue_check_env_line_is_the_release_checked() -> None:
    (finding,) = _findings(ISSUE)
    assert finding[:4] == ("FLG008", 20, 3, "--cuda-graph-max-bs")
    assert "is deprecated in SGLang 0.5.17: argparse still takes it" in finding[4]
    (ctx,) = lint_text(ISSUE.text, str(ISSUE.path)).contexts
    assert ctx.version.version == "0.5.17"
    assert ctx.version.reason == "from the SGLang version the document states (line 32)"
    assert ISSUE.at(ctx.launch.image_span) == (32, 9, "0.5.17")


def test_a_model_page_version_line_in_bold_pins_the_launch_without_an_image() -> None:
    findings = _findings(MODEL_PAGE)
    assert [f[:4] for f in findings] == [
        ("FLG009", 15, 3, "--cuda-graph-max-bs-decode"),
        ("FLG001", 20, 76, "--tp-sise"),
    ]
    assert "does not exist yet in SGLang 0.5.6.post2 (it exists in 0.5.14 and later)" in findings[0][4]
    assert "is not an SGLang 0.5.9 flag" in findings[1][4]  # the image's release, not the page's
    first, second = lint_text(MODEL_PAGE.text, str(MODEL_PAGE.path)).contexts
    assert MODEL_PAGE.at(first.launch.image_span) == (9, 23, "0.5.6.post2")
    assert second.version.reason == "from the image lmsysorg/sglang:v0.5.9-cu129 (line 19)"


def test_a_document_stating_two_releases_states_none() -> None:
    (finding,) = _findings(TWO)
    assert finding[:4] == ("FLG002", 16, 60, "--cuda-graph-max-bs")
    (ctx,) = lint_text(TWO.text, str(TWO.path)).contexts
    assert ctx.version.reason.startswith("the newest supported release")


PIP = FixtureFile("markdown/issue_pip_list_version.md")


def test_pip_freeze_and_pip_list_lines_state_the_release_too() -> None:
    (finding,) = _findings(PIP)
    assert finding[:4] == ("FLG009", 6, 86, "--attn-dp-size")
    assert "does not exist yet in SGLang 0.5.16" in finding[4]
    (ctx,) = lint_text(PIP.text, str(PIP.path)).contexts
    assert ctx.version.reason == "from the SGLang version the document states (line 1)"
    assert PIP.at(ctx.launch.image_span) == (1, 22, "0.5.16")


def test_with_sglang_version_the_stated_release_is_what_the_document_was_written_for() -> None:
    from speclint.settings.options import LintOptions

    found = lint_text(ISSUE.text, str(ISSUE.path), LintOptions(sglang_version="0.5.23")).findings
    (drift,) = [f for f in found if f.code == "VER002"]
    assert (drift.span.line, drift.span.column) == (11, 1)
    assert drift.message.startswith(
        "defaults of flags this launch leaves unset changed between SGLang 0.5.17 (the version the "
        "document states) and 0.5.23: "
    )


PROSE = FixtureFile("markdown/issue_running_version_prose.md")


def test_a_sentence_saying_which_release_ran_states_it() -> None:
    (finding,) = _findings(PROSE)
    assert finding[:4] == ("FLG008", 8, 81, "--cuda-graph-max-bs")  # 0.5.23's FLG002 error before
    assert "is deprecated in SGLang 0.5.17: argparse still takes it" in finding[4]
    (ctx,) = lint_text(PROSE.text, str(PROSE.path)).contexts
    assert ctx.version.reason == "from the SGLang version the document states (line 3)"
    assert PROSE.at(ctx.launch.image_span) == (3, 20, "0.5.17")


LAUNCH = "```bash\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --cuda-graph-max-bs 8\n```\n"


def _version(prose: str) -> str:
    (ctx,) = lint_text(prose + "\n\n" + LAUNCH, "issue.md").contexts
    return ctx.version.version


def test_an_inline_pip_install_pin_and_other_first_person_sentences_state_the_release() -> None:
    assert _version("Environment: `pip install sglang==0.5.9`") == "0.5.9"
    assert _version('Installed with pip install -U "sglang[all]==0.5.6.post2".') == "0.5.6.post2"
    assert _version("It happens on SGLang v0.5.17 too.") == "0.5.17"
    assert _version("I upgraded to sglang 0.5.18 and it still fails") == "0.5.18"


def test_a_release_a_feature_needs_or_a_fact_about_one_is_not_the_release_that_ran() -> None:
    newest = _version("")
    assert _version("Starting with SGLang 0.5.14, the flag was split.") == newest
    assert _version("This was fixed on SGLang 0.5.9.") == newest
    assert _version("I'm running sglang 0.5.10.dev1+g0123abc") == newest  # a development build
    assert _version("I tried sglang 0.5.9, now running sglang 0.5.17.") == newest  # two releases

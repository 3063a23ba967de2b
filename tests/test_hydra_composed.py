"""A Hydra config with no launch of its own whose defaults list picks a config group file
holding one (NeMo Evaluator style: `- deployment: sglang` and `deployment/sglang.yaml` beside
it): the group's launch string is read composed with this file, a value this file sets found
where it is written here, a value of the group file at the option that picks it, noted where
written (before: SLM005, "speclint reads that file alone, not composed with this one")."""

from __future__ import annotations

from fixture_file import FixtureFile
from speclint_runs import run_speclint

from speclint.engine import lint_text

FIXTURE = FixtureFile("hydra/evaluator/eval.yaml")


def test_the_group_files_launch_is_read_with_this_files_values():
    found = [f[:4] for f in FIXTURE.findings()]
    assert found == [("FLG005", 5, 17, "sglang"), ("FLG005", 11, 25, "2x")]
    port, tp = [f[4] for f in FIXTURE.findings()]
    assert port.startswith("`80x` is not a valid value for `--port`")  # the group file's own key
    assert tp.startswith("`2x` is not a valid value for `--tp-size`")  # this file's, over the group's 8


def test_the_cli_says_where_a_group_files_value_is_written_and_the_image():
    done = run_speclint("--no-cache", str(FIXTURE.path))
    assert (
        "line 7, column 7: value `80x` from `deployment/sglang.yaml:7`, a config the defaults list composes"
        in (done.stdout)
    )
    assert "checked against SGLang 0.5.2 (from the image lmsysorg/sglang:v0.5.2 at " in done.stdout
    assert done.stdout.rstrip().endswith("deployment/sglang.yaml:4).")  # where the group file writes it
    assert "holds no launch" not in done.stdout


def test_the_group_file_alone_is_still_read_on_its_own():
    group = FixtureFile("hydra/evaluator/deployment/sglang.yaml")
    assert [f[:3] for f in group.findings()] == [("FLG005", 7, 7), ("SLM004", 12, 16)]


def test_a_group_not_on_disk_stays_said_not_composed(tmp_path):
    text = FIXTURE.text
    (tmp_path / "eval.yaml").write_text(text)  # (no deployment/ folder beside it)
    found = [(f.code, f.span.line, f.message) for f in lint_text(text, str(tmp_path / "eval.yaml")).findings]
    assert [f[:2] for f in found] == [("SLM005", 5)]
    assert "speclint reads that file alone, not composed with this one" in found[0][2]


def test_an_image_this_file_sets_for_the_group_wins(tmp_path):
    (tmp_path / "deployment").mkdir()
    group = FixtureFile("hydra/evaluator/deployment/sglang.yaml").text.replace("port: 80x", "port: 8000")
    (tmp_path / "deployment" / "sglang.yaml").write_text(group)
    text = FIXTURE.text + "  image: lmsysorg/sglang:v0.4.6.post1\n"
    (tmp_path / "eval.yaml").write_text(text)
    done = run_speclint("--no-cache", "eval.yaml", cwd=tmp_path)
    assert (
        "checked against SGLang 0.4.6.post1 (from the image lmsysorg/sglang:v0.4.6.post1 at eval.yaml:12)"
        in done.stdout
    )

"""`kubectl apply -f - << EOF` in shell held by other files: a GitHub Actions step's `run:`, a
GitLab CI job's `script:`, an rst `code-block:: bash`, a notebook's `%%bash` cell. The
manifest is read by the YAML front-end as in a shell script (`yaml_manifest.read_unit_or_manifest`,
handed to the YAML front-end's own shell by `NodeReader.unit_reader`, and to the rst and
notebook readers' shell as the Markdown reader's is), its findings at their tokens in the file;
it was said not read (SLM005) before."""

from __future__ import annotations

from fixture_file import FixtureFile

WORKFLOW = FixtureFile("workflows/kubectl_apply_heredoc.yml")
GITLAB = FixtureFile("ci/kubectl_apply_heredoc.gitlab-ci.yml")
RST = FixtureFile("rst/kubectl_apply_heredoc.rst")
NOTEBOOK = FixtureFile("notebooks/kubectl_apply_heredoc.ipynb")

CHOICE = (
    "`flashinfers` is not a valid value for `--attention-backend`: argparse stops the launch with "
    "'argument --attention-backend: invalid choice: 'flashinfers' (choose from "
)
TWO = (
    "`two` is not a valid value for `--tp-size`: argparse stops the launch with "
    "'argument --tp-size: invalid int value: 'two''"
)


def _short(fixture: FixtureFile) -> list[tuple[str, int, int, str, str]]:
    return [
        (code, line, column, text, message[: len(CHOICE)])
        for code, line, column, text, message in fixture.findings()
    ]


def test_a_workflow_run_step_applies_its_manifests() -> None:
    assert (
        _short(WORKFLOW)
        == [
            ("FLG006", 31, 25, "flashinfers", CHOICE),  # `kubectl -n "$NAMESPACE" apply -f - <<EOF`
            ("FLG005", 44, 90, "two", TWO[: len(CHOICE)]),  # `cat <<'YAML' | oc create -f -`
        ]
    )


def test_the_release_is_the_manifest_image_in_the_workflow() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(WORKFLOW.path), WORKFLOW.text).launches
    assert [(launch.span.line, launch.image) for launch in launches] == [
        (26, "lmsysorg/sglang:v0.5.9"),
        (44, "lmsysorg/sglang:v0.5.9"),
    ]
    assert launches[0].image_span is not None
    assert WORKFLOW.at(launches[0].image_span) == (25, 28, "lmsysorg/sglang:v0.5.9")


def test_a_gitlab_job_script_applies_its_manifest() -> None:
    assert GITLAB.findings() == [("FLG005", 18, 100, "two", TWO)]


def test_an_rst_shell_block_applies_its_manifest() -> None:
    assert _short(RST) == [("FLG006", 19, 110, "flashinfers", CHOICE)]


def test_a_notebook_bash_cell_applies_its_manifest() -> None:
    assert NOTEBOOK.findings() == [("FLG005", 28, 111, "two", TWO)]


def test_a_run_step_manifest_with_a_yaml_error_is_said_unread() -> None:
    from speclint.engine import lint_text

    text = (
        "on: push\njobs:\n  d:\n    runs-on: x\n    steps:\n      - run: |\n"
        "          kubectl apply -f - <<EOF\n          kind: Pod\n          spec:\n"
        "            containers: [{image: lmsysorg/sglang:v0.5.9, command: [python3, -m, sglang.launch_server\n"
        "          EOF\n"
    )
    found = [(f.code, f.span.line, f.span.column, f.message) for f in lint_text(text, "deploy.yml").findings]
    assert [(code, line, column) for code, line, column, _ in found] == [("SLM005", 10, 81)]
    assert (
        found[0][3]
        == "this file names `sglang.launch_server` but speclint found no launch in it: nothing here was checked"
    )

"""A manifest given to `kubectl apply -f -` on a here-document (`cat <<'YAML' | kubectl apply
-f -`, `kubectl apply -f - <<EOF`): read by the YAML front-end as a manifest file is, its
findings at their places in the here-document (frontends/shell/manifest_heredoc.py); one that
names the launcher but is not read is said (SLM005), never passed over."""

from __future__ import annotations

from fixture_file import FixtureFile

DOC = FixtureFile("markdown/kubectl_apply_heredoc.md")
SCRIPT = FixtureFile("shell/kubectl_apply_heredoc.sh")


def test_the_manifest_on_the_here_document_is_checked() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in DOC.findings()]
    assert found == [("FLG006", 24, 15, "prefil")]


def test_the_doc_reads_the_here_document_and_the_yaml_block() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(DOC.path), DOC.text).launches
    assert [launch.span.line for launch in launches] == [18, 34]
    assert [launch.image for launch in launches] == ["lmsysorg/sglang:v0.5.9"] * 2


def test_each_applied_manifest_is_read_or_said_unread() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in SCRIPT.findings()]
    assert found == [
        ("SLM004", 18, 76, "$MODEL"),  # an unquoted here-document: the script's unknown value
        ("FLG005", 18, 99, "2x"),  # `kubectl -n "$NS" apply -f - <<EOF`
        ("FLG006", 35, 33, "flashinfers"),  # `cat <<'YAML' | oc create -f /dev/stdin`: `bash -c`
        ("SLM005", 45, 35, "sglang.launch_server"),  # a YAML error: no launch read
        ("SLM005", 55, 35, "sglang.launch_server"),  # `| envsubst | kubectl apply -f -`
    ]


def test_what_was_not_read_says_why() -> None:
    messages = {line: message for code, line, _, _, message in SCRIPT.findings() if code == "SLM005"}
    assert messages[45] == (
        "speclint did not read the launch in this here-document, which names `sglang.launch_server`: "
        "speclint read it as the manifest `kubectl apply -f -` applies and found no container that "
        "starts it (YAML syntax error: expected ',' or ']', but got '<stream end>', line 46); "
        "nothing in this launch was checked"
    )
    assert messages[55] == (
        "speclint did not read the launch in this here-document, which names `sglang.launch_server`: "
        "it reaches `kubectl apply -f -` through another command first, whose output speclint does "
        "not know; nothing in this launch was checked"
    )


def test_the_release_comes_from_the_expanded_image() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(SCRIPT.path), SCRIPT.text).launches
    assert [(launch.span.line, launch.image) for launch in launches] == [
        (18, "lmsysorg/sglang:v0.5.9"),  # `${TAG}` expanded by the unquoted here-document
        (34, "lmsysorg/sglang:v0.5.9"),
    ]
    image_span = launches[0].image_span
    assert image_span is not None and SCRIPT.at(image_span)[:2] == (17, 18)


def test_a_manifest_without_the_launcher_is_not_reported() -> None:
    from speclint.engine import lint_text

    text = "cat <<EOF | kubectl apply -f -\nkind: Service\nmetadata:\n  name: x\nEOF\n"
    assert lint_text(text, "deploy.sh").findings == []


def test_a_lone_dash_before_the_here_document_is_stdin() -> None:
    from speclint.engine import lint_text

    text = (
        "kubectl apply -f - <<EOF\nkind: Pod\nspec:\n  containers:\n  - image: lmsysorg/sglang:v0.5.9\n"
        "    command: [python3, -m, sglang.launch_server, --model-path, m, --tp-size, two]\nEOF\n"
    )
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "deploy.sh").findings]
    assert found == [("FLG005", 6, 78)]

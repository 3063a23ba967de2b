"""A manifest given to `kubectl apply -f -` on a here-document (`cat <<'YAML' | kubectl apply
-f -`, `kubectl apply -f - <<EOF`): the shell front-end does not read the here-document as a
Kubernetes manifest, so its launch is missed; in a doc beside another launch, silently
(survey13). The shell front-end's (frontends/shell/heredocs.py), routed: xfail until read."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

DOC = FixtureFile("markdown/kubectl_apply_heredoc.md")


@pytest.mark.xfail(
    strict=True,
    reason="shell/heredocs.py: a here-document fed to `kubectl apply -f -` is not read as a manifest",
)
def test_the_manifest_on_the_here_document_is_checked() -> None:
    found = [(code, line, column, text) for code, line, column, text, _ in DOC.findings()]
    assert found == [("FLG006", 24, 15, "prefil")]


def test_today_the_doc_reads_only_the_yaml_block() -> None:
    from speclint.frontends import extract_file

    launches = extract_file(str(DOC.path), DOC.text).launches
    assert [launch.span.line for launch in launches] == [34]

"""`tools/gen_rule_docs.py`: writes one page per rule and the index; `--check` says whether
the pages stored are what the rules' docstrings give (naming each stale or missing page, exit
1), writing nothing; the pages in rules/ (index included) are up to date."""

from __future__ import annotations

from pathlib import Path

import pytest
from regenerated import ROOT, use_tools


def test_the_stored_pages_and_their_index_are_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    use_tools()
    from gen_rule_docs import main

    assert main(["--out", str(ROOT / "rules"), "--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"


def test_check_names_the_stale_and_missing_pages_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    use_tools()
    from gen_rule_docs import main

    from speclint.rules import all_rules

    names = [rule.name for rule in all_rules()]
    assert main(["--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"wrote {len(names)} rule pages to {tmp_path}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*(f"{n}.md" for n in names), "README.md"])
    assert f"[{names[0]}]({names[0]}.md)" in (tmp_path / "README.md").read_text(encoding="utf-8")

    assert main(["--out", str(tmp_path), "--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"

    edited, removed = tmp_path / f"{names[0]}.md", tmp_path / f"{names[1]}.md"
    edited.write_text("an old page\n", encoding="utf-8")
    removed.unlink()
    assert main(["--out", str(tmp_path), "--check"]) == 1
    assert capsys.readouterr().out == (
        f"{edited} differs from what the rules' docstrings give\n"
        f"{removed} differs from what the rules' docstrings give\n"
        "run tools/gen_rule_docs.py to write them\n"
    )
    assert edited.read_text(encoding="utf-8") == "an old page\n" and not removed.exists()

"""Write rules/<name>.md for every rule from its docstring (the pages are generated: edit
the rule's docstring, then run `python tools/gen_rule_docs.py`), and rules/README.md, their
index. `--check` compares them with the pages stored, writes nothing, names the stale or
missing ones and exits 1 when there are any; `--out DIR` writes or checks another folder."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from line_array import check_or_write  # noqa: E402

from speclint.rules import all_rules  # noqa: E402
from speclint.rules.pages import rule_page  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def pages() -> dict[str, str]:
    """Each file of rules/ by name: one page per rule, then the index."""
    index = ["# speclint rules\n", "| code | name | severity | what it finds |", "|---|---|---|---|"]
    written: dict[str, str] = {}
    for rule in all_rules():
        written[f"{rule.name}.md"] = rule_page(rule)
        index.append(
            f"| {rule.code} | [{rule.name}]({rule.name}.md) | {rule.severity.label} | {rule.summary} |"
        )
    written["README.md"] = "\n".join(index) + "\n"
    return written


def _stored(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "rules"), help="the folder of the pages")
    ap.add_argument("--check", action="store_true", help="compare with the stored pages, write nothing")
    args = ap.parse_args(argv)
    out = Path(args.out)
    written = pages()
    if args.check:
        stale = [name for name, text in written.items() if _stored(out / name) != text]
        for name in stale:
            print(f"{out / name} differs from what the rules' docstrings give")
        print("up to date" if not stale else "run tools/gen_rule_docs.py to write them")
        return 1 if stale else 0
    out.mkdir(exist_ok=True)
    for name, text in written.items():
        check_or_write(str(out / name), text, False)
    print(f"wrote {len(written) - 1} rule pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write rules/<name>.md for every rule from its docstring (the pages are generated: edit
the rule's docstring, then run `python tools/gen_rule_docs.py`)."""

from __future__ import annotations

from pathlib import Path

from speclint.rules import all_rules
from speclint.rules.pages import rule_page

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    out = ROOT / "rules"
    out.mkdir(exist_ok=True)
    index = ["# speclint rules\n", "| code | name | severity | what it finds |", "|---|---|---|---|"]
    for rule in all_rules():
        (out / f"{rule.name}.md").write_text(rule_page(rule))
        index.append(
            f"| {rule.code} | [{rule.name}]({rule.name}.md) | {rule.severity.label} | {rule.summary} |"
        )
    (out / "README.md").write_text("\n".join(index) + "\n")
    print(f"wrote {len(all_rules())} rule pages to {out}")


if __name__ == "__main__":
    main()

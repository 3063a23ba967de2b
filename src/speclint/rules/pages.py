"""A rule's documentation page (`speclint rule`, SARIF help, `rules/<name>.md`): rendered
from the rule's docstring, and the examples it shows read back for the tests that run them."""

from __future__ import annotations

import inspect
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import Rule


def rule_page(rule: Rule) -> str:
    """The rule's documentation page (`speclint rule`, `rules/<name>.md`), from its docstring."""
    body = inspect.cleandoc(type(rule).__doc__ or "")
    head = f"# {rule.name} ({rule.code})\n\nSeverity: **{rule.severity.label}**. {rule.summary}\n\n"
    if rule.opt_in:
        head += (
            f"Not in the default rule set: `--extend-select {rule.code}` (or "
            f'`extend-select = ["{rule.code}"]`) turns it on.\n\n'
        )
    return head + body.strip() + "\n"


def page_example_gpu(block: str) -> str | None:
    """The GPU profile a page's example names in a `# GPU: h100` line, if any."""
    match = re.search(r"^# GPU: (\S+)$", block, flags=re.M)
    return match.group(1) if match else None


def page_examples(page: str) -> dict[str, list[tuple[str, str | None]]]:
    """The ```bash blocks of a page by section ('Example', 'Use instead'), each with the
    SGLang version its first line names (`# SGLang 0.5.23`), if any."""
    found: dict[str, list[tuple[str, str | None]]] = {}
    for section in re.split(r"^## ", page, flags=re.M)[1:]:
        title, _, text = section.partition("\n")
        for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
            match = re.match(r"# SGLang (\S+)\n", block)
            found.setdefault(title.strip(), []).append((block, match.group(1) if match else None))
    return found

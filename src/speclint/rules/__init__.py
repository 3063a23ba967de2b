"""The rule registry. Each rule lives in its own module, `<family>/<rule_name>.py` (the rule's
name in snake_case); `rules.index` lists them by code, with what the engine and the rule
selection need to know of a rule without importing its module. Shared helpers sit beside the
families."""

from __future__ import annotations

from functools import lru_cache

from speclint.rules.index import ENTRIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import Rule
    from speclint.rules.index import RuleEntry


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """One instance of every rule, sorted by code (every rule module imported)."""
    return tuple(entry.rule for entry in ENTRIES)


def entry_by_key(key: str) -> RuleEntry | None:
    """A rule's index entry by its code (`FLG001`) or name (`unknown-flag`), case-insensitively."""
    wanted = key.strip().lower()
    for entry in ENTRIES:
        if entry.code.lower() == wanted or entry.name == wanted:
            return entry
    return None


def rule_by_key(key: str) -> Rule | None:
    """A rule by its code (`FLG001`) or name (`unknown-flag`), case-insensitively."""
    entry = entry_by_key(key)
    return entry.rule if entry is not None else None


def default_selection() -> tuple[str, ...]:
    """The codes `check` runs when neither the command line nor a configuration file selects
    rules: every rule but the opt-in ones (`Rule.opt_in`, info findings that would appear on
    nearly every launch), as ruff runs a default subset of its rules."""
    global _default
    if _default is None:
        _default = tuple(entry.code for entry in ENTRIES if not entry.opt_in)
    return _default


_default: tuple[str, ...] | None = None


def selector_problem(key: str) -> str | None:
    """Why `key` selects no rule (with a "did you mean"), or None when it selects some: a code
    (`FLG001`), a code prefix (`FLG`, `SPD00`), a rule name (`unknown-flag`) or `ALL`."""
    wanted = key.strip()
    rules = ENTRIES
    if wanted.upper() == "ALL" or any(
        rule.code.upper().startswith(wanted.upper()) or rule.name == wanted.lower() for rule in rules
    ):
        if wanted:
            return None
    import difflib

    known = sorted({r.code for r in rules} | {r.code[:3] for r in rules} | {r.name for r in rules})
    close = difflib.get_close_matches(
        wanted.upper() if wanted[:1].isalpha() and "-" not in wanted else wanted.lower(),
        known,
        n=1,
        cutoff=0.5,
    )
    if not close:
        close = difflib.get_close_matches(wanted.lower(), [k.lower() for k in known], n=1)
    families = ", ".join(sorted({r.code[:3] for r in rules}))
    hint = (
        f"; did you mean `{close[0]}`?"
        if close
        else f"; rule families are {families}, and `speclint rules` lists every rule"
    )
    return f"unknown rule selector `{key}` (no rule code, code prefix or name matches){hint}"

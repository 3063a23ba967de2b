"""The rule registry. Each rule lives in its own module; this lists them in code order."""

from __future__ import annotations

from functools import lru_cache

_RULE_MODULES = (
    "syntax_error", "broken_continuation", "unused_suppression", "partly_read", "no_launch_found",
    "unknown_flag", "ambiguous_abbreviation", "abbreviated_flag", "missing_value",
    "invalid_value", "duplicate_flag", "deprecated_flag", "flag_not_in_version",
    "unexpected_argument", "missing_required", "config_unsupported_option", "help_flag",
    "spd_topk_one_override", "spd_partial_params", "spd_max_running_requests", "spd_ngram_topk",
    "spd_missing_draft", "spd_token_map_eagle3", "spd_backend_conflict", "spd_unknown_algorithm",
    "spd_rejected", "spd_aux_capture", "spd_ngram_page_size",
    "drf_eagle3_drafter", "drf_aux_layers", "drf_shapes", "drf_context", "drf_architecture",
    "drf_config_not_found", "drf_eagle3_name", "drf_context_length",
    "par_visible_gpus", "par_tp_attn_dp", "par_enable_dp_attention", "par_a2a_ep_size",
    "par_nnodes_split", "par_backend_gpu",
    "ver_flag_removed", "ver_meaning_changed",
)


@lru_cache(maxsize=1)
def all_rules() -> tuple:
    """One instance of every rule, sorted by code."""
    import importlib

    from speclint.rules.base import Rule

    found = []
    for module_name in _RULE_MODULES:
        module = importlib.import_module(f"speclint.rules.{module_name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Rule) and value is not Rule
                    and value.__module__ == module.__name__):
                found.append(value())
    return tuple(sorted(found, key=lambda rule: rule.code))


def rule_by_key(key: str):
    """A rule by its code (`FLG001`) or name (`unknown-flag`), case-insensitively."""
    wanted = key.strip().lower()
    for rule in all_rules():
        if rule.code.lower() == wanted or rule.name == wanted:
            return rule
    return None


def default_selection() -> tuple[str, ...]:
    """The codes `check` runs when neither the command line nor a configuration file selects
    rules: every rule but the opt-in ones (`Rule.opt_in`, info findings that would appear on
    nearly every launch), as ruff runs a default subset of its rules."""
    global _default
    if _default is None:
        _default = tuple(rule.code for rule in all_rules() if not rule.opt_in)
    return _default


_default: tuple[str, ...] | None = None


def selector_problem(key: str) -> str | None:
    """Why `key` selects no rule (with a "did you mean"), or None when it selects some: a code
    (`FLG001`), a code prefix (`FLG`, `SPD00`), a rule name (`unknown-flag`) or `ALL`."""
    wanted = key.strip()
    rules = all_rules()
    if wanted.upper() == "ALL" or any(rule.code.upper().startswith(wanted.upper())
                                      or rule.name == wanted.lower() for rule in rules):
        if wanted:
            return None
    import difflib

    known = sorted({r.code for r in rules} | {r.code[:3] for r in rules} | {r.name for r in rules})
    close = difflib.get_close_matches(wanted.upper() if wanted[:1].isalpha() and "-" not in wanted
                                      else wanted.lower(), known, n=1, cutoff=0.5)
    if not close:
        close = difflib.get_close_matches(wanted.lower(), [k.lower() for k in known], n=1)
    families = ", ".join(sorted({r.code[:3] for r in rules}))
    hint = (f"; did you mean `{close[0]}`?" if close else
            f"; rule families are {families}, and `speclint rules` lists every rule")
    return f"unknown rule selector `{key}` (no rule code, code prefix or name matches){hint}"

"""The rule registry. Each rule lives in its own module, `<family>/<rule_name>.py` (the rule's
name in snake_case); this lists them by family. Shared helpers sit beside the families."""

from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import Rule

_RULE_MODULES = (
    "slm.syntax_error",
    "slm.broken_continuation",
    "slm.unused_suppression",
    "slm.launch_partly_read",
    "slm.no_launch_found",
    "flg.unknown_flag",
    "flg.ambiguous_abbreviation",
    "flg.abbreviated_flag",
    "flg.missing_flag_value",
    "flg.invalid_flag_value",
    "flg.invalid_choice",
    "flg.duplicate_flag",
    "flg.deprecated_flag",
    "flg.flag_not_in_version",
    "flg.unexpected_argument",
    "flg.missing_required_flag",
    "flg.config_option_unsupported",
    "flg.help_flag",
    "flg.router_flag_release",
    "spd.topk_one_overrides_draft_tokens",
    "spd.partial_speculative_params",
    "spd.speculative_caps_running_requests",
    "spd.ngram_ignores_topk",
    "spd.missing_draft_model",
    "spd.token_map_ignored",
    "spd.speculative_backend_conflict",
    "spd.unknown_speculative_algorithm",
    "spd.sglang_rejects_config",
    "spd.aux_capture_disables_speculation",
    "spd.ngram_page_size_backend",
    "drf.eagle3_drafter_needs_eagle3",
    "drf.eagle_drafter_with_eagle3",
    "drf.aux_layer_out_of_range",
    "drf.aux_layer_ids_ignored",
    "drf.aux_layer_count",
    "drf.draft_hidden_size_mismatch",
    "drf.draft_vocab_without_d2t",
    "drf.draft_vocab_differs",
    "drf.draft_context_too_short",
    "drf.draft_architecture_unknown",
    "drf.model_config_not_found",
    "drf.eagle3_name_with_eagle",
    "drf.context_length_exceeds_model",
    "par.visible_gpu_mismatch",
    "par.tp_not_divisible_by_attn_dp",
    "par.enable_dp_attention_changed",
    "par.a2a_backend_sets_ep_size",
    "par.tp_pp_not_divisible_by_nnodes",
    "par.attention_backend_gpu",
    "ver.flag_removed",
    "ver.flag_meaning_changed",
)


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """One instance of every rule, sorted by code."""
    import importlib

    from speclint.rules.base import Rule

    found = []
    for module_name in _RULE_MODULES:
        module = importlib.import_module(f"speclint.rules.{module_name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Rule)
                and value is not Rule
                and value.__module__ == module.__name__
            ):
                found.append(value())
    return tuple(sorted(found, key=lambda rule: rule.code))


def rule_by_key(key: str) -> Rule | None:
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

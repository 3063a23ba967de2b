"""Every rule as the engine and the rule selection see it before its module is imported: its
code, name and module, the hook it implements, and what a launch (or file) must have for it to
report anything (`Rule.gates`, opened by `rules.gates`).

Why: importing a rule's module costs ~0.25 M instructions (its code unmarshalled, its class
and examples made, its helpers imported), ~12 M for all of them, while a launch can trigger
only some: a clean launch meets no FLG rule about a parse problem, a launch SGLang accepts no
rule about a refusal. The engine (`speclint.engine`) imports a rule's module the first time
one of its gates is open; `speclint rules`, the docs and SARIF listings still load every rule
(`all_rules`). tests/test_rule_index.py checks each row against its rule's class, and every
gate against every example's findings, so the index cannot drift from the rules.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Set

    from speclint.rules.base import Rule


class RuleEntry:
    """One row of the index; `rule` imports its module on first use."""

    __slots__ = (
        "code",
        "name",
        "class_name",
        "hook",
        "stage",
        "opt_in",
        "per_launch",
        "defers_to",
        "gates",
        "_rule",
    )

    def __init__(
        self,
        code: str,
        name: str,
        class_name: str,
        hook: str = "check",
        stage: str = "resolve",
        opt_in: bool = False,
        per_launch: bool = False,
        defers_to: tuple[str, ...] = (),
        gates: tuple[str, ...] = (),
    ) -> None:
        self.code = code
        self.name = name
        self.class_name = class_name
        self.hook = hook
        """The one hook of `Rule` the class implements: check, check_file, check_suppressions."""
        self.stage = stage
        self.opt_in = opt_in
        self.per_launch = per_launch
        self.defers_to = defers_to
        self.gates = gates
        self._rule: Rule | None = None

    @property
    def module(self) -> str:
        """The rule's module under `speclint.rules`: `<family>.<rule_name>`, the rule's name in
        snake_case (`flg.unknown_flag`)."""
        return f"{self.code[:3].lower()}.{self.name.replace('-', '_')}"

    @property
    def rule(self) -> Rule:
        """The rule itself (its module imported the first time it is asked for)."""
        found = self._rule
        if found is None:
            import sys

            name = f"speclint.rules.{self.module}"
            __import__(name)  # (`importlib.import_module` of an absolute name: `importlib` not imported)
            found = self._rule = getattr(sys.modules[name], self.class_name)()
        return found

    def runs(self, opened: Set[str]) -> bool:
        """Whether the rule can report anything where the gates `opened` are open."""
        gates = self.gates
        return not gates or not opened.isdisjoint(gates)

    def __repr__(self) -> str:
        return f"RuleEntry({self.code} {self.name})"


_R = RuleEntry
_PARSE = "parse"
_REJECTION = ("rejection",)

ENTRIES: tuple[RuleEntry, ...] = (
    _R("DRF001", "eagle3-drafter-needs-eagle3", "Eagle3DrafterNeedsEagle3", gates=("drafter:EAGLE/EAGLE3",)),
    _R("DRF002", "eagle-drafter-with-eagle3", "EagleDrafterWithEagle3", gates=("drafter:EAGLE3/EAGLE",)),
    _R("DRF003", "aux-layer-out-of-range", "AuxLayerOutOfRange", gates=("drafter:EAGLE3/EAGLE3",)),
    _R("DRF004", "aux-layer-ids-ignored", "AuxLayerIdsIgnored", gates=("drafter:EAGLE3/EAGLE3",)),
    _R("DRF005", "aux-layer-count", "AuxLayerCount", gates=("drafter:EAGLE3/EAGLE3",)),
    _R("DRF006", "draft-hidden-size-mismatch", "DraftHiddenSizeMismatch", gates=("drafter:EAGLE3/EAGLE3",)),
    _R("DRF007", "draft-vocab-without-d2t", "DraftVocabWithoutD2t", gates=("drafter:EAGLE3/EAGLE3",)),
    _R("DRF008", "draft-vocab-differs", "DraftVocabDiffers", gates=("drafter",)),
    _R("DRF009", "draft-context-too-short", "DraftContextTooShort", gates=("drafter",)),
    _R("DRF010", "draft-architecture-unknown", "DraftArchitectureUnknown", gates=("drafter",)),
    _R("DRF011", "model-config-not-found", "ModelConfigNotFound", opt_in=True),
    _R("DRF012", "eagle3-name-with-eagle", "Eagle3NameWithEagle", gates=("speculative:EAGLE",)),
    _R("DRF014", "context-length-exceeds-model", "ContextLengthExceedsModel"),
    _R("FLG001", "unknown-flag", "UnknownFlag", stage=_PARSE, gates=("problem:unknown-option",)),
    _R(
        "FLG002",
        "ambiguous-abbreviation",
        "AmbiguousAbbreviation",
        stage=_PARSE,
        gates=("problem:ambiguous-option",),
    ),
    _R("FLG003", "abbreviated-flag", "AbbreviatedFlag", stage=_PARSE, opt_in=True),
    _R("FLG004", "missing-flag-value", "MissingValue", stage=_PARSE, gates=("problem:missing-value",)),
    _R("FLG005", "invalid-flag-value", "InvalidValue", stage=_PARSE, gates=("problem:invalid-type",)),
    _R("FLG006", "invalid-choice", "InvalidChoice", stage=_PARSE, gates=("problem:invalid-choice",)),
    _R("FLG007", "duplicate-flag", "DuplicateFlag", stage=_PARSE, gates=("repeated-flag",)),
    _R(
        "FLG008",
        "deprecated-flag",
        "DeprecatedFlag",
        stage=_PARSE,
        defers_to=("PAR003",),
        gates=("deprecated-flag",),
    ),
    _R(
        "FLG009",
        "flag-not-in-version",
        "FlagNotInVersion",
        stage=_PARSE,
        gates=("problem:unknown-option", "class-entry", "bench-entry"),
    ),
    _R(
        "FLG010",
        "unexpected-argument",
        "UnexpectedArgument",
        stage=_PARSE,
        gates=("problem:unexpected-argument", "problem:ignored-explicit-argument"),
    ),
    _R(
        "FLG011",
        "missing-required-flag",
        "MissingRequired",
        stage=_PARSE,
        gates=("problem:missing-required",),
    ),
    _R("FLG012", "help-flag", "HelpFlag", stage="help", opt_in=True, gates=("help",)),
    _R("FLG013", "router-flag-release", "RouterFlagRelease", stage=_PARSE, gates=("router-option",)),
    _R(
        "FLG014",
        "deprecated-choice",
        "DeprecatedChoice",
        stage=_PARSE,
        gates=(
            "given:attention_backend",
            "given:decode_attention_backend",
            "given:prefill_attention_backend",
            "given:speculative_draft_attention_backend",
            "given:tool_call_parser",
        ),
    ),
    _R(
        "FLG020",
        "config-option-unsupported",
        "ConfigOptionUnsupported",
        stage=_PARSE,
        gates=("config-refusal",),
    ),
    _R("PAR001", "visible-gpu-mismatch", "VisibleGpuMismatch", gates=("visible-devices",)),
    _R("PAR002", "tp-not-divisible-by-attn-dp", "TpNotDivisibleByAttnDp", gates=_REJECTION),
    _R(
        "PAR003",
        "enable-dp-attention-changed",
        "EnableDpAttentionChanged",
        gates=("written:enable_dp_attention",),
    ),
    _R("PAR004", "a2a-backend-sets-ep-size", "A2aBackendSetsEpSize", gates=("adjusted:ep_size",)),
    _R("PAR005", "tp-pp-not-divisible-by-nnodes", "TpPpNotDivisibleByNnodes", gates=("several-nodes",)),
    _R("PAR009", "attention-backend-gpu", "AttentionBackendGpu", gates=_REJECTION),
    _R(
        "SLM001",
        "syntax-error",
        "SyntaxError_",
        hook="check_file",
        gates=(
            "diagnostic:syntax-error",
            "diagnostic:unsupported-input",
            "diagnostic:file-too-large",
            "diagnostic:doc-syntax-error",
            "diagnostic:parser-gap",
            "diagnostic:template-gap",
            "diagnostic:split-not-shell",
            "diagnostic:release-uncertain",
        ),
    ),
    _R(
        "SLM002",
        "broken-continuation",
        "BrokenContinuation",
        hook="check_file",
        gates=("diagnostic:broken-continuation",),
    ),
    _R("SLM003", "unused-suppression", "UnusedSuppression", hook="check_suppressions"),
    _R(
        "SLM004",
        "launch-partly-read",
        "LaunchPartlyRead",
        stage=_PARSE,
        per_launch=True,
        gates=("partly-read",),
    ),
    _R(
        "SLM005", "no-launch-found", "NoLaunchFound", hook="check_file", gates=("diagnostic:no-launch-found",)
    ),
    _R(
        "SLM006",
        "alias-not-expanded",
        "AliasNotExpanded",
        hook="check_file",
        gates=("diagnostic:alias-not-expanded",),
    ),
    _R(
        "SPD001",
        "topk-one-overrides-draft-tokens",
        "TopkOneOverridesDraftTokens",
        gates=("adjusted:speculative_num_draft_tokens",),
    ),
    _R("SPD002", "partial-speculative-params", "PartialSpeculativeParams", gates=_REJECTION),
    _R(
        "SPD003",
        "speculative-caps-running-requests",
        "SpeculativeCapsRunningRequests",
        gates=("adjusted:max_running_requests",),
    ),
    _R("SPD004", "ngram-ignores-topk", "NgramIgnoresTopk", gates=("adjusted:speculative_eagle_topk",)),
    _R("SPD005", "missing-draft-model", "MissingDraftModel"),
    _R("SPD006", "token-map-ignored", "TokenMapIgnored", gates=("given:speculative_token_map",)),
    _R(
        "SPD007",
        "speculative-backend-conflict",
        "SpeculativeBackendConflict",
        defers_to=("SPD014",),
        gates=_REJECTION,
    ),
    _R("SPD008", "unknown-speculative-algorithm", "UnknownSpeculativeAlgorithm", gates=_REJECTION),
    _R(
        "SPD009",
        "sglang-rejects-config",
        "SglangRejectsConfig",
        defers_to=("SPD002", "SPD007", "SPD008", "SPD014", "DRF014", "PAR009", "PAR002", "PAR003", "PAR005"),
        gates=_REJECTION,
    ),
    _R(
        "SPD010",
        "aux-capture-disables-speculation",
        "AuxCaptureDisablesSpeculation",
        gates=("adjusted:speculative_algorithm",),
    ),
    _R("SPD014", "ngram-page-size-backend", "NgramPageSizeBackend", gates=("algorithm:NGRAM",)),
    _R("VER001", "flag-removed", "FlagRemoved", stage=_PARSE, gates=("problem:unknown-option",)),
    _R("VER002", "flag-meaning-changed", "FlagMeaningChanged", stage=_PARSE, gates=("image",)),
)
"""Every rule, sorted by code."""

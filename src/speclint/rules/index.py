"""Every rule as the engine and the rule selection see it before its module is imported: its
code, name and module, the hook it implements, and what a launch (or file) must have for it to
report anything (`Rule.gates`).

Why: importing a rule's module costs ~0.25 M instructions (its code unmarshalled, its class
and examples made, its helpers imported), ~12 M for all of them, while a launch can trigger
only some: a clean launch meets no FLG rule about a parse problem, a launch SGLang accepts no
rule about a refusal. The engine (`speclint.engine`) imports a rule's module the first time
one of its gates is open; `speclint rules`, the docs and SARIF listings still load every rule
(`all_rules`). tests/test_rule_index.py checks each row against its rule's class, and every
gate against every example's findings, so the index cannot drift from the rules.
"""

from __future__ import annotations

from speclint.frontends.recognise import CLASS_ENTRIES
from speclint.sglang.router import ROUTER_DEST_PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Set

    from speclint.rules.base import LaunchContext, Rule


class RuleEntry:
    """One row of the index; `rule` imports its module on first use."""

    __slots__ = (
        "code",
        "name",
        "module",
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
        module: str,
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
        self.module = module
        """Under `speclint.rules`: `flg.unknown_flag`."""
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
    def rule(self) -> Rule:
        """The rule itself (its module imported the first time it is asked for)."""
        found = self._rule
        if found is None:
            import importlib

            module = importlib.import_module(f"speclint.rules.{self.module}")
            found = self._rule = getattr(module, self.class_name)()
        return found

    def runs(self, opened: Set[str]) -> bool:
        """Whether the rule can report anything where the gates `opened` are open."""
        gates = self.gates
        return not gates or not opened.isdisjoint(gates)

    def __repr__(self) -> str:
        return f"RuleEntry({self.code} {self.name})"


def launch_gates(ctx: LaunchContext, drafter: bool = True) -> frozenset[str]:
    """The gates a launch opens (`Rule.gates`): `problem:<kind>` for each problem SGLang's
    parser meets; `given:<field>` for each field a flag gives; `repeated-flag`,
    `deprecated-flag`, `router-option` for a field set twice, a deprecated flag, an option of
    the router; `algorithm:<NAME>` for the algorithm as written; `image` when the launch names
    a container image; `visible-devices` when it says which GPUs it sees (CUDA_VISIBLE_DEVICES,
    a manifest's GPU count); `class-entry` for a launch class (`sglang.Runtime(...)`);
    `config-refusal`; `help`; `rejection` when SGLang refuses the resolved settings;
    `adjusted:<field>` for each field SGLang's resolution changes; `speculative:<NAME>` for
    the algorithm after SGLang's aliasing; with `drafter` (some selected rule asks: it reads
    the drafter's files), `drafter` and `drafter:<algorithm>/<drafter kind>` when the drafter
    rules have a drafter to read (`rules.drafter.draft_launch`)."""
    opened = {"problem:" + problem.kind for problem in ctx.parsed.problems}
    dests: set[str] = set()
    for use in ctx.parsed.uses:
        spec = use.spec
        if spec is None:
            continue
        if spec.dest in dests:
            opened.add("repeated-flag")
        dests.add(spec.dest)
        if spec.deprecated:
            opened.add("deprecated-flag")
        if spec.dest.startswith(ROUTER_DEST_PREFIX):
            opened.add("router-option")
    config = ctx.config
    opened.update("given:" + field for field in config.given_fields())
    algorithm = config.value("speculative_algorithm")
    if isinstance(algorithm, str):
        opened.add("algorithm:" + algorithm.upper())
    launch = ctx.launch
    if launch.image:
        opened.add("image")
    if "CUDA_VISIBLE_DEVICES" in launch.env or launch.gpu_count is not None:
        opened.add("visible-devices")
    if launch.entry in CLASS_ENTRIES:
        opened.add("class-entry")
    if ctx.config_refusal is not None:
        opened.add("config-refusal")
    stop = ctx.parse_stop
    if stop is not None and stop.kind == "help":
        opened.add("help")
    resolution = ctx.resolution
    if resolution is not None:
        if resolution.rejection is not None:
            opened.add("rejection")
        opened.update("adjusted:" + adjustment.field for adjustment in resolution.adjustments)
        effective = ctx.speculative_algorithm
        if effective is not None:
            opened.add("speculative:" + effective)
            if drafter and stop is None:  # (the drafter rules run on launches argparse takes)
                from speclint.rules.drafter import draft_launch

                found = draft_launch(ctx)
                if found is not None:
                    opened.update(("drafter", f"drafter:{found.algorithm}/{found.kind.kind}"))
    return frozenset(opened)


def reads_drafter(gates: tuple[str, ...]) -> bool:
    """Whether a rule's gates ask for the drafter gates of `launch_gates`."""
    return any(gate.startswith("drafter") for gate in gates)


def file_gates(kinds: Set[str]) -> frozenset[str]:
    """The gates a file's diagnostics open (`diagnostic:<kind>`)."""
    return frozenset("diagnostic:" + kind for kind in kinds)


_R = RuleEntry
_PARSE = "parse"
_REJECTION = ("rejection",)
_UNKNOWN = "problem:unknown-option"

ENTRIES: tuple[RuleEntry, ...] = (
    _R(
        "DRF001",
        "eagle3-drafter-needs-eagle3",
        "drf.eagle3_drafter_needs_eagle3",
        "Eagle3DrafterNeedsEagle3",
        gates=("drafter:EAGLE/EAGLE3",),
    ),
    _R(
        "DRF002",
        "eagle-drafter-with-eagle3",
        "drf.eagle_drafter_with_eagle3",
        "EagleDrafterWithEagle3",
        gates=("drafter:EAGLE3/EAGLE",),
    ),
    _R(
        "DRF003",
        "aux-layer-out-of-range",
        "drf.aux_layer_out_of_range",
        "AuxLayerOutOfRange",
        gates=("drafter:EAGLE3/EAGLE3",),
    ),
    _R(
        "DRF004",
        "aux-layer-ids-ignored",
        "drf.aux_layer_ids_ignored",
        "AuxLayerIdsIgnored",
        gates=("drafter:EAGLE3/EAGLE3",),
    ),
    _R("DRF005", "aux-layer-count", "drf.aux_layer_count", "AuxLayerCount", gates=("drafter:EAGLE3/EAGLE3",)),
    _R(
        "DRF006",
        "draft-hidden-size-mismatch",
        "drf.draft_hidden_size_mismatch",
        "DraftHiddenSizeMismatch",
        gates=("drafter:EAGLE3/EAGLE3",),
    ),
    _R(
        "DRF007",
        "draft-vocab-without-d2t",
        "drf.draft_vocab_without_d2t",
        "DraftVocabWithoutD2t",
        gates=("drafter:EAGLE3/EAGLE3",),
    ),
    _R("DRF008", "draft-vocab-differs", "drf.draft_vocab_differs", "DraftVocabDiffers", gates=("drafter",)),
    _R(
        "DRF009",
        "draft-context-too-short",
        "drf.draft_context_too_short",
        "DraftContextTooShort",
        gates=("drafter",),
    ),
    _R(
        "DRF010",
        "draft-architecture-unknown",
        "drf.draft_architecture_unknown",
        "DraftArchitectureUnknown",
        gates=("drafter",),
    ),
    _R("DRF011", "model-config-not-found", "drf.model_config_not_found", "ModelConfigNotFound", opt_in=True),
    _R(
        "DRF012",
        "eagle3-name-with-eagle",
        "drf.eagle3_name_with_eagle",
        "Eagle3NameWithEagle",
        gates=("speculative:EAGLE",),
    ),
    _R(
        "DRF014",
        "context-length-exceeds-model",
        "drf.context_length_exceeds_model",
        "ContextLengthExceedsModel",
    ),
    _R("FLG001", "unknown-flag", "flg.unknown_flag", "UnknownFlag", stage=_PARSE, gates=(_UNKNOWN,)),
    _R(
        "FLG002",
        "ambiguous-abbreviation",
        "flg.ambiguous_abbreviation",
        "AmbiguousAbbreviation",
        stage=_PARSE,
        gates=("problem:ambiguous-option",),
    ),
    _R("FLG003", "abbreviated-flag", "flg.abbreviated_flag", "AbbreviatedFlag", stage=_PARSE, opt_in=True),
    _R(
        "FLG004",
        "missing-flag-value",
        "flg.missing_flag_value",
        "MissingValue",
        stage=_PARSE,
        gates=("problem:missing-value",),
    ),
    _R(
        "FLG005",
        "invalid-flag-value",
        "flg.invalid_flag_value",
        "InvalidValue",
        stage=_PARSE,
        gates=("problem:invalid-type",),
    ),
    _R(
        "FLG006",
        "invalid-choice",
        "flg.invalid_choice",
        "InvalidChoice",
        stage=_PARSE,
        gates=("problem:invalid-choice",),
    ),
    _R(
        "FLG007",
        "duplicate-flag",
        "flg.duplicate_flag",
        "DuplicateFlag",
        stage=_PARSE,
        gates=("repeated-flag",),
    ),
    _R(
        "FLG008",
        "deprecated-flag",
        "flg.deprecated_flag",
        "DeprecatedFlag",
        stage=_PARSE,
        defers_to=("PAR003",),
        gates=("deprecated-flag",),
    ),
    _R(
        "FLG009",
        "flag-not-in-version",
        "flg.flag_not_in_version",
        "FlagNotInVersion",
        stage=_PARSE,
        gates=(_UNKNOWN, "class-entry"),
    ),
    _R(
        "FLG010",
        "unexpected-argument",
        "flg.unexpected_argument",
        "UnexpectedArgument",
        stage=_PARSE,
        gates=("problem:unexpected-argument", "problem:ignored-explicit-argument"),
    ),
    _R(
        "FLG011",
        "missing-required-flag",
        "flg.missing_required_flag",
        "MissingRequired",
        stage=_PARSE,
        gates=("problem:missing-required",),
    ),
    _R("FLG012", "help-flag", "flg.help_flag", "HelpFlag", stage="help", opt_in=True, gates=("help",)),
    _R(
        "FLG013",
        "router-flag-release",
        "flg.router_flag_release",
        "RouterFlagRelease",
        stage=_PARSE,
        gates=("router-option",),
    ),
    _R(
        "FLG020",
        "config-option-unsupported",
        "flg.config_option_unsupported",
        "ConfigOptionUnsupported",
        stage=_PARSE,
        gates=("config-refusal",),
    ),
    _R(
        "PAR001",
        "visible-gpu-mismatch",
        "par.visible_gpu_mismatch",
        "VisibleGpuMismatch",
        gates=("visible-devices",),
    ),
    _R(
        "PAR002",
        "tp-not-divisible-by-attn-dp",
        "par.tp_not_divisible_by_attn_dp",
        "TpNotDivisibleByAttnDp",
        gates=_REJECTION,
    ),
    _R(
        "PAR003", "enable-dp-attention-changed", "par.enable_dp_attention_changed", "EnableDpAttentionChanged"
    ),
    _R(
        "PAR004",
        "a2a-backend-sets-ep-size",
        "par.a2a_backend_sets_ep_size",
        "A2aBackendSetsEpSize",
        gates=("adjusted:ep_size",),
    ),
    _R(
        "PAR005",
        "tp-pp-not-divisible-by-nnodes",
        "par.tp_pp_not_divisible_by_nnodes",
        "TpPpNotDivisibleByNnodes",
    ),
    _R(
        "PAR009",
        "attention-backend-gpu",
        "par.attention_backend_gpu",
        "AttentionBackendGpu",
        gates=_REJECTION,
    ),
    _R(
        "SLM001",
        "syntax-error",
        "slm.syntax_error",
        "SyntaxError_",
        hook="check_file",
        gates=(
            "diagnostic:syntax-error",
            "diagnostic:unsupported-input",
            "diagnostic:file-too-large",
            "diagnostic:doc-syntax-error",
        ),
    ),
    _R(
        "SLM002",
        "broken-continuation",
        "slm.broken_continuation",
        "BrokenContinuation",
        hook="check_file",
        gates=("diagnostic:broken-continuation",),
    ),
    _R(
        "SLM003",
        "unused-suppression",
        "slm.unused_suppression",
        "UnusedSuppression",
        hook="check_suppressions",
    ),
    _R(
        "SLM004",
        "launch-partly-read",
        "slm.launch_partly_read",
        "LaunchPartlyRead",
        stage=_PARSE,
        per_launch=True,
    ),
    _R(
        "SLM005",
        "no-launch-found",
        "slm.no_launch_found",
        "NoLaunchFound",
        hook="check_file",
        gates=("diagnostic:no-launch-found",),
    ),
    _R(
        "SPD001",
        "topk-one-overrides-draft-tokens",
        "spd.topk_one_overrides_draft_tokens",
        "TopkOneOverridesDraftTokens",
        gates=("adjusted:speculative_num_draft_tokens",),
    ),
    _R(
        "SPD002",
        "partial-speculative-params",
        "spd.partial_speculative_params",
        "PartialSpeculativeParams",
        gates=_REJECTION,
    ),
    _R(
        "SPD003",
        "speculative-caps-running-requests",
        "spd.speculative_caps_running_requests",
        "SpeculativeCapsRunningRequests",
        gates=("adjusted:max_running_requests",),
    ),
    _R(
        "SPD004",
        "ngram-ignores-topk",
        "spd.ngram_ignores_topk",
        "NgramIgnoresTopk",
        gates=("adjusted:speculative_eagle_topk",),
    ),
    _R("SPD005", "missing-draft-model", "spd.missing_draft_model", "MissingDraftModel"),
    _R(
        "SPD006",
        "token-map-ignored",
        "spd.token_map_ignored",
        "TokenMapIgnored",
        gates=("given:speculative_token_map",),
    ),
    _R(
        "SPD007",
        "speculative-backend-conflict",
        "spd.speculative_backend_conflict",
        "SpeculativeBackendConflict",
        defers_to=("SPD014",),
        gates=_REJECTION,
    ),
    _R(
        "SPD008",
        "unknown-speculative-algorithm",
        "spd.unknown_speculative_algorithm",
        "UnknownSpeculativeAlgorithm",
        gates=_REJECTION,
    ),
    _R(
        "SPD009",
        "sglang-rejects-config",
        "spd.sglang_rejects_config",
        "SglangRejectsConfig",
        defers_to=("SPD002", "SPD007", "SPD008", "SPD014", "DRF014", "PAR009", "PAR002", "PAR003", "PAR005"),
        gates=_REJECTION,
    ),
    _R(
        "SPD010",
        "aux-capture-disables-speculation",
        "spd.aux_capture_disables_speculation",
        "AuxCaptureDisablesSpeculation",
        gates=("adjusted:speculative_algorithm",),
    ),
    _R(
        "SPD014",
        "ngram-page-size-backend",
        "spd.ngram_page_size_backend",
        "NgramPageSizeBackend",
        gates=("algorithm:NGRAM",),
    ),
    _R("VER001", "flag-removed", "ver.flag_removed", "FlagRemoved", stage=_PARSE, gates=(_UNKNOWN,)),
    _R(
        "VER002",
        "flag-meaning-changed",
        "ver.flag_meaning_changed",
        "FlagMeaningChanged",
        stage=_PARSE,
        gates=("image",),
    ),
)
"""Every rule, sorted by code."""

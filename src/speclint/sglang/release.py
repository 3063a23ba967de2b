"""One SGLang release and everything speclint knows about it.

Rules, the resolver and `explain` ask a `Release` (`speclint.sglang.release("0.5.10")`)
instead of comparing version strings. Each fact says where it comes from:

- flags (schema, history, defaults): read from the release's `add_cli_args`
  (tools/gen_sglang_schema.py), for every bundled release;
- the model registry and drafter facts: read from the release's `sglang/srt/models/**`
  and `speculative/spec_info.py` (tools/gen_sglang_facts.py), for every bundled release;
- resolution traits (speclint.sglang.traits): read by hand for a few releases; any other
  release follows the closest older one (`resolution_follows`, `resolution_exact`).

`verified(fact)` says whether a fact was read or recorded for this very release; a finding
that rests on one that was not says "unverified for SGLang X" and is at most a warning.
"""

from __future__ import annotations

from functools import cached_property

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from speclint.sglang.flags.schema import FlagSchema, FlagSpec
    from speclint.sglang.registry import ModelFacts
    from speclint.sglang.release_traits import ReleaseTraits

FLAGS = "flags"
"""The flag schema, history and defaults."""
MODELS = "model registry"
"""Registered architectures."""
DRAFTER = "drafter facts"
"""Aux-layer conventions, capture hooks, speculative algorithm names."""
RESOLUTION = "resolution"
"""How `ServerArgs` resolves and refuses settings (speclint.sglang.traits)."""
FACTS = (FLAGS, MODELS, DRAFTER, RESOLUTION)


class Release:
    """What speclint knows about one SGLang release (built once per release, see `release()`)."""

    def __init__(self, version: str):
        self.version = version

    def __repr__(self) -> str:
        return f"Release({self.version!r})"

    # --- order -----------------------------------------------------------------------------
    @cached_property
    def key(self) -> tuple[int, int, int, int]:
        """Sort key: 0.5.6 < 0.5.6.post2 < 0.5.7."""
        from speclint.sglang.flags.versions import version_key

        return version_key(self.version)

    def __lt__(self, other: Release) -> bool:
        return self.key < other.key

    # --- flags -----------------------------------------------------------------------------
    @cached_property
    def bundled(self) -> bool:
        from speclint.sglang.flags.schema import supported_versions

        return self.version in supported_versions()

    @property
    def schema(self) -> FlagSchema:
        """`speclint.sglang.flags.schema.FlagSchema`: the release's argparse flags."""
        from speclint.sglang.flags.schema import load_schema

        return load_schema(self.version)

    def flag(self, option: str) -> FlagSpec | None:
        """The FlagSpec of `--option` in this release, or None."""
        return self.schema.by_option.get(option) if self.bundled else None

    def has_flag(self, option: str) -> bool:
        return self.flag(option) is not None

    def default(self, dest: str) -> object:
        """argparse's default for `dest` (None when the release has no such setting)."""
        spec = self.schema.by_dest.get(dest) if self.bundled else None
        return spec.default if spec is not None else None

    def choices(self, option: str) -> tuple[object, ...] | None:
        spec = self.flag(option)
        return spec.choices if spec is not None else None

    @cached_property
    def parser_facts(self) -> dict[str, Any]:
        """What tools/gen_sglang_schema.py read about the release's parser and entry points
        (`prepare_server_args`, `sglang/cli/serve.py`): allow_abbrev, prog, notes."""
        from speclint.sglang.flags.schema import parser_facts

        return parser_facts(self.version)

    def _serve_note(self) -> str:
        note: str = self.parser_facts.get("notes", {}).get("sglang_serve", "")
        return note

    @property
    def merges_config_file(self) -> bool:
        """`--config FILE.yaml` merges the file's keys as flags (`prepare_server_args`)."""
        return "config_file" in self.parser_facts.get("notes", {})

    @property
    def serve_drops_model_type(self) -> bool:
        """`sglang serve` removes `--model-type X` from argv before parsing."""
        return "'--model-type X'" in self._serve_note()

    @property
    def serve_positional_model_path(self) -> bool:
        """`sglang serve MODEL` rewrites a first non-flag word to `--model-path MODEL`."""
        return "(a positional model path)" in self._serve_note()

    @property
    def history(self) -> ModuleType:
        """`speclint.sglang.flags.history`: renames, removals and value changes up to this
        release."""
        from speclint.sglang.flags import history

        return history

    # --- resolution ------------------------------------------------------------------------
    @cached_property
    def resolution_follows(self) -> str:
        """The release whose resolution traits stand for this one (itself when read)."""
        from speclint.sglang.traits import modelled_release

        return modelled_release(self.version)

    @cached_property
    def resolution_exact(self) -> bool:
        """True when this release's own resolution was read; False when borrowed."""
        return self.resolution_follows == self.version

    @cached_property
    def traits(self) -> ReleaseTraits:
        """`speclint.sglang.release_traits.ReleaseTraits` the resolver applies to this release
        (`TRAITS` is complete once its module is imported; asked a few times a launch)."""
        from speclint.sglang.traits import TRAITS

        return TRAITS[self.resolution_follows]

    @cached_property
    def own_traits(self) -> ReleaseTraits | None:
        """The traits read for this very release, None when they are borrowed."""
        return self.traits if self.resolution_exact else None

    # --- models and drafters ---------------------------------------------------------------
    @cached_property
    def models(self) -> ModelFacts | None:
        """`speclint.sglang.registry.ModelFacts` read from this release's wheel, or None."""
        from speclint.sglang.registry import model_facts

        return model_facts(self.version)

    def registers(self, architecture: str) -> bool | None:
        """Whether the release registers `architecture`; None when its registry was not read."""
        return None if self.models is None else architecture in self.models.architectures

    @property
    def eagle3_draft_classes(self) -> tuple[str, ...]:
        """Registered classes named as EAGLE-3 draft heads (`...Eagle3...`)."""
        if self.models is None:
            return ()
        return tuple(sorted(n for n in self.models.architectures if "Eagle3" in n))

    def capture_family(self, architecture: str | None) -> str | None:
        """How this release's target class turns eagle_config ids into captured layers, or
        None when it has no `set_eagle3_layers_to_capture` (or the wheel was not read)."""
        if self.models is None or architecture is None:
            return None
        for family, names in self.models.capture.items():
            if architecture in names:
                return family
        return None

    def indexes_layers(self, architecture: str | None) -> bool:
        return self.models is not None and architecture in self.models.indexes_layers

    @property
    def speculative_algorithms(self) -> tuple[str, ...]:
        """The algorithm names `SpeculativeAlgorithm` defines in this release."""
        return self.models.speculative_algorithms if self.models is not None else ()

    @property
    def eagle3_aux_count_from_config(self) -> bool | None:
        """llama_eagle3.py sizes fc from num_aux_hidden_states (True) or for exactly 3 (False)."""
        return self.models.eagle3_aux_count_from_config if self.models is not None else None

    @property
    def eagle3_ignores_token_map(self) -> bool | None:
        """EAGLE3 ignores --speculative-token-map (logging it) in this release."""
        return self.models.eagle3_ignores_token_map if self.models is not None else None

    @property
    def context_override_default(self) -> bool | None:
        """Whether SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is on when unset."""
        return self.models.context_override_default if self.models is not None else None

    # --- provenance ------------------------------------------------------------------------
    def verified(self, fact: str) -> bool:
        """Whether `fact` (one of FACTS) was read or recorded for this very release."""
        if fact == FLAGS:
            return self.bundled
        if fact in (MODELS, DRAFTER):
            return self.models is not None
        if fact == RESOLUTION:
            return self.resolution_exact
        raise ValueError(f"unknown fact {fact!r}; one of {FACTS}")

    def unverified(self, fact: str) -> str:
        """'' when `fact` was read for this release, else the words a finding adds."""
        if self.verified(fact):
            return ""
        if fact == RESOLUTION:
            return (
                f"unverified for SGLang {self.version}: its {fact} was not read, speclint "
                f"follows SGLang {self.resolution_follows}"
            )
        return f"unverified for SGLang {self.version}: its {fact} was not read"

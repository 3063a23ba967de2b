"""What a rule is given: the launch with everything read and resolved for it (`LaunchContext`),
or the file (`FileContext`), with the release chosen (`VersionChoice`) and the models named
(`ModelRef`). Rules take these from `rules.base`, which names them too."""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass
from speclint.core.version_choice import VersionChoice as VersionChoice

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from speclint.core.config_files import ConfigEntry
    from speclint.core.launches import Diagnostic, Launch
    from speclint.core.notes import Note
    from speclint.core.spans import Span
    from speclint.core.suppressions import Suppression
    from speclint.core.words import Word
    from speclint.sglang.checkpoints.locate import Located
    from speclint.sglang.checkpoints.model_config import ModelConfig
    from speclint.sglang.flags.argparse_stop import ArgparseStop
    from speclint.sglang.flags.argv import ParsedArgs
    from speclint.sglang.flags.launch_config import LaunchConfig, Setting
    from speclint.sglang.release import Release
    from speclint.sglang.resolve.gpu_profiles import GpuProfile
    from speclint.sglang.resolve.result import Resolution

    class NamedRule(Protocol):
        """A rule by its code and name: a `Rule`, or its `rules.index` entry."""

        @property
        def code(self) -> str: ...

        @property
        def name(self) -> str: ...


@dataclass(slots=True)
class ModelRef:
    """A model the launch names (target or draft), and its config.json when found on disk."""

    reference: str | None
    located: Located | None = None
    """Where the model was looked for, or None when the launch names no model."""
    config: ModelConfig | None = None
    """The model's config.json, or None when not found or unreadable."""
    problem: str | None = None
    """Why the config could not be read (found but broken)."""
    diffusers_index: str | None = None
    """For `sglang serve` without a config.json on disk: the diffusers pipeline index
    (`model_index.json`) that makes the release run its diffusion server."""

    @property
    def architecture(self) -> str | None:
        return self.config.architecture if self.config is not None else None


@dataclass(slots=True)
class LaunchContext:
    """Everything a launch rule may read."""

    path: str
    launch: Launch
    parsed: ParsedArgs
    config: LaunchConfig
    version: VersionChoice
    resolution: Resolution | None = None
    """What SGLang will really run with."""
    target: ModelRef | None = None
    draft: ModelRef | None = None
    config_refusal: tuple[ConfigEntry, str] | None = None
    """(entry, message) for the first `--config` file key SGLang's merger refuses."""
    gpu: GpuProfile | None = None
    """The GPU the launch was resolved for (None: not given)."""
    memo: dict[str, Any] = field(default_factory=dict)
    """What shared rule helpers work out once per launch for the rules that ask
    (`rules.drafter.draft_launch`): the context is complete when rules run."""

    @property
    def counted(self) -> bool:
        """Whether the summary counts this launch (alternatives of one launch count once)."""
        alternative = self.launch.alternative
        return alternative is None or alternative.index == 0

    @property
    def parse_stop(self) -> ArgparseStop | None:
        """Where SGLang's argparse stops this launch (`flags.argparse_stop`), worked out
        once: the rule selection, the summary and the drafter checks all ask."""
        memo = self.memo
        if "parse_stop" not in memo:
            import speclint.sglang.flags.argparse_stop as stops  # (a module: `from M import name` here costs a failed lookup each call)

            memo["parse_stop"] = stops.argparse_stop(self.parsed)
        found: ArgparseStop | None = memo["parse_stop"]
        return found

    @property
    def partly_read(self) -> bool:
        """Some words are unknown, or the launch was not read at all (`memo["unread"]`: a
        server speclint does not model, `rules.diffusion_launch`)."""
        launch = self.launch
        return launch.partly_read or "unread" in self.memo or bool(self.config.made_unread)

    def unknown_words(self) -> list[Word]:
        """`Launch.unknown_words`, and the words the flag model made that may hold any flags
        (`LaunchConfig.made_unread`: Dynamo's own settings, a --config file not read), at their
        places in order."""
        found = self.launch.unknown_words()
        made = self.config.made_unread
        if not made:
            return found
        return sorted((*found, *made), key=lambda w: (w.span.line, w.span.column))

    @property
    def resolved(self) -> Resolution:
        """`resolution` for the rules, which run after `analyse_launch` resolved the launch."""
        assert self.resolution is not None
        return self.resolution

    @property
    def release(self) -> Release:
        """What speclint knows about the checked SGLang release."""
        found: Release | None = self.memo.get("release")
        if found is None or found.version != self.version.version:
            import speclint.sglang as sglang  # (a package: `from` it runs importlib's fromlist code)

            found = self.memo["release"] = sglang.release(self.version.version)
        return found

    def env_value(self, name: str) -> str | None:
        """The launch's environment variable, or None when unset or not readable."""
        word = self.launch.env.get(name)
        return word.text if word is not None else None

    # How a rule names and points at a field, in the launch's own syntax: `--tp-size 8` on a
    # command line, `tp_size=8` in a keyword launch (`sgl.Engine(tp_size=8)`). A field is a
    # ServerArgs field; on a command line it is read from whatever dest the release parses
    # it into (`tensor_parallel_size` in 0.5.6.post2 for `tp_size`).

    def setting(self, field: str) -> Setting | None:
        """The field's setting (given or default), or None when the release has no such field."""
        config = self.config
        if config.knows(field):  # `cli_dest`'s first answer, without its import (~1 µs a call)
            return config.get(field)
        from speclint.sglang.resolve.parallel import cli_dest

        dest = cli_dest(config, field)
        return config.get(dest) if dest is not None else None

    def given(self, field: str) -> bool:
        """The launch sets the field (on its command line, in a `--config` file, as a keyword)."""
        found = self.setting(field)
        return found is not None and found.given

    def known(self, field: str) -> bool:
        """Statically known: given literally, or left at its default with nothing unreadable."""
        config = self.config
        if config.knows(field):  # as in `setting`
            return config.known(field)
        from speclint.sglang.resolve.parallel import cli_dest

        dest = cli_dest(config, field)
        return dest is not None and config.known(dest)

    def option(self, field: str) -> str:
        """The field's option as this launch would write it: `--tp-size` (SGLang's documented
        flag), or `tp_size=` in a keyword launch."""
        if self.launch.kwargs_style:
            return f"{field}="
        spec = self.config.schema.by_dest.get(field)
        return spec.canonical if spec is not None else "--" + field.replace("_", "-")

    def set_to(self, field: str, value: object) -> str:
        """How this launch would set the field to `value`: `--tp-size 8`, or `tp_size=8`
        (`True` turns a switch on: `--enable-dp-attention`, `enable_dp_attention=True`)."""
        if self.launch.kwargs_style:
            return f"{field}={value!r}"
        if value is True:
            return self.option(field)
        return f"{self.option(field)} {value}"

    def join(self, *settings: str) -> str:
        """Several settings as the launch would write them together: `--dp-size 4
        --enable-dp-attention`, or `dp_size=4, enable_dp_attention=True`."""
        return (", " if self.launch.kwargs_style else " ").join(settings)

    def written(self, field: str, default: object = None) -> str:
        """The field as the launch wrote it (`--tp-size 8`, `tp_size=8`, with the user's own
        spelling of the flag); when not given, `set_to(field, default)`, or the option alone
        when no default is passed."""
        found = self.setting(field)
        use = found.use if found is not None else None
        if use is None:
            return self.set_to(field, default) if default is not None else self.option(field)
        values = " ".join(w.text or "?" for w in use.value_words)
        if self.launch.kwargs_style:
            return f"{use.written}={values}"
        return f"{use.written} {values}".strip()

    def span_of(self, field: str) -> Span:
        """Where a finding about the field points: the value that set it (else its flag), or
        the whole launch when the field is not given."""
        found = self.setting(field)
        where = found.span if found is not None else None
        return where if where is not None else self.launch.span

    def note(self, field: str, message: str) -> list[Note]:
        """A note at the field's value saying `message`, or none when the field is not given."""
        found = self.setting(field)
        where = found.span if found is not None else None
        if where is None:
            return []
        import speclint.core.notes as notes  # (a module: `from M import name` here costs a failed lookup each call)

        return [notes.Note(where, message)]

    def picked_backend(self) -> str:
        """' (no --attention-backend: SGLang X picks B on GPU)' when the launch gives no
        backend and SGLang's resolution picked one (a refusal may rest on it), else ''."""
        resolution = self.resolution
        chosen = resolution.adjustment("attention_backend") if resolution else None
        if chosen is None or not isinstance(chosen.effective, str) or self.given("attention_backend"):
            return ""
        gpu = self.gpu.name if self.gpu is not None else None
        return f" (no --attention-backend: SGLang {self.version.version} picks {chosen.effective}" + (
            f" on {gpu})" if gpu else ")"
        )

    @property
    def speculative_algorithm(self) -> str | None:
        """The algorithm after SGLang's aliasing (NEXTN → EAGLE), or None."""
        resolution = self.resolution
        value = resolution.effective.get("speculative_algorithm") if resolution else None
        return value if isinstance(value, str) else None


@dataclass(slots=True)
class FileContext:
    """Everything a file-level rule may read: what the front-end met."""

    path: str
    diagnostics: list[Diagnostic]
    suppressions: list[Suppression] = field(default_factory=list)
    """The file's suppression comments, after they were applied."""
    enabled_rules: list[NamedRule] = field(default_factory=list)
    """The rules this run selected (their code and name: their modules may not be imported)."""

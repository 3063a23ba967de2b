"""What a rule is, what it reports, and what it is given.

A rule reads the flag model (and later the resolver's and model configs' results) and
yields findings. It never parses text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Iterable, Iterator

from speclint.core.config_files import ConfigEntry
from speclint.core.findings import Edit, Finding, Note, Severity
from speclint.core.launches import Diagnostic, Launch
from speclint.core.spans import Span
from speclint.flags.argv import ParsedArgs
from speclint.flags.config import LaunchConfig

if TYPE_CHECKING:
    from speclint.models.config import ModelConfig
    from speclint.models.locate import Located
    from speclint.resolve.gpu_profiles import GpuProfile
    from speclint.resolve.result import Resolution
    from speclint.sglang.release import Release

__all__ = ["Edit", "Example", "FileContext", "Finding", "LaunchContext", "ModelRef", "Note", "Rule",
           "Severity", "VersionChoice", "literal_word", "word_notes"]
"""Finding, Severity, Note and Edit live in `speclint.core.findings`; rule modules still import
them from here until they move into their family folders."""


@dataclass(frozen=True, slots=True)
class Example:
    """A launch snippet a rule's tests run: `invalid` ones must trigger it, `valid` ones must not."""

    source: str
    sglang_version: str | None = None
    kind: str = "shell"
    gpu: str | None = None
    """The GPU profile the example runs on (`--gpu`), for rules about the GPU."""


@dataclass(slots=True)
class VersionChoice:
    version: str
    reason: str
    """Why this version: 'from --sglang-version', 'from the image lmsysorg/sglang:v0.5.6.post2 (line 3)', ..."""


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

    @property
    def counted(self) -> bool:
        """Whether the summary counts this launch (alternatives of one launch count once)."""
        alternative = self.launch.alternative
        return alternative is None or alternative.index == 0

    @property
    def partly_read(self) -> bool:
        return self.launch.partly_read

    @property
    def release(self) -> Release:
        """What speclint knows about the checked SGLang release."""
        from speclint.sglang import release

        return release(self.version.version)

    def env_value(self, name: str) -> str | None:
        """The launch's environment variable, or None when unset or not readable."""
        word = self.launch.env.get(name)
        return word.text if word is not None else None


@dataclass(slots=True)
class FileContext:
    """Everything a file-level rule may read: what the front-end met."""

    path: str
    diagnostics: list[Diagnostic]
    suppressions: list = field(default_factory=list)
    """`speclint.suppress.Suppression`s of the file, after they were applied."""
    enabled_rules: list = field(default_factory=list)


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    summary: ClassVar[str]
    """One line: what the rule finds (SARIF short description, `speclint rules`)."""
    valid: ClassVar[tuple[Example | str, ...]] = ()
    invalid: ClassVar[tuple[Example | str, ...]] = ()
    per_launch: ClassVar[bool] = False
    """At most one finding per launch, even when it comes in alternatives (`alternatives`):
    the findings of the alternatives become one, with their notes."""
    defers_to: ClassVar[tuple[str, ...]] = ()
    """Codes of more specific rules: on the same launch, a finding of this rule is dropped
    when one of theirs is on the same token or makes the same claim (see `precedence`)."""
    opt_in: ClassVar[bool] = False
    """Not in the default rule set (`check` runs it only when selected): an info finding that
    would appear on nearly every launch."""
    stage: ClassVar[str] = "resolve"
    """'parse': the rule reports what SGLang's argument parser does with the words (it stays
    when argparse stops the launch); 'resolve': what would happen after parsing (dropped for
    a launch argparse stops: `flags.argv.argparse_stop`)."""

    rests_on: ClassVar[tuple[str, ...]] = ()
    """Release facts (`speclint.sglang.FACTS`) the rule's findings rest on: where one was
    neither read nor recorded for the checked release, an error becomes a warning that says
    "unverified for SGLang X" (`findings`)."""

    def check(self, ctx: LaunchContext) -> Iterable[Finding]:
        return ()

    def findings(self, ctx: LaunchContext) -> Iterator[Finding]:
        """`check`, with errors that rest on an unverified release fact capped at warning."""
        missing = [fact for fact in self.rests_on if not ctx.release.verified(fact)]
        for finding in self.check(ctx):
            if missing and finding.severity > Severity.WARNING:
                finding.severity = Severity.WARNING
                finding.message += "; " + "; ".join(ctx.release.unverified(f) for f in missing)
            yield finding

    def check_file(self, ctx: FileContext) -> Iterable[Finding]:
        return ()

    def check_suppressions(self, ctx: FileContext) -> Iterable[Finding]:
        """Runs after suppression comments were applied (for unused-suppression)."""
        return ()

    def report(self, path: str, span: Span, message: str, fix_hint: str = "",
               notes: Iterable[Note] = (), severity: Severity | None = None,
               fix: "Edit | tuple[Edit, ...] | None" = None,
               claims: tuple[str, ...] = ()) -> Finding:
        return Finding(self.code, self.name, severity if severity is not None else self.severity,
                       path, span, message, fix_hint, list(notes), fix=fix, claims=claims)

    @property
    def url(self) -> str:
        """Where this rule's page is read on the web (`speclint.docs_url`)."""
        from speclint.report.urls import rule_url

        return rule_url(self.code, self.name)

    @classmethod
    def examples(cls, which: str) -> Iterator[Example]:
        for example in getattr(cls, which):
            yield example if isinstance(example, Example) else Example(example)


def literal_word(word) -> bool:
    """The word's text is written literally at its span (not assembled from a variable), so
    an edit at the span changes exactly this word."""
    return word is not None and not word.dynamic and word.origin is None


def word_notes(word) -> list[Note]:
    """Notes that lead from a word to where its text was written, when it came from a variable."""
    notes = []
    if word.origin is not None:
        notes.append(Note(word.origin, "value assigned here"))
    expanded_at = getattr(word, "expanded_at", None)
    if expanded_at is not None:
        notes.append(Note(expanded_at, "array expanded into the command here"))
    return notes

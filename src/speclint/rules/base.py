"""What a rule is and what it reports (`Rule`, `Example`); what it is given is `rules.context`
(`LaunchContext`, `FileContext`...), named here too.

A rule reads the flag model (and later the resolver's and model configs' results) and
yields findings. It never parses text.
"""

from __future__ import annotations

from speclint.core.findings import Finding, Severity
from speclint.core.records import dataclass
from speclint.core.words import Word
from speclint.rules.context import FileContext as FileContext
from speclint.rules.context import LaunchContext as LaunchContext
from speclint.rules.context import ModelRef as ModelRef
from speclint.rules.context import VersionChoice as VersionChoice

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import ClassVar, TypeGuard

    from speclint.core.findings import Edit
    from speclint.core.notes import Note
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.rules.context import NamedRule as NamedRule
    from speclint.sglang.release import Release


NO_FIX = "no fix"
"""`Example.fixed` of a finding that carries no edit."""


@dataclass(frozen=True, slots=True)
class Example:
    """A launch snippet a rule's tests run: `invalid` ones must trigger it, `valid` ones must not.

    An invalid example also states what the user sees (tests/test_rule_examples.py checks it):
    where the finding points, a fragment of its message, and the launch after its fix."""

    source: str
    sglang_version: str | None = None
    kind: str = "shell"
    gpu: str | None = None
    """The GPU profile the example runs on (`--gpu`), for rules about the GPU."""
    at: str | None = None
    """`line:column` of the rule's finding (as `check` prints it)."""
    says: str | None = None
    """A fragment of that finding's message."""
    fixed: str | None = None
    """The source after applying the finding's edits (safe or not), or `NO_FIX`."""


_MISSING_FACTS: dict[tuple[type[Rule], Release], tuple[str, ...]] = {}
"""(rule class, release) -> the facts the rule rests on that the release did not verify."""


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
    a launch argparse stops: `flags.argparse_stop`)."""

    gates: ClassVar[tuple[str, ...]] = ()
    """What a launch (or, for a file rule, its diagnostics) must have for the rule to report
    anything: the engine runs it only where one of these is open (`rules.gates.launch_gates`,
    `file_gates`), and imports its module only then. Empty: the rule runs on every launch."""

    rests_on: ClassVar[tuple[str, ...]] = ()
    """Release facts (`speclint.sglang.FACTS`) the rule's findings rest on: where one was
    neither read nor recorded for the checked release, an error becomes a warning that says
    "unverified for SGLang X" (`findings`)."""

    def check(self, ctx: LaunchContext) -> Iterable[Finding]:
        return ()

    def findings(self, ctx: LaunchContext, missing: tuple[str, ...] | None = None) -> Iterable[Finding]:
        """`check`, with errors that rest on an unverified release fact capped at warning
        (`missing`: those facts, `unverified(ctx)`, when the caller has them)."""
        if missing is None:
            missing = self.unverified(ctx)
        return self._capped(ctx, missing) if missing else self.check(ctx)

    def unverified(self, ctx: LaunchContext) -> tuple[str, ...]:
        """The facts of `rests_on` the checked release neither read nor recorded (the same
        for every launch of a release)."""
        if not self.rests_on:
            return ()
        checked = ctx.release
        key = (type(self), checked)
        missing = _MISSING_FACTS.get(key)
        if missing is None:
            missing = _MISSING_FACTS[key] = tuple(f for f in self.rests_on if not checked.verified(f))
        return missing

    def _capped(self, ctx: LaunchContext, missing: tuple[str, ...]) -> Iterator[Finding]:
        for finding in self.check(ctx):
            if finding.severity > Severity.WARNING:
                finding.severity = Severity.WARNING
                finding.message += "; " + "; ".join(ctx.release.unverified(f) for f in missing)
            yield finding

    def check_file(self, ctx: FileContext) -> Iterable[Finding]:
        return ()

    def check_suppressions(self, ctx: FileContext) -> Iterable[Finding]:
        """Runs after suppression comments were applied (for unused-suppression)."""
        return ()

    def report(
        self,
        path: str,
        span: Span,
        message: str,
        fix_hint: str = "",
        notes: Iterable[Note] = (),
        severity: Severity | None = None,
        fix: Edit | tuple[Edit, ...] | None = None,
        claims: tuple[str, ...] = (),
    ) -> Finding:
        return Finding(
            self.code,
            self.name,
            severity if severity is not None else self.severity,
            path,
            span,
            message,
            fix_hint,
            list(notes),
            fix=fix,
            claims=claims,
        )

    @property
    def url(self) -> str:
        """Where this rule's page is read on the web (`speclint.docs_url`)."""
        from speclint.report.urls import rule_url

        return rule_url(self.code, self.name)

    @classmethod
    def examples(cls, which: str) -> Iterator[Example]:
        for example in getattr(cls, which):
            yield example if isinstance(example, Example) else Example(example)


class Placeholder(str):
    """A value standing for any value (`N`): shown bare in a keyword launch too (`dp_size=N`)."""

    def __repr__(self) -> str:
        return str(self)


def literal_word(word: Word | None) -> TypeGuard[Word]:
    """The word's text is written literally at its span (not assembled from a variable), so
    an edit at the span changes exactly this word."""
    return word is not None and not word.dynamic and word.origin is None


def word_notes(word: Word) -> list[Note]:
    """Notes that lead from a word to where its text was written, when it came from a variable."""
    notes: list[Note] = []
    expanded_at = getattr(word, "expanded_at", None)
    if word.origin is None and expanded_at is None:
        return notes
    import speclint.core.notes as made  # (a module: `from M import name` here costs a failed lookup each call)

    if word.origin is not None:
        notes.append(made.Note(word.origin, word.made_by or "value assigned here"))
    if expanded_at is not None:
        notes.append(made.Note(expanded_at, "expanded into the command here"))
    return notes

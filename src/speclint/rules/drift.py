"""What an earlier SGLang release made of a token the checked release rejects, and the
one certain rewrite when there is one (flag history, for VER001 and FLG002).

FLG009 (flag-not-in-version) asks `drift_of` first and leaves retired flags to VER001;
FLG002 (ambiguous-abbreviation) adds what an ambiguous word meant before to its message,
so one token gets one finding.
"""

from __future__ import annotations

from speclint.core.findings import Edit
from speclint.core.records import dataclass
from speclint.sglang.flags import history
from speclint.sglang.flags.versions import version_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import ArgProblem


@dataclass(frozen=True, slots=True)
class Drift:
    """A token the target rejects that an earlier release accepted."""

    kind: str
    """'removed' (an exact flag or field gone), 'ambiguous' (a prefix that became ambiguous)."""
    written: str
    meant: str
    """The flag (or field) it stood for in `last`."""
    last: str
    removal: history.Removal | None
    replacements: tuple[history.Replacement, ...]
    certain: bool
    """True when exactly one replacement carries the same value (SGLang's own alias did)."""


def _field_drift(name: str, target: str) -> Drift | None:
    """A keyword launch's field name that an earlier release's flags stored into."""
    from speclint.sglang.flags.schema import options_of, supported_versions

    for version in reversed(supported_versions()):
        if version_key(version) >= version_key(target):
            continue
        spec = next((s for s in options_of(version).values() if s.dest == name), None)
        if spec is None:
            continue
        option = spec.canonical
        found = history.removal(option, target)
        if found is None:  # the flag lives on but stores elsewhere
            replacements = history.replacement_for(option, target)
            found_kind = None
        else:
            replacements, found_kind = found.replacements, found.kind
        fields = tuple(
            history.Replacement(dest)
            for r in replacements
            if (dest := _dest_of(r.option, target)) and r.value is None
        )
        certain = len(fields) == 1 and found is not None and found.value_preserving
        return (
            Drift("removed", name, option, version, found, fields, certain) if found_kind or fields else None
        )
    return None


def _dest_of(option: str, target: str) -> str | None:
    from speclint.sglang.flags.schema import options_of

    spec = options_of(target).get(option)
    return spec.dest if spec is not None else None


def drift_of(problem: ArgProblem, ctx: LaunchContext) -> Drift | None:
    """The drift behind an 'unknown-option' or 'ambiguous-option' problem, if any."""
    target = ctx.version.version
    written = problem.text
    if problem.kind == "unknown-option":
        if ctx.launch.kwargs_style:
            return _field_drift(written, target)
        found = history.removal(written, target)
        if found is None:
            return None
        certain = len(found.replacements) == 1 and found.value_preserving
        return Drift("removed", written, written, found.last, found, found.replacements, certain)
    if problem.kind == "ambiguous-option":
        meaning = history.prefix_meaning(written, target)
        if meaning is None:
            return None
        found = history.removal(meaning.option, target)
        replacements = history.replacement_for(meaning.option, target)
        if found is None:  # the flag it meant still exists: just spell it out
            return Drift(
                "ambiguous", written, meaning.option, meaning.last, None, replacements, len(replacements) == 1
            )
        certain = len(replacements) == 1 and found.value_preserving
        return Drift("ambiguous", written, meaning.option, meaning.last, found, replacements, certain)
    return None


def drift_edit(drift: Drift, problem: ArgProblem, kwargs_style: bool) -> Edit | None:
    """The rewrite of the written option (or keyword) when exactly one is certain."""
    if not drift.certain or len(drift.replacements) != 1:
        return None
    new = drift.replacements[0]
    text = new.option if kwargs_style else new.text
    use = problem.use
    span = use.option_span if use is not None and use.option_span is not None else problem.span
    word = use.word.text if use is not None else None
    if not kwargs_style and new.value is not None and word and "=" in word:
        return None  # `--switch=x` with a constant: leave it to a person
    return Edit(span, text, f"replace `{drift.written}` with `{text}`", expected=drift.written)


def names(replacements: Iterable[history.Replacement]) -> str:
    return " and ".join(f"`{r.text}`" for r in replacements)

"""One finding per problem when a launch comes in alternatives (values chosen by a branch).

A front-end that sees `if ...; then TP=8; else TP=4; fi ... --tp-size $TP` (or Python's
`kwargs.update(...)` in `if`/`elif` arms) emits one `Launch` per choice, each marked with a
`core.launches.Alternative`. Every alternative is checked as an ordinary launch; here the findings
of a launch's alternatives are folded back: a finding every alternative has is reported once
as it is, one only some alternatives have is reported once with a note per alternative
saying when it happens ("when the `else` branch at line 5 runs") and without its `--fix`
edit (a change right on some branches only is not certain).
"""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from speclint.core.findings import Finding
    from speclint.core.launches import Condition, Launch

_Key = tuple[str, Span, str, Severity]
"""What makes two findings of alternatives the same problem."""


def _key(finding: Finding) -> _Key:
    return (finding.code, finding.span, finding.message, finding.severity)


def merge_alternatives(
    checked: Iterable[tuple[Launch, list[Finding]]], once: frozenset[str] = frozenset()
) -> list[Finding]:
    """The findings of each checked launch, in order, alternatives of one launch folded into
    one finding per problem. `checked` holds (launch, its findings) in extraction order;
    `once` holds the codes of rules that report at most once per launch (`Rule.per_launch`):
    their findings on different alternatives become one, with the others' notes."""
    out: list[Finding] = []
    groups: dict[Span, list[tuple[Launch, list[Finding]]]] = {}
    order: list[Span | None] = []
    plain: list[list[Finding]] = []
    for launch, findings in checked:
        if launch.alternative is None:
            order.append(None)
            plain.append(findings)
            continue
        if launch.span not in groups:
            order.append(launch.span)
            groups[launch.span] = []
        groups[launch.span].append((launch, findings))
    plain_iter = iter(plain)
    for span in order:
        if span is None:
            out.extend(next(plain_iter))
        else:
            out.extend(_fold(groups[span], once))
    return out


def _fold(members: list[tuple[Launch, list[Finding]]], once: frozenset[str] = frozenset()) -> list[Finding]:
    first: dict[_Key, Finding] = {}
    having: dict[_Key, list[Launch]] = {}
    kept: dict[str, _Key] = {}  # code of a once-per-launch rule -> the key standing for it
    for launch, findings in members:
        for finding in findings:
            key = _key(finding)
            if finding.code in once:
                if finding.code in kept:
                    head = first[kept[finding.code]]
                    if head is not finding:
                        _fold_into(head, finding, launch, having[kept[finding.code]][0])
                    key = kept[finding.code]
                kept.setdefault(finding.code, key)
            if key not in first:
                first[key] = finding
                having[key] = []
            if not having[key] or having[key][-1] is not launch:
                having[key].append(launch)
    folded = []
    every = [launch for launch, _ in members]
    for key, finding in first.items():
        launches = having[key]
        if len(launches) < len(members):
            finding.fix = None  # right on some branches only: not a certain fix
            for conditions in _when(launches, every):
                span = conditions[0].span if conditions else launches[0].span
                text = " and ".join(c.description for c in conditions)
                finding.notes.append(Note(span, f"when {text}"))
        folded.append(finding)
    return folded


def _fold_into(head: Finding, finding: Finding, launch: Launch, head_launch: Launch) -> None:
    """Another alternative's finding of a once-per-launch rule, as notes of `head`: its own
    message at its own token, when `head` is at another one (`TestSub`'s unknown `model`
    beside the base's unknown `other_args`), saying for which alternative; then its notes,
    less those `head` already says."""
    seen = {(n.span, n.message) for n in head.notes}
    conditions = _conditions(launch)
    if finding.span != head.span and conditions != _conditions(head_launch):
        text = " and ".join(c.description for c in conditions)
        note = Note(finding.span, f"when {text}: {finding.message}")
        if (note.span, note.message) not in seen:
            head.notes.append(note)
            seen.add((note.span, note.message))
    for n in finding.notes:
        if (n.span, n.message) not in seen:
            head.notes.append(n)
            seen.add((n.span, n.message))


def _when(having: list[Launch], every: list[Launch]) -> list[tuple[Condition, ...]]:
    """The conditions to name for a finding only `having` alternatives have: the arms they
    all share, when exactly those alternatives have them all (the `else` at line 5, whatever
    the other branches chose); else each alternative's own conditions."""
    shared = set(_conditions(having[0]))
    for launch in having[1:]:
        shared &= set(_conditions(launch))
    if shared:
        matching = [launch for launch in every if shared <= set(_conditions(launch))]
        if len(matching) == len(having):
            return [tuple(c for c in _conditions(having[0]) if c in shared)]
    return [_conditions(launch) for launch in having]


def _conditions(launch: Launch) -> tuple[Condition, ...]:
    """The arms of one alternative (only alternatives are folded)."""
    assert launch.alternative is not None
    return launch.alternative.conditions


def counts_as_launch(launch: Launch) -> bool:
    """Whether the summary counts this launch (an alternative counts once, as its first)."""
    return launch.alternative is None or launch.alternative.index == 0

"""A Makefile's launches: each recipe line as make hands it to the shell (`make.MakeReader`),
read once per choice of the conditionals speclint cannot decide (`make_conditionals`): a recipe
line whose text differs between choices gives one launch per text, each an `Alternative` whose
note names the branches it takes."""

from __future__ import annotations

from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.words import Word
from speclint.frontends.commands.make import MakeReader
from speclint.frontends.commands.make_heredocs import flattened_manifests, here_documents_cut
from speclint.frontends.commands.make_shell import launcher_at, shell_not_read
from speclint.frontends.commands.make_values import MAX_WORLDS, Choices, Decision, Key, MakeVar
from speclint.frontends.commands.text import Char, comment_lines, shell_line, unique_comments, walk_shell
from speclint.frontends.shell.embedded import Budget
from speclint.frontends.shell.pieces import span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import Launch
    from speclint.core.spans import Span


def extract_makefile(text: str, path: str) -> ExtractResult:
    """The launches in a Makefile's recipes, one shell per recipe line: once per choice of the
    conditionals speclint cannot decide where a launch's text depends on them."""
    from speclint.frontends.manifest_reader import read_unit_or_manifest  # what a here-document feeds

    read = readings(text, path)
    starts = read[0][0].starts
    result = ExtractResult(comments=comment_lines(text, starts))
    shells: dict[tuple[int, int], dict[tuple[object, ...], list[int]]] = {}
    texts: dict[tuple[tuple[object, ...], int], tuple[list[Char], dict[str, Word]]] = {}
    flattened: set[Span] = set()  # (what the here-document reader says of them is beside the point)
    for index, (makefile, _) in enumerate(read):
        env = _exported(makefile)
        why = shell_not_read(makefile)
        if why is not None:  # `SHELL := python3`: not a shell speclint reads
            for chars in makefile.shells():
                at = launcher_at(makefile.expand(chars))
                if at is not None:
                    message = f"{why}; the launch here was not checked"
                    found = Diagnostic("no-launch-found", message, span_of(starts, *at))
                    if found not in result.diagnostics:
                        result.diagnostics.append(found)
            continue
        if makefile.one_shell:
            flattened |= flattened_manifests(makefile, result)
        for chars in makefile.shells() if makefile.one_shell else here_documents_cut(makefile, result):
            expanded = makefile.expand(chars)
            if not chars or "sglang" not in "".join(c[0] or "" for c in expanded):
                continue
            signature: tuple[object, ...] = (
                tuple(expanded),
                tuple((n, w.text, w.dynamic_reason) for n, w in env.items()),
            )
            shells.setdefault((chars[0][1], chars[-1][2]), {}).setdefault(signature, []).append(index)
            texts[signature, index] = expanded, env
    budget = Budget()
    for _, variants in sorted(shells.items()):
        groups = alternatives(variants, [decisions for _, decisions in read])
        for number, (variant, first, conditions) in enumerate(groups):
            expanded, env = texts[variant, first]
            count = len(result.launches)
            walk_shell(result, path, shell_line(text, starts, budget, expanded), env, read_unit_or_manifest)
            if len(groups) > 1:
                mark(result.launches[count:], conditions, number, len(groups), starts)
    if flattened:
        result.diagnostics = [
            d
            for d in result.diagnostics
            if d.span not in flattened or d.message.startswith("with `.ONESHELL:`")
        ]
    said = {entry for makefile, _ in read for entry in makefile.said}
    if said:  # `$(or $(PORT),30000)`: a default the environment decides, said on its words
        from speclint.core.said_values import said_on

        placed = [(span_of(starts, begin, end), made) for begin, end, made in sorted(said)]
        for launch in result.launches:
            launch.args = said_on(launch.args, placed)
    for makefile, _ in read:
        for begin, (told, end) in sorted(makefile.unread.items()):
            message = (
                f"{told}: speclint does not evaluate make functions, so the launch it makes was not checked"
            )
            found = Diagnostic("no-launch-found", message, span_of(starts, begin, end))
            if found not in result.diagnostics:
                result.diagnostics.append(found)
        for (name, (begin, end)), lines in sorted(makefile.included.items()):
            message = (
                f"{name}, included here, runs the launcher in its recipe at line "
                f"{', '.join(map(str, sorted(set(lines))))}: speclint reads an included makefile's "
                f"variables, not its recipes, so that launch was not checked here (lint {name} itself)"
            )
            found = Diagnostic("no-launch-found", message, span_of(starts, begin, end))
            if found not in result.diagnostics:
                result.diagnostics.append(found)
    unique_comments(result)
    return result


def _exported(makefile: MakeReader) -> dict[str, Word]:
    """The exported variables' values: each recipe's environment."""
    env: dict[str, Word] = {}
    for name in sorted(makefile.exported):
        var = makefile.vars.get(name)
        if not isinstance(var, MakeVar) or not var.chars:
            continue
        value = makefile.expand(var.chars)
        reason = next((c[3] for c in value if c[0] is None), None)
        known = None if reason is not None else "".join(c[0] or "" for c in value)
        span = span_of(makefile.starts, min(c[1] for c in var.chars), max(c[2] for c in var.chars))
        env[name] = Word(known, span, span, dynamic_reason=reason)
    return env


def readings(text: str, path: str) -> list[tuple[MakeReader, list[Decision]]]:
    """The file read once per choice of the branches speclint cannot decide (each reading
    takes the next branch the other way), or, beyond MAX_WORLDS, once with every branch read
    and the values set in undecided ones unknown."""
    pending: list[dict[Key, bool]] = [{}]
    done: list[tuple[MakeReader, list[Decision]]] = []
    while pending:
        fixed = pending.pop(0)
        choices = Choices(fixed)
        makefile = MakeReader(text, path, choices)
        makefile.read()
        done.append((makefile, choices.made))
        for index, key in enumerate(choices.new):
            pending.append({**fixed, **dict.fromkeys(choices.new[:index], True), key: False})
        if len(done) + len(pending) > MAX_WORLDS:
            makefile = MakeReader(text, path, Choices(None))
            makefile.read()
            return [(makefile, [])]
    return done


def alternatives(
    variants: dict[tuple[object, ...], list[int]], decisions: list[list[Decision]]
) -> list[tuple[tuple[object, ...], int, list[Decision]]]:
    """Each distinct text of one recipe line across the readings: (its signature, a reading
    that gives it, the branches every reading giving it takes); a text whose readings share no
    branch is split into one per reading."""
    groups: list[tuple[tuple[object, ...], int, list[Decision]]] = []
    for signature, readings in variants.items():
        common = [d for d in decisions[readings[0]] if all(d in decisions[r] for r in readings[1:])]
        groups.append((signature, readings[0], common))
    if len(groups) > 1 and any(not common for _, _, common in groups):
        groups = [(s, r, decisions[r]) for s, readings in variants.items() for r in readings]
    return groups


def mark(launches: list[Launch], made: list[Decision], index: int, count: int, starts: list[int]) -> None:
    """Each launch of one reading of a recipe line is one alternative: when `made` holds."""
    from speclint.core.conditions import Alternative, Condition

    conditions = tuple(
        Condition(span_of(starts, d.at, d.at + d.length), d.description())
        for d in sorted(made, key=lambda d: d.at)
    )
    for launch in launches:
        inner = launch.alternative
        if inner is None:
            launch.alternative = Alternative(conditions, index, count)
        else:
            launch.alternative = Alternative(
                conditions + inner.conditions, index * inner.count + inner.index, count * inner.count
            )

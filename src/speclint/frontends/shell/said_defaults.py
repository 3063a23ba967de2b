"""The words whose value is the default of `${NAME:-default}` because NAME comes from the
environment: each says so (`Word.made_by`), so a finding on it says the value holds only when
NAME is unset or empty (`core.said_values`), not that the launch always runs with it.

bash manual, "Shell Parameter Expansion": `${parameter:-word}` "If parameter is unset or null,
the expansion of word is substituted. Otherwise, the value of parameter is substituted";
without the colon, only an unset parameter is tested."""

from __future__ import annotations

from speclint.core.said_values import said_on as said_inside

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.variables import VarValue


def said_on(words: list[Word], said: list[tuple[Span, str]]) -> list[Word]:
    """`words` (of one argument node), each known word made of one default said (written
    inside its expansion, holding it, or a variable's value assigned from it) saying so;
    `said` emptied."""
    out: list[Word] = []
    for word in words:
        if word.text is not None and word.made_by is None and word.origin is not None:
            found = {made for at, made in said if word.origin == at}
            if len(found) == 1:
                word = word.said_made_by(found.pop())
        out.append(word)
    out = said_inside(out, said)
    said.clear()
    return out


def value_said(value: VarValue, made_by: str) -> VarValue:
    """`value` with `made_by` set, as `VarValue.marked` makes a copy (every field passed on:
    tests/test_shell_values.py checks it against `dataclasses.replace`)."""
    from speclint.frontends.shell.variables import VarValue

    return VarValue(
        value.text,
        value.elements,
        value.reason,
        value.origin,
        value.exported,
        value.is_set,
        value.alternatives,
        value.assumed,
        value.runs,
        value.element,
        value.written,
        made_by,
        value.keys,
        value.runs_written,
    )

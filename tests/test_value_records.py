"""Span, Word, Piece, VarValue and Setting are plain slotted records at run time (frozen for the type checker only,
`core.spans`): they must still hash and compare as the frozen records they were, so that sets
and dict keys of them (findings deduplicated by span, words by value) behave the same."""

from __future__ import annotations

import dataclasses

import pytest

from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.frontends.shell.pieces import Piece
from speclint.frontends.shell.variables import VarValue
from speclint.sglang.flags.launch_config import Setting

SPAN = Span(3, 5, 4, 9, "conf.yaml")


def frozen_twin(cls: type) -> type:
    """The frozen record with slots that `cls` was: same fields, same defaults."""
    fields = [
        (f.name, f.type, dataclasses.field(default=f.default))
        if f.default is not dataclasses.MISSING
        else (f.name, f.type)
        for f in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, slots=True)


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (Span, (3, 5, 4, 9, "conf.yaml")),
        (
            Word,
            (
                "--tp",
                SPAN,
                Span(1, 1, 1, 4),
                "why",
                True,
                Span(7, 1, 7, 9),
                None,
                "--tp=",
                "a launcher",
                ((SPAN, "\u2013"),),
            ),
        ),
        (Piece, ("--tp 2", 4, 10, True, "why", SPAN, None)),
        (
            VarValue,
            (
                "2",
                (Word("a", SPAN),),
                "why",
                SPAN,
                True,
                False,
                None,
                True,
                (("--tp ", "", None),),
                Word("2", SPAN),
                Span(2, 1, 2, 5),
                "sbatch",
                (("key", VarValue("v")),),
                (None,),
            ),
        ),
        (Setting, ("tp_size", 2, ("a flag use",), True)),
    ],
)
def test_hashed_and_compared_by_every_field_as_the_frozen_record(cls, values):
    assert len(values) == len(dataclasses.fields(cls))  # a new field needs a value here
    made, twin = cls(*values), frozen_twin(cls)(*values)
    assert hash(made) == hash(twin)
    assert made == cls(*values) and made in {cls(*values)}
    for index in range(len(values)):  # each field takes part in the hash and the comparison
        changed = list(values)
        changed[index] = None if values[index] is not None else "other"
        other = cls(*changed)
        assert other != made and hash(other) == hash(frozen_twin(cls)(*changed))

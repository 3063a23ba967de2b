"""The records made most often write their own `__init__` (through `core.spans.slot_setters`,
a third of the time of the one dataclasses writes for a frozen class): it must make the
objects the generated one would, for every field, and stay in step with the fields."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from speclint.core.spans import Span
from speclint.core.words import Identity, Word
from speclint.frontends.shell.embedded import Piece
from speclint.frontends.shell.variables import VarValue
from speclint.sglang.flags.launch_config import Setting

HAND_WRITTEN = (Span, Word, Piece, VarValue, Setting)


def generated_twin(cls: type) -> type:
    """The same fields, with the `__init__` dataclasses writes."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(f"{cls.__name__}Twin", fields, frozen=True, slots=True)


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda cls: cls.__name__)
def test_the_init_takes_the_fields_in_order_with_their_defaults(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


SAMPLES = {
    Span: [((1, 2, 3, 4), {}), ((5, 1, 5, 9), {"file": "other.yaml"})],
    Word: [
        (("--tp", Span(1, 2, 1, 6)), {}),
        (
            (None, Span(2, 1, 2, 4)),
            {
                "origin": Span(1, 1, 1, 3),
                "dynamic_reason": "unknown",
                "splat": True,
                "expanded_at": Span(3, 1, 3, 9),
                "identity": Identity("k", "k@1", 1),
            },
        ),
    ],
    Piece: [
        (("abc", 3, 6), {}),
        ((None, 1, 9, False, "unknown", Span(1, 1, 1, 2), Identity("k", "k@1")), {}),
    ],
    VarValue: [
        ((), {}),
        (("text",), {"origin": Span(1, 1, 1, 5), "exported": True}),
        ((None, (Word("a", Span(1, 1, 1, 2)),), None, None, False, False), {}),
        ((), {"reason": "unknown", "alternatives": None, "is_set": True}),
    ],
    Setting: [(("tp_size", 2), {}), (("tp_size", None, (), True), {})],
}


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda cls: cls.__name__)
def test_objects_are_the_ones_the_generated_init_makes(cls):
    twin = generated_twin(cls)
    for args, kwargs in SAMPLES[cls]:
        made, expected = cls(*args, **kwargs), twin(*args, **kwargs)
        assert dataclasses.astuple(made) == dataclasses.astuple(expected)
        assert repr(made) == repr(expected).replace(twin.__name__, cls.__name__)
        assert made == cls(*args, **kwargs) and hash(made) == hash(cls(*args, **kwargs))
        assert pickle.loads(pickle.dumps(made)) == made == copy.deepcopy(made)
        first = dataclasses.fields(cls)[0].name
        assert dataclasses.replace(made, **{first: getattr(made, first)}) == made
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, first, None)

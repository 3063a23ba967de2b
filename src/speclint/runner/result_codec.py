"""A `check` result as JSON values and back (`speclint.runner.cache`'s index entries): only
the classes listed in `_classes` are ever built from stored values, so a damaged or foreign
entry raises (a miss), never builds anything else."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.core.findings import Severity


_CLASSES: dict[type, dict[str, tuple[type, int]]] = {}


def _classes(summary: type) -> dict[str, tuple[type, int]]:
    """The classes a stored result may name: the findings' own, and `summary` (`check`'s
    per-launch summary, handed in by the runner, which this module does not import)."""
    found = _CLASSES.get(summary)
    if found is None:
        found = _CLASSES[summary] = _class_table(summary)
    return found


def _class_table(summary: type) -> dict[str, tuple[type, int]]:
    """Name -> (the class, how many fields it is built from; -1 for the enum)."""
    from speclint.core.findings import Edit, Finding, Note, Severity
    from speclint.core.spans import Span
    from speclint.rules.base import VersionChoice

    table = {
        cls.__name__: (cls, len(_field_names(cls.__name__, cls)))
        for cls in (Edit, Finding, Note, VersionChoice, Span, summary)
    }
    table["Severity"] = (Severity, -1)
    return table


def _encode(value: object) -> object:
    """JSON-able form: a dataclass is ["d", class, field values in order...], a tuple
    ["t", items...], an enum ["e", class, value], a dict ["m", [key, value]...], a list
    ["l", items...]; strings, numbers, booleans and None stay as they are."""
    if isinstance(value, _severity()):  # before int: a Severity is an int
        return ["e", "Severity", int(value)]
    if isinstance(value, (str, int, float)) or value is None:  # bool is an int
        return value
    if isinstance(value, tuple):
        return ["t", *map(_encode, value)]
    if isinstance(value, list):
        return ["l", *map(_encode, value)]
    if isinstance(value, dict):
        return ["m", *([_encode(k), _encode(v)] for k, v in value.items())]
    cls: Any = type(value)
    names = _field_names(cls.__name__, cls)
    return ["d", type(value).__name__, *(_encode(getattr(value, name)) for name in names)]


def _severity() -> type[Severity]:
    """`speclint.core.findings.Severity` (imported once: `_encode` runs for every value)."""
    if not _SEVERITY:
        from speclint.core.findings import Severity

        _SEVERITY.append(Severity)
    return _SEVERITY[0]


_SEVERITY: list[type[Severity]] = []
_FIELD_NAMES: dict[tuple[str, Any], tuple[str, ...]] = {}


def _field_names(name: str, cls: Any) -> tuple[str, ...]:
    """The fields a class is built from, in order."""
    found = _FIELD_NAMES.get((name, cls))
    if found is None:
        found = _FIELD_NAMES[name, cls] = _fields_of(name, cls)
    return found


def _fields_of(name: str, cls: Any) -> tuple[str, ...]:
    import dataclasses

    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)
    if name == "LaunchSummary":
        return tuple(cls.__slots__)
    raise TypeError(f"cannot cache a {name}")


def _decode(value: list[Any], classes: dict[str, tuple[type, int]]) -> object:
    """What `_encode` wrote (`value` a list: the caller leaves other values as they are)."""
    tag = value[0]
    if tag == "d":
        cls, count = classes[value[1]]  # KeyError for any other class: the entry is not trusted
        if len(value) - 2 != count:
            raise ValueError("stored fields do not match")
        return cls(*[_decode(item, classes) if type(item) is list else item for item in value[2:]])
    if tag == "l":
        return [_decode(item, classes) if type(item) is list else item for item in value[1:]]
    if tag == "t":
        return tuple([_decode(item, classes) if type(item) is list else item for item in value[1:]])
    if tag == "m":
        return {
            (_decode(k, classes) if type(k) is list else k): (_decode(v, classes) if type(v) is list else v)
            for k, v in value[1:]
        }
    if tag == "e":
        cls, count = classes[value[1]]
        if count != -1:
            raise ValueError("not an enum")
        return cls(value[2])
    raise ValueError(f"unknown tag {tag!r}")


def encode_result(result: Any) -> dict[str, object]:
    """A `check` result (`speclint.runner.results.CheckedFile`) as JSON-able values."""
    return {
        "path": result.path,
        "findings": _encode(result.findings),
        "contexts": _encode(result.contexts),
        "lines": _encode(result.lines),
        "launch_not_found": result.launch_not_found,
    }


def decode_result(stored: dict[str, Any], built: tuple[Any, type]) -> Any:
    """The result `encode_result` stored, as `built` = (the result class, the per-launch
    summary class); raises on anything of another shape."""
    checked_file, summary = built
    classes = _classes(summary)
    findings, contexts, lines = (_decode(stored[part], classes) for part in ("findings", "contexts", "lines"))
    if not (isinstance(findings, list) and isinstance(contexts, list) and isinstance(lines, dict)):
        raise TypeError("stored result of the wrong shape")
    return checked_file(
        stored["path"],
        findings,
        contexts,
        None,
        lines=lines,
        launch_not_found=bool(stored["launch_not_found"]),
    )

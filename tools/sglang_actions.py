"""One argparse action as a schema entry: argparse's defaults per action, SGLang's custom
Action classes, type names, deprecation text (used by sglang_args.py)."""

from __future__ import annotations

import ast
import re

from sglang_static import ClassRef, EnumMember, Evaluator, ExtRef, FuncRef, Unresolved

MISSING = object()
_MISSING = MISSING
NARGS0 = {"store_true", "store_false", "store_const", "append_const", "count", "help", "version"}
TYPE_KINDS = {
    "str": "str",
    "int": "int",
    "float": "float",
    "json.loads": "json",
    "bool": "bool",
    "str2bool": "bool",
}
HELP_LIMIT = 300


def type_kind(name: str | None) -> str | None:
    """Schema type kind for a callable's name (None: argparse's type=None, i.e. str)."""
    if name is None:
        return None
    return TYPE_KINDS.get(name, "other")


def _callable_name(value) -> str:
    if isinstance(value, ExtRef):
        return value.path
    if isinstance(value, (FuncRef, ClassRef)):
        return value.name
    raise Unresolved(repr(value))


def jsonable(value):
    if isinstance(value, EnumMember):
        return jsonable(value.value)
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise Unresolved(repr(value))


def collapse(text: str) -> str:
    return " ".join(text.split())[:HELP_LIMIT]


# Help text that says the flag itself is deprecated ("(Deprecated) ...", "[Deprecated] Use
# --x instead.", "Deprecated alias for --x.", "Note: --flag is deprecated now.") -- not help
# that merely mentions some other deprecated flag.
_DEPRECATED = re.compile(r"^\s*[(\[]?deprecated\b|^\s*note:\s*--[\w-]+ is deprecated", re.I)
_REPLACEMENT = re.compile(
    r"\b(?:use|alias for|replaced by|in favou?r of)\s+[`'\"]?(--[\w\-{},]+(?:=[^\s,;)`'\"]+)?(?: <[\w-]+>)?)",
    re.I,
)


def deprecation_from_help(help_text: str) -> str | None:
    if not help_text or not _DEPRECATED.search(help_text):
        return None
    match = _REPLACEMENT.search(help_text)
    return match.group(1).rstrip(".") if match else collapse(help_text)[:160]


def build_action(options, kwargs, unresolved, group):
    """One schema entry from the arguments of one `add_argument` call (argparse's rules)."""
    action = kwargs.get("action")
    entry = {
        "option_strings": list(options),
        "nargs": kwargs.get("nargs"),
        "const": kwargs.get("const"),
        "deprecated": None,
    }
    extra = {}
    default = kwargs.get("default", _MISSING)
    if action is None and "action" not in unresolved:
        kind = "store"
    elif isinstance(action, str):
        kind = action if action in NARGS0 | {"store", "append"} else "other"
        if kind == "other":
            extra["action_class"] = action
    elif isinstance(action, ExtRef) and action.path == "argparse.BooleanOptionalAction":
        kind = "boolean_optional"
        entry["nargs"] = 0
        expanded = []
        for opt in options:
            expanded.append(opt)
            if opt.startswith("--"):
                expanded.append("--no-" + opt[2:])
        entry["option_strings"] = expanded
    elif isinstance(action, ClassRef):
        extra["action_class"] = action.name
        kind = "deprecated" if "Deprecat" in action.name else "other"
        init = _init_defaults(action)
        for key in ("nargs", "const"):
            if key not in kwargs and key in init:
                entry[key] = init[key]
        if default is _MISSING and "default" in init:
            default = init["default"]
        for key in ("new_flag", "error_message", "const_value"):
            if key in kwargs:
                extra[key] = jsonable(kwargs[key])
        if kind == "deprecated":
            entry["deprecated"] = (
                kwargs.get("new_flag")
                or kwargs.get("error_message")
                or deprecation_from_help(kwargs.get("help") or "")
                or "deprecated (no replacement named)"
            )
    else:
        kind = "other"
        extra["action_class"] = unresolved.get("action") or repr(action)
    if kind in NARGS0:
        entry["nargs"] = 0
        if kind == "store_true":
            entry["const"], default = True, (False if default is _MISSING else default)
        elif kind == "store_false":
            entry["const"], default = False, (True if default is _MISSING else default)
        elif kind == "help":
            default = "==SUPPRESS==" if default is _MISSING else default
    entry["action"] = kind
    entry["dest"] = kwargs.get("dest") or _dest(options)
    if "type" in kwargs:
        name = _callable_name(kwargs["type"])
        entry["type"] = type_kind(name)
        if entry["type"] == "other":
            extra["type_name"] = name.split(".")[-1]
    elif "type" in unresolved:
        entry["type"], extra["type_name"] = "other", unresolved["type"]
    else:
        entry["type"] = None
    choices = kwargs.get("choices")
    entry["choices"] = jsonable(choices) if choices is not None else None
    try:
        entry["default"] = jsonable(default) if default is not _MISSING else None
    except Unresolved:
        entry["default"], extra["default_unresolved"] = None, repr(default)
    try:
        entry["const"] = jsonable(entry["const"])
    except Unresolved:
        extra["const_unresolved"], entry["const"] = repr(entry["const"]), None
    help_text = kwargs.get("help")
    if help_text is None and "help" in unresolved:
        help_text, extra["help_unresolved"] = unresolved["help"], True
    entry["help"] = collapse(help_text) if isinstance(help_text, str) else ""
    if entry["deprecated"] is None and isinstance(help_text, str) and help_text != "==SUPPRESS==":
        entry["deprecated"] = deprecation_from_help(help_text)
    if kwargs.get("required"):
        extra["required"] = True
    if group:
        extra["group"] = group
    for key, src in unresolved.items():
        if key not in ("help", "action", "type", "default"):
            extra[f"{key}_unresolved"] = src
        elif key == "default":
            extra["default_unresolved"] = src
    entry.update(extra)
    return entry


def _dest(options):
    longs = [o for o in options if o.startswith("--")]
    first = longs[0] if longs else options[0]
    return first.lstrip("-").replace("-", "_")


def _init_defaults(cls: ClassRef):
    init = next((s for s in cls.node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return {}
    args = init.args.args
    out = {}
    for arg, default in zip(args[len(args) - len(init.args.defaults) :], init.args.defaults):
        try:
            out[arg.arg] = Evaluator(cls.mod).eval(default)
        except Unresolved:
            pass
    for arg, default in zip(init.args.kwonlyargs, init.args.kw_defaults):
        if default is not None:
            out[arg.arg] = Evaluator(cls.mod).eval(default)
    return out

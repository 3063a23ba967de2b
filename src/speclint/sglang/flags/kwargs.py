"""Keyword launches (`sgl.Engine(tp_size=2)`, `ServerArgs(...)`) in the flag model.

SGLang's Engine and ServerArgs take dataclass field names, not flags: no argparse runs, so
there are no abbreviations, type conversions or choices checks; an unknown name is a
`TypeError: __init__() got an unexpected keyword argument`. A value the command line would
refuse (a str for a number, a value outside the choices) is kept as a problem all the same,
for the rules to say that nothing checks it where the settings are made (`_check_value`). This builds the same
`ParsedArgs` the argv parser builds, so every rule reads keyword launches unchanged.
"""

from __future__ import annotations

import ast

from speclint.core.spans import Span
from speclint.sglang.flags.argv import ArgProblem, FlagUse, ParsedArgs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.core.words import Word
    from speclint.sglang.flags.schema import FlagSchema, FlagSpec

# ServerArgs fields with no command-line flag (read from the 0.5.14 and 0.5.23 sources):
# accepted by the constructor, unknown to the flag model
_FIELDS_WITHOUT_FLAG = frozenset(
    {
        "custom_sigquit_handler",
        "stat_loggers",
        "grpc_worker_threads",
        "uses_mamba_radix_cache",
        "speculative_boundary_reduction",
        "enable_cp_tp_group_sharing",
        "aux_hidden_state_capture",
        "watermark_key",
        "watermark_key_b",
        "watermark_context_window",
        "watermark_mixing_probability",
        "watermark_max_probability",
        "watermark_default_enabled",
        "watermark_enforce_all",
    }
)
# argparse dests that are not ServerArgs fields (besides those `from_cli_args` copies from)
_NOT_FIELDS = frozenset({"config"})


def field_spec(schema: FlagSchema, name: str) -> FlagSpec | None:
    """The flag behind ServerArgs field `name` in this release, or None."""
    from speclint.sglang.server_checks import cli_copies

    copies = cli_copies(schema.version)
    if name in _NOT_FIELDS or name in copies.values():
        return None
    spec = schema.by_dest.get(name)
    if spec is None and name in copies:
        # its argparse dest differs (`--tp-size` has dest tensor_parallel_size before 0.5.14):
        # `from_cli_args` copies it into the field (server_checks `cli_copies`)
        spec = schema.by_dest.get(copies[name])
    return spec


def _literal(word: Word) -> tuple[object, bool]:
    """(value, known) of a value word holding a Python literal."""
    if word.text is None:
        return None, False
    try:
        return ast.literal_eval(word.text), True
    except (ValueError, SyntaxError):
        return None, False


def _check_value(parsed: ParsedArgs, use: FlagUse, spec: FlagSpec, word: Word, value: object) -> None:
    """A keyword value the command line would refuse: a `str` where the flag converts to a
    number (`tp_size="two"`), or a value outside the flag's choices
    (`attention_backend="flashinfers"`). No argparse runs for keywords, so these are kept as
    problems of the same kinds, which the rules word as keyword findings (what SGLang does
    with the value is not read)."""
    if value is None or isinstance(value, (bool, list, tuple, dict)):
        return  # None: the field's unset default; containers: not compared
    if spec.type in ("int", "float") and isinstance(value, str):
        detail = f"a str where the command line converts the value to {spec.type}"
        parsed.problems.append(ArgProblem("invalid-type", word.span, repr(value), use, detail))
        use.value = None  # (as argv's: the value refused is no setting the rules reason with)
        return
    if spec.type == "other" and isinstance(value, str):
        import speclint.sglang.flags.value_types as value_types

        function = value_types.converted_dests(parsed.schema.version).get(spec.dest)
        if function == "human_readable_int":  # (a count the command line reads with it)
            detail = "a str where the command line converts the value to int (SGLang's human_readable_int)"
            parsed.problems.append(ArgProblem("invalid-type", word.span, repr(value), use, detail))
            use.value = None
            return
    if spec.choices is None or spec.type == "other" or value in spec.choices:
        return
    if spec.env_choices:
        from speclint.sglang.flags.env_choices import refused

        if not refused(spec, value, parsed.env):
            return
    detail = "not one of the command line's choices"
    parsed.problems.append(ArgProblem("invalid-choice", word.span, repr(value), use, detail))
    use.value = None


def parse_kwargs(
    schema: FlagSchema,
    pairs: list[tuple[Word, Word]],
    call_span: Span | None = None,
    env: Mapping[str, str | None] | None = None,
) -> ParsedArgs:
    parsed = ParsedArgs(schema, env=env)
    for position, (name_word, value_word) in enumerate(pairs):
        if name_word.text is None:
            parsed.has_unknown_words = True
            parsed.last_unknown = max(parsed.last_unknown, position)
            parsed.unknown_reason = name_word.dynamic_reason or "keyword arguments speclint cannot read"
            continue
        name = name_word.text
        spec = field_spec(schema, name)
        if spec is None and (name in _FIELDS_WITHOUT_FLAG or name.startswith("_")):
            continue
        use = FlagUse(
            name_word,
            name,
            spec,
            spec.canonical if spec else None,
            "exact" if spec else "unknown",
            value_words=(value_word,),
            option_span=name_word.span,
            value_span=value_word.span,
            position=position,
        )
        parsed.uses.append(use)
        if spec is None:
            parsed.problems.append(
                ArgProblem(
                    "unknown-option",
                    name_word.span,
                    name,
                    use,
                    f"__init__() got an unexpected keyword argument '{name}'",
                )
            )
            continue
        value, known = _literal(value_word)
        use.dynamic = not known
        use.value = value if known else None
        if known:
            _check_value(parsed, use, spec, value_word, value)
    if not parsed.has_unknown_words:
        given = {u.spec.dest for u in parsed.uses if u.spec is not None}
        for spec in schema.flags:
            if spec.required and spec.dest not in given:
                span = call_span or (pairs[0][0].span if pairs else Span(1, 1, 1, 2))
                parsed.problems.append(
                    ArgProblem(
                        "missing-required",
                        span,
                        spec.dest,
                        None,
                        f"__init__() missing 1 required positional argument: '{spec.dest}'",
                    )
                )
    return parsed

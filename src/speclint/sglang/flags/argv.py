"""Parse a launch's argv the way SGLang's argparse parser would, but keep going after errors.

Mirrors CPython 3.11 `argparse.ArgumentParser.parse_args` for SGLang's parser (no
positionals, `allow_abbrev=True`): exact option strings, `--flag=value`, unique-prefix
abbreviations, ambiguous prefixes, nargs, types and choices, last-wins for repeats.
argparse stops at its first error; this records every problem. Which option a word is
(exact, prefix, ambiguous, unknown) is option_matching.py.
"""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word
from speclint.sglang.flags.argv_types import NO_VALUE_ACTIONS as NO_VALUE_ACTIONS
from speclint.sglang.flags.argv_types import convert_value, nargs_range
from speclint.sglang.flags.flag_use import FlagUse as FlagUse
from speclint.sglang.flags.option_matching import Classified, classify, has_negative_number_options
from speclint.sglang.flags.spec_table import SpecsByKey

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.sglang.flags.arg_problem import ArgProblem as ArgProblem
    from speclint.sglang.flags.schema import FlagSchema, FlagSpec


@dataclass(slots=True)
class ParsedArgs:
    """A launch's argv as the release's argparse parser reads it."""

    schema: FlagSchema
    uses: list[FlagUse] = field(default_factory=list)
    problems: list[ArgProblem] = field(default_factory=list)
    has_unknown_words: bool = False
    """A word whose content is unknown stood where a flag could be: any flag may be set."""
    last_unknown: int = -1
    """Argv index of the last such word: a flag written before it may be overridden by it."""
    unknown_reason: str = ""
    one_word: list[Word] = field(default_factory=list)
    """Unquoted unknown words (`--port $PORT`) read as the one value of a flag that takes
    exactly one: the common intent, and what ShellCheck's SC2086 asks to make certain."""
    env: Mapping[str, str | None] | None = None
    """The launch's environment (`Launch.environment`): a choice may depend on it."""

    def uses_of(self, dest: str) -> list[FlagUse]:
        return [u for u in self.uses if u.spec is not None and u.spec.dest == dest]


def parse_argv(
    schema: FlagSchema, words: list[Word], env: Mapping[str, str | None] | None = None
) -> ParsedArgs:
    parsed = ParsedArgs(schema, env=env)
    has_negative = has_negative_number_options(schema)
    # Each word's kind (`Classified.kind`), and the classification of an option word (None for
    # the others): a value word (`--tp 8`'s `8`, half a launch's words) needs no record.
    # An exact option string (most option words) is kept as its FlagSpec: what `classify`
    # makes of it is `Classified(word, "O", spec, text, text)`, and no record is needed.
    kinds: list[str] = []
    items: list[Classified | FlagSpec | None] = []
    after_double_dash = False
    by_option = schema.by_option
    exact = by_option.get
    made = (
        by_option.made.get if isinstance(by_option, SpecsByKey) else exact
    )  # (a router's, a bench's: a dict)
    for word in words:
        text = word.text
        if text is not None and (after_double_dash or not text or text[0] != "-"):
            kinds.append("A")  # what `classify` makes of it (`Classified(word, "A")`)
            items.append(None)
            continue
        if after_double_dash:
            kinds.append("S" if word.splat else "D")
            items.append(None)
            continue
        if text is not None and text != "--":
            spec = made(text) or exact(text)  # (`classify`'s own first lookup; a spec is never false)
            if spec is not None:
                kinds.append("O")
                items.append(spec)
                continue
        item = classify(schema, word, has_negative)
        kind = item.kind
        if kind == "--":
            # argparse never gives `--` to an optional, and with no positionals to take it
            # it stays among the unrecognized arguments (CPython 3.11)
            after_double_dash = True
            kind = item.kind = "-"
        kinds.append(kind)
        items.append(item if kind == "O" else None)

    index = 0
    count = len(kinds)
    while index < count:
        kind = kinds[index]
        option = items[index]
        index += 1
        if kind == "S" or kind == "D":
            _mark_unknown(parsed, index - 1, words[index - 1])
            # it may be a flag (`$FLAG 2`, `f"--{name} {value}"`): the plain words after it may
            # be its values, so none of them is reported as a stray argument
            while index < count and kinds[index] == "A":
                index += 1
            continue
        if option is None:  # "A", or "-" (a `--`)
            word = words[index - 1]
            parsed.problems.append(_problem("unexpected-argument", word.span, word.text or ""))
            continue
        if not isinstance(option, Classified):  # an exact option string (its FlagSpec)
            word = words[index - 1]
            text = word.text or ""
            use = FlagUse(word, text, option, text)
            use.option_span = word.span
            use.position = index - 1
            parsed.uses.append(use)
            if option.action == "store" and option.nargs is None and index < count and kinds[index] == "A":
                use.value_words = (words[index],)  # most flags: one plain value (`_take_values`)
                use.value_span = words[index].span
                index += 1
                _store(parsed, use, 1)
                continue
            low, high = nargs_range(option)
            index = _take_values(parsed, use, kinds, words, index, low, high)
            continue
        use = FlagUse(
            option.word, option.written or "", option.spec, option.option, option.how, option.candidates
        )
        use.option_span = option.word.span
        use.position = index - 1
        parsed.uses.append(use)
        if option.how in ("ambiguous", "unknown"):
            kind = "ambiguous-option" if option.how == "ambiguous" else "unknown-option"
            parsed.problems.append(_problem(kind, option.word.span, use.written, use))
            # argparse would stop; assume the values that follow belong to the unknown flag
            while index < count and kinds[index] in ("A", "D"):
                use.value_words += (words[index],)
                index += 1
            continue
        index = _consume(parsed, use, option, kinds, words, index)
    if schema.required and not parsed.has_unknown_words:  # (few parsers have required options)
        given = {u.spec.dest for u in parsed.uses if u.spec is not None}
        for spec in schema.required:
            if spec.dest not in given:
                span = words[0].span if words else Span(1, 1, 1, 2)
                parsed.problems.append(
                    _problem(
                        "missing-required",
                        span,
                        "/".join(spec.option_strings),
                        None,
                        f"the following arguments are required: {'/'.join(spec.option_strings)}",
                    )
                )
    return parsed


def _mark_unknown(parsed: ParsedArgs, position: int, word: Word) -> None:
    parsed.has_unknown_words = True
    parsed.last_unknown = max(parsed.last_unknown, position)
    parsed.unknown_reason = word.dynamic_reason or "a word speclint cannot read"


def _consume(
    parsed: ParsedArgs, use: FlagUse, item: Classified, kinds: list[str], words: list[Word], index: int
) -> int:
    spec = use.spec
    assert spec is not None
    low, high = nargs_range(spec)
    if item.explicit is not None:
        option_span, value_span = item.explicit_spans()
        if high == 0:
            parsed.problems.append(
                _problem(
                    "ignored-explicit-argument",
                    item.word.span,
                    use.written,
                    use,
                    f"ignored explicit argument {item.explicit!r}"
                    if not item.word.dynamic  # (any text after `=` is refused: its own is unknown)
                    else "ignored explicit argument",
                )
            )
            return index
        use.option_span = option_span
        use.value_span = value_span
        word = item.word
        if word.dynamic:  # `--tp=$TP`: the value is the unknown rest of the word
            use.value_words = (Word(None, value_span or word.span, word.origin, word.dynamic_reason),)
            if word.splat:  # unquoted: read as one word, as `--tp $TP` is
                parsed.one_word.append(word)
        else:
            use.value_words = (Word(item.explicit, value_span or word.span, word.origin),)
        _store(parsed, use, high)
        return index
    return _take_values(parsed, use, kinds, words, index, low, high)


def _take_values(
    parsed: ParsedArgs,
    use: FlagUse,
    kinds: list[str],
    words: list[Word],
    index: int,
    low: int,
    high: int | None,
) -> int:
    """The values of a flag written without `=`: the words after it, `low` to `high` of them
    (its spec's `nargs_range`)."""
    taken: list[Word] = []
    saw_dynamic = False
    count = len(kinds)
    while index < count and (high is None or len(taken) < high):
        kind = kinds[index]
        if kind == "A" or kind == "D":
            taken.append(words[index])
            saw_dynamic |= kind == "D"
            index += 1
        elif kind == "S":
            taken.append(words[index])
            saw_dynamic = True
            if low == high == 1:  # `--port $PORT`: one word, its text unknown (SLM004 says so)
                parsed.one_word.append(words[index])
            else:  # it may be several values, or values and flags
                _mark_unknown(parsed, index, words[index])
            index += 1
            break
        else:
            break
    use.value_words = tuple(taken)
    if taken:
        use.value_span = taken[0].span
    if len(taken) < low and not saw_dynamic:
        expected = (
            "expected one argument"
            if low == 1 and high == 1
            else f"expected {low} arguments"
            if low == high
            else "expected at least one argument"
        )
        parsed.problems.append(_problem("missing-value", use.span, use.written, use, expected))
        use.dynamic = False
        use.value = None
        return index
    _store(parsed, use, high)
    return index


def _store(parsed: ParsedArgs, use: FlagUse, high: int | None) -> None:
    """The value `use` stores (`high`: the most values its spec takes, `nargs_range`)."""
    spec = use.spec
    assert spec is not None
    action = spec.action
    if action == "store" and spec.nargs is None and len(use.value_words) == 1:  # most flags
        word = use.value_words[0]
        text = word.text
        if text is None:
            use.dynamic = True
            use.value = None
            return
        if text != "--":  # (argparse strips a `--` value: the general case below)
            accepted = spec.type not in ("int", "float", "json", "other") and (
                spec.choices is None or text in spec.choices
            )
            value = text if accepted else _typed(parsed, use, spec, word, text)  # (`_typed`'s answer there)
            if value is not _INVALID:
                use.value = spec.const if spec.action_class == "DeprecatedStoreConstAction" else value
            return
    if action == "store_true":
        use.value = True
        return
    if action == "store_false":
        use.value = False
        return
    if action == "boolean_optional":
        use.value = not use.written.startswith("--no-") and not (use.matched or "").startswith("--no-")
        return
    if action in ("store_const", "append_const"):
        use.value = spec.const
        return
    if action == "count":
        use.value = len(parsed.uses_of(spec.dest))
        return
    if high == 0:  # SGLang's Deprecated*Action switches store their const
        use.value = spec.default if spec.action_class == "DeprecatedAction" else spec.const
        return
    texts = []
    for word in use.value_words:  # (a loop, not any(): every flag of every launch comes here)
        if word.text is None:  # (`word.dynamic`, without a property call per value)
            use.dynamic = True
            use.value = None
            return
        texts.append(word.text)
    single = spec.nargs is None or spec.nargs == "?"
    words = list(use.value_words)
    if "--" in texts:  # argparse strips the first `--` from a flag's values
        del words[texts.index("--")]
    if single and not words and use.value_words:
        # argparse's quirk: `--flag=--` stores an empty list (the const for nargs='?'), which
        # SGLang's DeprecatedStoreConstAction ignores as it ignores any value: it stores its const
        stores_const = spec.nargs == "?" or spec.action_class == "DeprecatedStoreConstAction"
        use.value = spec.const if stores_const else []
        return
    values = []
    for word in words:
        text = word.text
        assert text is not None  # a dynamic value returned above
        value = _typed(parsed, use, spec, word, text)
        if value is _INVALID:
            return
        values.append(value)
    if spec.action_class == "DeprecatedStoreConstAction":
        use.value = spec.const
    elif single:
        use.value = values[0] if values else spec.const
    else:
        use.value = values


_INVALID = object()
"""`_typed`'s answer for a value argparse refuses."""


def _typed(parsed: ParsedArgs, use: FlagUse, spec: FlagSpec, word: Word, text: str) -> object:
    """One value word's typed value, or `_INVALID` (the problem recorded, the use's value None)
    where argparse refuses it: not of the flag's type, or not one of its choices."""
    chosen = spec.type != "other"  # (an unconverted value of SGLang's own function: not compared)
    if not chosen:  # (SGLang's own function: rare, its module imported then)
        import speclint.sglang.flags.value_types as value_types

        converted = value_types.convert(parsed.schema.version, spec.dest, text)
        value, error = (text, None) if converted is None else converted
        chosen = converted is not None  # (argparse checks the choices on the value it made)
    else:
        value, error = convert_value(spec, text)
    if error:
        parsed.problems.append(_problem("invalid-type", word.span, text, use, error))
        use.value = None
        return _INVALID
    if spec.choices is not None and chosen and value not in spec.choices:
        from speclint.sglang.flags.env_choices import refused  # (rare: only for values not chosen)

        if spec.env_choices and not refused(spec, value, parsed.env):
            return value
        choices = ", ".join(repr(c) for c in spec.choices)
        parsed.problems.append(
            _problem(
                "invalid-choice",
                word.span,
                text,
                use,
                f"invalid choice: {value!r} (choose from {choices})",
            )
        )
        use.value = None
        return _INVALID
    return value


def _problem(kind: str, span: Span, text: str, use: FlagUse | None = None, detail: str = "") -> ArgProblem:
    """An `ArgProblem`: its record class is made when a launch first has one (most have none)."""
    import speclint.sglang.flags.arg_problem as arg_problem

    return arg_problem.ArgProblem(kind, span, text, use, detail)


def __getattr__(name: str) -> object:
    """`ArgProblem`, imported from its own module when first asked for here."""
    if name != "ArgProblem":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from speclint.sglang.flags.arg_problem import ArgProblem

    return ArgProblem

"""Which option of SGLang's parser an argv word is, matched the way argparse matches it.

Exact option strings, `--flag=value`, unique-prefix abbreviations (found by bisecting the
sorted option strings), ambiguous prefixes, and words argparse reads as arguments (negative
numbers, words with a space). `argv.parse_argv` then gives each option its values.
"""

from __future__ import annotations

from functools import cache

from speclint.core import patterns
from speclint.core.records import dataclass
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from speclint.core.spans import Span
    from speclint.sglang.flags.schema import FlagSchema, FlagSpec


@cache  # compiled on first use: most launches have no word that needs it
def _negative_number() -> re.Pattern[str]:
    """argparse's `_negative_number_matcher`."""
    return patterns.compile(r"^-\d+$|^-\d*\.\d+$")


@dataclass(slots=True)
class Classified:
    """One argv word, as argparse classifies it (option, argument, dynamic, `--`)."""

    word: Word
    kind: str  # 'O' option, 'A' argument, 'D' dynamic argument, 'S' splat, '--'
    spec: FlagSpec | None = None
    option: str | None = None
    written: str | None = None
    explicit: str | None = None
    how: str = "exact"
    candidates: tuple[str, ...] = ()

    @property
    def explicit_option(self) -> str:
        """The option part of an `--option=value` word (only such words have `explicit`)."""
        text = self.word.text if self.word.text is not None else self.word.prefix
        assert text is not None
        return text.split("=", 1)[0]

    def explicit_spans(self) -> tuple[Span, Span | None]:
        """Spans of the option and the value of an `--option=value` word, when the word is
        written literally (its width in the file equals its text); the whole word otherwise."""
        written_len = len(self.explicit_option)
        span = self.word.span
        text = self.word.text or ""
        if span.line == span.end_line and span.end_column - span.column == len(text):
            return span.sub(0, written_len), span.sub(written_len + 1, len(text))
        return span, span


def _option_tuples(schema: FlagSchema, arg: str) -> list[tuple[str, str | None]]:
    """CPython 3.11 `_get_option_tuples`: (option string, explicit arg) pairs `arg` may
    abbreviate, in the parser's order (found by bisecting the sorted option strings)."""
    if len(arg) > 1 and arg[1] == "-":
        if not schema.allow_abbrev:
            return []
        prefix, equals, after = arg.partition("=")
        explicit = after if equals else None
        return [(option, explicit) for option in _starting_with(schema, prefix)]
    short_prefix, short_explicit = arg[:2], arg[2:]
    matches = set(_starting_with(schema, arg))
    if short_prefix in schema.by_option:
        matches.add(short_prefix)
    rank = schema.option_rank
    return [
        (option, short_explicit if option == short_prefix else None)
        for option in sorted(matches, key=rank.__getitem__)
    ]


def _first_not_below(options: tuple[str, ...], text: str) -> int:
    """`bisect.bisect_left(options, text)` for sorted `options`: the index of the first option
    not below `text` (a dozen steps here cost less than importing `bisect` on a cold run)."""
    low, high = 0, len(options)
    while low < high:
        middle = (low + high) // 2
        if options[middle] < text:
            low = middle + 1
        else:
            high = middle
    return low


def _starting_with(schema: FlagSchema, prefix: str) -> list[str]:
    options = schema.sorted_options
    found = []
    for index in range(_first_not_below(options, prefix), len(options)):
        if not options[index].startswith(prefix):
            break
        found.append(options[index])
    found.sort(key=schema.option_rank.__getitem__)
    return found


def classify(schema: FlagSchema, word: Word, has_negative_options: bool) -> Classified:
    """CPython 3.11 `_parse_optional` for one word: which option it is (exact, `--flag=value`,
    a unique prefix, ambiguous, unknown) or an argument (a negative number when no option
    looks like one)."""
    if word.text is None:  # (`word.dynamic`, without a property call per word)
        prefix = word.prefix
        if prefix is not None and prefix.startswith("--") and "=" in prefix:  # `--tp=$TP`
            named = classify(schema, Word(prefix, word.span), has_negative_options)
            if named.spec is not None and named.how in ("exact", "prefix"):
                named.word = word  # the option, its value unknown from the `=` on
                return named
        return Classified(word, "S" if word.splat else "D")
    arg = word.text
    if arg == "--":
        return Classified(word, "--")
    if not arg or arg[0] != "-":
        return Classified(word, "A")
    spec = schema.by_option.get(arg)  # (one lookup: the table makes specs on first use)
    if spec is not None:
        return Classified(word, "O", spec, arg, arg)
    if len(arg) == 1:
        return Classified(word, "A")
    if "=" in arg:
        option, explicit = arg.split("=", 1)
        if option in schema.by_option:
            return Classified(word, "O", schema.by_option[option], option, option, explicit)
    tuples = _option_tuples(schema, arg)
    written = arg.split("=", 1)[0] if arg.startswith("--") else arg
    if len(tuples) > 1:
        return Classified(
            word, "O", None, None, written, None, "ambiguous", tuple(option for option, _ in tuples)
        )
    if len(tuples) == 1:
        matched, given = tuples[0]
        return Classified(word, "O", schema.by_option[matched], matched, written, given, "prefix")
    if _negative_number().match(arg) and not has_negative_options:
        return Classified(word, "A")
    if " " in arg:
        return Classified(word, "A")
    return Classified(word, "O", None, None, written, None, "unknown")


_NEGATIVE_OPTIONS: dict[str, bool] = {}


def has_negative_number_options(schema: FlagSchema) -> bool:
    """argparse's `_has_negative_number_optionals`, once per release (it scans every flag).
    Only option strings from "-." up to "-:" (sorted) can look like a negative number: a dash
    and then a digit or a dot."""
    known = _NEGATIVE_OPTIONS.get(schema.version)
    if known is None:
        options = schema.sorted_options if not schema.exact_only else tuple(sorted(schema.by_option))
        maybe = options[_first_not_below(options, "-.") : _first_not_below(options, "-:")]
        known = _NEGATIVE_OPTIONS[schema.version] = any(_negative_number().match(o) for o in maybe)
    return known

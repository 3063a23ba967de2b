"""Types every stage shares: where a thing is written, and the launches a front-end found.

Front-ends produce `Launch` objects; everything downstream (flag model, resolver, rules,
reports) only ever sees these, never the text they came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """A region of the original file. Lines and columns are 1-based; `end_column` is exclusive.

    Columns count characters (code points) of the decoded line, as editors and ruff do.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    file: str | None = None
    """Set when the region is in another file than the one linted (the YAML file a launch's
    `--config` names): findings there carry that path, and no fix edits it."""

    @staticmethod
    def point(line: int, column: int) -> "Span":
        return Span(line, column, line, column + 1)

    def sub(self, start: int, stop: int) -> "Span":
        """The part of a single-line span from character offset `start` to `stop`."""
        if self.line != self.end_line:
            return self
        return Span(self.line, self.column + start, self.line, self.column + stop, self.file)


@dataclass(frozen=True, slots=True)
class Identity:
    """What an unknown value is, when the file names it: `k + 1` is Identity('k', key, 1).

    Two words whose identities have the same `key` hold the same unknown value (`plus`
    apart), whatever it is at run time: `speculative_num_steps=k` and
    `speculative_num_draft_tokens=k` ask for the same number. `key` says which value
    (where it was made: a parameter, a loop variable, a name the file never assigns);
    `name` is how the file writes it, for messages."""

    name: str
    key: str
    plus: int = 0

    def same_value(self, other: "Identity | None") -> bool:
        return other is not None and other.key == self.key

    def shifted(self, by: int) -> "Identity":
        return Identity(self.name, self.key, self.plus + by)

    def __str__(self) -> str:
        if self.plus == 0:
            return self.name
        return f"{self.name} {'+' if self.plus > 0 else '-'} {abs(self.plus)}"


@dataclass(frozen=True, slots=True)
class Word:
    """One argv word as the shell (or the Python list, or the YAML list) would pass it.

    `text` is None when the value cannot be known without running something (`$(...)`, a
    loop variable, a variable with no known value): rules never guess about such a word.
    `span` is where the word is written (the use site); `origin` is where its value was
    assigned when it came from a variable.
    """

    text: str | None
    span: Span
    origin: Span | None = None
    dynamic_reason: str | None = None
    splat: bool = False
    """True when the word stands for an unknown number of words (an unquoted dynamic
    `$ARGS`, `"$@"`): any flag may hide in it."""
    expanded_at: Span | None = None
    """For a word that came from a bash array element: where the array was expanded
    (`"${ARGS[@]}"`), while `span` is the element as written in the array."""
    identity: Identity | None = None
    """For a word whose text is unknown: which value it holds, when the file names it
    (two words with the same identity key hold the same value)."""

    @property
    def dynamic(self) -> bool:
        return self.text is None


@dataclass(frozen=True, slots=True)
class Condition:
    """One arm of a conditional a launch's values depend on (`if`/`elif`/`else`, a `case`
    pattern, the right side of `&&`, an `if` arm of Python code around `kwargs.update`)."""

    span: Span
    """Where the arm is written (its keyword or pattern): findings point their notes here."""
    description: str
    """A clause a note reads as "when {description}": "the `else` branch at line 5 runs"."""


MAX_ALTERNATIVES = 16
"""A front-end emits at most this many alternatives of one launch; beyond, the values that
differ are dynamic (the launch is then only partly read)."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """Marks a Launch as one of several alternatives of the same command: the script chooses
    between literal values at run time (`if ...; then TP=8; else TP=4; fi`), so the front-end
    emits one Launch per choice, all with the same `span`. The engine checks each and reports
    a finding once: without a note when every alternative has it, else with a note naming
    the conditions of the alternatives that have it (`speclint.alternatives`)."""

    conditions: tuple[Condition, ...]
    """The arms that make this alternative (one per conditional it depends on), in file order."""
    index: int = 0
    """Position among the alternatives of this launch (0 is counted as the launch)."""
    count: int = 1
    """How many alternatives the launch has."""

    @property
    def description(self) -> str:
        """"the `then` branch at line 3 runs and the `8)` case at line 9 runs"."""
        return " and ".join(c.description for c in self.conditions)


@dataclass(slots=True)
class Launch:
    """One SGLang server launch found in a source file."""

    path: str
    entry: str
    """How SGLang is started: 'python -m sglang.launch_server', 'sglang serve', ..."""
    span: Span
    """The whole command, first word to last (through continuations)."""
    args: list[Word]
    """The words SGLang's argument parser sees (after the module or subcommand)."""
    env: dict[str, Word] = field(default_factory=dict)
    """Environment the command runs with, as far as the file says: exported variables,
    `VAR=value` prefixes, `env VAR=value`, `docker run -e`."""
    image: str | None = None
    """Container image the launch runs in (`lmsysorg/sglang:v0.5.6.post2`), when known."""
    image_span: Span | None = None
    kwargs_style: bool = False
    """True when the launch came from keyword arguments (`sgl.Engine(tp_size=2)`) rather
    than an argv; flags then are SGLang field names."""
    kwargs: list[tuple[Word, Word]] = field(default_factory=list)
    """For `kwargs_style` launches (then `args` is empty): the (keyword, value) pairs in
    call order, dict merges already applied. The keyword word's text is the field name as
    written (span: the name); the value word's text is the value as a Python literal
    (`repr`: `16`, `'EAGLE'`, `True`), None when not statically known. A keyword word with
    `splat` set stands for `**mapping` whose keys are unknown."""
    config_file: object = None
    """`speclint.frontends.manifests.sglang_config.ConfigFile`: what the file named by the
    launch's `--config` says, when it was found on disk (merged as the release merges it)."""
    standalone_config: bool = False
    """The launch is a config file on its own (or a manifest's flag-key map): the command
    line that uses it is not known, so flags may follow it."""
    alternative: Alternative | None = None
    """Set when this launch is one alternative of a command whose values depend on a branch."""

    def unknown_words(self) -> list[Word]:
        """The words SGLang would receive whose text speclint cannot know (`$(...)`, an unset
        variable, `**kwargs` of unknown keys): the launch is only partly read."""
        if self.kwargs_style:
            return [word for pair in self.kwargs for word in pair if word.dynamic or word.splat]
        return [word for word in self.args if word.dynamic]

    @property
    def partly_read(self) -> bool:
        return bool(self.unknown_words())
    gpu_count: Word | None = None
    """GPUs the container is given, when a manifest says (Kubernetes `nvidia.com/gpu`, a
    compose device reservation): text is the count in decimal, span where it is written."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem a front-end met while reading a file (not a finding about SGLang).

    `kind` is one of: 'syntax-error', 'doc-syntax-error' (in a documentation code block: a
    warning), 'unreadable-file', 'file-too-large', 'unsupported-input',
    'broken-continuation' (a comment or a `\\ ` with trailing blanks cut a continued command
    short, so the flags on the following lines never reach the program).
    """

    kind: str
    message: str
    span: Span


@dataclass(slots=True)
class ExtractResult:
    launches: list[Launch] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: list[tuple[Span, str]] = field(default_factory=list)
    """Every comment in the file with its text (suppression comments are read from these)."""

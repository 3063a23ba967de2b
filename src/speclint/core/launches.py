"""The launches a front-end found: everything downstream sees only these.

Front-ends produce `Launch` objects; everything downstream (flag model, resolver, rules,
reports) only ever sees these, never the text they came from.
"""

from __future__ import annotations

from dataclasses import field

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.conditions import Alternative as Alternative
    from speclint.core.conditions import Condition as Condition
    from speclint.core.config_files import ConfigFile
    from speclint.core.diagnostics import Diagnostic as Diagnostic
    from speclint.core.fixture_bases import FixtureBase as FixtureBase
    from speclint.core.spans import Span
    from speclint.core.words import Word


MAX_ALTERNATIVES = 16
"""A front-end emits at most this many alternatives of one launch; beyond, the values that
differ are dynamic (the launch is then only partly read)."""


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
    env_unread: Word | None = None
    """A word standing for every variable of `env` that a source speclint could not read may
    set (a `docker run --env-file` not on disk): its span the file's name, its reason naming
    the file. Set: a variable `env` does not list is unknown, not unset."""
    env_unread_label: str = "the container's environment"
    """What `env_unread` stands for, as findings name it (`doppler run`: doppler's secrets)."""
    config_file: ConfigFile | None = None
    """What the file named by the launch's `--config` says, when it was found on disk (merged as the release merges it)."""
    standalone_config: bool = False
    """The launch is a config file on its own (or a manifest's flag-key map): the command
    line that uses it is not known, so flags may follow it."""
    alternative: Alternative | None = None
    """Set when this launch is one alternative of a command whose values depend on a branch."""

    def unknown_words(self) -> list[Word]:
        """The words SGLang would receive whose text speclint cannot know (`$(...)`, an unset
        variable, `**kwargs` of unknown keys): the launch is only partly read."""
        if self.kwargs_style:  # `**mapping` of unknown keys is one word standing as both
            words = {id(word): word for pair in self.kwargs for word in pair if word.dynamic or word.splat}
            return list(words.values())
        found = [word for word in self.args if word.text is None]  # (`dynamic`, inlined)
        if self.env_unread is not None:  # (an env file not read: last, after the arguments)
            found.append(self.env_unread)
        return found

    @property
    def partly_read(self) -> bool:
        return bool(self.unknown_words())

    def environment(self) -> dict[str, str | None]:
        """Each variable the launch is known to set, with its value (None: unknown); with an env
        file not read (`env_unread`), any other variable may be set too (`AnyVariable`)."""
        env = {name: word.text for name, word in self.env.items()}
        if self.env_unread is None:
            return env
        from speclint.core.any_variable import AnyVariable

        return AnyVariable(env)

    fixture: FixtureBase | None = None
    """Set when the launch is made by a fixture base of SGLang's (`frontends.python.fixtures`)."""
    helper: tuple[str, str] | None = None
    """(name, release) when the launch is the command SGLang's test helper `name` builds
    (`run_bench_one_batch(model, [...])`), read from that release's sglang/test/test_utils.py."""
    gpu_count: Word | None = None
    """GPUs the container is given, when a manifest says (Kubernetes `nvidia.com/gpu`, a
    compose device reservation) or `docker run --gpus`: text is the count in decimal (None:
    unknown, with the reason), span where it is written."""
    gpu_count_by: tuple[str, str] | None = None
    """What gives that count when not a manifest, as findings name it: (the option with its
    value, `docker run --gpus 2`; the option to change, `--gpus`)."""


@dataclass(slots=True)
class ExtractResult:
    """What a front-end found in one file: launches, problems reading it, and its comments."""

    launches: list[Launch] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: list[tuple[Span, str]] = field(default_factory=list)
    """Every comment in the file with its text (suppression comments are read from these)."""


_MOVED = {
    "Condition": "speclint.core.conditions",
    "Alternative": "speclint.core.conditions",
    "FixtureBase": "speclint.core.fixture_bases",
    "Diagnostic": "speclint.core.diagnostics",
}
"""Records a launch may carry, each in a module of its own: a record class costs ~0.5 M
instructions to make, and a plain shell launch makes none of these."""


def __getattr__(name: str) -> object:
    """A record of `_MOVED`, imported from its module when first asked for here."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)

"""What the shell front-end knows about variables at one point of a script.

Values are tracked only as far as they can be known without running anything; whenever two
paths through the script could disagree, the variable becomes dynamic (with a reason), so a
rule never sees a value the script might not have.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from speclint.core import patterns
from speclint.core.spans import dataclass  # (a value record: see there)
from speclint.core.words import Word
from speclint.frontends.shell.choices import arm_alternatives

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from speclint.core.spans import Span
    from speclint.frontends.shell.choices import Alternatives, Choice
    from speclint.frontends.shell.written_chars import WrittenChars


BUILTINS_WITH_EFFECTS = {
    "eval",
    "source",
    ".",
    "read",
    "mapfile",
    "readarray",
    "getopts",
    "printf",
    "set",
    "alias",
    "unalias",
    "shift",
}
"""Builtins that may change this shell's variables or hold code (`builtin_commands` applies
their effect; here, so that a command is told apart without importing that module)."""


Run = tuple["str | None", str, "Span | None"]
"""One run of a partly known scalar: (its text, "", None) when known, else (None, why it is
unknown, where that part is written)."""


@dataclass(slots=True)
class VarValue:
    """One variable's state. Exactly one of `text`/`elements`/`reason` describes the value."""

    text: str | None = None
    """Scalar value, when known."""
    elements: tuple[Word, ...] | None = None
    """Array elements (each with the span where it is written), when the variable is an array."""
    reason: str | None = None
    """Why the value is unknown (then `text` and `elements` are None)."""
    origin: Span | None = None
    """Where the value is written (the assignment's right-hand side)."""
    exported: bool = False
    is_set: bool = True
    """False after `unset X`: the variable is known to be empty and unset."""
    alternatives: Alternatives[VarValue] | None = None
    """With `reason` set: the value on each path through the branches that disagree on it,
    with the arms that give it (`choices`); None when not tracked."""
    assumed: bool = False
    """The value holds only if the environment leaves a variable unset (`${X:-false}` of an X
    never assigned here, or inherited from an outer program): usable as the likely value, never
    to decide which branch runs (`static_tests`)."""
    runs: tuple[Run, ...] | None = None
    """With `reason` set, for a scalar written partly with known text
    (`ARGS="--model-path $MODEL --tp 2"`): its known and unknown runs in order. The value is
    unknown as a whole; an unquoted `$ARGS` still splits its known runs into their words
    (`parameter_expansion`), the unknown ones standing for any number of words."""
    element: Word | None = None
    """With `text`: the value is exactly this word of a function call (`local model=$1`), so
    an expansion of it points at the word where the call writes it, as `"$1"` itself does."""
    written: Span | WrittenChars | None = None
    """With `text`: where it is written character for character (a plain word or a quoted
    string on one line, no escapes), so the words an unquoted expansion splits it into point
    inside it, as an array's elements do."""
    made_by: str | None = None
    """Said at `origin` instead of "value assigned here" when the value is not written as an
    assignment of the script (`#SBATCH --export=ALL,NAME=value`: what sbatch does with it)."""
    keys: tuple[tuple[str, VarValue], ...] | None = None
    """With `reason` set, for an associative array (`declare -A`) whose keys are all known:
    each key's value (`assoc_arrays`). The array as a whole stays unknown (bash gives
    `${X[@]}` in no defined order); `${X[key]}` reads one key."""
    runs_written: tuple[WrittenChars | None, ...] | None = None
    """With `runs`: where each known run is written character for character (`run_at`)."""

    def run_at(self, index: int) -> WrittenChars | None:
        return self.runs_written[index] if self.runs_written is not None else None

    @property
    def dynamic(self) -> bool:
        return self.reason is not None

    @property
    def readable(self) -> bool:
        """Known, or partly known (`runs`): worth keeping as a branch's alternative."""
        return self.reason is None or self.runs is not None

    def marked(self, exported: bool, assumed: bool) -> VarValue:
        """This value with `exported` and `assumed` as given: `dataclasses.replace`, without
        its look at every field on each call (a script's assignments make one each). Every
        field is passed on (tests/test_shell_values.py checks it against `replace`)."""
        return VarValue(
            self.text,
            self.elements,
            self.reason,
            self.origin,
            exported,
            self.is_set,
            self.alternatives,
            assumed,
            self.runs,
            self.element,
            self.written,
            self.made_by,
            self.keys,
            self.runs_written,
        )

    def same_value(self, other: VarValue) -> bool:
        if self is other:
            return True
        if self.reason is not None or other.reason is not None:
            return False
        if self.is_set != other.is_set or self.text != other.text:
            return False
        if (self.elements is None) != (other.elements is None):
            return False
        if self.elements is not None and other.elements is not None:
            mine = [w.text for w in self.elements]
            if None in mine or mine != [w.text for w in other.elements]:
                return False
        return True

    def as_word(self, fallback: Span) -> Word:
        """The value as an environment word (arrays are not exported by bash)."""
        span = self.origin or fallback
        if self.reason is not None:
            return Word(None, span, self.origin, dynamic_reason=self.reason)
        if self.elements is not None:
            return Word(None, span, self.origin, dynamic_reason="bash does not export arrays")
        if self.element is not None:  # a function call's word: where the call writes it
            return Word(self.text or "", self.element.span, self.element.origin)
        return Word(self.text or "", span, self.origin, made_by=self.made_by)


def _value_hash(self: VarValue) -> int:
    """By value, as a frozen record's (`core.spans`: set after the class is made)."""
    return hash(
        (self.text, self.elements, self.reason, self.origin, self.exported, self.is_set, self.alternatives)
        + (self.assumed, self.runs, self.element, self.written, self.made_by, self.keys, self.runs_written)
    )


type.__setattr__(VarValue, "__hash__", _value_hash)

MAX_VALUE_CHARS = 64 * 1024
"""A longer variable value (or expanded word) is treated as unknown. `A=$A$A` repeated doubles
a value each line: without a bound, a few lines of script would take all memory."""
MAX_ELEMENTS = 4096
"""The same bound for the number of elements of an array."""


def _too_big(value: VarValue) -> bool:
    if value.elements is not None:
        return (
            len(value.elements) > MAX_ELEMENTS
            or sum(len(w.text or "") for w in value.elements) > MAX_VALUE_CHARS
        )
    return value.text is not None and len(value.text) > MAX_VALUE_CHARS


def dynamic_value(reason: str, origin: Span | None, exported: bool = False) -> VarValue:
    return VarValue(reason=reason, origin=origin, exported=exported)


class Env:
    """Variables at one point of a script, plus the shell modes that change how they behave."""

    __slots__ = (
        "vars",
        "allexport",
        "poison",
        "positional",
        "positional_reason",
        "unknown_template",
        "outside",
        "has_alternatives",
    )

    def __init__(self) -> None:
        self.vars: dict[str, VarValue] = {}
        self.allexport = False
        """`set -a` is on: every assignment is exported."""
        self.poison: str | None = None
        """Set after `eval`/`source` of unknown text: any variable not assigned since may have
        been changed, so its value is unknown for this reason."""
        self.positional: tuple[Word, ...] | None = None
        """`$1`, `$2` ... when known: the words of the function call being read (or of `set
        --`), each where it is written; None: unknown, for `positional_reason`."""
        self.positional_reason = "script argument (not known statically)"
        """Why `$1`, `$@` ... are unknown here (script or function arguments)."""
        self.unknown_template = "${name} is not assigned in this file (comes from the environment)"
        """Why a variable never assigned here is unknown (an inner `bash -c` shell only sees
        exported variables; a remote `ssh` shell sees none of ours)."""
        self.outside: tuple[frozenset[str], str | None, str] | None = None
        """For an inner `bash -c` shell: the names the outer script assigns (`unknown_template`
        says why those are unknown here), and the outer shell's `poison` and template, which say
        why any other name is: the inner shell inherits the environment the script got."""
        self.has_alternatives = False
        """Some variable was given values chosen by a branch (only then do commands look)."""

    def copy(self) -> Env:
        other = Env.__new__(Env)
        other.vars = dict(self.vars)
        other.allexport = self.allexport
        other.poison = self.poison
        other.positional = self.positional
        other.positional_reason = self.positional_reason
        other.unknown_template = self.unknown_template
        other.outside = self.outside
        other.has_alternatives = self.has_alternatives
        return other

    def get(self, name: str) -> VarValue | None:
        return self.vars.get(name)

    def unknown_reason(self, name: str) -> str:
        if self.poison is not None:
            return self.poison
        if name.startswith("SLURM"):  # in a shell Slurm runs: Slurm sets it
            from speclint.frontends.shell.slurm_names import SLURM_VARIABLE, slurm_reason

            slurm = self.vars.get(SLURM_VARIABLE)
            if slurm is not None and slurm.reason is not None:
                found = slurm_reason(name, slurm.reason)
                if found is not None:
                    return found
        if self.outside is not None and name not in self.outside[0]:
            return self.outside[1] or self.outside[2].replace("{name}", name)
        return self.unknown_template.replace("{name}", name)

    def assign(self, name: str, value: VarValue) -> None:
        if value.reason is None and _too_big(value):
            value = VarValue(
                reason=f"${name} grows past {MAX_VALUE_CHARS // 1024} KiB; speclint stops tracking it",
                origin=value.origin,
                exported=value.exported,
            )
        if value.alternatives:
            self.has_alternatives = True
        previous = self.vars.get(name)
        exported = value.exported or self.allexport or (previous is not None and previous.exported)
        if exported != value.exported:
            value = value.marked(exported, value.assumed)
        self.vars[name] = value

    def set_exported(self, name: str, exported: bool, name_span: Span) -> None:
        current = self.vars.get(name)
        if current is None:
            current = dynamic_value(self.unknown_reason(name), name_span)
        self.vars[name] = replace(current, exported=exported)

    def poison_all(self, reason: str) -> None:
        """Forget every value: something the front-end cannot read may have changed any of them."""
        self.poison = reason
        for name, value in self.vars.items():
            if value.reason is None:
                self.vars[name] = VarValue(reason=reason, origin=value.origin, exported=value.exported)

    def assume_all(self) -> None:
        """Mark every known value `assumed`: something outside this code may set it."""
        for name, value in self.vars.items():
            if value.reason is None and not value.assumed:
                self.vars[name] = replace(value, assumed=True)

    def exported_words(self, fallback: Span) -> dict[str, Word]:
        return {
            name: value.as_word(fallback)
            for name, value in self.vars.items()
            if value.exported and value.is_set and value.elements is None
        }

    def merge_from(self, branches: list[Env], where: int, arms: list[Choice] | None = None) -> None:
        """Become the join of `branches` (alternative paths through a construct at line `where`):
        a variable the paths disagree on becomes dynamic; with `arms` (one
        `choices.Choice` per branch) it also keeps each path's value."""
        names: set[str] = set()
        for branch in branches:
            names.update(branch.vars)
        merged: dict[str, VarValue] = {}
        for name in names:
            values = [branch.vars.get(name) for branch in branches]
            first = values[0]
            if first is not None and all(v is not None and first.same_value(v) for v in values):
                exported = any(v.exported for v in values if v is not None)
                assumed = any(v.assumed for v in values if v is not None)
                if first.exported != exported or first.assumed != assumed:
                    first = replace(first, exported=exported, assumed=assumed)
                merged[name] = first
                continue
            known = [v for v in values if v is not None]
            if len(known) < len(values):
                reason = f"${name} is assigned only on some paths (line {where})"
            else:
                reason = f"${name} is assigned differently on different paths (line {where})"
            alternatives = None
            if arms is not None:
                alternatives = arm_alternatives(values, arms)
            merged[name] = VarValue(
                reason=reason,
                origin=known[0].origin if known else None,
                exported=any(v.exported for v in known),
                alternatives=alternatives,
            )
            self.has_alternatives = self.has_alternatives or bool(alternatives)
        self.vars = merged
        self.allexport = any(branch.allexport for branch in branches)
        self.has_alternatives = self.has_alternatives or any(b.has_alternatives for b in branches)
        poisons = [branch.poison for branch in branches if branch.poison]
        self.poison = poisons[0] if poisons else None
        first_args = branches[0].positional if branches else None
        if first_args is not None and any(b.positional != first_args for b in branches[1:]):
            self.positional = None  # `shift` on some paths only (an option loop)
            self.positional_reason = (
                f"{branches[0].positional_reason}, shifted on some paths only (line {where})"
            )
        elif branches:
            self.positional = first_args
            self.positional_reason = branches[0].positional_reason


def rests_on_environment(env: Env, names: list[str]) -> bool:
    """Whether a value computed from the variables `names` may differ with the environment:
    one of them is not assigned here (a default was used) or is itself `assumed`."""
    for name in names:
        if name.isdigit() and env.positional is not None:
            from speclint.frontends.shell.positional import certain

            if certain(env, name):
                continue
            return True
        value = env.vars.get(name)
        if value is None or value.assumed:
            return True
    return False


def appended(current: VarValue | None, value: VarValue, name: str, origin: Span) -> VarValue:
    """`X+=...`: append to a scalar or an array."""
    if current is None:
        return value
    if current.reason is not None or value.reason is not None:
        return dynamic_value(current.reason or value.reason or f"${name} is appended dynamically", origin)
    if current.elements is not None or value.elements is not None:
        left = (
            current.elements
            if current.elements is not None
            else (
                (Word(current.text or "", current.origin or origin, current.origin),)
                if current.is_set
                else ()
            )
        )
        right = value.elements if value.elements is not None else (Word(value.text or "", origin, origin),)
        return VarValue(
            elements=left + right,
            origin=current.origin,
            exported=current.exported,
            assumed=current.assumed or value.assumed,
        )
    return VarValue(
        text=(current.text or "") + (value.text or ""),
        origin=origin,
        exported=current.exported,
        assumed=current.assumed or value.assumed,
    )


@cache  # compiled on first use: only for `NAME=value` words of env, export and the like
def _name_pattern() -> re.Pattern[str]:
    return patterns.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_variable_name(text: str) -> bool:
    """Whether `text` is a name the shell can assign (`NAME=value`)."""
    return _name_pattern().fullmatch(text) is not None

"""Frameworks that forward SGLang's flags under a prefix (slime: `--sglang-mem-fraction-static`).

slime registers every SGLang server flag `--X` as `--sglang-X` (its
`add_sglang_arguments` wraps `ServerArgs.add_cli_args`) and starts the SGLang engines
itself, with the model (`--hf-checkpoint`), tensor-parallel size and ports it chooses. A
command whose words carry such flags (written, or from a bash array) becomes a launch of
those flags with the prefix removed and the model unknown. slime's own `--sglang-router-*`
and `--sglang-server-concurrency` are not SGLang flags and are left out.

Known frameworks are recognised by default; `[tool.speclint] flag-prefixes` adds others
(`{"myrl" = "--engine-"}`) or turns one off (`{"slime" = ""}`). The prefixes in force for
a lint are set by `lint_text` (`use_prefixes`), so a front-end never reads configuration.
"""

from __future__ import annotations

from speclint.core.launches import Launch
from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from contextvars import ContextVar

DEFAULT_PREFIXES: dict[str, str] = {"slime": "--sglang-"}
_OWN_FLAGS: dict[str, tuple[str, ...]] = {"slime": ("router-", "server-concurrency")}
"""Flags a framework defines itself under its prefix (the part after the prefix)."""
_DERIVED: dict[str, dict[str, str]] = {"slime": {"--rollout-num-gpus-per-engine": "--tp-size"}}
"""A framework flag that sets an SGLang one (slime's `validate_args`: `sglang_tp_size =
rollout_num_gpus_per_engine`)."""
_VISIBILITY = ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")


@dataclass(frozen=True, slots=True)
class Prefix:
    """Where a framework puts its SGLang flags (`--sglang-` in a router's command line)."""

    framework: str
    prefix: str
    own: tuple[str, ...] = ()


_DEFAULT = tuple(Prefix(name, p, _OWN_FLAGS.get(name, ())) for name, p in DEFAULT_PREFIXES.items())
_ACTIVE: dict[str, ContextVar[tuple[Prefix, ...]]] = {}
"""The context variable of the prefixes in force, under "prefixes": made (`contextvars`
imported) when a lint first sets prefixes other than the defaults, which every context reads
until then (`setdefault`: two threads get the same variable)."""


def _active() -> tuple[Prefix, ...]:
    variable = _ACTIVE.get("prefixes")
    return _DEFAULT if variable is None else variable.get()


_TABLES: dict[tuple[tuple[str, str], ...] | None, tuple[Prefix, ...]] = {}
"""`configured` -> its prefixes (every file of a batch has the same few settings)."""


def use_prefixes(configured: tuple[tuple[str, str], ...] | None) -> None:
    """The prefixes for the files linted next: the defaults, with `configured` (framework,
    prefix) pairs added or replacing them; an empty prefix turns a framework off."""
    prefixes = _TABLES.get(configured)
    if prefixes is None:
        table = dict(DEFAULT_PREFIXES)
        table.update(dict(configured or ()))
        prefixes = tuple(
            Prefix(name, p, _OWN_FLAGS.get(name, ()) if p == DEFAULT_PREFIXES.get(name) else ())
            for name, p in sorted(table.items())
            if p
        )
        if len(_TABLES) < 64:
            _TABLES[configured] = prefixes
    variable = _ACTIVE.get("prefixes")
    if variable is None:
        if prefixes == _DEFAULT:
            return  # what every context reads until prefixes are set
        from contextvars import ContextVar

        variable = _ACTIVE.setdefault("prefixes", ContextVar("speclint_flag_prefixes", default=_DEFAULT))
    variable.set(prefixes)


def mentions(raw: bytes) -> bool:
    """Whether a command's text may carry prefixed flags (so it is worth expanding)."""
    return any(p.prefix.encode() in raw for p in _active())


def prefixed_launch(
    path: str,
    span: Span,
    words: list[Word],
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> Launch | None:
    """The SGLang flags a framework command forwards, as a launch; None when it has none."""
    for prefix in _active():
        args = _forwarded(words, prefix)
        if args:
            args = _derived(words, prefix.framework) + args
            reason = f"the model is chosen by {prefix.framework}, not by these flags"
            head = [Word("--model-path", span), Word(None, span, dynamic_reason=reason)]
            image_text, image_span = image if image is not None else (None, None)
            # the framework places its engines on the GPUs itself: the command's visible GPUs
            # are not one engine's
            kept = {name: word for name, word in env.items() if name not in _VISIBILITY}
            return Launch(
                path,
                f"{prefix.framework} ({prefix.prefix}* flags forwarded to SGLang)",
                span,
                head + args,
                kept,
                image_text,
                image_span,
            )
    return None


def _derived(words: list[Word], framework: str) -> list[Word]:
    """SGLang flags the framework sets from its own (slime has no `--sglang-tp-size`: the
    engine's tensor-parallel size is always `--rollout-num-gpus-per-engine`)."""
    table = _DERIVED.get(framework, {})
    out: list[Word] = []
    for word, value in zip(words, words[1:]):
        flag = table.get(word.text or "")
        if flag is not None:
            out += [Word(flag, word.span, word.origin or word.span), value]
    return out


def _forwarded(words: list[Word], prefix: Prefix) -> list[Word]:
    out: list[Word] = []
    taking = False
    for word in words:
        text = word.text
        if text is None:
            if word.splat and out:  # an unknown array may hold more of them
                out.append(word)
            elif taking:
                out.append(word)
            continue
        if text.startswith(prefix.prefix) and len(text) > len(prefix.prefix):
            rest = text[len(prefix.prefix) :]
            taking = not rest.startswith(prefix.own) if prefix.own else True
            if taking:
                # the span is the word as written; `origin` keeps fixes off a renamed word
                out.append(
                    Word("--" + rest, word.span, word.origin or word.span, expanded_at=word.expanded_at)
                )
            continue
        if text.startswith("-") and len(text) > 1 and not _number(text):
            taking = False
            continue
        if taking:
            out.append(word)
    return out


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def array_launches(variables: Mapping[str, object], path: str) -> list[Launch]:
    """Launches for arrays of prefixed flags that no command in the file uses (a README's
    `SGLANG_ARGS=(--sglang-... )` fragment): one per array that holds such flags."""
    found: list[Launch] = []
    for value in variables.values():
        elements = getattr(value, "elements", None)
        if not elements:
            continue
        first, last = elements[0].span, elements[-1].span
        span = Span(first.line, first.column, last.end_line, last.end_column)
        launch = prefixed_launch(path, span, list(elements), {}, None)
        if launch is not None:
            found.append(launch)
    found.sort(key=lambda launch: (launch.span.line, launch.span.column))
    return found

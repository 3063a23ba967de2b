"""SLM004 launch-partly-read: a launch holds values speclint cannot know, so checks may be missing."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext

_SHOWN = 4
"""Unknown values named in the message; the rest are counted (each has a note)."""


class LaunchPartlyRead(Rule):
    """## What it does
    Says once per launch which of its values speclint cannot know without running the script
    (a command substitution `$(...)`, a variable set outside the file, a loop variable over
    words not all known (`for tp in $TP_SIZES`; over known words each iteration is read), a
    script argument, `**kwargs` of unknown keys), and why.

    ## Why it matters
    speclint never guesses: a rule that needs an unknown value stays silent. Without this
    finding a launch whose `--tp-size` comes from `$(nproc)` would look as checked as one that
    writes `--tp-size 8`. The summary line also counts these launches ("only partly read"),
    and says "All checks passed" only when every launch was read whole.

    Values chosen by a branch (`if ...; then TP=8; else TP=4; fi`) are not unknown: each
    alternative is checked, and a finding says on which branch it happens; where some
    alternatives hold unknown values (an `if` arm, or a subclass of a unittest base class whose
    launch it inherits, setting `other_args = compute_args()`), this finding is reported once
    for the launch, and each alternative's own unknown value is a note saying when ("when the
    class is TestSub (line 21): ..."). Nor are a shell
    function's arguments where the script calls it (`serve() { python -m
    sglang.launch_server --model-path "$1" "${@:2}"; }` then `serve /models/llama --tp 8`):
    each call is read with its words, and a finding only some calls have says which ("when
    serve() is called at line 4"). A function called nowhere, or arguments consumed in a way
    speclint does not follow (an option loop over `$1` with `shift`, `getopts`), leave them
    unknown, and this finding says so ("argument of function serve()").

    An unquoted `$VAR` or `$(...)` that is the one value of a flag taking exactly one value
    (`--port $PORT`) is read as one word whose text is unknown, and the finding says so
    ("unquoted, read as one word"): that is what such a line means, and ShellCheck's SC2086
    asks to quote it to make it certain. Anywhere else (`$EXTRA_ARGS` on its own, the values
    of a flag that takes several) an unquoted unknown word may hold any number of words and
    flags: every flag written before it may be overridden, every field it could set is
    unknown, and the checks that need them do not run.

    ## Example
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size $(nvidia-smi -L | wc -l)
    ```

    ## Use instead
    ```bash
    python -m sglang.launch_server --model-path /models/llama --tp-size 8
    ```
    Or check the command with its real values when it runs: `speclint run -- python -m
    sglang.launch_server ...`.
    """

    code = "SLM004"
    gates = ("partly-read",)
    stage = "parse"
    name = "launch-partly-read"
    severity = Severity.INFO
    per_launch = True
    summary = "A launch holds values speclint cannot know; checks that need them did not run."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --tp-size $(nproc)\n",
            at="1:57",
            says="speclint cannot know the value of `--tp-size`",
            fixed=NO_FIX,
        ),
        Example(
            'python -m sglang.launch_server --model-path "$MODEL"\n',
            at="1:45",
            says="cannot know the value of `--model-path`",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --port $PORT\n",
            at="1:54",
            says="the value of `--port` ($PORT is not assigned in this file (comes from the "
            "environment); unquoted, read as one word)",
            fixed=NO_FIX,
        ),
        Example(
            'serve() { python -m sglang.launch_server --model-path "$1"; }\n',
            at="1:55",
            says="the value of `--model-path` (argument of function serve())",
            fixed=NO_FIX,
        ),
        Example(
            "for tp in $TP_SIZES; do python -m sglang.launch_server --model-path m --tp $tp; done\n",
            at="1:76",
            says="launch only partly read: speclint cannot know the value of `--tp`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --tp-size 8\n",
        "for tp in 1 2; do python -m sglang.launch_server --model-path m --tp-size $tp; done\n",
        "TP=8\npython -m sglang.launch_server --model-path m --tp-size $TP\n",
        'if [ -n "$BIG" ]; then TP=8; else TP=4; fi\n'
        "python -m sglang.launch_server --model-path m --tp-size $TP\n",
        'serve() { python -m sglang.launch_server --model-path "$1" "${@:2}"; }\n'
        "serve /models/llama --tp-size 8\n",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        unknown = ctx.unknown_words()
        if not unknown:
            return
        labels = _labels(ctx)
        one_word = {id(word) for word in ctx.parsed.one_word} if not ctx.launch.kwargs_style else set()
        items = []
        for word in unknown:
            what = labels.get(id(word), "a word that may hold any flags" if word.splat else "an argument")
            why = word.dynamic_reason or "not known statically"
            if id(word) in one_word:  # the flag model read it as the flag's one value
                why += "; unquoted, read as one word"
            items.append(f"{what} ({why})")
        shown = "; ".join(items[:_SHOWN])
        if len(items) > _SHOWN:
            shown += f"; and {len(items) - _SHOWN} more (see the notes)"
        message = (
            f"launch only partly read: speclint cannot know {shown}; checks that need "
            f"{'these values' if len(items) > 1 else 'this value'} did not run"
        )
        notes = [Note(word.span, f"unknown: {item}") for word, item in zip(unknown[1:], items[1:])]
        origin = unknown[0].origin
        if origin is not None and origin != unknown[0].span:
            notes.insert(0, Note(origin, unknown[0].made_by or "value assigned here"))
        hint = (
            "write the value literally where you can, or check the command with its real "
            "values as it starts: `speclint run -- <command>`"
        )
        yield self.report(ctx.path, unknown[0].span, message, hint, notes)


def _labels(ctx: LaunchContext) -> dict[int, str]:
    """What each unknown word is to SGLang: the value of which flag or field."""
    labels: dict[int, str] = {}
    if ctx.launch.env_unread is not None:
        labels[id(ctx.launch.env_unread)] = ctx.launch.env_unread_label
    if ctx.launch.kwargs_style:
        for key, value in ctx.launch.kwargs:
            if key.splat:
                labels[id(key)] = "`**` keywords"
            elif key.text is not None:
                labels[id(value)] = f"`{key.text}=`"
        return labels
    for use in ctx.parsed.uses:
        for word in use.value_words:
            labels[id(word)] = f"the value of `{use.written}`"
        if use.word.dynamic:
            labels.setdefault(id(use.word), f"the value of `{use.written}`")
    return labels

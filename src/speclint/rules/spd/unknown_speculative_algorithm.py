"""SPD008 unknown-speculative-algorithm: a name SGLang's algorithm registry does not know."""

from __future__ import annotations

from speclint.core.findings import Note, Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.rules.precedence import REJECTION
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.result import UNKNOWN_ALGORITHM

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.checkpoints.drafter import DrafterKind


class UnknownSpeculativeAlgorithm(Rule):
    """## What it does
Finds `--speculative-algorithm` values that the checked SGLang release does not know.

## Why it matters
From 0.5.14 the flag has no argparse choices: the value is upper-cased and looked up
later, and an unknown name stops the launch with `ValueError: Unknown speculative
algorithm name: X` after the model config was read. (Older releases refuse it in argparse:
see invalid-choice.) Plugins can register more names; speclint knows the built-in ones.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE-3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64
```
"""

    code = "SPD008"
    gates = ("rejection",)
    name = "unknown-speculative-algorithm"
    severity = Severity.ERROR
    rests_on = (RESOLUTION,)
    summary = "A --speculative-algorithm name the SGLang release does not know."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm MEDUSA",
            "0.5.23",
            at="1:71",
            says="SGLang 0.5.23 does not know the speculative algorithm 'MEDUSA'",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm"
            " ngram --max-running-requests 8",
            "0.5.23",
        ),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        rejection = ctx.resolution.rejection if ctx.resolution else None
        if rejection is None or rejection.kind != UNKNOWN_ALGORITHM:
            return
        value = str(ctx.config.value("speculative_algorithm"))
        known = ctx.release.traits.known_algorithms
        import difflib  # only for an unknown algorithm

        guesses = difflib.get_close_matches(value.upper(), known, n=3, cutoff=0.5)
        drafter = _drafter_kind(ctx)
        notes = []
        if (
            drafter is not None
            and drafter.kind in known
            and (drafter.kind in guesses or value.upper().startswith("EAGLE"))
        ):
            # the drafter's own config says what it was trained for: a spelling guess that
            # it contradicts (EAGLE4 → EAGLE for an EAGLE-3 drafter) would be wrong
            guesses = [drafter.kind]
            notes.append(
                Note(
                    ctx.span_of("speculative_draft_model_path"),
                    f"the drafter is {drafter.kind} ({', '.join(drafter.evidence)})",
                )
            )
        elif drafter is not None and drafter.kind is not None:
            guesses = [g for g in guesses if g not in ("EAGLE", "EAGLE3") or g == drafter.kind]
        message = (
            f"SGLang {ctx.version.version} does not know the speculative algorithm "
            f"{value!r} and stops with 'ValueError: {rejection.message}'; known: " + ", ".join(known)
        )
        yield self.report(
            ctx.path,
            ctx.span_of("speculative_algorithm"),
            message,
            f"write `{ctx.set_to('speculative_algorithm', guesses[0])}`"
            if guesses
            else "use one of the known algorithms",
            notes,
            claims=(REJECTION,),
        )


def _drafter_kind(ctx: LaunchContext) -> DrafterKind | None:
    """What the drafter's config (and local weights) say it is, when they are on disk."""
    if ctx.draft is None or ctx.draft.config is None:
        return None
    from speclint.sglang.checkpoints.drafter import classify_drafter, drafter_weights

    kind = classify_drafter(ctx.draft.config, drafter_weights(ctx.draft))
    return kind if kind.kind is not None else None

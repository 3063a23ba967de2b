"""FLG001 unknown-flag: a flag no supported SGLang release knows."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES, DYNAMO_ENTRY, ROUTER_ENTRY
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.rules.suggest import suggest
from speclint.sglang.flags.release_index import versions_with_option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.core.notes import Note
    from speclint.core.words import Word
    from speclint.rules.base import LaunchContext


class UnknownFlag(Rule):
    """## What it does
Finds flags that no supported SGLang release knows, such as a typo
(`--speculative-eagle-top-k`) or a flag only a fork adds (`--enable-spec-capture`). In a
launch by one of SGLang's benchmark scripts (`python -m sglang.bench_one_batch`, ...), the
script's own options (`--batch-size`, `--num-prompts`: read from its release's source) are
known too, and the finding names the script. In NVIDIA Dynamo's SGLang worker (`python -m
dynamo.sglang`), Dynamo's own options (read from each ai-dynamo release's source) are taken
out first; a word neither parser takes is reported as a warning, unverified for ai-dynamo
releases after the newest read, unless the image (`nvcr.io/nvidia/ai-dynamo/...:X`) names
the release.

## Why it matters
SGLang's argparse parser stops with `unrecognized arguments` before anything loads, so
the launch fails after the container, the environment and the scheduler were set up.
speclint suggests the closest real flag.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-eagle-top-k 4
```

## Use instead
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-eagle-topk 4 \
  --speculative-num-steps 3 --speculative-num-draft-tokens 8 \
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/llama-eagle3
```
"""

    code = "FLG001"
    gates = ("problem:unknown-option",)
    stage = "parse"
    name = "unknown-flag"
    severity = Severity.ERROR
    summary = "A flag that SGLang's argument parser does not know: the server never starts."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-eagle-top-k 4",
            at="1:47",
            says="did you mean `--speculative-eagle-topk`?",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m --enable-spec-capture",
            at="1:47",
            says="argparse stops the launch with 'unrecognized arguments'",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.bench_offline_throughput --model-path m --num-prompts 10 --tp-szie 2",
            "0.5.20",
            at="1:75",
            says="`--tp-szie` is neither an SGLang 0.5.20 flag nor an option of `sglang.bench_offline_throughput`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.bench_one_batch --model-path m --batch-size 1 16 --input-len 256 --output-len 32",
        "python -m sglang.launch_server --model-path m --speculative-eagle-topk 4"
        " --speculative-num-steps 3 --speculative-num-draft-tokens 8"
        " --speculative-algorithm EAGLE3 --speculative-draft-model-path d",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        for problem in ctx.parsed.problems:
            if problem.kind != "unknown-option" or versions_with_option(problem.text):
                continue
            if ctx.launch.kwargs_style:
                if versions_with_option("--" + problem.text.replace("_", "-")):
                    continue  # a field of another release: version-drift rules say what changed
                guess = suggest("--" + problem.text.replace("_", "-"), ctx.parsed.schema)
                field = guess[2:].replace("-", "_") if guess else None
                message = (
                    f"`{problem.text}` is not a ServerArgs field of SGLang "
                    f"{ctx.version.version}: the launch fails with "
                    f"{problem.detail or 'TypeError: unexpected keyword argument'}"
                )
                hint = f"did you mean `{field}`?" if field else "remove the keyword"
                keeps = class_keeps(ctx, problem.text)
                if keeps:
                    message += keeps
                    hint = "remove the keyword"
                yield self.report(ctx.path, problem.span, message, hint)
                continue
            guess = suggest(problem.text, ctx.parsed.schema)
            hint = (
                f"did you mean `{guess}`?"
                if guess
                else "remove it, or check `python -m sglang.launch_server --help` for the flag you meant"
            )
            what = f"not an SGLang {ctx.version.version} flag"
            severity = None
            if ctx.launch.entry == ROUTER_ENTRY:
                from speclint.sglang.router import router_versions

                read = router_versions()
                what = (
                    f"neither an SGLang {ctx.version.version} flag nor an option of "
                    f"`{ROUTER_ENTRY}` (sglang-router {read[0]} to {read[-1]})"
                )
            elif ctx.launch.entry == DYNAMO_ENTRY:
                from speclint.sglang.dynamo import dynamo_versions, launch_release

                release = launch_release(ctx.launch.image)
                read = (release,) if release else dynamo_versions()
                named = f"ai-dynamo {read[0]}" if release else f"ai-dynamo {read[0]} to {read[-1]}"
                what = f"neither an SGLang {ctx.version.version} flag nor an option of `{DYNAMO_ENTRY}` ({named})"
                if release is None:  # no image names a read ai-dynamo release
                    what += f", unverified for ai-dynamo releases after {read[-1]}"
                    severity = Severity.WARNING
            elif ctx.launch.entry in BENCH_ENTRIES:
                from speclint.sglang.bench import option_releases, reading_for

                module = BENCH_ENTRIES[ctx.launch.entry]
                if option_releases(module, problem.text):
                    continue  # the script's option in other releases: FLG009 flag-not-in-version
                stands = reading_for(ctx.version.version, module)
                of = f" (SGLang {stands[0]}'s)" if stands and stands[0] != ctx.version.version else ""
                what = f"neither an SGLang {ctx.version.version} flag nor an option of `{module}`{of}"
            from .unexpected_argument import stops_with

            message = f"`{problem.text}` is {what}: argparse stops the launch with {stops_with(ctx)}"
            if guess:
                message += f"; did you mean `{guess}`?"
            yield self.report(
                ctx.path,
                problem.span,
                message,
                f"replace with `{guess}`" if guess else hint,
                _notes(problem.use.word) if problem.use else (),
                severity,
            )


def class_keeps(ctx: LaunchContext, param: str) -> str:
    """For `sglang.Runtime(...)` (a launch class): '' unless other releases' class keeps `param`
    itself (then the words saying so: the checked release's passes it on to ServerArgs)."""
    name = CLASS_ENTRIES.get(ctx.launch.entry)
    if name is None:
        return ""
    from speclint.sglang.launch_classes import keeping_releases

    keeps = keeping_releases(name, param)
    if not keeps:
        return ""
    return (
        f" ({ctx.launch.entry} of SGLang {ctx.version.version} passes `{param}` on to ServerArgs; "
        f"it keeps it itself in SGLang {keeps[0]} to {keeps[-1]})"
    )


def _notes(word: Word) -> list[Note]:
    """Where the word's text was written, and what a dash or space pasted into it is."""
    notes = word_notes(word)
    if word.lookalikes:
        from .typed_chars import lookalike_notes

        notes += lookalike_notes((word,))
    return notes

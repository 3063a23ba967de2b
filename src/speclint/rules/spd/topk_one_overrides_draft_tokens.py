"""SPD001 topk-one-overrides-draft-tokens: with topk 1 SGLang sets draft tokens to steps + 1."""

from __future__ import annotations

from speclint.core.findings import Edit, Severity
from speclint.rules.base import Example, Rule, literal_word
from speclint.sglang import RESOLUTION
from speclint.sglang.resolve.result import Unknown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class TopkOneOverridesDraftTokens(Rule):
    """## What it does
Finds launches whose `--speculative-num-draft-tokens` SGLang will replace because
`--speculative-eagle-topk` is 1.

## Why it matters
With topk 1 the draft is a chain, and SGLang (all releases, `_handle_eagle_family`) sets
`speculative_num_draft_tokens = speculative_num_steps + 1` whatever was asked, logging one
warning line among hundreds. `--speculative-eagle-topk 1 --speculative-num-steps 1
--speculative-num-draft-tokens 16` runs with 2 draft tokens; benchmarks that assume 16
are wrong, and acceptance looks mysteriously low.

## Example
```bash
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 16
```

## Use instead
```bash
# a 16-token chain: 15 steps
python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path /models/llama-eagle3 --max-running-requests 64 \\
  --speculative-eagle-topk 1 --speculative-num-steps 15 --speculative-num-draft-tokens 16
```
"""

    code = "SPD001"
    gates = ("adjusted:speculative_num_draft_tokens",)
    name = "topk-one-overrides-draft-tokens"
    severity = Severity.WARNING
    rests_on = (RESOLUTION,)
    summary = (
        "`--speculative-eagle-topk 1` makes SGLang replace `--speculative-num-draft-tokens` with steps + 1."
    )
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
            " --speculative-draft-model-path d --speculative-eagle-topk 1"
            " --speculative-num-steps 3 --speculative-num-draft-tokens 8",
            at="1:194",
            says="`--speculative-num-draft-tokens 8` is ignored",
            fixed=(
                "python -m sglang.launch_server --model-path m --speculative-algorithm "
                "EAGLE --speculative-draft-model-path d --speculative-eagle-topk 1 "
                "--speculative-num-steps 3 --speculative-num-draft-tokens 4"
            ),
        ),
        Example(
            "python -m sglang.launch_server --model-path m --speculative-algorithm NEXTN"
            " --speculative-draft-model-path d --speculative-eagle-topk 1"
            " --speculative-num-steps 3 --speculative-num-draft-tokens 2",
            "0.5.6.post2",
            at="1:194",
            says="`--speculative-num-draft-tokens 2` is ignored",
            fixed=(
                "python -m sglang.launch_server --model-path m --speculative-algorithm "
                "NEXTN --speculative-draft-model-path d --speculative-eagle-topk 1 "
                "--speculative-num-steps 3 --speculative-num-draft-tokens 4"
            ),
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
        " --speculative-draft-model-path d --speculative-eagle-topk 1"
        " --speculative-num-steps 3 --speculative-num-draft-tokens 4",
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
        " --speculative-draft-model-path d --speculative-eagle-topk 4"
        " --speculative-num-steps 3 --speculative-num-draft-tokens 16",
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        resolution = ctx.resolution
        change = resolution.adjustment("speculative_num_draft_tokens") if resolution else None
        if resolution is None or change is None or change.handler != "_handle_eagle_family":
            return
        if not ctx.config.given("speculative_num_draft_tokens"):
            return
        asked, used = change.asked, change.effective
        if isinstance(used, Unknown):
            assert isinstance(asked, Unknown)  # the resolver relates unknown steps and draft
            yield self._related(ctx, asked, used)
            return
        steps = resolution.effective.get("speculative_num_steps")
        message = (
            f"`{ctx.written('speculative_num_draft_tokens')}` is ignored: with "
            f"`{ctx.set_to('speculative_eagle_topk', 1)}` SGLang sets "
            "speculative_num_draft_tokens to "
            f"speculative_num_steps + 1 = {used} and runs with {used}, not {asked} "
            "(it logs one warning)"
        )
        hint = (
            f"for {_article(asked)} {asked}-token chain write "
            f"`{ctx.set_to('speculative_num_steps', asked - 1)}`; for a tree of that "
            "size use a topk > 1"
            if isinstance(asked, int) and asked > 1
            else f"write `{ctx.set_to('speculative_num_draft_tokens', used)}`"
        )
        notes = ctx.note("speculative_eagle_topk", "topk 1 makes the draft a chain")
        notes += ctx.note("speculative_num_steps", f"with {steps} step(s) SGLang drafts {used} tokens")
        use = ctx.config.get("speculative_num_draft_tokens").use
        value_word = use.value_words[0] if use and len(use.value_words) == 1 else None
        fix = None
        if (
            use is not None
            and literal_word(value_word)
            and literal_word(use.word)
            and use.value_span is not None
            and isinstance(used, int)
        ):
            # unsafe: the launch runs as before, but the author's 16 is erased and the
            # finding that would tell them their chain is short goes quiet
            fix = Edit(
                use.value_span, str(used), f"write the draft tokens SGLang uses ({used})", value_word.text
            )
        yield self.report(
            ctx.path, ctx.span_of("speculative_num_draft_tokens"), message, hint, notes, fix=fix
        )

    def _related(self, ctx: LaunchContext, asked: Unknown, used: Unknown) -> Finding:
        """Steps and draft tokens unknown but the same value `k` (the resolver's identities):
        SGLang runs k + 1 whatever k is."""
        steps = ctx.config.get("speculative_num_steps").use
        # `_topk_one_relation` relates them only when both carry an identity and steps is given
        assert steps is not None and asked.identity is not None and used.identity is not None
        steps_text = (
            f"{steps.written}={asked.identity}"
            if ctx.launch.kwargs_style
            else f"{steps.written} {asked.identity}"
        )
        message = (
            f"`{written_symbolic(ctx, asked)}` is ignored whatever {asked.identity.name} is: with "
            f"`{ctx.set_to('speculative_eagle_topk', 1)}` and `{steps_text}` SGLang sets "
            f"speculative_num_draft_tokens to speculative_num_steps + 1 and runs with "
            f"{used.identity} draft tokens, not {asked.identity} ({asked.identity} → {used.identity}; "
            "it logs one warning)"
        )
        hint = (
            f"for a {asked.identity}-token chain pass {asked.identity.shifted(-1)} as the steps; "
            f"to say what runs, pass {used.identity} as the draft tokens"
        )
        notes = ctx.note("speculative_eagle_topk", "topk 1 makes the draft a chain")
        notes += ctx.note(
            "speculative_num_steps", f"{asked.identity} step(s): SGLang drafts {used.identity} tokens"
        )
        return self.report(ctx.path, ctx.span_of("speculative_num_draft_tokens"), message, hint, notes)


def written_symbolic(ctx: LaunchContext, value: Unknown) -> str:
    """`--speculative-num-draft-tokens k` / `speculative_num_draft_tokens=k` with the value's name."""
    use = ctx.config.get("speculative_num_draft_tokens").use
    assert use is not None  # the rule runs only when the draft tokens are given
    if ctx.launch.kwargs_style:
        return f"{use.written}={value.identity}"
    return f"{use.written} {value.identity}"


def _article(number: object) -> str:
    """'an' before numbers read with a vowel sound (8, 11, 18, 80-89, 800-899, ...)."""
    text = str(number)
    spoken_an = text.startswith("8") or (text[:2] in ("11", "18") and len(text) % 3 == 2)
    return "an" if spoken_an else "a"

"""FLG013 router-flag-release: a router option of `python -m sglang_router.launch_server` that
not every sglang-router release read has."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.sglang.flags.own_dests import ROUTER_DEST_PREFIX
from speclint.sglang.router import (
    router_presence,
    router_refusals,
    router_refusing,
    router_versions,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse


def _releases(versions: tuple[str, ...]) -> str:
    """`0.1.7 to 0.3.2` when they follow each other among the releases read, else listed."""
    read = router_versions()
    first = read.index(versions[0])
    if len(versions) > 3 and read[first : first + len(versions)] == versions:
        return f"{versions[0]} to {versions[-1]}"
    return ", ".join(versions)


class RouterFlagRelease(Rule):
    """## What it does
    In a `python -m sglang_router.launch_server` launch (sglang-router's co-launcher: SGLang
    workers plus the router, the router's options written `--router-*`), finds router options
    that some sglang-router releases do not have. speclint reads the options from each
    sglang-router release's own `launch_server.py` (`tools/gen_sglang_router.py`), but cannot
    tell which sglang-router release is installed beside the SGLang it checks: an option the
    newest release read lacks is a warning (unverified for that release), one only older
    releases lack is an info. The same for a value some releases' `choices` lack
    (`--router-policy manual` before 0.3.1); a value no release accepts is `invalid-choice`.
    And the router's own checks on its arguments when the co-launcher starts it (`raise
    ValueError(...)` in sglang-router's `launch_router` / `RouterArgs._validate_router_args`,
    read per release: `--router-pd-disaggregation` without `--router-prefill` in 0.1.5 to
    0.2.2): an error when every release having the options refuses, else as above.

    ## Why it matters
    argparse stops the launch with 'unrecognized arguments' when the installed sglang-router
    does not have the option (or 'invalid choice' when its choices lack the value); a
    router that refuses its arguments does not start, after the SGLang workers did.

    ## Example
    ```bash
    python -m sglang_router.launch_server --model-path m --dp-size 2 --router-prefill-policy random
    ```

    ## Use instead
    An option every release has; or keep the option where the installed sglang-router has it
    (`pip show sglang-router`) and silence the finding for that line.
    ```bash
    python -m sglang_router.launch_server --model-path m --dp-size 2 --router-policy random
    ```
    """

    code = "FLG013"
    gates = ("router-option",)
    stage = "parse"
    name = "router-flag-release"
    severity = Severity.WARNING
    summary = "A `--router-*` option of sglang-router's co-launcher that some sglang-router releases lack."
    invalid = (
        Example(
            "python -m sglang_router.launch_server --model-path m --dp-size 2 --router-prefill-policy random",
            at="1:66",
            says="`--router-prefill-policy` is not in sglang-router",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang_router.launch_server --model-path m --dp-size 2 --router-policy random"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        yield from self._refusals(ctx)
        read = router_versions()
        seen: set[str] = set()
        for use in ctx.parsed.uses:
            if use.spec is None or not use.spec.dest.startswith(ROUTER_DEST_PREFIX):  # is_router_option
                continue
            option = use.spec.option_strings[0]
            have = router_presence(option)
            if option in seen:
                continue
            if have == read:
                yield from self._choice(ctx, use, option, have)
                continue
            seen.add(option)
            lacking = tuple(v for v in read if v not in have)
            newest = read[-1]
            message = (
                f"`{option}` is not in sglang-router {_releases(lacking)} (it is in {_releases(have)}): "
                "speclint does not know which sglang-router release runs beside SGLang "
                f"{ctx.version.version}; where it lacks the option, argparse stops the launch "
                "with 'unrecognized arguments'"
            )
            if newest not in have:
                message += f" (unverified for sglang-router {newest})"
            yield self.report(
                ctx.path,
                use.span,
                message,
                "check the installed release: `pip show sglang-router`",
                word_notes(use.word),
                severity=None if newest not in have else Severity.INFO,
            )

    def _choice(
        self, ctx: LaunchContext, use: FlagUse, option: str, have: tuple[str, ...]
    ) -> Iterator[Finding]:
        """A value some releases' `choices` lack (one none accepts is FLG006's: an error)."""
        if use.dynamic or use.value is None or isinstance(use.value, list):
            return
        refusing = router_refusing(option, use.value)
        if not refusing or len(refusing) == len(have):
            return
        accepting = tuple(v for v in have if v not in refusing)
        newest = router_versions()[-1]
        message = (
            f"`{option} {use.value}` is refused by sglang-router {_releases(refusing)} (their "
            f"choices for `{option}` lack {use.value!r}; {_releases(accepting)} accept it): "
            "speclint does not know which sglang-router release runs beside SGLang "
            f"{ctx.version.version}; where it is refused, argparse stops the launch with "
            f"'argument {option}: invalid choice: {use.value!r}'"
        )
        yield self.report(
            ctx.path,
            use.value_span or use.span,
            message,
            "check the installed release: `pip show sglang-router`",
            word_notes(use.word),
            severity=None if newest in refusing else Severity.INFO,
        )

    def _refusals(self, ctx: LaunchContext) -> Iterator[Finding]:
        """The router's own checks on its arguments (`router_refusals`) that the launch meets."""
        if ctx.config.uncertain:
            return  # an unread word may give an option a condition needs
        last: dict[str, FlagUse] = {}
        for use in ctx.parsed.uses:
            if use.spec is not None and use.spec.dest.startswith(ROUTER_DEST_PREFIX):
                last[use.spec.option_strings[0]] = use
        if not last:
            return
        met: dict[tuple[str, str], list[tuple[tuple[tuple[str, bool], ...], tuple[str, ...]]]] = {}
        for (conditions, exception, message), releases in router_refusals().items():
            uses = [last.get(option) for option, _ in conditions]
            if any(use is not None and use.dynamic for use in uses):
                continue
            if all(
                (use is not None and bool(use.value)) == truthy for use, (_, truthy) in zip(uses, conditions)
            ):
                met.setdefault((exception, message), []).append((conditions, releases))
        for (exception, message), found in met.items():
            common = [c for c in found[0][0] if all(c in conditions for conditions, _ in found)]
            given = [option for option, truthy in common if truthy]
            if not given:
                continue
            refusing = tuple(v for v in router_versions() if any(v in releases for _, releases in found))
            have = tuple(v for v in router_versions() if all(v in router_presence(o) for o in given))
            accepting = tuple(v for v in have if v not in refusing)
            missing = [f"`{option}`" for option, truthy in common if not truthy]
            text = " and ".join(f"`{option}`" for option in given)
            if missing:
                text += " without " + " or ".join(missing)
            said = (
                f"{text}: sglang-router {_releases(refusing)} raise{'s' if len(refusing) == 1 else ''} "
                f"`{exception}: {message}` when `python -m sglang_router.launch_server` starts the "
                "router, after the SGLang workers: the router does not start"
            )
            severity = Severity.ERROR
            if accepting:
                said += (
                    f" ({_releases(accepting)} accept it; speclint does not know which "
                    f"sglang-router release runs beside SGLang {ctx.version.version})"
                )
                severity = Severity.WARNING if router_versions()[-1] in refusing else Severity.INFO
            fix = f"drop {' and '.join(f'`{o}`' for o in given)}"
            if missing:
                fix = f"give {' or '.join(missing)}, or " + fix
            use = last[given[0]]
            yield self.report(ctx.path, use.span, said, fix, word_notes(use.word), severity=severity)

"""FLG009 flag-not-in-version: a flag another SGLang release knows, but not the one checked."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.frontends.recognise import CLASS_ENTRIES
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.rules.drift import drift_of
from speclint.rules.suggest import suggest
from speclint.sglang.flags.schema import newest_version, versions_with_option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext


class FlagNotInVersion(Rule):
    """## What it does
    Finds flags that exist only in SGLang releases newer than the one the launch is checked
    against (`--sglang-version`, else the image tag, else the newest): a script written for a
    newer release, run on an old image. Flags that an earlier release accepted and the
    checked one dropped are VER001 (flag-removed). Also a launch by one of SGLang's launch
    classes that the checked release does not ship (`HttpServerEngineAdapter(...)`, from
    0.4.5.post1; read from each release's source by tools/gen_sglang_launch_classes.py).

    ## Why it matters
    argparse stops with `unrecognized arguments` (a missing class: the import fails): this is
    what breaks when a script written for a new release runs on an old image.

    ## Example
    ```bash
    # SGLang 0.5.6.post2
    python -m sglang.launch_server --model-path /models/llama --speculative-adaptive
    ```

    ## Use instead
    ```bash
    # SGLang 0.5.23
    python -m sglang.launch_server --model-path /models/llama --speculative-adaptive
    ```
    """

    code = "FLG009"
    gates = ("problem:unknown-option", "class-entry")
    stage = "parse"
    name = "flag-not-in-version"
    severity = Severity.ERROR
    summary = "A flag that exists in other SGLang releases but not in the one the launch runs."
    invalid = (
        Example(
            "python -m sglang.launch_server --model-path m --speculative-adaptive",
            "0.5.6.post2",
            at="1:47",
            says="`--speculative-adaptive` does not exist yet in SGLang 0.5.6.post2",
            fixed=NO_FIX,
        ),
    )
    valid = (Example("python -m sglang.launch_server --model-path m --speculative-adaptive", "0.5.23"),)

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        if ctx.launch.entry in CLASS_ENTRIES:
            yield from self._class_missing(ctx, CLASS_ENTRIES[ctx.launch.entry])
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != "unknown-option" or use is None:  # an unknown flag's use
                continue
            versions = versions_with_option(problem.text)
            if not versions or drift_of(problem, ctx) is not None:
                continue  # unknown to all (FLG001), or retired since (VER001)
            known = (
                ", ".join(versions)
                if len(versions) <= 2
                else f"{versions[0]} and later"
                if versions[-1] == newest_version()
                else f"{versions[0]} to {versions[-1]}"
            )
            guess = suggest(problem.text, ctx.parsed.schema)
            message = (
                f"`{problem.text}` does not exist yet in SGLang {ctx.version.version} "
                f"(it exists in {known}): argparse stops the launch with "
                "'unrecognized arguments'"
            )
            hint = f"replace with `{guess}`" if guess else f"remove it, or run SGLang {versions[-1]}"
            yield self.report(ctx.path, problem.span, message, hint, word_notes(use.word))

    def _class_missing(self, ctx: LaunchContext, name: str) -> Iterator[Finding]:
        """A launch class the checked release (read) does not ship: the import fails."""
        from speclint.sglang.launch_classes import read_versions, releases_with

        version = ctx.version.version
        having = releases_with(name)
        if version not in read_versions() or version in having or not having:
            return
        message = (
            f"`{name}` does not exist in SGLang {version} (SGLang {having[0]} to "
            f"{having[-1]} have it): importing it fails, so the launch never starts"
        )
        yield self.report(
            ctx.path, ctx.launch.span, message, f"run SGLang {having[-1]}, or launch with sglang.Engine"
        )

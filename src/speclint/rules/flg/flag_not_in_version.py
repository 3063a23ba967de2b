"""FLG009 flag-not-in-version: a flag another SGLang release knows, but not the one checked."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES
from speclint.rules.base import NO_FIX, Example, Rule, word_notes
from speclint.rules.drift import drift_of
from speclint.rules.suggest import suggest
from speclint.sglang.flags.release_index import versions_with_option
from speclint.sglang.flags.schema import newest_version

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import ArgProblem


class FlagNotInVersion(Rule):
    """## What it does
    Finds flags that exist only in SGLang releases newer than the one the launch is checked
    against (`--sglang-version`, else the image tag, else the newest): a script written for a
    newer release, run on an old image. Flags that an earlier release accepted and the
    checked one dropped are VER001 (flag-removed). Also a launch by one of SGLang's launch
    classes that the checked release does not ship (`HttpServerEngineAdapter(...)`, from
    0.4.5.post1; read from each release's source by tools/gen_sglang_launch_classes.py),
    one of SGLang's benchmark scripts that the checked release does not ship (`python -m
    sglang.bench_one_batch`: gone from 0.5.21, `sglang.benchmark.one_batch` since 0.5.15),
    and a benchmark script's own option that other releases' script has, not the checked one
    (read by tools/gen_sglang_bench.py).

    ## Why it matters
    argparse stops with `unrecognized arguments` (a missing class: the import fails): this is
    what breaks when a script written for a new release runs on an old image. A missing module
    stops `python -m` with 'No module named ...' before anything loads.

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
    gates = ("problem:unknown-option", "class-entry", "bench-entry")
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
        Example(
            "python -m sglang.bench_one_batch --model-path m --batch-size 1 16",
            "0.5.23",
            at="1:1",
            says="`sglang.bench_one_batch` does not exist in SGLang 0.5.23",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.bench_one_batch --model-path m --batch-size 1 --profile",
            "0.4.0",
            at="1:64",
            says="`--profile` is not an option of `sglang.bench_one_batch` in SGLang 0.4.0",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example("python -m sglang.launch_server --model-path m --speculative-adaptive", "0.5.23"),
        Example("python -m sglang.benchmark.one_batch --model-path m --batch-size 1 16 --profile", "0.5.23"),
        Example("python -m sglang.bench_one_batch --model-path m --batch-size 1 16 --profile", "0.5.20"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        if ctx.launch.entry in CLASS_ENTRIES:
            yield from self._class_missing(ctx, CLASS_ENTRIES[ctx.launch.entry])
        module = BENCH_ENTRIES.get(ctx.launch.entry)
        if module is not None and ctx.launch.helper is None:  # (a helper's: bench_launch)
            yield from self._module_missing(ctx, module)
        for problem in ctx.parsed.problems:
            use = problem.use
            if problem.kind != "unknown-option" or use is None:  # an unknown flag's use
                continue
            if module is not None and not versions_with_option(problem.text):
                yield from self._bench_option(ctx, module, problem)
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

    def _module_missing(self, ctx: LaunchContext, module: str) -> Iterator[Finding]:
        """A benchmark script the checked release (read) does not ship: `python -m` fails."""
        from speclint.sglang.bench import bench_versions, reading, releases_with

        version = ctx.version.version
        having = releases_with(module)
        if version not in bench_versions() or version in having or not having:
            return
        message = (
            f"`{module}` does not exist in SGLang {version} (SGLang {having[0]} to {having[-1]} "
            f"have it): `python -m` stops with 'No module named {module}', so nothing starts"
        )
        newest = reading(having[-1], module)
        home = newest["path"][-1] if newest else module
        if home != module and version in releases_with(home):
            hint = f"run `python -m {home}`, the script's home in SGLang {version}"
        else:
            hint = f"run SGLang {having[-1]}"
        yield self.report(ctx.path, ctx.launch.span, message, hint)

    def _bench_option(self, ctx: LaunchContext, module: str, problem: ArgProblem) -> Iterator[Finding]:
        """An option of the script in other releases read, not in the checked one's."""
        from speclint.sglang.bench import option_releases, reading_for

        having = option_releases(module, problem.text)
        stands = reading_for(ctx.version.version, module)
        if not having or stands is None or problem.use is None:
            return  # unknown to every release: FLG001
        read_as = "" if stands[0] == ctx.version.version else f" (read as SGLang {stands[0]}'s)"
        span = having[0] if len(having) == 1 else f"{having[0]} to {having[-1]}"
        message = (
            f"`{problem.text}` is not an option of `{module}` in SGLang {ctx.version.version}"
            f"{read_as} (SGLang {span} have it): argparse stops the launch with "
            "'unrecognized arguments'"
        )
        yield self.report(
            ctx.path,
            problem.span,
            message,
            f"remove it, or run SGLang {having[-1]}",
            word_notes(problem.use.word),
        )

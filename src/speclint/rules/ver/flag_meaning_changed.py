"""VER002 flag-meaning-changed: a flag the launch sets that means something else in the
release it is checked against than in the release its image names."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule
from speclint.sglang.flags import history
from speclint.sglang.flags.versions import (
    STATED,
    closest_supported,
    is_requirement,
    version_from_image,
    version_key,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import LaunchContext
    from speclint.sglang.flags.argv import FlagUse

_SWITCHES = ("store_true", "store_false", "store_const", "boolean_optional")
_WHAT = {"nargs": "how many values it takes", "const": "the value it sets"}


def written_for(ctx: LaunchContext) -> str | None:
    """The release the script was written for: its image tag, when `--sglang-version`
    (or a configured version) overrides it with another release."""
    if not ctx.launch.image or ctx.version.from_launch:
        return None
    tagged = version_from_image(ctx.launch.image)
    if tagged is None:
        return None
    older = closest_supported(tagged)
    return older if version_key(older) < version_key(ctx.version.version) else None


def _source(image: str) -> str:
    """What named the release the script was written for (`written_for`)."""
    if image.startswith(STATED):
        return "the version the document states"
    return "the package pin" if is_requirement(image) else "the image"


class FlagMeaningChanged(Rule):
    """## What it does
When a launch runs in an image of one SGLang release (`lmsysorg/sglang:v0.5.6.post2`) and
is checked against a newer one (`--sglang-version 0.5.23`, the release you are moving to),
reports what changed in between for this launch: flags it sets whose meaning changed (how
many values they take, the value a switch sets, a switch whose default became what it
sets, so it is now a no-op), and, once per launch, the defaults that changed for flags it
leaves unset (`--load-balance-method` round_robin → auto in 0.5.8,
`--hicache-mem-layout` layer_first → page_first in 0.5.14, ...). Flags the new release
rejects are VER001's and FLG002's; deprecations are FLG008's; new choices are not reported.

## Why it matters
The launch still starts, but does something else than when it was written.

## Example
```bash
# SGLang 0.5.23
docker run lmsysorg/sglang:v0.5.6.post2 python -m sglang.launch_server \
  --model-path /models/llama
```

## Use instead
```bash
# SGLang 0.5.23
docker run lmsysorg/sglang:v0.5.23 python -m sglang.launch_server \
  --model-path /models/llama
```
"""

    code = "VER002"
    gates = ("image",)
    stage = "parse"
    name = "flag-meaning-changed"
    severity = Severity.WARNING
    summary = "A flag whose meaning changed between the image's SGLang release and the checked one."
    invalid = (
        Example(
            "docker run lmsysorg/sglang:v0.5.6.post2 python -m sglang.launch_server --model-path m",
            "0.5.23",
            at="1:1",
            says="changed between SGLang 0.5.6.post2 (the image) and 0.5.23",
            fixed=NO_FIX,
        ),
    )
    valid = (
        Example(
            "docker run lmsysorg/sglang:v0.5.23 python -m sglang.launch_server "
            "--model-path m --disable-cuda-graph",
            "0.5.23",
        ),
        Example("python -m sglang.launch_server --model-path m --disable-cuda-graph", "0.5.23"),
    )

    def check(self, ctx: LaunchContext) -> Iterator[Finding]:
        older = written_for(ctx)
        if older is None or ctx.launch.kwargs_style:
            return
        source = _source(ctx.launch.image or "")
        target = ctx.version.version
        given = set()
        for use in ctx.parsed.uses:
            if use.spec is None or use.how in ("ambiguous", "unknown") or not use.matched:
                continue
            given.add(use.spec.dest)
            said = self._changes(use, older, target)
            if said:
                message = (
                    f"`{use.matched}` changed between SGLang {older} ({source}) and "
                    f"{target}: " + "; ".join(said)
                )
                yield self.report(
                    ctx.path,
                    use.span,
                    message,
                    f"check that `{use.matched}` still does what you meant in {target}",
                )
        defaults = self._defaults(given, older, target)
        if defaults and not ctx.parsed.has_unknown_words:
            shown = "; ".join(defaults[:6]) + (f"; and {len(defaults) - 6} more" if len(defaults) > 6 else "")
            yield self.report(
                ctx.path,
                ctx.launch.span,
                f"defaults of flags this launch leaves unset changed between "
                f"SGLang {older} ({source}) and {target}: {shown}",
                "set the flags whose old default you rely on",
            )

    @staticmethod
    def _changes(use: FlagUse, older: str, target: str) -> list[str]:
        """Changes a person writing this flag would notice (not new choices, internal field
        renames, type-parser refactors or deprecations, which FLG008 reports)."""
        spec = use.spec
        assert spec is not None and use.matched is not None  # `check` skips the others
        said = []
        for change in history.changes(use.matched, older, target):
            if change.what == "default":
                if spec.action in _SWITCHES and change.after == spec.const:
                    said.append(
                        f"its default became {change.after!r} in {change.since}, so "
                        "setting it no longer changes anything"
                    )
            elif change.what == "nargs":
                said.append(
                    f"{_WHAT['nargs']} changed from {change.before!r} to {change.after!r} in {change.since}"
                )
            elif change.what == "const" and spec.action == "store_const":
                said.append(
                    f"{_WHAT['const']} changed from {change.before!r} to {change.after!r} in {change.since}"
                )
        return said

    @staticmethod
    def _defaults(given: set[str], older: str, target: str) -> list[str]:
        from speclint.sglang.flags.schema import options_of

        found, seen = [], set()
        for option, spec in options_of(target).items():
            if (
                id(spec) in seen
                or spec.dest in given
                or option != spec.canonical
                or spec.deprecated
                or option not in options_of(older)
            ):
                continue
            seen.add(id(spec))
            for change in history.changes(option, older, target):
                if change.what == "default":
                    found.append(f"`{option}` {change.before!r} → {change.after!r} ({change.since})")
        return found

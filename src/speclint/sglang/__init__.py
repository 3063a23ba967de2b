"""SGLang release facts: one `Release` per release (`release("0.5.10")`), the only place
that knows which release has which flag, class, convention or resolution step."""

from __future__ import annotations

from functools import cache

from speclint.sglang.release import DRAFTER, FACTS, FLAGS, MODELS, RESOLUTION, Release

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


@cache
def release(version: str) -> Release:
    """The (cached) Release object for `version`."""
    return Release(version)


def releases() -> tuple[Release, ...]:
    """Every bundled release, oldest first."""
    from speclint.sglang.flags.schema import supported_versions

    return tuple(release(v) for v in supported_versions())


def first_release(test: Callable[[Release], object], after: Release | None = None) -> Release | None:
    """The oldest bundled release (newer than `after`, when given) for which `test` holds."""
    for candidate in releases():
        if (after is None or after < candidate) and test(candidate):
            return candidate
    return None


__all__ = [
    "first_release",
    "DRAFTER",
    "FACTS",
    "FLAGS",
    "MODELS",
    "RESOLUTION",
    "Release",
    "release",
    "releases",
]

"""Every SGLang release speclint bundles now resolves as itself (read, or recorded by
tools/oracle: tests/data/oracle/). The tests of what a release that is neither read nor
recorded gets (it follows the closest older modelled release, its refusals are warnings that
say "unverified") take one release out of `TRAITS` for their duration with `unmodelled`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

UNMODELLED = "0.5.6.post1"
"""Taken out: it then follows 0.5.6 (recorded), which refuses trtllm_mha below SM100."""


def _clear() -> None:
    from speclint.sglang import release
    from speclint.sglang.traits import modelled_release

    modelled_release.cache_clear()
    release.cache_clear()


@contextmanager
def unmodelled(version: str = UNMODELLED) -> Iterator[str]:
    """`version` as if speclint had neither read nor recorded its resolution."""
    from speclint.sglang.traits import TRAITS

    traits = TRAITS[version]
    del TRAITS[version]
    _clear()
    try:
        yield version
    finally:
        TRAITS[version] = traits
        _clear()

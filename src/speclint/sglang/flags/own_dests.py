"""The options speclint reads beside SGLang's own (SGLang has none of these dests): a
benchmark script's (`speclint.sglang.bench`) and the router launcher's
(`speclint.sglang.router`), told apart from SGLang's by a prefix of their `dest`. Here, not in
those modules, so that resolution and rules tell them apart without importing their data."""

from __future__ import annotations

BENCH_DEST_PREFIX = "bench-script:"
"""Starts the `dest` of an option a benchmark script's parser adds beside SGLang's."""

ROUTER_DEST_PREFIX = "router-launcher:"
"""Starts the `dest` of an option speclint added from the router's parser."""


class DestsStarting(dict[str, bool]):
    """dest -> whether it starts with one of `prefixes`, worked out once a dest: asked of
    every flag of every launch, where `str.startswith` costs its arguments' parsing each time."""

    __slots__ = ("prefixes",)

    def __init__(self, *prefixes: str) -> None:
        super().__init__()
        self.prefixes = prefixes

    def __missing__(self, dest: str) -> bool:
        found = self[dest] = dest.startswith(self.prefixes)
        return found


ROUTER_DESTS = DestsStarting(ROUTER_DEST_PREFIX)
"""`ROUTER_DESTS[dest]`: an option of the router's own."""
OWN_DESTS = DestsStarting(ROUTER_DEST_PREFIX, BENCH_DEST_PREFIX)
"""`OWN_DESTS[dest]`: an option that never reaches ServerArgs (a router's or a benchmark
script's own)."""

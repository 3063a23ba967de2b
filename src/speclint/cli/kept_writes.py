"""What the command's kept imports (`cli.startup.KeptImports`) write to their store at a run's
end, imported only when there is something to write (a module imported the usual way, a
bundle that no longer fits what the run imported): a run whose modules were all served reads
the store only, and never imports this."""

from __future__ import annotations

import marshal
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from speclint.core.kept import Kept

BUNDLES = 4  # bundles kept (of the shapes last written): each holds ~1.3 MB of code


def keep_module(store: Kept, name: str, spec: Any, before: os.stat_result) -> tuple[Any, ...] | None:
    """Keep the compiled code of module `name` (imported the usual way: `spec` its spec, with a
    loader that has `get_code`; `before` the stat of its source then): its entry (the code unmarshalled), or None when its source changed
    meanwhile or its loader gives no code."""
    try:
        code = spec.loader.get_code(name)
        after = os.stat(spec.origin)
    except Exception:
        return None
    if code is None or (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        return None
    package = spec.submodule_search_locations is not None
    cached = spec.cached if isinstance(spec.cached, str) else None
    entry = (spec.origin, package, after.st_size, after.st_mtime_ns, code, cached)
    store.put(name, (*entry[:4], marshal.dumps(code), cached))
    return entry


def keep_bundle(store: Kept, shape: tuple[object, ...], served: dict[str, tuple[Any, ...]]) -> None:
    """`served` as the bundle of `shape`, the last `BUNDLES` shapes written kept (the others
    dropped)."""
    store.put(("bundle", shape), served)
    last = store.get(("bundles",))  # the shapes of the bundles, last written first
    shapes = [shape, *(other for other in last if other != shape)] if type(last) is list else [shape]
    store.put(("bundles",), shapes[:BUNDLES])
    for key in store.keys():  # (the store is copied whole when it is written)
        if type(key) is tuple and len(key) == 2 and key[0] == "bundle" and key[1] not in shapes[:BUNDLES]:
            store.drop(key)

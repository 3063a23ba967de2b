"""SGLang's test server fixture base classes (`sglang.test.server_fixtures.*`), per release, as
tools/gen_sglang_fixtures.py read them from each release's wheel.

SGLang's own tests (and suites copied from them) launch by subclassing a fixture base
(`class TestX(EagleServerBase): spec_algo = "EAGLE3"`); the launch is in the base's
`setUpClass`, in SGLang's source, not in the linted file. The Python front-end reads such a
subclass with the base's source from the newest release whose fixture module defines the
class (`newest_fixture`), and records that release on the launch; the engine compares it
with the release the launch is checked against (`same_fixture`).

`data/sglang_fixtures.json` is one JSON array with one element per line: the header
`{"format": 1, "versions": [...], "texts": N}`, one line per release (header order) mapping
fixture module -> index of its text, then the N distinct texts (each a module's source
reduced to its classes' attributes, the methods that launch, and the test_utils constants
they read, resolved).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from speclint.core.records import dataclass
from speclint.sglang.linedata import LineData

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sglang_fixtures.json")
_FILE = LineData(_DATA)
PACKAGE = "sglang.test.server_fixtures"
"""The package whose modules hold the fixture bases."""


@dataclass(frozen=True, slots=True)
class FixtureSource:
    """One fixture module as one release ships it."""

    release: str
    module: str
    """`sglang.test.server_fixtures.eagle_fixture`."""
    text: str
    """The module's source, reduced (module doc)."""


def read_versions() -> tuple[str, ...]:
    """Releases whose wheel was read for fixtures, oldest first."""
    return _FILE.versions()


@lru_cache(maxsize=128)
def _modules(version: str) -> dict[str, int] | None:
    modules: dict[str, int] | None = _FILE.row(version)
    return modules


@lru_cache(maxsize=64)
def _text(index: int) -> str:
    text: str = _FILE.shared(index)
    return text


def _defines(text: str, name: str) -> bool:
    return re.search(rf"^class {re.escape(name)}\b", text, re.M) is not None


@lru_cache(maxsize=64)
def newest_fixture(module: str, name: str) -> FixtureSource | None:
    """The newest release whose `module` defines class `name`, with that module's text;
    None when no release read does."""
    for version in reversed(read_versions()):
        index = (_modules(version) or {}).get(module)
        if index is not None and _defines(_text(index), name):
            return FixtureSource(version, module, _text(index))
    return None


def same_fixture(used: FixtureSource, version: str, name: str) -> bool | None:
    """Whether `version` ships the fixture module `used` was read from with the same text
    (so the launch read is the one that release's base makes); None when `version`'s wheel
    was not read for fixtures."""
    modules = _modules(version)
    if modules is None:
        return None
    index = modules.get(used.module)
    return index is not None and _text(index) == used.text and _defines(used.text, name)


def has_fixture(version: str, module: str, name: str) -> bool:
    """Whether `version`'s `module` defines class `name` (False when not read)."""
    index = (_modules(version) or {}).get(module)
    return index is not None and _defines(_text(index), name)

"""The SGLang test fixture base a launch was read from (`core.launches.Launch.fixture`): made
only for Python files that use one."""

from __future__ import annotations

from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True, slots=True)
class FixtureBase:
    """SGLang's test fixture base class a launch was read from (`class TestX(EagleServerBase)`:
    the launch is in the base's setUpClass, in SGLang's source)."""

    name: str
    module: str
    """`sglang.test.server_fixtures.eagle_fixture`."""
    release: str
    """The release whose source of the base was read."""
    span: Span
    """The base's name where the file writes it: the words of the base's own text point here."""

"""A `for` loop over known elements read pass by pass, a `continue` in its body included.

Each pass binds the loop's names to one element and walks the body (`comprehensions.
loop_bindings`: no `break`, `return`, `else`). A `continue` ends its pass (`walker.small`) when
the file's own values decide every `if` around it (`branches.walk_decided`): `for key, value in
cfg.items(): if value is False: continue; ...`. When one is reached on an arm no value decides
(the pass may or may not go on), the passes' reading is dropped, launches included, and the
body is walked once for all passes instead, as before, its values said unknown.
"""

from __future__ import annotations

from speclint.frontends.python import syntax as py
from speclint.frontends.python.comprehensions import continues, loop_bindings
from speclint.frontends.python.values import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from speclint.frontends.python.walking import Walking

    class PassWalking(Walking, Protocol):
        """What of the walker this module reads besides `Walking` (a local Protocol: the
        walker imports this module)."""

        branching: int
        continue_at: int | None
        unsure_continue: bool


def walk_passes(walker: PassWalking, node: py.For) -> bool:
    """Walk each pass of `node`; False (nothing walked) when its passes are not all known, or
    a `continue` in it is not decided."""
    passes = loop_bindings(node, walker.evaluator().eval, walker.pos.starts) if walker.pos.relocates else None
    if passes is None or len(passes) > walker.helper_budget.loop_passes:
        return False
    walker.helper_budget.loop_passes -= len(passes)
    if not continues(node.body):
        for names in passes:
            walker.env.update(names)
            walker.block(node.body.body)
        return True
    before, launches, diagnostics = walker.env, len(walker.result.launches), len(walker.result.diagnostics)
    walker.env = layer = Scope({}, before)
    saved = walker.continue_at, walker.unsure_continue
    walker.continue_at, walker.unsure_continue = walker.branching, False
    for names in passes:
        walker.env.update(names)
        walker.block(node.body.body)
        walker.stopped = False  # (a `continue`: the next pass runs)
    unsure = walker.unsure_continue
    walker.continue_at, walker.unsure_continue = saved
    walker.env = before
    if unsure:
        del walker.result.launches[launches:], walker.result.diagnostics[diagnostics:]
        return False
    before.update(layer.maps[0])
    return True

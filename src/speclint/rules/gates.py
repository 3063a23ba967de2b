"""The gates a launch or a file opens (`Rule.gates`): what it has that some rule needs in
order to report anything. The engine runs a rule only where one of its gates is open, and
imports the rule's module only then (`rules.index`)."""

from __future__ import annotations

from operator import attrgetter

from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES
from speclint.sglang.flags.own_dests import ROUTER_DESTS

_FIELD = attrgetter("field")
"""An adjustment's field."""


class _GateNames(dict[str, str]):
    """Field -> `prefix + field`, each gate's name made once a run: a launch opens a gate per
    field it gives and per field resolution adjusts (~30), and a new string costs its copy and
    its hash each time; a kept one, a dict lookup (C: `map(names.__getitem__, fields)`)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, field: str) -> str:
        name = self[field] = self.prefix + field
        return name


_GIVEN = _GateNames("given:")
_ADJUSTED = _GateNames("adjusted:")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from speclint.rules.base import LaunchContext


def launch_gates(ctx: LaunchContext, drafter: bool = True, written: tuple[str, ...] = ()) -> frozenset[str]:
    """The gates a launch opens (`Rule.gates`): `problem:<kind>` for each problem SGLang's
    parser meets; `given:<field>` for each field a flag gives; `repeated-flag`,
    `deprecated-flag`, `router-option` for a field set twice, a deprecated flag, an option of
    the router; `algorithm:<NAME>` for the algorithm as written; `image` when the launch names
    a container image; `visible-devices` when it says which GPUs it sees (CUDA_VISIBLE_DEVICES,
    a manifest's GPU count); `class-entry` for a launch class (`sglang.Runtime(...)`); `bench-entry` for one of
    SGLang's benchmark scripts (`python -m sglang.bench_one_batch`);
    `config-refusal`; `help`; `rejection` when SGLang refuses the resolved settings;
    `adjusted:<field>` for each field SGLang's resolution changes; `speculative:<NAME>` for
    the algorithm after SGLang's aliasing; with `drafter` (some selected rule asks: it reads
    the drafter's files), `drafter` and `drafter:<algorithm>/<drafter kind>` when the drafter
    rules have a drafter to read (`rules.drafter.draft_launch`); `written:<field>` for each
    field of `written` (those some selected rule asks about) a flag sets, in whatever dest the
    release reads it (`LaunchContext.setting`); `partly-read` when some word of the launch
    cannot be known; `several-nodes` unless the launch runs on one node."""
    opened = {"problem:" + problem.kind for problem in ctx.parsed.problems}
    dests: set[str] = set()
    for use in ctx.parsed.uses:
        spec = use.spec
        if spec is None:
            continue
        if spec.dest in dests:
            opened.add("repeated-flag")
        dests.add(spec.dest)
        if spec.deprecated:
            opened.add("deprecated-flag")
        if ROUTER_DESTS[spec.dest]:
            opened.add("router-option")
    config = ctx.config
    opened.update(map(_GIVEN.__getitem__, config.given_fields()))  # (C loops: no generator)
    algorithm = config.value("speculative_algorithm")
    if isinstance(algorithm, str):
        opened.add("algorithm:" + algorithm.upper())
    for field in written:
        setting = ctx.setting(field)
        if setting is not None and setting.use is not None:
            opened.add("written:" + field)
    launch = ctx.launch
    if launch.partly_read or ctx.config.made_unread:  # (words the flag model made: Dynamo's, --config)
        opened.add("partly-read")
    if launch.image:
        opened.add("image")
    if "CUDA_VISIBLE_DEVICES" in launch.env or launch.gpu_count is not None:
        opened.add("visible-devices")
    if launch.entry in CLASS_ENTRIES:
        opened.add("class-entry")
    elif launch.entry in BENCH_ENTRIES:
        opened.add("bench-entry")
    if ctx.config_refusal is not None:
        opened.add("config-refusal")
    stop = ctx.parse_stop
    if stop is not None and stop.kind == "help":
        opened.add("help")
    resolution = ctx.resolution
    if resolution is not None:
        if resolution.rejection is not None or resolution.doubts:
            opened.add("rejection")
        opened.update(map(_ADJUSTED.__getitem__, map(_FIELD, resolution.adjustments)))
        nnodes = resolution.effective.get("nnodes")
        if not (type(nnodes) is int and nnodes == 1):
            opened.add("several-nodes")
        effective = ctx.speculative_algorithm
        if effective is not None:
            opened.add("speculative:" + effective)
            if drafter and stop is None:  # (the drafter rules run on launches argparse takes)
                import speclint.rules.drafter as drafters  # (a module: `from M import name` here costs a failed lookup each call)

                found = drafters.draft_launch(ctx)
                if found is not None:
                    opened.update(("drafter", f"drafter:{found.algorithm}/{found.kind.kind}"))
    return frozenset(opened)


def asked(gates: Iterable[str]) -> tuple[bool, tuple[str, ...]]:
    """`launch_gates`' `drafter` and `written` for rules with these gates."""
    gates = set(gates)
    drafter = any(gate.startswith("drafter") for gate in gates)
    return drafter, tuple(sorted(gate[8:] for gate in gates if gate.startswith("written:")))


def file_gates(kinds: Set[str]) -> frozenset[str]:
    """The gates a file's diagnostics open (`diagnostic:<kind>`)."""
    return frozenset("diagnostic:" + kind for kind in kinds)

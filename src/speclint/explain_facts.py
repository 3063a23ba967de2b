"""What `speclint explain` shows of an analysed launch beyond its context (`engine`
re-exports it): apart from the engine, so that a lint that explains nothing does not make
its record class."""

from __future__ import annotations

from speclint.core.records import dataclass
from speclint.frontends.recognise import BENCH_ENTRIES, CLASS_ENTRIES, SERVE_ENTRY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.rules.base import LaunchContext
    from speclint.sglang.checkpoints.aux_layers import AuxCapture


@dataclass(frozen=True)
class ExplainFacts:
    """What `explain` shows of a launch beyond its context, worked out before rendering (so
    `report.explain` only renders)."""

    parse_stop: str | None
    """Where SGLang's argparse stops the launch (the notion `check` uses), None when it parses."""
    modelled_note: str | None
    """'resolution modelled on SGLang X ...' when the resolver stands in for another release."""
    default_fields: frozenset[str]
    """SGLang's fixed defaults: in the JSON, not worth a line each in the text."""
    aux_capture: AuxCapture | None
    """The aux hidden states an EAGLE3 drafter gets, None when not an EAGLE3 launch."""
    fixture_notes: tuple[str, ...] = ()
    """For a launch of one of SGLang's test fixture bases: which release's base was read, and
    whether the checked release's is the same (`rules.fixture_launch`); for `sglang.Runtime(...)`
    and SGLang's other launch classes, what the checked release's class keeps itself
    (`rules.class_launch`)."""


def explain_facts(ctx: LaunchContext) -> ExplainFacts:
    """The facts `speclint explain` renders for one analysed launch."""
    from speclint.sglang.checkpoints.aux_layers import capture_for_launch
    from speclint.sglang.flags.argparse_stop import argparse_stop
    from speclint.sglang.resolve.defaults import DEFAULT_FIELDS

    stop = argparse_stop(ctx.parsed)
    parse_stop = None
    if stop is not None:
        where = f"(line {stop.span.line}, column {stop.span.column})"
        parse_stop = f"{stop.message} {where}" if stop.kind == "help" else f"error: {stop.message} {where}"
    notes: tuple[str, ...] = ()
    if ctx.launch.fixture is not None:
        from speclint.rules.fixture_launch import fixture_notes

        read, unverified = fixture_notes(ctx)
        notes = (read,) if unverified is None else (read, unverified)
    elif ctx.launch.entry in CLASS_ENTRIES:
        from speclint.rules.class_launch import class_notes

        notes = class_notes(ctx)
    elif ctx.launch.entry in BENCH_ENTRIES:
        from speclint.rules.bench_launch import bench_notes

        notes = bench_notes(ctx)
    elif ctx.launch.entry == SERVE_ENTRY:  # 0.5.5+: maybe SGLang's diffusion server
        from speclint.rules.diffusion_launch import diffusion_reason

        diffusion = diffusion_reason(ctx)
        if diffusion is not None:  # (its argparse does not stop it: the LM server's would)
            parse_stop = None
            notes = (
                f"not read: {diffusion[1]}; speclint does not model that server: what follows "
                "is the language-model server's reading of the flags, not what runs",
            )
    return ExplainFacts(
        parse_stop,
        _modelled_note(ctx.version.version),
        frozenset(DEFAULT_FIELDS),
        capture_for_launch(ctx),
        notes,
    )


def _modelled_note(version: str) -> str | None:
    """'resolution modelled on SGLang X' when the resolver stands in another release."""
    from speclint.sglang import release

    checked = release(version)
    if checked.resolution_exact:
        return None
    modelled = checked.resolution_follows
    return (
        f"resolution modelled on SGLang {modelled}, the closest older release whose "
        f"resolution speclint read or recorded ({version}'s was neither; flags and the "
        f"model registry are read from {version} itself; errors that rest on the "
        f"resolution say 'unverified for SGLang {version}')"
    )

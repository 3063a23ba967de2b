"""`speclint explain`: the configuration SGLang will really run with, and why each value changed."""

from __future__ import annotations

import json

from speclint.sglang.resolve.result import Unknown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from speclint.engine import ExplainFacts
    from speclint.rules.base import LaunchContext, ModelRef
    from speclint.sglang.checkpoints.aux_layers import AuxCapture
    from speclint.sglang.resolve.result import Adjustment, Resolution


_SPECULATIVE_SUMMARY = (
    "speculative_algorithm",
    "speculative_draft_model_path",
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
    "max_running_requests",
    "enable_mixed_chunk",
    "disable_overlap_schedule",
)


def _shown(value: object) -> str:
    """Values as SGLang's own Python would print them (None, True, 0.8, a/b)."""
    if isinstance(value, Unknown):
        if value.identity is not None:  # `k`, `k + 1`: unknown, but named by the launch
            return f"{value.identity} (unknown)"
        return f"unknown ({value.reason})"
    if isinstance(value, str):
        return value
    return repr(value)


def _log_note(adjustment: Adjustment) -> str:
    if not adjustment.logged:
        return "silent"
    return (
        "SGLang logs one warning"
        if adjustment.level == "warning"
        else f"SGLang logs it at {adjustment.level.upper()}"
    )


def _model_line(label: str, ref: ModelRef | None) -> str | None:
    if ref is None or ref.reference is None:
        return None
    if ref.config is not None and ref.located is not None:  # a config is read where it was found
        return f"  {label}: {ref.reference} ({ref.located.how}: {ref.architecture or 'no architectures'})"
    if ref.problem:
        return f"  {label}: {ref.reference} (config.json unreadable: {ref.problem})"
    return f"  {label}: {ref.reference} (config.json not found on disk)"


def render_explain_text(views: Sequence[tuple[LaunchContext, ExplainFacts]]) -> str:
    """Each launch with what `speclint.engine.explain_facts` worked out for it (argparse's stop,
    the release the resolution is modelled on, the aux capture): rendered here, never computed."""
    out: list[str] = []
    for ctx, facts in views:
        capture = facts.aux_capture
        launch, resolution = ctx.launch, _resolved(ctx)
        out.append(f"{ctx.path}:{launch.span.line}: {launch.entry}")
        if launch.alternative is not None:
            alt = launch.alternative
            out.append(f"  alternative {alt.index + 1} of {alt.count}: when {alt.description}")
        out.append(f"  SGLang {ctx.version.version} ({ctx.version.reason})")
        parse_stop = facts.parse_stop
        if parse_stop is not None:
            out.append(f"  SGLang's argument parser stops this launch before any resolution: {parse_stop}")
        gpu = getattr(ctx, "gpu", None)
        out.append(
            f"  GPU: {gpu.describe()}"
            if gpu is not None
            else "  GPU: not given (GPU-dependent fields are unknown; pass --gpu)"
        )
        modelled = facts.modelled_note
        if modelled:
            out.append(f"  {modelled}")
        out += [f"  {note}" for note in facts.fixture_notes]
        for line in (_model_line("target", ctx.target), _model_line("draft", ctx.draft)):
            if line:
                out.append(line)
        if capture is not None:
            out.append(f"  aux hidden states captured: {capture.describe()}")
        out.append("  flags as given:")
        for use in ctx.parsed.uses:
            values = " ".join(
                w.text if w.text is not None else f"<{w.dynamic_reason or 'dynamic'}>"
                for w in use.value_words
            )
            name = use.matched or use.written
            alias = f"  (as {use.written})" if use.written != name else ""
            out.append(f"    {name} {values}".rstrip() + alias)
        if ctx.parsed.has_unknown_words:
            out.append(f"    ... and words speclint cannot read ({ctx.parsed.unknown_reason})")
        out.append("  effective configuration" + (" (if argparse accepted it)" if parse_stop else "") + ":")
        changed = {a.field: a for a in resolution.adjustments}
        default_fields = facts.default_fields
        quiet_unknown: dict[str, list[str]] = {}
        for field, value in resolution.effective.items():
            adjustment = changed.get(field)
            if adjustment is None:
                speculating = resolution.effective.get("speculative_algorithm") is not None
                if isinstance(value, Unknown) and field in default_fields and not ctx.config.given(field):
                    quiet_unknown.setdefault(value.reason, []).append(field)
                elif (
                    ctx.config.given(field)
                    or isinstance(value, Unknown)
                    or (speculating and field in _SPECULATIVE_SUMMARY)
                ):
                    out.append(f"    {field}: {_shown(value)}")
                continue
            if field in default_fields and not ctx.config.given(field):
                continue  # SGLang's fixed defaults: in the JSON, not worth a line each
            first = next(a for a in resolution.adjustments if a.field == field)
            if first.asked is None:
                out.append(
                    f"    {field}: {_shown(value)}  (set by SGLang: {adjustment.reason}; "
                    f"{_log_note(adjustment)})"
                )
            else:
                out.append(
                    f"    {field}: {_shown(first.asked)} → {_shown(value)}  "
                    f"({adjustment.reason}; {_log_note(adjustment)})"
                )
        for reason, fields in quiet_unknown.items():
            out.append(f"    unknown ({reason}): {', '.join(fields)}")
        if resolution.rejection is not None:
            rejection = resolution.rejection
            out.append(
                f"  SGLang stops this launch in {rejection.handler}: "
                f"{rejection.exception}: {rejection.message}"
            )
        else:
            for doubt in resolution.doubts:  # what speclint cannot know decides (SPD009 warns)
                out.append(
                    f"  SGLang may stop this launch in {doubt.handler}: {doubt.exception}: {doubt.message}"
                )
        out.append("")
    return "\n".join(out)


def _resolved(ctx: LaunchContext) -> Resolution:
    """The resolution of a launch `explain` shows (`analyse_launch` always resolves it), with
    only the fields the release's ServerArgs has (speclint's model carries some the release
    lacks: `attn_dp_size` before 0.5.22, the page size before 0.4.4)."""
    resolution = ctx.resolution
    assert resolution is not None
    from speclint.sglang.server_fields import has_field

    version = ctx.version.version
    if all(has_field(version, name) for name in resolution.effective):
        return resolution
    from dataclasses import replace

    return replace(
        resolution,
        effective={k: v for k, v in resolution.effective.items() if has_field(version, k)},
        adjustments=[a for a in resolution.adjustments if has_field(version, a.field)],
    )


def _differences(left: LaunchContext, right: LaunchContext) -> list[tuple[str, object, object]]:
    """(field, left value, right value) for every effective value that differs."""
    a, b = _resolved(left).effective, _resolved(right).effective
    out: list[tuple[str, object, object]] = []
    for field in list(a) + [f for f in b if f not in a]:
        first, second = a.get(field, _ABSENT), b.get(field, _ABSENT)
        if _cell(first) != _cell(second):
            out.append((field, first, second))
    return out


_ABSENT = object()
"""A setting the release does not have."""


def _cell(value: object) -> str:
    return "(no such setting)" if value is _ABSENT else _shown(value)


def render_compare_text(
    pairs: Iterable[tuple[tuple[LaunchContext, ExplainFacts], tuple[LaunchContext, ExplainFacts]]],
) -> str:
    """One launch resolved for two releases: every effective value that differs."""
    out: list[str] = []
    for (left, left_facts), (right, right_facts) in pairs:
        launch = left.launch
        va, vb = left.version.version, right.version.version
        out.append(f"{left.path}:{launch.span.line}: {launch.entry}")
        for ctx, facts in ((left, left_facts), (right, right_facts)):
            note = facts.modelled_note
            out.append(
                f"  SGLang {ctx.version.version} ({ctx.version.reason})" + (f"; {note}" if note else "")
            )
        for ctx in (left, right):
            rejection = _resolved(ctx).rejection
            if rejection is not None:
                out.append(
                    f"  SGLang {ctx.version.version} stops this launch in "
                    f"{rejection.handler}: {rejection.exception}: {rejection.message}"
                )
        rows = _differences(left, right)
        if not rows:
            out.append(f"  no effective value differs between {va} and {vb}")
            out.append("")
            continue
        width = max(len(field) for field, _, _ in rows)
        left_width = max(len(va), *(len(_cell(x)) for _, x, _ in rows))
        out.append(f"    {'setting'.ljust(width)}  {va.ljust(left_width)}  {vb}")
        for field, first, second in rows:
            out.append(f"    {field.ljust(width)}  {_cell(first).ljust(left_width)}  {_cell(second)}")
        out.append("")
    return "\n".join(out)


def render_compare_json(
    pairs: Iterable[tuple[tuple[LaunchContext, ExplainFacts], tuple[LaunchContext, ExplainFacts]]],
) -> str:
    return json.dumps(
        [
            {
                "path": left.path,
                "line": left.launch.span.line,
                "versions": [left.version.version, right.version.version],
                "modelled_on": [_modelled_release(left), _modelled_release(right)],
                "differences": [
                    {
                        "field": f,
                        "values": [
                            None if a is _ABSENT else _jsonable(a),
                            None if b is _ABSENT else _jsonable(b),
                        ],
                    }
                    for f, a, b in _differences(left, right)
                ],
            }
            for (left, _), (right, _) in pairs
        ],
        indent=2,
    )


def _modelled_release(ctx: LaunchContext) -> str:
    return ctx.release.resolution_follows


def _jsonable(value: object) -> object:
    return None if isinstance(value, Unknown) else value


def _symbolic(adjustment: Adjustment) -> dict[str, Any]:
    """`{"symbolic": {"from": "k", "to": "k + 1"}}` for a change between unknown values the
    launch names (an unknown value's identity), else nothing."""
    ends = [
        getattr(v, "identity", None) if isinstance(v, Unknown) else None
        for v in (adjustment.asked, adjustment.effective)
    ]
    if ends[0] is None or ends[1] is None:
        return {}
    return {"symbolic": {"from": str(ends[0]), "to": str(ends[1])}}


def explain_dict(ctx: LaunchContext, facts: ExplainFacts) -> dict[str, Any]:
    found = _explain_dict(ctx, facts)
    if facts.fixture_notes:  # a launch of one of SGLang's test fixture bases, or launch classes
        found["fixture_notes" if ctx.launch.fixture is not None else "class_notes"] = list(
            facts.fixture_notes
        )
    return found


def _explain_dict(ctx: LaunchContext, facts: ExplainFacts) -> dict[str, Any]:
    resolution, gpu = _resolved(ctx), ctx.gpu
    return {
        "path": ctx.path,
        "line": ctx.launch.span.line,
        "entry": ctx.launch.entry,
        "argv": [w.text for w in ctx.launch.args],
        "alternative": None
        if ctx.launch.alternative is None
        else {
            "index": ctx.launch.alternative.index,
            "count": ctx.launch.alternative.count,
            "when": ctx.launch.alternative.description,
        },
        "sglang_version": ctx.version.version,
        "sglang_version_reason": ctx.version.reason,
        "resolution_modelled_on": _modelled_release(ctx),
        "resolution_exact": ctx.release.resolution_exact,
        "target_architecture": resolution.target_architecture,
        "aux_hidden_states_captured": _aux_capture_json(facts.aux_capture),
        "effective": {k: _jsonable(v) for k, v in resolution.effective.items()},
        "unknown": {k: v.reason for k, v in resolution.effective.items() if isinstance(v, Unknown)},
        "adjustments": [
            {
                "field": a.field,
                "from": _jsonable(a.asked),
                "to": _jsonable(a.effective),
                "reason": a.reason,
                "sglang_handler": a.handler,
                "logged": a.logged,
                "log_level": a.level if a.logged else None,
                **_symbolic(a),
            }
            for a in resolution.adjustments
        ],
        "gpu": None
        if gpu is None
        else {
            "profile": gpu.key,
            "name": gpu.name,
            "vendor": gpu.vendor,
            "memory_mib": gpu.memory_mib,
            "count": gpu.count,
            "compute_capability": (".".join(map(str, gpu.capability)) if gpu.capability else None),
            "arch": gpu.arch,
        },
        "rejection": _rejection_json(ctx, facts),
    }


def _rejection_json(ctx: LaunchContext, facts: ExplainFacts) -> dict[str, str] | None:
    """argparse's refusal first (it stops before resolution), else resolution's."""
    parse_stop = facts.parse_stop
    if parse_stop is not None:
        return {"exception": "SystemExit", "message": parse_stop, "sglang_handler": "argparse"}
    rejection = _resolved(ctx).rejection
    if rejection is None:
        return None
    return {
        "exception": rejection.exception,
        "message": rejection.message,
        "sglang_handler": rejection.handler,
    }


def _aux_capture_json(capture: AuxCapture | None) -> dict[str, object] | None:
    if capture is None:
        return None
    return {
        "layers": capture.layers,
        "num_layers": capture.num_layers,
        "eagle_config_ids": capture.ids,
        "convention": capture.how,
    }


def render_explain_json(views: Sequence[tuple[LaunchContext, ExplainFacts]]) -> str:
    return json.dumps([explain_dict(ctx, facts) for ctx, facts in views], indent=2)

"""SGLang's `--speculative-*` flags written in a YAML file outside every launch speclint read
there, and any SGLang server flag in a YAML file that names SGLang but yields no launch: said,
never passed in silence.

The usual case is a Helm chart's values file: the flags sit in a list (`extraArgs:`,
`args:` under an `sglang` key) or a string that a template (`{{ range .Values.extraArgs }}`)
splices into the container's command. speclint does not render templates, so it cannot
connect these flags to a launch; it does not invent one either. A values file that holds only
other flags (`extraArgs: [--tp-size, "2"]`) beside an SGLang image yields no launch: its first
flag that is an option of some SGLang release is reported, so that "0 launches" is not a pass.
A Hydra config with no launch whose defaults list composes it with config group files (a
launcher's `deployment/sglang.yaml` holding the command) is said so, naming those files.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache

from speclint.core.launches import Diagnostic
from speclint.core.spans import Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult

_FLAG = re.compile(r"(?<![\w-])--speculative-[a-z0-9-]+")
_ANY_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9](?![\w-])")
_NAMES_SGLANG = re.compile(r"(?i)(?<![a-z0-9])sglang(?![a-z0-9])")  # (not `mysglangServer`)


def may_hold(text: str, result: ExtractResult) -> bool:
    """Cheap test: the text may hold an SGLang flag `unread_flags` reports."""
    return "--speculative-" in text or (
        not result.launches and "--" in text and _NAMES_SGLANG.search(text) is not None
    )


@cache
def _speculative_options() -> tuple[str, ...]:
    from speclint.sglang.flags.release_index import option_entries  # the flags of every supported release

    return tuple(o for o in option_entries() if o.startswith("--speculative-"))


def _is_server_option(name: str) -> bool:
    """An option string of some SGLang release, exactly as written (`--tp-size`)."""
    from speclint.sglang.flags.release_index import option_entries

    return name in option_entries()


def _is_sglang_flag(name: str) -> bool:
    """A `--speculative-*` option of some SGLang release, or a prefix argparse would accept
    for one (not another engine's: vLLM's `--speculative-config`)."""
    return any(option.startswith(name) for option in _speculative_options())


def _inside(line: int, column: int, span: Span) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column)


def unread_flags(
    text: str, result: ExtractResult, generic: Diagnostic | None, path: str = ""
) -> Diagnostic | None:
    """A no-launch-found diagnostic at the first SGLang `--speculative-*` flag of the text
    (outside comments) that no launch's words hold; None when there is none, or when the
    file has no launch and the `generic` no-launch-found finding points elsewhere (at the
    launcher's name, which says more)."""
    if not may_hold(text, result):
        return None
    any_flag = not result.launches and _NAMES_SGLANG.search(text) is not None
    pattern, wanted = (_ANY_FLAG, _is_server_option) if any_flag else (_FLAG, _is_sglang_flag)
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    spans = [  # where each word is used, and where its value is written (`env:` of a workflow)
        where
        for launch in result.launches
        for word in launch.args
        for where in (word.span, word.origin)
        if where
    ] + [d.span for d in result.diagnostics if d.kind == "no-launch-found"]  # (said there already)
    read = {word.text for launch in result.launches for word in launch.args}
    environments = [word.span for launch in result.launches for word in launch.env.values()]
    for match in pattern.finditer(text):
        if not wanted(match.group()) and not (
            match.group().startswith("--speculative-") and _is_sglang_flag(match.group())
        ):
            continue
        line = bisect_right(starts, match.start())
        column = match.start() - starts[line - 1] + 1
        if any(_inside(line, column, span) for span, _ in result.comments):
            continue
        if any(_inside(line, column, span) for span in spans):
            continue
        if match.group() in read and any(_inside(line, column, span) for span in environments):
            continue  # a launch's environment value its command expands (compose `$$SGLANG_ARGS`)
        span = Span(line, column, line, column + len(match.group()))
        if not result.launches and generic is not None and generic.span != span:
            return None
        if path:
            from speclint.frontends.manifests.helm_render import rendering_template

            template = rendering_template(path, text, match.start())
            if template is not None:
                return Diagnostic("no-launch-found", _rendered(match.group(), template), span)
        composed = _hydra_groups(text) if not result.launches else []
        if composed:
            return Diagnostic("no-launch-found", _composed(match.group(), composed), span)
        if _KUSTOMIZE.search(text) is not None:
            return Diagnostic("no-launch-found", _patched(match.group(), bool(result.launches)), span)
        if _on_command_line(text, starts[line - 1], match.start()):
            return Diagnostic("no-launch-found", _wrapper(match.group(), bool(result.launches)), span)
        return Diagnostic("no-launch-found", _message(match.group(), bool(result.launches)), span)
    return None


_LINE_PREFIX = re.compile(r"""[ \t]*(?:-[ \t]+)?(?:[\w.-]+:[ \t]*)?[\[(]?[ \t]*["']?""")
"""A line that writes a command before the flag: its first word (after a list dash, a key, a
flow list's `[` and a quote) is a program, not a flag (`command: ["python", "serve.py", ...]`,
`run: python bench/serve.py ...`), unlike a flag list (`extraArgs: [--tp-size, "2"]`)."""


def _on_command_line(text: str, begin: int, at: int) -> bool:
    prefix = _LINE_PREFIX.match(text, begin, at)
    rest = text[prefix.end() if prefix is not None else begin : at]
    return bool(rest) and rest[0] not in "-\"'[{|>#&*$ \t"


def _wrapper(flag: str, launches: bool) -> str:
    said = (
        f"SGLang's `{flag}` is outside every launch speclint read in this file"
        if launches
        else f"this file names `{flag}`, an option of SGLang's server, but speclint found no launch in it"
    )
    return (
        f"{said}: the command that passes it is not SGLang's launcher (a script of the project's "
        "own, a wrapper) or was not read as one, so nothing in it was checked"
    )


_KUSTOMIZE = re.compile(
    r"(?m)^kind:[ \t]*Kustomization[ \t]*$|^(?:patches|patchesJson6902|patchesStrategicMerge):"
)
"""A Kustomization (`kustomization.yaml`): its patches change manifests of other files."""


def _patched(flag: str, launches: bool) -> str:
    said = (
        f"SGLang's `{flag}` is outside every launch speclint read in this file"
        if launches
        else f"this file names `{flag}` but speclint found no launch in it"
    )
    return (
        f"{said}: it is in a Kustomize patch, which changes a manifest of another file when "
        "`kustomize build` runs; speclint does not apply patches, so the launch it patches was not "
        "checked with it (lint what `kustomize build` writes, saved to a .yaml file)"
    )


_DEFAULTS = re.compile(r"(?m)^defaults:[ \t]*\n((?:[ \t]+-[^\n]*\n?)+)")
_GROUP_ENTRY = re.compile(r"-\s+(?:(?:optional|override)\s+)*/?([\w./-]+?)(?:@[\w.]+)?:\s*([\w./-]+)")


def _hydra_groups(text: str) -> list[str]:
    """The config group files a Hydra config's top-level defaults list composes it with."""
    match = _DEFAULTS.search(text)
    if match is None:
        return []
    found = []
    for line in match.group(1).splitlines():
        entry = _GROUP_ENTRY.match(line.strip())
        if entry is not None and entry.group(2) not in ("null", "???"):
            option = entry.group(2)
            found.append(
                f"{entry.group(1)}/{option}" + ("" if option.endswith((".yaml", ".yml")) else ".yaml")
            )
    return found


def composed_launch(text: str, result: ExtractResult) -> Diagnostic | None:
    """A Hydra config with no launch whose defaults list picks an SGLang option of a config
    group (`- deployment: sglang`): the launch is written in that group's file and composed
    with this one, which speclint does not do; said at the option, never passed in silence."""
    if result.launches or any(d.kind == "no-launch-found" for d in result.diagnostics):
        return None
    match = _DEFAULTS.search(text)
    if match is None:
        return None
    at = match.start(1)
    for line in match.group(1).splitlines(keepends=True):
        entry = _GROUP_ENTRY.search(line)
        if entry is not None and _NAMES_SGLANG.search(entry.group(2)):
            start = at + entry.start(2)
            row = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            group = f"{entry.group(1)}/{entry.group(2)}"
            shown = group if group.endswith((".yaml", ".yml")) else group + ".yaml"
            message = (
                f"this Hydra config holds no launch: its defaults list composes it with `{shown}`, "
                "an SGLang option whose launch Hydra fills with this file's values; speclint reads "
                "that file alone, not composed with this one, so the launch was not checked with "
                f"these values (lint `{shown}` as well)"
            )
            span = Span(row, column, row, column + len(entry.group(2)))
            return Diagnostic("no-launch-found", message, span)
        at += len(line)
    return None


def _composed(flag: str, groups: list[str]) -> str:
    named = ", ".join(f"`{group}`" for group in groups[:4])
    return (
        f"this Hydra config names `{flag}` but holds no launch: its defaults list composes it with "
        f"{named}, where a launch string would read these values when Hydra composes them; speclint "
        "reads a config group's launch string in that file alone, not composed with this one, so "
        "these flags were not checked"
    )


def _message(flag: str, launches: bool) -> str:
    said = (
        f"SGLang's `{flag}` is outside every launch speclint read in this file"
        if launches
        else f"this file names `{flag}` but speclint found no launch in it"
    )
    return (
        f"{said}: flags written in YAML (a Helm values file's `extraArgs:` or `args:`) reach "
        "the command through a chart's template, which speclint does not render; they were "
        "not checked"
    )


def _rendered(flag: str, template: str) -> str:
    return (
        f"`{flag}` is checked where the chart's template {template} writes this list into its "
        "launch (speclint reads the template with this file's values): lint that template too; "
        "values given to `helm install` with -f or --set are not known"
    )

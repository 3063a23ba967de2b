"""A launch given as an argv (what `speclint run` is asked to exec, what SGLang's plugin
hook gets): its findings, and the CUDA ordinals its workers will open.

The words are laid out on one synthetic line (`shlex.join`, with the environment variables
speclint reads written in front), so findings point at real columns. A whole command line
(`speclint run -- timeout 600 python -m sglang.launch_server ...`) goes through the shell
front-end, the one launch recogniser the linted files use (wrappers, `env`, `docker run`,
`bash -c`); an argv that is only SGLang's arguments (the plugin) is laid out directly.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import field

from speclint.core.launches import Launch
from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from speclint.core.findings import Finding
    from speclint.engine import FileResult
    from speclint.rules.base import LaunchContext
    from speclint.settings.options import LintOptions

COMMAND_LINE = "<command line>"
_ENV_PREFIXES = ("SGLANG_", "SGL_")
_ENV_NAMES = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")


@dataclass(slots=True)
class ArgvLint:
    """One argv linted by the gate (`speclint run`, the plugin): its result and entry point."""

    result: FileResult
    """Findings, contexts and the synthetic line as `text`."""
    entry: str | None
    """'python -m sglang.launch_server', 'sglang serve', or None: not an SGLang launch."""
    env: dict[str, str] = field(default_factory=dict)
    """The environment the command runs with (the caller's, plus `env VAR=value` words)."""

    @property
    def context(self) -> LaunchContext | None:
        return self.result.contexts[0] if self.result.contexts else None

    @property
    def errors(self) -> list[Finding]:
        from speclint.core.findings import Severity

        return [f for f in self.result.findings if f.severity >= Severity.ERROR]


def _relevant_env(environ: Mapping[str, str]) -> dict[str, str]:
    return {
        name: value
        for name, value in sorted(environ.items())
        if name in _ENV_NAMES or name.startswith(_ENV_PREFIXES)
    }


def build_launch(
    argv: list[str], entry: str, first_arg: int, environ: Mapping[str, str]
) -> tuple[Launch, str]:
    """The Launch for `argv[first_arg:]` and the synthetic line its spans point into.
    Variables the argv assigns (`env VAR=value`) point at those words; the others the
    launch inherits are written in front of the command."""
    relevant = _relevant_env(environ)
    in_argv = {
        word.partition("=")[0] for word in argv[:first_arg] if "=" in word and not word.startswith("-")
    }
    pieces: list[str] = []
    env_words: dict[str, Word] = {}
    column = 1
    for name, value in relevant.items():
        if name in in_argv:
            continue
        quoted = shlex.quote(value)
        start = column + len(name) + 1
        env_words[name] = Word(value, Span(1, start, 1, start + len(quoted)))
        pieces.append(f"{name}={quoted}")
        column += len(pieces[-1]) + 1
    words: list[Word] = []
    for position, text in enumerate(argv):
        quoted = shlex.quote(text)
        span = Span(1, column, 1, column + len(quoted))
        if position >= first_arg:
            words.append(Word(text, span))
        elif "=" in text and not text.startswith("-"):
            name, _, value = text.partition("=")
            if name in relevant:
                env_words[name] = Word(
                    value,
                    span.sub(len(quoted) - len(shlex.quote(value)), len(quoted)) if quoted == text else span,
                )
        pieces.append(quoted)
        column += len(quoted) + 1
    line = " ".join(pieces)
    launch = Launch(COMMAND_LINE, entry, Span(1, 1, 1, len(line) + 1), words, env_words)
    return launch, line


def lint_argv(
    argv: list[str],
    environ: Mapping[str, str] | None = None,
    options: LintOptions | None = None,
    entry: str | None = None,
) -> ArgvLint:
    """Lint a command's argv with every rule. `entry` given: `argv` is only SGLang's
    arguments (as `prepare_server_args` gets them), launched that way."""
    from speclint.engine import FileResult, analyse_launch, launch_findings
    from speclint.settings.options import LintOptions

    environ = dict(os.environ if environ is None else environ)
    options = options or LintOptions(read_pyproject=False)
    if entry is None:
        return _lint_command_line(list(argv), environ, options)
    prefix = entry.split()
    argv, first = prefix + list(argv), len(prefix)
    launch, line = build_launch(list(argv), entry, first, environ)
    result = FileResult(COMMAND_LINE, text=line)
    ctx = analyse_launch(COMMAND_LINE, launch, options)
    result.contexts.append(ctx)
    result.findings.extend(launch_findings(ctx, options.selection))
    unique = {(f.code, f.span, f.message): f for f in result.findings}
    result.findings = sorted(unique.values(), key=lambda f: (f.span.column, f.code))
    return ArgvLint(result, entry, environ)


def needed_ordinals(ctx: LaunchContext | None, sizes: Mapping[str, object] | None = None) -> list[int] | None:
    """The CUDA ordinals one node's workers open (`speclint.sglang.resolve.gpu_layout.gpu_use`);
    `sizes` overrides effective values (the plugin passes SGLang's own tp/pp/nnodes/dp).
    None when the sizes are not known."""
    from speclint.frontends.recognise import ROUTER_ENTRY
    from speclint.sglang.resolve.gpu_layout import gpu_use

    if ctx is None or ctx.resolution is None:
        return None
    effective = dict(ctx.resolution.effective)
    effective.update({k: v for k, v in (sizes or {}).items() if isinstance(v, int)})
    use = gpu_use(effective, ctx.config, ctx.version.version, ctx.launch.entry == ROUTER_ENTRY)
    return list(use.indices) if use is not None else None


def _lint_command_line(argv: list[str], environ: dict[str, str], options: LintOptions) -> ArgvLint:
    """A whole command: the inherited variables speclint reads written in front as
    assignments, then the words, read by the shell front-end like a one-line script."""
    from speclint.engine import FileResult, lint_text

    assigned = {word.partition("=")[0] for word in argv if "=" in word and not word.startswith("-")}
    pieces = [
        f"{name}={shlex.quote(value)}"
        for name, value in _relevant_env(environ).items()
        if name not in assigned
    ]
    line = " ".join([*pieces, shlex.join(argv)])
    result = lint_text(line, "-", options, COMMAND_LINE)
    if not result.contexts:
        return ArgvLint(FileResult(COMMAND_LINE, text=line), None, environ)
    launch = result.contexts[0].launch
    environ.update(
        {name: word.text for name, word in launch.env.items() if word.text is not None and not word.dynamic}
    )
    return ArgvLint(result, launch.entry, environ)

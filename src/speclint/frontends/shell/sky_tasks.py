"""`sky launch task.yaml`, `sky jobs launch task.yaml`, `sky serve up service.yaml`: the task
YAML SkyPilot reads (sky/client/cli/command.py: "If ENTRYPOINT points to a valid YAML file, it
is read in as the task specification"), read from disk next to the script, never run.

The YAML is read as the YAML front-end reads a SkyPilot task (`manifests.task_configs`: its
`setup:` and `run:` blocks as bash, with `envs:`), each position carrying the YAML's path
(`Span.file`), so findings point into it; the command line's `--env NAME=VALUE` overrides the
task's `envs:` (SkyPilot merges the CLI's env into the task's), and `--env-file` not read is
said on each launch. A YAML that is not on disk is not read and nothing is said of it: the
script does not say what it runs (a YAML that is on disk but cannot be read is said).
"""

from __future__ import annotations

CLI_ENV: dict[str, Word] | None = None
"""While a task is read: the command line's `--env` variables, which override the task's
`envs:` (SkyPilot merges them in; `manifests.task_configs` reads them)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.walking import Walking


def read_task_file(
    walker: Walking, written: Word, env: dict[str, Word], unread: tuple[str, Span] | None, sub: str
) -> None:
    """The launches of the task YAML `written` names into the walker's result."""
    name = written.text or ""
    if not walker.collect or walker.path in ("-", "<stdin>") or "$" in name:
        return
    from speclint.frontends.reading import read_named_file

    text, candidate, why = read_named_file(walker.path, name)
    if text is None:
        if why != "not on disk":
            from speclint.core.diagnostics import Diagnostic

            message = (
                f"speclint did not read the task file `sky {sub}` runs: `{candidate}` cannot be read ({why})"
            )
            walker.result.diagnostics.append(Diagnostic("launcher-not-read", message, written.span))
        return
    reader = walker.unit_reader
    if reader is None or not ("\n" + text).count("\nrun:"):  # (not a task: no top-level `run:`)
        return  # (or shell code inside another file's string: not read from there)
    from dataclasses import replace

    from speclint.frontends.shell.manifest_heredoc import MANIFEST_STDIN

    def moved(span: Span) -> Span:
        return span if span.file is not None else replace(span, file=candidate)

    global CLI_ENV
    CLI_ENV = {key: _in_script(word, walker.path) for key, word in env.items()}
    try:
        found = reader(text, candidate, {}, moved, MANIFEST_STDIN)
    finally:
        CLI_ENV = None
    for launch in found.launches:
        if unread is not None:
            from speclint.frontends.shell.docker_env_files import mark_unread, with_unread

            merged = with_unread(launch.env, unread[0], replace(unread[1], file=walker.path))
            merged.unread_label = f"the environment `sky {sub}` gives the task"
            launch.env = merged
            mark_unread(launch, merged)
        walker.result.launches.append(launch)
    walker.result.diagnostics.extend(found.diagnostics)


def _in_script(word: Word, path: str) -> Word:
    """A word of the script, its positions marked as the script's (the task's are moved into
    the YAML's file)."""
    from dataclasses import replace

    return replace(
        word,
        span=replace(word.span, file=word.span.file or path),
        origin=replace(word.origin, file=word.origin.file or path) if word.origin else None,
    )

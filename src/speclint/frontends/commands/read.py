"""The command-file reader for each file kind (`frontends.file_kind`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.launches import ExtractResult


def extract_commands(kind: str, text: str, path: str) -> ExtractResult:
    result = _extract(kind, text, path)
    if "--speculative-" in text:  # a wrapper run with SGLang's flags: said, not passed
        from speclint.frontends.commands.unread_speculative import say_unread_speculative

        say_unread_speculative(text, result)
    return result


def _extract(kind: str, text: str, path: str) -> ExtractResult:
    """The launches in a Makefile, justfile, Procfile, systemd unit or drop-in, Podman
    Quadlet `.container` file, supervisord config, tox.ini, pixi.toml, pyproject.toml or poe_tasks.toml
    (`kind` as `file_kind` names it)."""
    if kind == "makefile":
        from speclint.frontends.commands.make_launches import extract_makefile

        return extract_makefile(text, path)
    if kind in ("justfile", "procfile"):
        from speclint.frontends.commands.just import extract_justfile, extract_procfile

        return (extract_justfile if kind == "justfile" else extract_procfile)(text, path)
    if kind == "systemd":
        from speclint.frontends.commands.systemd import extract_unit
        from speclint.frontends.unit_paths import drop_in_base

        return extract_unit(text, path, base=drop_in_base(path))
    if kind == "quadlet":
        from speclint.frontends.commands.quadlet import extract_quadlet
        from speclint.frontends.unit_paths import drop_in_base

        return extract_quadlet(text, path, base=drop_in_base(path, ".container"))
    if kind in ("pixi", "pyproject", "poe", "hatch", "mise"):
        from speclint.frontends.commands.toml_tasks import extract_toml_tasks

        return extract_toml_tasks(kind, text, path)
    from speclint.frontends.commands.ini import extract_ini

    return extract_ini(kind, text, path)

"""`bash [options] -c 'CODE'` (and `sh`, `zsh`, ...): CODE walked as a script of its own."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking


def shell_c(
    walker: Walking,
    shell: str,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> None:
    """`bash [options] -c 'CODE'`: walk CODE as a script of its own."""
    while i < len(args):
        text = args[i].word.text
        if text is None or text[:1] not in "-+" or text in ("-", "--"):
            return
        i += 1
        if text in ("-o", "+o", "-O", "+O"):
            i += 1
        elif not text.startswith("--") and "c" in text[1:]:
            if i + 1 < len(args) and args[i].word.text == "--":  # `bash -lc -- 'CODE'` (KubeRay)
                i += 1
            if i < len(args):
                line = args[i].word.span.line
                unread = getattr(env, "unread", None)  # an env file not read (`docker_env_files`)
                walker.parse_nested(
                    args[i],
                    env,
                    image,
                    unread or f"${{name}} is not exported to the inner `{shell} -c` shell (line {line})",
                    walker.exported_definitions() if shell == "bash" else None,
                    None if unread else walker.env,  # a name never assigned: the environment's
                )
            return

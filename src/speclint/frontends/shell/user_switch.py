"""`su` and `runuser` (util-linux) in front of the server: `runuser -u USER [--] COMMAND...` runs
COMMAND as it is; `su [options] [-] [USER] -c 'CODE'` and `runuser ... -c 'CODE'` hand CODE to
the user's shell, read here as a script of its own. With `-`, `-l` or `--login` that shell
starts with a fresh environment (none of this script's variables); otherwise it keeps it
(su(1), runuser(1): "-c, --command", "-u, --user", "-, -l, --login")."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

_VALUE = frozenset(
    """-c --command -s --shell -g --group -G --supp-group -w --whitelist-environment
    --session-command -u --user""".split()
)
_LOGIN = frozenset({"-", "-l", "--login"})


def user_switch(
    walker: Walking,
    tool: str,
    args: list[Arg],
    i: int,
    env: dict[str, Word],
    image: tuple[str | None, Span | None] | None,
) -> int | None:
    """From `args[i]` (the word after `su`/`runuser`): the index of a command `runuser -u USER`
    runs as it is, or None (a `-c` CODE is walked here; anything else starts no launch read)."""
    code: Arg | None = None
    user_option = login = False
    while i < len(args):
        text = args[i].word.text
        if text is None:
            return None
        if text == "--":
            i += 1
            break
        if text in _LOGIN:
            login, i = True, i + 1
            continue
        if not text.startswith("-"):
            if user_option:
                break  # `runuser -u USER COMMAND...`
            i += 1  # the user (su's form); what follows goes to the shell
            continue
        if text in _VALUE:
            if text in ("-c", "--command") and i + 1 < len(args):
                code = args[i + 1]
            user_option = user_option or text in ("-u", "--user")
            i += 2
            continue
        if not text.startswith("--") and text[-1:] == "c" and i + 1 < len(args):  # `-lc 'CODE'`
            code = args[i + 1]
            login = login or "l" in text
            i += 2
            continue
        login = login or (not text.startswith("--") and "l" in text[1:])
        i += 1
    if code is not None:
        line = code.word.span.line
        walker.parse_nested(
            code,
            {} if login else env,
            image,
            f"${{name}} is not passed to the shell `{tool} -c` starts (line {line})",
        )
        return None
    return i if tool == "runuser" and user_option else None

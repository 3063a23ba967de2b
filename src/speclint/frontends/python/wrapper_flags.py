"""A command a Python file runs that is not SGLang's launcher but passes one of SGLang's
`--speculative-*` options: `subprocess.run(["python", "serve.py", "--speculative-algorithm",
"EAGLE3", ...])`, `os.system("torchrun ... my_serve.py --speculative-num-steps 3")`. The script
(a project's own wrapper, a benchmark harness) starts the server itself, and the file may never
name SGLang; but no other engine's speculative options have those names (vLLM's are
`--speculative-config`, `--speculative-model`), so the flag says what the command starts, and
speclint did not read it: said not read (`no-launch-found`, info) at the flag, as the docs
front-end says such a command on a page (`docs.flag_fragments`).

Only the spellings some SGLang release declares, exactly as written (the bundled schema data:
`release_index.option_entries`), and only when no word of the command names another engine
(`vllm serve ... --speculative-draft-model`, were it ever written, is not SGLang's).
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.frontends.wrapper_words import OTHER_ENGINE as OTHER_ENGINE
from speclint.frontends.wrapper_words import command_name as _command_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.frontends.python.walking import Walking
    from speclint.frontends.shell.pieces import Piece

MARK = "--speculative-"
"""What a text must hold for any of this to apply (a substring test first)."""
SPECULATIVE = patterns.compile(r"(?<![\w-])--speculative-[a-z0-9-]*[a-z0-9](?![\w-])")
_SAID = ("no-launch-found", "launcher-not-read", "launch-unread")


def sglang_spellings(text: str) -> bool:
    """Whether `text` writes one of SGLang's `--speculative-*` options (a release declares it
    as written): what makes a Python file that never names SGLang worth reading."""
    if MARK not in text:
        return False
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    return any(match.group() in options for match in SPECULATIVE.finditer(text))


def say_wrapper(walker: Walking, words: Sequence[Sequence[Piece]], said_before: int) -> None:
    """When the command of `words` (each an argv word's pieces, or one shell text's) made no
    launch and nothing was said of it since `said_before` (the diagnostics' count before it
    was walked): its first `--speculative-*` option of SGLang's server, said not read at
    that flag."""
    known = [piece for word in words for piece in word if piece.text]
    if not any(MARK in piece.text for piece in known if piece.text):
        return
    if any(d.kind in _SAID for d in walker.result.diagnostics[said_before:]):
        return
    written = " ".join("".join(piece.text or "" for piece in word) for word in words)
    if OTHER_ENGINE.search(written) is not None:
        return
    from speclint.frontends.recognise import LAUNCH_TEXT

    if LAUNCH_TEXT.search(written) is not None:
        return  # (SGLang's launcher, not read for another reason: said by that reason, not as a wrapper)
    from speclint.sglang.flags.release_index import option_entries

    options = option_entries()
    for piece in known:
        assert piece.text is not None
        for match in SPECULATIVE.finditer(piece.text):
            flag = match.group()
            if flag not in options:
                continue
            if piece.exact:
                begin, end = piece.begin + match.start(), piece.begin + match.end()
            else:
                begin, end = piece.begin, piece.end
            _say(walker, flag, begin, end, _command_name(written))
            return


def say_command_text(walker: Walking, pieces: Sequence[Piece], written: str) -> None:
    """A string handed to a helper whose body speclint does not read (`run(cmd)`,
    `self.launch(cmd)`), when it is written as a command: words, the first not a flag (not
    `arg.startswith("--speculative-num-steps")`)."""
    words = written.split()
    if len(words) > 1 and not words[0].startswith("-"):
        say_wrapper(walker, [pieces], len(walker.result.diagnostics))


def _say(walker: Walking, flag: str, begin: int, end: int, command: str) -> None:
    from speclint.core.launches import Diagnostic
    from speclint.frontends.shell.pieces import span_of

    message = (
        f"this command (`{command}`) is not SGLang's launcher but passes `{flag}`, an option of "
        "SGLang's server: speclint did not read it as a launch, so nothing in it was checked"
    )
    found = Diagnostic("no-launch-found", message, span_of(walker.pos.starts, begin, end))
    if found not in walker.result.diagnostics:  # (a call walked again: a branch, a call site)
        walker.result.diagnostics.append(found)

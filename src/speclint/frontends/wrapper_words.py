"""What a command that is not SGLang's launcher writes, as every front-end that says such a
command not read (`python.wrapper_flags`, `shell.wrapper_flags`) names it: the words that name
another engine, and the command's name as its first words write it."""

from __future__ import annotations

from speclint.core import patterns

OTHER_ENGINE = patterns.compile(
    r"(?i)vllm|text-generation|\btgi\b|trtllm|tensorrt|lmdeploy|ollama|llama\.cpp|llama-server|aphrodite"
)

_SHELLS = ("bash", "sh", "zsh")
_ASSIGNMENT = patterns.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")


def command_name(written: str) -> str:
    """The command as its first words write it: its program (and `-m MODULE`, or the script
    `python` runs), `VAR=value` prefixes and `env` left out."""
    words = written.split()
    while words and (_ASSIGNMENT.fullmatch(words[0]) or words[0] == "env"):
        words = words[1:]
    if not words:
        return written[:40]
    if len(words) > 2 and words[1] == "-m":
        return " ".join(words[:3])
    program = words[0].rsplit("/", 1)[-1]
    if (
        len(words) > 1
        and (program.startswith("python") or program in _SHELLS)
        and not words[1].startswith("-")
    ):
        return " ".join(words[:2])  # (`python serve.py`, `bash launch.sh`)
    return words[0]

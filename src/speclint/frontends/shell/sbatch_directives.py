"""The `#SBATCH` lines of a batch script sbatch reads from a here-document: its options too.

Read as Slurm's source reads them (src/sbatch/opt.c `_opt_batch_script`, `_get_argument`):
a line that starts with `#SBATCH` (at its first column; `<<-` strips the tabs before the
shell hands the lines over) gives options; blank lines and other comments are passed over;
the first line holding a command ends the reading. On a `#SBATCH` line the words are split
at blanks, a quote groups blanks into a word and is dropped, `\\` keeps the character after
it, and an unquoted `#` starts a comment. `process_options_second_pass` applies the script's
options first, then the `SBATCH_*` variables, then the command line, so the script's
`--export` counts only when neither `--export` nor `SBATCH_EXPORT` is given. A `hetjob`
separator ends the first job component's options: only those are read here. Only `--export`
(or `--export VALUE`, the last one written) is taken, its list applied as sbatch applies it
(`slurm_export.apply_batch_export`); an abbreviation (`--exp=`) and the old `#SLURM` lines
are not read. Imported only for `sbatch << EOF`.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.launcher_options import walk_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.launcher_options import OptionTable, Value
    from speclint.frontends.shell.slurm_export import ValueAt
    from speclint.frontends.shell.text import TextMap

_MAGIC = "#SBATCH"
_SEPARATORS = frozenset({"hetjob", "packjob"})
_PLACEHOLDER = "${__speclint_unknown_"

# one word of a `#SBATCH` line: its text and, for each character, its index in the script
_Token = tuple[str, list[int]]


def directive_export(
    table: OptionTable, tm: TextMap, placeholders: dict[str, str], strip_tabs: bool, indented: bool
) -> tuple[str, ValueAt] | str | None:
    """The `--export` list the script's `#SBATCH` lines give (the list, and the word of an
    item's value at its place in the script), the reason it cannot be read (a value whose
    text is unknown where the list's items are cut), or None when they give none. `tm` is the
    script from its first line that is not blank (`indented`: that line starts with blanks
    left out of `tm`)."""
    tokens = _directive_tokens(tm.text, strip_tabs, indented)
    args = [Arg(Word(text, _span(tm, where, 0, len(text))), None) for text, where in tokens]
    kept: Value | None = None
    i = 0
    while i < len(args):  # getopt_long permutes: a word that is no option does not end them
        end, ended, found = walk_options(table, args, i)
        kept = found.get("--export", kept)
        if ended:
            break
        i = max(end, i + 1)
    if kept is None:
        return None
    arg, skip = kept
    text, where = tokens[next(k for k, a in enumerate(args) if a is arg)]
    listed, at = text[skip:], where[skip:]
    if any(_PLACEHOLDER in item.partition("=")[0] for item in listed.split(",")):
        # `--export=$LIST`, `ALL,$EXTRA`: only an item's value after `NAME=` may be unknown
        line = _span(tm, at, 0, 1).line
        return f"the `#SBATCH --export` list at line {line} holds a word speclint cannot know"

    def value_at(start: int, stop: int) -> Word:
        value = listed[start:stop]
        span = _span(tm, at, start, stop)
        if _PLACEHOLDER in value:
            name = value[value.index(_PLACEHOLDER) + 2 :].split("}", 1)[0]
            return Word(None, span, dynamic_reason=placeholders.get(name, "unknown value"))
        return Word(value, span)

    return listed, value_at


def _span(tm: TextMap, where: list[int], start: int, stop: int) -> Span:
    """Where the token's characters start..stop are written in the file."""
    if not where:
        begin = tm.file_start(0)
        return tm.span_of_file_range(begin, begin)
    if stop <= start:
        begin = tm.file_start(where[min(start, len(where) - 1)])
        return tm.span_of_file_range(begin, begin)
    return tm.span_of_file_range(tm.file_start(where[start]), tm.file_end(where[stop - 1]))


def _directive_tokens(text: str, strip_tabs: bool, indented: bool) -> list[_Token]:
    """The words of the script's `#SBATCH` lines before its first command (`_opt_batch_script`)."""
    tokens: list[_Token] = []
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        first = start
        while strip_tabs and first < end and text[first] == "\t":
            first += 1
        line = text[first:end]
        if line.startswith(_MAGIC) and not (indented and start == 0):
            for token in _line_tokens(text, first + len(_MAGIC), end):
                if token[0] in _SEPARATORS:
                    return tokens
                tokens.append(token)
        elif line.strip() and not line.lstrip().startswith("#"):
            break  # a command: sbatch reads no further `#SBATCH` line
        start = end + 1
    return tokens


def _line_tokens(text: str, pos: int, end: int) -> list[_Token]:
    """`_get_argument` over one line's rest: blanks split, quotes group (dropped), `\\`
    keeps the next character, an unquoted `#` ends the line."""
    tokens: list[_Token] = []
    while pos < end:
        while pos < end and text[pos].isspace():
            pos += 1
        chars: list[str] = []
        where: list[int] = []
        quote = ""
        escaped = False
        while pos < end and (quote or not text[pos].isspace()):
            char = text[pos]
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
                pos += 1
                continue
            elif quote:
                if char == quote:
                    quote = ""
                    pos += 1
                    continue
            elif char in "'\"":
                quote = char
                pos += 1
                continue
            elif char == "#":
                pos = end  # a comment: the rest of the line
                break
            chars.append(char)
            where.append(pos)
            pos += 1
        if quote:
            return tokens  # Slurm: "Unmatched quote", fatal; the words before it stand
        if chars:
            tokens.append(("".join(chars), where))
    return tokens

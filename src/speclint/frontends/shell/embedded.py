"""Shell code that lives inside another file (a Python string, a YAML scalar, an argv list).

The Python, YAML and Markdown front-ends never re-implement launch recognition: they build
a shell buffer whose every character knows the file range it came from, and walk it with
the shell front-end. An argv list becomes a line of single-quoted words; a value that is
not a literal in place becomes a placeholder variable `"${__speclint_N}"` whose text,
reason and origin the shell walker reads like any other variable.
"""

from __future__ import annotations

from dataclasses import replace

from speclint.core import patterns
from speclint.core.launches import Diagnostic, ExtractResult
from speclint.core.records import dataclass
from speclint.core.spans import Span
from speclint.frontends.shell.pieces import Piece, known_text, line_starts, span_of, unknown_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.identity import Identity
    from speclint.core.words import Word
    from speclint.frontends.shell.walking import UnitReader


_DQ_SPECIAL = patterns.compile(r'[\\"$`]')
"""What a double quote escapes with a backslash to keep it literal."""


@dataclass(slots=True)
class ArgvItem:
    """One argv element for `ShellBuffer.add_word`."""

    pieces: list[Piece]
    splat: bool = False
    """Stands for an unknown number of words (`*extra`, a list that is not known)."""
    origin: Span | None = None
    code: bool = False
    """Shell-like text split into words (`shlex.split(...)`), not one word: its unknown
    runs are single words (as a value in an f-string field usually is)."""


MAX_SHELL_CHARS = 4 * 1024 * 1024
"""Characters of shell text one file may hand the shell front-end in all. YAML aliases
(`args: [*big, *big, ...]`, a hundred services sharing one `command: *big`) and Python
names (`run([s, s, s, ...])`) repeat text without writing it again: without a bound a
small file would make gigabytes of shell."""


class Budget:
    """What is left of MAX_SHELL_CHARS for one file, shared by its buffers."""

    def __init__(self) -> None:
        self.left = MAX_SHELL_CHARS
        self.reported = False


class ShellBuffer:
    """Builds a shell buffer with its file mapping, then walks it with the shell front-end."""

    def __init__(self, file_text: str, starts: list[int] | None = None, budget: Budget | None = None) -> None:
        self.file_starts = starts if starts is not None else line_starts(file_text)
        self.pieces: list[tuple[str, int, int]] = []
        self.variables: dict[str, tuple[str | None, str | None, Span | None]] = {}
        """Placeholder name -> (text, unknown reason, origin)."""
        self.budget = budget if budget is not None else Budget()
        self.size = 0
        self.cut_at: int | None = None
        """File offset of the first thing left out for the budget."""
        self.identities: dict[Span, Identity] = {}
        """Where an unknown word with an identity is written -> the identity (set on the
        launch words the walk makes there)."""
        self.newlines_end_commands = True
        """Whether what runs the text ends a command at a line end (a shell); False for text
        only split into words (`shlex.split`, Compose's string `command:`), where a line
        without `\\` is not a broken continuation."""

    def _full(self, size: int, begin: int, end: int) -> bool:
        """Whether `size` more characters are past the budget; if so the buffer ends with
        one unknown word standing for the rest."""
        if self.cut_at is not None:
            return True
        if self.size + size <= self.budget.left:
            self.size += size
            return False
        self.cut_at = begin
        name = self._variable(
            None,
            f"more than {MAX_SHELL_CHARS // 1024} KiB of shell text in one file; the rest is not followed",
            None,
        )
        self.pieces.append((" ${" + name + "}", begin, max(end, begin)))
        return True

    def _emit(self, text: str, begin: int, end: int) -> None:
        self.pieces.append((text, begin, end))

    def _emit_exact(self, text: str, begin: int) -> None:
        self.pieces.append((text, begin, begin + len(text)))

    def add_code(self, pieces: list[Piece], words: bool = False) -> None:
        """Shell code as written (a `bash -c` script, a `shell=True` string): exact runs keep
        their characters' positions; unknown runs become unknown variables. `words`: text
        that is only split into words (`shlex.split`), each unknown run one word."""
        if self._full(
            sum(len(p.text or "") + 24 for p in pieces),
            pieces[0].begin if pieces else 0,
            pieces[-1].end if pieces else 0,
        ):
            return
        quote = ""  # for `words`: the quote open before the next piece
        if words:
            self.newlines_end_commands = False
        for piece in pieces:
            if piece.text is None:
                name = self._variable(None, piece.reason, piece.origin)
                if piece.identity is not None:
                    self.identities[span_of(self.file_starts, piece.begin, piece.end)] = piece.identity
                reference = "${" + name + "}"
                if words:  # one word wherever it stands: close a single quote around it
                    reference = {"": f'"{reference}"', '"': reference}.get(quote, f"'\"{reference}\"'")
                self._emit(reference, piece.begin, piece.end)
                continue
            if words:
                quote = _quote_after(piece.text, quote)
            if piece.exact:
                self._emit_exact(piece.text, piece.begin)
            else:
                for char in piece.text:  # keep line structure, map each char to the range
                    self._emit(char, piece.begin, piece.end)

    def add_word(self, item: ArgvItem) -> None:
        """One argv element, quoted so the shell sees exactly that word."""
        if len(item.pieces) == 1 and item.origin is None and not (item.code or item.splat):
            piece = item.pieces[0]  # most argv words: one literal run, single-quoted as written
            text = piece.text
            if text is not None and piece.exact and "'" not in text:
                self._single_literal(text, piece.begin, piece.end)
                return
        if self._full(
            sum(2 * len(p.text or "") + 16 for p in item.pieces) + 3,
            item.pieces[0].begin if item.pieces else 0,
            item.pieces[-1].end if item.pieces else 0,
        ):
            return
        if self.pieces:
            last_end = self.pieces[-1][2]
            self._emit(" ", last_end, last_end)
        pieces = item.pieces
        begin = pieces[0].begin if pieces else 0
        end = pieces[-1].end if pieces else 0
        if item.code:  # `shlex.split` reads a line end (outside quotes) as a blank
            from speclint.frontends.manifests.compose_env import newlines_as_blanks
            from speclint.frontends.shell.shlex_text import escaped_newlines, literal_hashes

            self.add_code(literal_hashes(newlines_as_blanks(escaped_newlines(pieces))), words=True)
            return
        if item.splat:
            reason = unknown_reason(pieces) or "an unknown number of words"
            self._emit("${" + self._variable(None, reason, item.origin) + "}", begin, end)
            return
        text = known_text(pieces)
        if text is not None and item.origin is None:
            self._quoted(pieces, "'" not in text)
            return
        if text is None and item.origin is None and self._option_with_unknown_value(pieces):
            return
        if text is None and item.origin is None and any(p.text for p in pieces):
            self._partly_known(pieces)
            return
        name = self._variable(text, None if text is not None else unknown_reason(pieces), item.origin)
        if text is None and len(pieces) == 1 and pieces[0].identity is not None:
            self.identities[span_of(self.file_starts, begin, end)] = pieces[0].identity
        self._emit('"${' + name + '}"', begin, end)

    def _single_literal(self, text: str, begin: int, end: int) -> None:
        """`add_word` of one exact piece without a `'` (what its general path emits for it,
        `_quoted` with a single quote, written out: the argv of a wrapper is such words)."""
        if self._full(2 * len(text) + 19, begin, end):
            return
        out = self.pieces
        if out:
            last_end = out[-1][2]
            out.append((" ", last_end, last_end))
        out.append(("'", begin, begin))
        if text:
            out.append((text, begin, begin + len(text)))
        out.append(("'", end, end))

    def _quoted(self, pieces: list[Piece], single: bool) -> None:
        """A known word quoted so that every character keeps its file position (single
        quotes, or double quotes with `\\ " $ ``` escaped when the text holds a `'`)."""
        quote = "'" if single else '"'
        if not pieces:
            at = self.pieces[-1][2] if self.pieces else 0
            self._emit(quote + quote, at, at)
            return
        self._emit(quote, pieces[0].begin, pieces[0].begin)
        self._quoted_text(pieces, single)
        self._emit(quote, pieces[-1].end, pieces[-1].end)

    def _quoted_text(self, pieces: list[Piece], single: bool) -> None:
        for piece in pieces:
            text = piece.text or ""
            if piece.exact:  # runs of characters each at its own file position: one piece
                self._exact_run(text, piece.begin, single)
                continue
            for char in text:
                if not single and char in '\\"$`':
                    self._emit("\\", piece.begin, piece.end)
                self._emit(char, piece.begin, piece.end)

    def _option_with_unknown_value(self, pieces: list[Piece]) -> bool:
        """`f"--tp={tp}"`: a word whose known text starts it and names an option, then an
        unknown part: written `"--tp=${unknown}"` so that the flag model reads the option."""
        known = 0
        while known < len(pieces) and pieces[known].text is not None:
            known += 1
        if not known or known == len(pieces) or not (pieces[0].text or "").startswith("--"):
            return False
        rest = pieces[known:]
        name = self._variable(None, unknown_reason(rest), None)
        self._emit('"', pieces[0].begin, pieces[0].begin)
        self._quoted_text(pieces[:known], single=False)
        self._emit("${" + name + "}", rest[0].begin, rest[-1].end)
        self._emit('"', rest[-1].end, rest[-1].end)
        return True

    def _partly_known(self, pieces: list[Piece]) -> None:
        """A word written partly with known text (a Helm `{{ ... }}` inside a `bash -c`
        script): double-quoted, each unknown run an unknown variable, so an inner shell reads
        the known code at its own positions (bash expands `"...${X}..."` before it parses)."""
        self._emit('"', pieces[0].begin, pieces[0].begin)
        for piece in pieces:
            if piece.text is None:
                name = self._variable(None, piece.reason or "value not known statically", piece.origin)
                self._emit("${" + name + "}", piece.begin, piece.end)
            else:
                self._quoted_text([piece], single=False)
        self._emit('"', pieces[-1].end, pieces[-1].end)

    def _exact_run(self, text: str, begin: int, single: bool) -> None:
        """`text` written from file offset `begin` on, inside the quote: the runs between
        characters a double quote escapes as one piece each (`TextMap.derive` maps a piece as
        long as its file range character by character, as it would each character alone)."""
        if single or _DQ_SPECIAL.search(text) is None:
            if text:
                self._emit_exact(text, begin)
            return
        start = 0
        for match in _DQ_SPECIAL.finditer(text):
            at = match.start()
            if at > start:
                self._emit_exact(text[start:at], begin + start)
            self._emit("\\", begin + at, begin + at + 1)
            self._emit(text[at], begin + at, begin + at + 1)
            start = at + 1
        if start < len(text):
            self._emit_exact(text[start:], begin + start)

    def add_space(self) -> None:
        if self.pieces:
            last_end = self.pieces[-1][2]
            self._emit(" ", last_end, last_end)

    def _variable(self, text: str | None, reason: str | None, origin: Span | None) -> str:
        name = f"__speclint_{len(self.variables)}"
        self.variables[name] = (text, reason, origin)
        return name

    def walk(
        self,
        path: str,
        result: ExtractResult,
        env: dict[str, Word] | None = None,
        image: tuple[str | None, Span | None] | None = None,
        report_errors: bool = True,
        unit_reader: UnitReader | None = None,
        unknown: str | None = None,
    ) -> None:
        """Run the shell front-end over the buffer; launches, comments and (optionally) the
        first syntax error go into `result` with file positions. `unit_reader`: reads a unit
        a here-document writes (`shell.script.read_unit`, handed in by the caller: this
        module may not import the systemd front-end, which uses it). `unknown`: why a
        variable not set is unknown (`{name}` its name), when not only the environment may
        set it."""
        if not self.pieces:
            return
        self.budget.left -= self.size
        if self.cut_at is not None and not self.budget.reported:
            self.budget.reported = True
            span = span_of(self.file_starts, self.cut_at, self.cut_at + 1)
            result.diagnostics.append(
                Diagnostic(
                    "unsupported-input",
                    f"more than {MAX_SHELL_CHARS // 1024} KiB of shell text "
                    "(aliases or names repeating long values); launches past here are not checked",
                    span,
                )
            )
        from speclint.frontends.shell.checks import broken_continuations, collect_comments, first_syntax_error
        from speclint.frontends.shell.text import TextMap, drop_final_continuation, parse_bytes
        from speclint.frontends.shell.variables import Env, VarValue, dynamic_value
        from speclint.frontends.shell.walk import Walker

        base = TextMap("", self.file_starts)
        tm = drop_final_continuation(base.derive(self.pieces))
        shell_env = Env()
        if unknown is not None:
            shell_env.unknown_template = unknown
        for name, word in (env or {}).items():
            shell_env.vars[name] = VarValue(
                text=word.text, reason=word.dynamic_reason, origin=word.span, exported=True, assumed=True
            )
        for name, (text, reason, origin) in self.variables.items():
            shell_env.vars[name] = (
                VarValue(text=text, origin=origin, assumed=True)
                if text is not None
                else dynamic_value(reason or "value not known statically", origin)
            )
        exported = None
        if "#SBATCH" in tm.text:  # a batch script in a doc block: its `#SBATCH --export` values
            from speclint.frontends.shell.sbatch import batch_script_env, mark_assumed

            exported = batch_script_env(tm, shell_env)
        tree = parse_bytes(tm.data)
        found = ExtractResult()
        walker = Walker(found, path, tm, shell_env, image=image)
        walker.unit_reader = unit_reader  # `cat > x.service << EOF` in a doc block, a `run:`
        walker.run(tree.root_node)
        if not found.launches:  # a doc fragment: only an array of prefixed flags (slime)
            from speclint.frontends.manifests.prefixed import array_launches, mentions

            if mentions(tm.data):
                found.launches.extend(array_launches(walker.env.vars, path))
        comments = collect_comments(tree.root_node, tm, found)
        if report_errors:
            error = first_syntax_error(tree.root_node, tm)
            if error is not None:
                found.diagnostics.append(error)
        # a comment or trailing blank that ends a `\`-continued command (a doc's block, a
        # workflow's `run:`, a Python shell string): said as in a script
        found.diagnostics.extend(
            broken_continuations(tree.root_node, tm, comments, self.newlines_end_commands)
        )
        if exported is not None:
            mark_assumed(found.launches, *exported)
        for launch in found.launches:
            launch.env = {k: v for k, v in launch.env.items() if not k.startswith("__speclint_")}
            if self.identities:
                launch.args = [_identified(word, self.identities) for word in launch.args]
        result.launches.extend(found.launches)
        result.comments.extend(found.comments)
        result.diagnostics.extend(found.diagnostics)


def _quote_after(text: str, quote: str) -> str:
    """The shell quote open after `text`, starting with `quote` open ("", "'" or '"')."""
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote and char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
    return quote


def _identified(word: Word, identities: dict[Span, Identity]) -> Word:
    if word.text is not None or word.splat:
        return word
    identity = identities.get(word.span)
    return word if identity is None else replace(word, identity=identity)

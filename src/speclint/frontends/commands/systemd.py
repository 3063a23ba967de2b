"""systemd service units: the `ExecStartPre=`, `ExecStart=` and `ExecStartPost=` command
lines of `[Service]` as systemd runs them, with `Environment=`.

systemd.syntax(7): `Key=value` lines in sections; lines starting with `#` or `;` are
comments, also between continued lines; a line ending in a backslash goes on with the next,
the backslash read as a space; "Quoting": quotes wrap a whole item, C-style escapes.
systemd.service(5), "Command lines": the prefixes `@` (the second word is argv[0]), `-`,
`:` (no variable expansion), `+`, `!`, `!!`, `|`; a `;` word alone separates commands; an
empty value resets the list; `${FOO}` anywhere is one word of the value, `$FOO` as a word
of its own is the value split at whitespace (quotes respected), `$$` is `$`. Specifiers
(systemd.unit(5), "Specifiers": `%i`, `%h`...) are the unit's at run time: unknown; `%%` is
`%`. systemd.exec(5), "Environment": `Environment=` assignments (quoted as above, no
expansion in them, empty resets); `EnvironmentFile=` is read after them and overrides them,
so with one every variable is unknown. A variable the unit does not set comes from the
service manager (`DefaultEnvironment=`, `PassEnvironment=`): unknown. No shell reads the
line: `bash -c '...'` is read as such by the shell front-end.
"""

from __future__ import annotations

import re

from speclint.core.launches import ExtractResult
from speclint.core.words import Word
from speclint.frontends.commands.text import (
    Char,
    argv_item,
    comment_lines,
    split_quoted,
    unclosed_quote,
    unique_comments,
    walk_shell,
)
from speclint.frontends.shell.embedded import ArgvItem, Budget, ShellBuffer
from speclint.frontends.shell.pieces import Piece, line_starts, span_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span

_EXEC_KEYS = ("ExecStartPre", "ExecStart", "ExecStartPost")
_WHOLE_VAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_BRACED_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_PREFIXES = "-@:+!|"

_Setting = tuple[str, list[Char], int]
"""A `[Service]` setting: its key, its value's characters, its line."""


def settings_of(text: str, starts: list[int], wanted: str = "Service") -> list[_Setting]:
    """The `Key=value` settings of the `wanted` section(s) (`[Service]`; a Quadlet file's
    `[Container]`), continuation lines joined."""
    found: list[_Setting] = []
    section = ""
    number = 0
    while number < len(starts):
        first = number
        chars: list[Char] = []
        while number < len(starts):
            start = starts[number]
            end = starts[number + 1] - 1 if number + 1 < len(starts) else len(text)
            line = text[start:end].rstrip("\r")
            number += 1
            stripped = line.lstrip()
            if chars and stripped[:1] in ("#", ";"):
                continue  # a comment line between continued lines
            continued = line.endswith("\\")
            body = line[:-1] if continued else line
            chars.extend((body[i], start + i, start + i + 1, None) for i in range(len(body)))
            if not continued:
                break
            chars.append((" ", start + len(body), start + len(body) + 1, None))
        line_text = "".join(c[0] or "" for c in chars).strip()
        if line_text.startswith("[") and line_text.endswith("]"):
            section = line_text[1:-1]
        elif section == wanted and "=" in line_text and line_text[:1] not in ("#", ";"):
            key_end = next(i for i, c in enumerate(chars) if c[0] == "=")
            key = "".join(c[0] or "" for c in chars[:key_end]).strip()
            value = chars[key_end + 1 :]
            while value and (value[0][0] or "").isspace():
                value = value[1:]
            while value and (value[-1][0] or "").isspace():
                value = value[:-1]
            found.append((key, value, first + 1))
    return found


def specifiers(word: list[Char]) -> list[Char]:
    """`%%` is `%`; any other `%x` is known only when the unit runs."""
    out: list[Char] = []
    index = 0
    while index < len(word):
        char, begin, end, _ = word[index]
        if char == "%" and index + 1 < len(word) and word[index + 1][0] is not None:
            following = word[index + 1]
            index += 2
            if following[0] == "%":
                out.append(("%", following[1], following[2], None))
            else:
                why = f"`%{following[0]}` is a systemd specifier (systemd.unit(5)): known when the unit runs"
                out.append((None, begin, following[2], why))
            continue
        out.append(word[index])
        index += 1
    return out


class Unit:
    """A unit's `[Service]` settings and the environment systemd expands its command lines
    with (`Environment=`, `EnvironmentFile=`)."""

    def __init__(
        self, text: str, written: dict[str, str] | None = None, base: str | None = None, quadlet: bool = False
    ) -> None:
        self.text = text
        self.quadlet = quadlet
        """A Quadlet file: systemd expands the generated command with `[Service]`'s
        environment, not the container's."""
        self.base = base
        """The unit a drop-in (`x.service.d/*.conf`) extends, when this is one: its own
        `Environment=` and `EnvironmentFile=` are not read."""
        self.written = written or {}
        """Names standing for text unknown when the unit was written (a here-document's
        `$X` the script cannot know) -> why: unknown whatever the unit sets."""
        self.starts = line_starts(text)
        self.settings = settings_of(text, self.starts)
        self.env: dict[str, tuple[list[Char] | str, Span]] = {}
        """Name -> its value, or why it is unknown; and where it is set."""
        self.env_file: str | None = None
        for key, value, line in self.settings:
            if key == "Environment":
                self._environment(value)
            elif key == "EnvironmentFile":
                names = "".join(c[0] or "" for c in value)
                self.env_file = None if not names else f"EnvironmentFile={names} (line {line})"
        if self.env_file is not None:
            reason = f"{self.env_file} is read after Environment= and may set it"
            self.env = {name: (reason, span) for name, (_, span) in self.env.items()}

    def _environment(self, value: list[Char]) -> None:
        if not value:
            self.env.clear()
            return
        for word in split_quoted(value, c_escapes=True):
            word = specifiers(word)
            equals = next((i for i, c in enumerate(word) if c[0] == "="), None)
            if equals is None:
                continue
            name = "".join(c[0] or "" for c in word[:equals])
            rest = word[equals + 1 :]
            where = rest or word
            span = span_of(self.starts, where[0][1], where[-1][2])
            unknown = next((c[3] for c in rest if c[0] is None), None)
            joined = "".join(c[0] or "" for c in rest)
            unknown = unknown or next((why for n, why in self.written.items() if n in joined), None)
            self.env[name] = (unknown or rest, span)

    def word_env(self) -> dict[str, Word]:
        env: dict[str, Word] = {}
        for name, (value, span) in self.env.items():
            known = None if isinstance(value, str) else "".join(c[0] or "" for c in value)
            env[name] = Word(known, span, span, dynamic_reason=value if isinstance(value, str) else None)
        return env

    def _unknown(self, name: str) -> str:
        if name in self.written:
            return self.written[name]
        if self.env_file is not None:
            return f"${name} is not set by Environment=; {self.env_file} may set it"
        if self.quadlet:
            where = f"; `{self.base}` (not read with this drop-in) may set it" if self.base else ""
            return (
                f"${name} is not set by the [Service] section's Environment={where}: systemd "
                "expands it in the generated `podman run` from the service manager's environment "
                "(the [Container] Environment= is the container's, not systemd's)"
            )
        if self.base is not None:
            return (
                f"${name} is not set in this drop-in; `{self.base}` (not read with it) and the "
                "service manager's environment may set it"
            )
        return f"${name} is not set in this unit (the service manager's environment may set it)"

    def items(self, word: list[Char], expand: bool) -> list[ArgvItem]:
        """The argv words one unquoted word stands for."""
        text = "".join(c[0] or "\0" for c in word)
        whole = _WHOLE_VAR.fullmatch(text) if expand else None
        begin, end = word[0][1], word[-1][2]
        written = _BRACED_VAR.fullmatch(text)
        if written is not None and written.group(1) in self.written:  # may be several words
            return [ArgvItem([Piece(None, begin, end, reason=self.written[written.group(1)])], splat=True)]
        if whole is not None:
            value, origin = self.env.get(whole.group(1), (self._unknown(whole.group(1)), None))
            if isinstance(value, str):
                return [ArgvItem([Piece(None, begin, end, reason=value)], splat=True, origin=origin)]
            return [
                ArgvItem([Piece("".join(c[0] or "" for c in part), begin, end)], origin=origin)
                for part in split_quoted(value, c_escapes=False)  # quotes respected, no C escapes
            ]
        out: list[Char] = []
        origin = None
        index = 0
        while index < len(word):
            braced = _BRACED_VAR.match(text, index)
            braced = braced if expand or (braced and braced.group(1) in self.written) else None
            if braced is not None:
                at, stop = word[index][1], word[braced.end() - 1][2]
                name = braced.group(1)
                value, where = self.env.get(name, (self._unknown(name), None))
                origin = origin or where
                joined = None if isinstance(value, str) else "".join(c[0] or "" for c in value)
                out.append((joined, at, stop, value if isinstance(value, str) else None))
                index = braced.end()
            elif expand and text.startswith("$$", index):
                out.append(("$", word[index + 1][1], word[index + 1][2], None))
                index += 2
            else:
                out.append(word[index])
                index += 1
        return [argv_item(out, origin)] if out else [ArgvItem([Piece("", begin, end)])]


def _second_exec_start(unit: Unit, result: ExtractResult) -> None:
    """systemd refuses a service with two `ExecStart=` commands unless it is `Type=oneshot`
    (src/core/service.c `service_verify`: "Service has more than one ExecStart= setting,
    which is only allowed for Type=oneshot services. Refusing."): reported at the second.
    A drop-in whose `Type=` is not its own is left alone (the base unit's may be oneshot)."""
    given: list[tuple[list[Char], int]] = []  # (value, line)
    service_type: str | None = None
    for key, value, line in unit.settings:
        if key == "ExecStart":
            given = [*given, (value, line)] if value else []
        elif key == "Type":
            service_type = "".join(c[0] or "" for c in value).strip() or None
    if len(given) < 2 or (unit.base is not None and service_type is None) or service_type == "oneshot":
        return
    from speclint.core.launches import Diagnostic

    value = given[1][0]
    kind = f"`Type={service_type}`" if service_type else "a `Type=simple` service (no `Type=` given)"
    result.diagnostics.append(
        Diagnostic(
            "syntax-error",
            f"systemd refuses this unit: this `ExecStart=` follows another in {kind}, where only "
            "`Type=oneshot` may have more than one ('Service has more than one ExecStart= setting, "
            "which is only allowed for Type=oneshot services. Refusing.'), so the service never "
            "starts; keep one, or put an empty `ExecStart=` before this one to replace the other",
            span_of(unit.starts, value[0][1], value[-1][2]),
        )
    )


def _commands(value: list[Char], unclosed: list[int]) -> list[tuple[str, list[list[Char]]]]:
    """A command-line setting's commands: (prefixes, words)."""
    commands: list[tuple[str, list[list[Char]]]] = []
    words: list[list[Char]] = []
    for word in split_quoted(value, True, unclosed):
        if len(word) == 1 and word[0][0] == ";" and word[0][2] == word[0][1] + 1:
            commands.append(("", words))
            words = []
        else:
            words.append(word)
    commands.append(("", words))
    out = []
    for _, words in commands:
        if not words:
            continue
        first = words[0]
        cut = 0
        while cut < len(first) and first[cut][0] in tuple(_PREFIXES):
            cut += 1
        prefixes = "".join(c[0] or "" for c in first[:cut])
        words = [first[cut:], *words[1:]] if first[cut:] else words[1:]
        if "@" in prefixes and len(words) > 1:
            words = [words[0], *words[2:]]  # the second word is argv[0], not an argument
        out.append((prefixes, words))
    return out


def extract_unit(
    text: str, path: str, written: dict[str, str] | None = None, base: str | None = None
) -> ExtractResult:
    """The launches a service unit's `ExecStart*=` lines start (`written`: the names standing
    for text unknown when a script wrote the unit, with why; `base`: the unit a drop-in
    extends, read alone: its `ExecStart=` is the launch, after an empty `ExecStart=` resets
    the base's, systemd.unit(5) "Description" on drop-ins)."""
    unit = Unit(text, written, base)
    result = ExtractResult(comments=comment_lines(text, unit.starts, "#"))
    by_key: dict[str, list[list[Char]]] = {key: [] for key in _EXEC_KEYS}
    for key, value, _ in unit.settings:
        if key in by_key:
            by_key[key] = [*by_key[key], value] if value else []
    _second_exec_start(unit, result)
    env = unit.word_env()
    budget = Budget()
    for key in _EXEC_KEYS:
        for value in by_key[key]:
            if "sglang" not in "".join(c[0] or "" for c in value):
                continue
            unclosed: list[int] = []
            commands = _commands(value, unclosed)
            if unclosed:
                unclosed_quote(result, unit.starts, unclosed[0], "systemd ignores this line")
                continue
            for prefixes, words in commands:
                buffer = ShellBuffer(text, unit.starts, budget)
                for word in words:
                    for item in unit.items(specifiers(word), ":" not in prefixes):
                        buffer.add_word(item)
                walk_shell(result, path, buffer, env)
    unique_comments(result)
    return result

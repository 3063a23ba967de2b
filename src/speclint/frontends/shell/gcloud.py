"""`gcloud ai models upload` (a Vertex AI model's serving container) and `gcloud run deploy` /
`gcloud run jobs create|deploy|update` (Cloud Run) in front of SGLang: the container runs its
command list then its args list, each written as one comma-separated option value.

gcloud reads those options with `arg_parsers.ArgList` (googlecloudsdk.calliope): the value is
split on `,`, or on the delimiter an `^X^` prefix names (`^:^-m:sglang.launch_server:...`), and
`--container-env-vars` / `--set-env-vars` / `--update-env-vars` with `ArgDict` (`KEY=VALUE`
items, split the same way). The image (`--container-image-uri`, `--image`) picks the SGLang
release as a `docker run` image does. Vertex AI and Cloud Run expand `$(NAME)` in the command
and args from the container's environment when it starts (Vertex AI's ModelContainerSpec and
the Cloud Run Admin API's Container reference, Kubernetes' rules): a `$(NAME)` the options
set is that value, `$$` is one `$` (so `$$(NAME)` is never expanded), any other `$(NAME)` an
unknown value (the platform adds variables of its own, such as Cloud Run's `PORT`). An option
given twice, or a value speclint does not know, leaves the list unknown.
"""

from __future__ import annotations

import re

from speclint.core.records import dataclass
from speclint.core.words import Word
from speclint.frontends.shell.expand import Arg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span


@dataclass(frozen=True)
class _Names:
    """The options that set the container's command, args, image and environment."""

    command: str
    args: str
    image: str
    env: tuple[str, ...]


_VERTEX = _Names(
    "--container-command", "--container-args", "--container-image-uri", ("--container-env-vars",)
)
_RUN = _Names("--command", "--args", "--image", ("--set-env-vars", "--update-env-vars"))
_ALT_DELIMITER = re.compile(r"\^([^^]+)\^")
_REFERENCE = re.compile(r"\$(?:\$|\(([A-Za-z_][A-Za-z0-9_]*)\))")


def _options(args: list[Arg], i: int) -> _Names | None:
    """Which option names this command takes (`_VERTEX` or `_RUN`), from the words after
    `gcloud` (release tracks `alpha`/`beta` skipped); None for any other command."""
    words = [a.word.text for a in args[i : i + 5]]
    while words[:1] in (["alpha"], ["beta"]):
        words = words[1:]
    if words[:3] == ["ai", "models", "upload"]:
        return _VERTEX
    if words[:2] == ["run", "deploy"] or (
        words[:2] == ["run", "jobs"] and words[2:3] in (["create"], ["deploy"], ["update"])
    ):
        return _RUN
    return None


@dataclass(frozen=True)
class _Part:
    """Text cut from one shell word: `columns` gives each character's offset from the word's
    span start, when the word is written on one line with no escapes or expansions."""

    text: str | None
    word: Word
    columns: tuple[int, ...] | None

    def cut(self, start: int, stop: int) -> _Part:
        columns = self.columns[start:stop] if self.columns is not None else None
        return _Part((self.text or "")[start:stop], self.word, columns)

    def as_word(self) -> Word:
        word = self.word
        if self.text is None:
            reason = word.dynamic_reason or "a value not known statically"
            return Word(None, word.span, word.origin, dynamic_reason=reason, splat=True)
        span = word.span
        if self.columns:
            span = span.sub(self.columns[0], self.columns[-1] + 1)
        return Word(self.text, span, word.origin)


def gcloud_command(
    args: list[Arg], i: int
) -> tuple[list[Arg], dict[str, Word], tuple[str | None, Span | None] | None] | None:
    """The container's command, environment and image from `gcloud ...` at `args[i]` (the
    word after `gcloud`); None when this is not such a command or it sets no command."""
    names = _options(args, i)
    if names is None:
        return None
    given: dict[str, list[_Part]] = {}
    wanted = {names.command, names.args, names.image, *names.env}
    k = i
    while k < len(args):
        text = args[k].word.text
        k += 1
        if text is None or not text.startswith("--"):
            continue
        option, equals, _ = text.partition("=")
        if option not in wanted:
            continue
        if equals:
            value = _part(args[k - 1]).cut(len(option) + 1, len(text))
        elif k < len(args):
            value, k = _part(args[k]), k + 1
        else:
            continue
        given.setdefault(option, []).append(value)
    commands = given.get(names.command)
    if commands is None:
        return None  # the image's own entrypoint runs: not written here
    env: dict[str, Word] = {}
    for option in names.env:
        for value in given.get(option, []):
            for item in _items(value):
                key, equals, _ = (item.text or "").partition("=")
                if equals:
                    env[key] = item.cut(len(key) + 1, len(item.text or "")).as_word()
    parts = _list(commands) + _list(given.get(names.args, []))
    argv = [Arg(_referenced(part.as_word(), env), None) for part in parts]
    images = given.get(names.image)
    image = (images[-1].text, images[-1].as_word().span) if images else None
    return argv, env, image


def _part(arg: Arg) -> _Part:
    return _Part(arg.word.text, arg.word, _columns(arg))


def _columns(arg: Arg) -> tuple[int, ...] | None:
    """The column offset (from the span's start) of each character of the word's text, when
    it is written on one line with no escapes or expansions (quotes skipped)."""
    node, span, text = arg.node, arg.word.span, arg.word.text or ""
    if node is None or node.text is None or span.line != span.end_line:
        return None
    raw = node.text.decode("utf-8", "replace")
    if len(raw) != span.end_column - span.column or "\\" in raw:
        return None
    columns = tuple(k for k, char in enumerate(raw) if char not in "\"'")
    return columns if "".join(raw[k] for k in columns) == text else None


def _list(values: list[_Part]) -> list[_Part]:
    if len(values) > 1:  # (repeated: how gcloud combines them is not read here)
        word = values[1].word
        return [_Part(None, Word(None, word.span, dynamic_reason="the option is given twice"), None)]
    return _items(values[0]) if values else []


def _items(value: _Part) -> list[_Part]:
    """An ArgList value's items, split as gcloud splits them."""
    text = value.text
    if text is None:
        return [value]
    delimiter, pos = ",", 0
    alternate = _ALT_DELIMITER.match(text)
    if alternate is not None:
        delimiter, pos = alternate.group(1), alternate.end()
    items: list[_Part] = []
    while pos < len(text):
        end = text.find(delimiter, pos)
        stop = len(text) if end == -1 else end
        items.append(value.cut(pos, stop))
        pos = stop + len(delimiter)
    return items


def _referenced(word: Word, env: dict[str, Word]) -> Word:
    """Vertex AI's `$(NAME)` expansion of one command or args item: the values the options
    set in place; an unknown one makes the word unknown from there (its text before kept)."""
    text = word.text
    if text is None or "$" not in text:
        return word
    out: list[str] = []
    pos = 0
    for match in _REFERENCE.finditer(text):
        if match.group(1) is None:  # `$$`: one `$` (`$$(NAME)` stays as written, less one `$`)
            out += [text[pos : match.start()], "$"]
            pos = match.end()
            continue
        value = env.get(match.group(1))
        if value is None or value.text is None:
            reason = f"`{match.group()}`: expanded from the container's environment when it starts"
            known = "".join(out) + text[pos : match.start()]
            return Word(None, word.span, dynamic_reason=reason, prefix=known or None)
        out += [text[pos : match.start()], value.text]
        pos = match.end()
    return Word("".join(out) + text[pos:], word.span, word.origin)

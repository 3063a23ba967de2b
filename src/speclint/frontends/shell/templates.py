"""Launches GNU parallel and xargs make from a command template, one per input value.

`seq 0 7 | xargs -I{} python -m sglang.launch_server --base-gpu-id {} ...` runs the command
once per input line, `{}` replaced by the line (xargs(1): `-I` implies `-L 1`; without `-I`
the input's words are appended: all of them, or `-n N` at a time).
`parallel -j8 python -m sglang.launch_server --port {} ::: 30000 30001` runs it once per value
after `:::` (several `:::` groups: every combination, `:::+` pairs with the group before;
`{}` is all of a combination's values, `{N}` the Nth group's, `{#}` the job number; without a
replacement string the values are appended). GNU parallel joins the command's words with
blanks and runs the result in a shell, so its command is read as the text those words make
(`parallel "python ... --port {}" ::: ...` too); `parallel -q`, and xargs, run the words as
they are: the command's own source text is read.

Where the values are known (the words after `:::`, or `seq` with integer operands, `echo`,
`printf '%s\\n'` in front of the pipe), each run's launch is read as one alternative of the
command, its findings noting the value ("when `{}` is 30001 (...)"). Otherwise one launch is
read with the replacement unknown, saying why (SLM004): never a value made up.
"""

from __future__ import annotations

import re

from speclint.core.launches import MAX_ALTERNATIVES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.text import TextMap
    from speclint.frontends.shell.walking import Walking

    Pieces = list[tuple[str, int, int]]
    """Characters or runs of a buffer, each with the file range it stands for."""
    Built = tuple[Pieces, dict[str, str]]
    """A command's pieces, and the names standing for its unknown expansions -> why."""

_XARGS_VALUE = frozenset("IaEdnLPs")
"""xargs's short options that take a value (attached, or the next word)."""
_XARGS_LONG_VALUE = frozenset(
    {"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}
)
_PARALLEL_VALUE = frozenset("aCdEIjJLnNPSsW")
_PARALLEL_LONG_VALUE = frozenset(
    """--jobs --max-procs --sshlogin --sshloginfile --slf --arg-file --delimiter --colsep
    --joblog --results --res --tmpdir --max-args --max-replace-args --max-lines --max-chars
    --delay --timeout --retries --memfree --load --halt --halt-on-error --tagstring
    --tag-string --workdir --wd --env --basefile --bf --return --transferfile --tf --block
    --block-size --header --termseq --rpl --sshdelay --limit --nice --profile --ssh
    --resume-failed-from --eof --memsuspend""".split()
)
_SEPARATORS = (":::", ":::+", "::::", "::::+")
_SIMPLE = re.compile(r"[\w.,:/@%+=-]+")
"""A value that reads the same in shell code unquoted (others are not put in place)."""
_PARALLEL_TOKEN = re.compile(r"\{(\d*|#|%|\.|/|//|/\.|\d+\.|\d+/|\d+//|\d+/\.)\}")
_MAX_VALUES = 64

Value = tuple[str, int, int]
"""An input value: its text and the file range where it is written (or made: `seq`)."""


class Template:
    """What one parallel / xargs invocation runs."""

    __slots__ = ("tool", "command", "token", "shell", "runs", "unknown")

    def __init__(self, tool: str, command: list[Arg], token: str | None, shell: bool) -> None:
        self.tool = tool
        self.command = command
        self.token = token
        """xargs's replacement string (`-I R`); None: the input is appended. parallel: `{}`."""
        self.shell = shell
        """Whether the words are joined and run by a shell (parallel without `-q`)."""
        self.runs: list[list[Value]] | None = None
        """Each run's input values; None when they are not known (`unknown` says why)."""
        self.unknown = ""


def template_command(walker: Walking, node: Node, args: list[Arg], i: int, tool: str) -> None:
    """`xargs [options] COMMAND...` / `parallel [options] COMMAND... ::: VALUES`: read the
    launches COMMAND makes (`args[i]`: the word after the tool)."""
    template = _xargs(walker, node, args, i) if tool == "xargs" else _parallel(walker, node, args, i)
    if template is None or not template.command:
        return
    base = _command_pieces(walker, node, template)
    if base is None:
        return
    runs = template.runs
    line = walker.tm.node_span(node).line
    if runs is not None and not all(_SIMPLE.fullmatch(text) for run in runs for text, _, _ in run):
        runs, template.unknown = None, f"an input of `{tool}` at line {line} with blanks or quotes"
    if runs is not None and len(runs) > MAX_ALTERNATIVES:
        template.unknown = f"one of the {len(runs)} inputs of `{tool}` at line {line}"
        runs = None
    if runs is None:
        _walk_one(walker, template, base, None, 0)
        return
    from speclint.core.conditions import Alternative, Condition

    outer = walker.alternative
    token = template.token or "{}"
    for index, values in enumerate(runs):
        shown = " ".join(text for text, _, _ in values)
        where = walker.tm.span_of_file_range(values[0][1], values[-1][2])
        what = f"`{token}` is {shown}" if len(values) == 1 else f"the inputs are {shown}"
        condition = Condition(where, f"{what} (an input of `{tool}` at line {line})")
        if outer is None:
            walker.alternative = Alternative((condition,), index, len(runs))
        else:
            walker.alternative = Alternative(
                (*outer.conditions, condition), outer.index * len(runs) + index, outer.count * len(runs)
            )
        _walk_one(walker, template, base, values, index)
    walker.alternative = outer


def _walk_one(walker: Walking, template: Template, base: Built, values: list[Value] | None, job: int) -> None:
    """Walk the command with one run's values in place (None: unknown, `template.unknown`)."""
    source, placeholders = base[0], dict(base[1])

    def unknown(begin: int, end: int) -> Pieces:
        name = f"__speclint_unknown_{len(placeholders)}"
        placeholders[name] = (
            template.unknown or f"a replacement string of `{template.tool}` speclint does not read"
        )
        return [("${" + name + "}", begin, end)]

    def put(group: str, begin: int, end: int) -> Pieces:
        if values is None:
            return unknown(begin, end)
        if group == "#":
            return [(str(job + 1), begin, end)]
        if group == "":
            return [(" ".join(text for text, _, _ in values), begin, end)]
        if group.isdigit() and 0 < int(group) <= len(values):
            return [(values[int(group) - 1][0], begin, end)]
        return unknown(begin, end)

    text = "".join(piece for piece, _, _ in source)
    pattern = (
        _PARALLEL_TOKEN if template.tool == "parallel" else re.compile(re.escape(template.token or "") + "()")
    )
    pieces: Pieces = []
    position = 0
    found = False
    for match in pattern.finditer(text) if template.token else ():
        found = True
        pieces += source[position : match.start()]
        pieces += put(match.group(1), source[match.start()][1], source[match.end() - 1][2])
        position = match.end()
    pieces += source[position:]
    if not found and (template.token is None or template.tool == "parallel"):
        end = source[-1][2]  # no replacement string: the input is appended, each at its own place
        pieces += [(" ", end, end), *(_spaced(values) if values is not None else unknown(end, end))]
    walker.walk_nested(walker.tm.derive(pieces), placeholders, None, walker.image, "", walker.definitions)


def _spaced(values: list[Value]) -> Pieces:
    pieces: Pieces = []
    for value in values:
        if pieces:
            pieces.append((" ", value[1], value[1]))
        pieces.append(value)
    return pieces


def _command_pieces(walker: Walking, node: Node, template: Template) -> Built | None:
    """The command's text: its source (xargs, `parallel -q`), or its words joined with blanks
    as parallel's shell reads them; None when it is not known."""
    tm = walker.tm
    first, last = template.command[0], template.command[-1]
    if template.shell:
        from speclint.frontends.shell.nested import nested_text_map

        built = nested_text_map(walker, template.command)
        if built is None:
            return None
        joined = built[0]
        return [
            (char, joined.file_start(k), joined.file_end(k)) for k, char in enumerate(joined.text)
        ], built[1]
    if first.node is None or last.node is None:
        return None
    return _source(tm, first.node.start_byte, last.node.end_byte), {}


def _source(tm: TextMap, start_byte: int, end_byte: int) -> Pieces:
    first = tm.char(start_byte)
    text = tm.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    return [(char, tm.file_start(first + k), tm.file_end(first + k)) for k, char in enumerate(text)]


def _option_value(args: list[Arg], i: int, rest: str) -> tuple[str | None, int]:
    """The value of an option: attached (`-I{}`), else the next word; and the next index."""
    if rest:
        return rest, i + 1
    return (args[i + 1].word.text if i + 1 < len(args) else None), i + 2


def _xargs(walker: Walking, node: Node, args: list[Arg], i: int) -> Template | None:
    token: str | None = None
    per_run: int | None = None
    from_file = False
    while i < len(args):
        text = args[i].word.text
        if text is None:
            return None
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        if text.startswith("--"):
            name, equals, value = text.partition("=")
            if name == "--replace":
                token = value if equals else "{}"
            elif name == "--max-args" and value.isdigit():
                per_run = int(value)
            elif name in _XARGS_LONG_VALUE and not equals:
                i += 1
            from_file = from_file or name == "--arg-file"
            i += 1
            continue
        letter, rest = text[1:2], text[2:]
        if letter in _XARGS_VALUE:
            attached, i = _option_value(args, i, rest)
            token = attached if letter == "I" else token
            per_run = int(attached) if letter == "n" and attached and attached.isdigit() else per_run
            from_file = from_file or letter == "a"
            continue
        if letter == "i":
            token = rest or "{}"
        i += 1
    template = Template("xargs", args[i:], token, shell=False)
    if from_file:
        template.unknown = f"a line `xargs` reads from a file (line {walker.tm.node_span(node).line})"
        return template
    _piped_runs(walker, node, template, per_run)
    return template


def _parallel(walker: Walking, node: Node, args: list[Arg], i: int) -> Template | None:
    token = "{}"
    quote = False
    while i < len(args):
        text = args[i].word.text
        if text is None:
            return None
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-" or text in _SEPARATORS:
            break
        if text.startswith("--"):
            name, equals, _ = text.partition("=")
            quote = quote or name == "--quote"
            i += 2 if name in _PARALLEL_LONG_VALUE and not equals else 1
            continue
        letter, rest = text[1:2], text[2:]
        if letter in _PARALLEL_VALUE:
            value, i = _option_value(args, i, rest)
            token = value or token if letter == "I" else token
            continue
        quote = quote or "q" in text[1:]
        i += 1
    end = next((k for k in range(i, len(args)) if args[k].word.text in _SEPARATORS), len(args))
    template = Template("parallel", args[i:end], token, shell=not quote)
    line = walker.tm.node_span(node).line
    if end == len(args):
        _piped_runs(walker, node, template, 1)
        return template
    runs: list[list[Value]] = [[]]
    k = end
    while k < len(args):
        separator = args[k].word.text
        k += 1
        group: list[Value] = []
        while k < len(args) and args[k].word.text not in _SEPARATORS:
            given = _value(walker.tm, args[k])
            if given is None or separator not in (":::", ":::+"):
                named = f"the file `{args[k].word.text}`" if args[k].word.text else "a file"
                template.unknown = (
                    args[k].word.dynamic_reason or f"a line `parallel` reads from {named} (line {line})"
                )
                return template
            group.append(given)
            k += 1
        if separator == ":::+":  # paired with the group before, value by value
            runs = [run + [value] for run, value in zip(runs, group)]
        else:
            runs = [run + [value] for run in runs for value in group]
        if len(runs) > _MAX_VALUES:
            template.unknown = f"one of the many inputs of `parallel` at line {line}"
            return template
    template.runs = [run for run in runs if run] or None
    return template


def _value(tm: TextMap, arg: Arg) -> Value | None:
    text = arg.word.text
    if text is None:
        return None
    if arg.node is not None:
        begin, end = tm.file_range(arg.node.start_byte, arg.node.end_byte)
        return text, begin, end
    span = arg.word.span
    begin = tm.line_starts[span.line - 1] + span.column - 1
    return text, begin, tm.line_starts[span.end_line - 1] + span.end_column - 1


def _piped_runs(walker: Walking, node: Node, template: Template, per_run: int | None) -> None:
    """The runs of input lines (`-I`: one line a run; else `per_run` words, or all) that the
    command in front of the pipe prints, when speclint knows them."""
    tm = walker.tm
    line = tm.node_span(node).line
    template.unknown = f"a line `{template.tool}` reads from its standard input (line {line})"
    child = node.parent if node.parent is not None and node.parent.type == "redirected_statement" else node
    pipeline = child.parent
    if pipeline is None or pipeline.type != "pipeline" or child.prev_named_sibling is None:
        return
    producer = child.prev_named_sibling
    printed = _printed_lines(walker, producer) if producer.type == "command" else None
    if printed is None:
        return
    values, one_line = printed
    if one_line and values and (template.token is not None or template.tool == "parallel"):
        values = [(" ".join(text for text, _, _ in values), values[0][1], values[-1][2])]
    if template.token is not None or template.tool == "parallel":
        template.runs = [[value] for value in values] or None
        return
    step = per_run or len(values)
    template.runs = [values[k : k + step] for k in range(0, len(values), step)] or None


def _printed_lines(walker: Walking, command: Node) -> tuple[list[Value], bool] | None:
    """The words `seq [FIRST [INCR]] LAST` (integers), `printf '%s\\n' WORD...` (a line each)
    and `echo WORD...` (one line) print, each with where it comes from, and whether they are
    one line; None for any other command, or words not known."""
    tm = walker.tm
    expander = walker.expander()
    args: list[Arg] = []
    for child in command.children:
        if child.type == "command_name":
            for part in child.named_children:
                args += expander.words(part)
        elif child.is_named and child.type not in ("variable_assignment", "file_redirect", "comment"):
            args += expander.words(child)
    texts = [a.word.text for a in args]
    if not texts or any(text is None for text in texts):
        return None
    name = texts[0]
    begin, end = tm.file_range(command.start_byte, command.end_byte)
    if name == "seq" and 2 <= len(texts) <= 4 and all(re.fullmatch(r"-?\d+", t or "") for t in texts[1:]):
        numbers = [int(t or "0") for t in texts[1:]]
        first, step, last = (
            (1, 1, numbers[0])
            if len(numbers) == 1
            else ((numbers[0], 1, numbers[1]) if len(numbers) == 2 else (numbers[0], numbers[1], numbers[2]))
        )
        if step == 0:
            return None
        counted = range(first, last + (1 if step > 0 else -1), step)
        return [(str(n), begin, end) for n in counted[: _MAX_VALUES + 1]], False
    words = [value for a in args for value in [_value(tm, a)] if value is not None]
    if name == "echo" and all(not (t or "").startswith("-") for t in texts[1:]):
        return words[1:], True
    if name == "printf" and len(texts) > 2 and texts[1] in ("%s\\n", "%s\n"):
        return words[2:], False
    return None

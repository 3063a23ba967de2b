"""Where the walker's launches are made: an argv list (`subprocess.Popen([...])`, a returned
`build_command()` list) or shell text (`launch_server_cmd("...")`, `shell=True`), handed to the
shell front-end; placed at the Python node that runs it, not at the list's words."""

from __future__ import annotations

from speclint.frontends.python.scan import argv_item
from speclint.frontends.python.wrapper_flags import say_wrapper
from speclint.frontends.shell.argv_launch import argv_launch
from speclint.frontends.shell.embedded import ShellBuffer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from speclint.core.spans import Span
    from speclint.core.words import Word
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking
    from speclint.frontends.shell.embedded import ArgvItem


def add_argv(
    walker: Walking,
    call: py.Call | py.Return,
    items: list[Val],
    env: dict[str, Word] | None,
    prefix: Sequence[ArgvItem] = (),
    image: tuple[str | None, Span | None] | None = None,
) -> None:
    words = [*prefix, *(argv_item(value) for value in items)]
    launch = argv_launch(walker.path, words, walker.pos.starts, walker.budget, env, image)
    if launch is not None:  # plain words of SGLang's launcher: no shell buffer to walk
        launch.span = walker.pos.span(call)
        walker.result.launches.append(launch)
        return
    buffer = ShellBuffer(walker.text, walker.pos.starts, walker.budget)
    for item in words:
        buffer.add_word(item)
    count, said = len(walker.result.launches), len(walker.result.diagnostics)
    buffer.walk(walker.path, walker.result, env, image, report_errors=False)
    for launch in walker.result.launches[count:]:
        launch.span = walker.pos.span(call)  # the call that runs it, not the list's words
    if len(walker.result.launches) == count:  # a wrapper passing SGLang's speculative flags
        say_wrapper(walker, [item.pieces for item in words], said)


def add_shell(walker: Walking, value: Val, env: dict[str, Word] | None) -> None:
    """Shell code (SGLang's `launch_server_cmd` text is argv: `split_text`)."""
    if value.kind != "str":
        return
    buffer = ShellBuffer(walker.text, walker.pos.starts, walker.budget)
    buffer.add_code(value.pieces)
    count, said = len(walker.result.launches), len(walker.result.diagnostics)
    buffer.walk(walker.path, walker.result, env)
    if len(walker.result.launches) == count:  # a wrapper passing SGLang's speculative flags
        say_wrapper(walker, [value.pieces], said)

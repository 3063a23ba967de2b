"""Which Python calls start SGLang, and what they hand it.

argv calls and shell strings go through the shell front-end (it knows `python -m
sglang.launch_server`, `sglang serve`, wrappers, `bash -c`); keyword APIs become keyword
pairs that `speclint.sglang.flags.kwargs` maps onto SGLang's fields.
"""

from __future__ import annotations

from speclint.core import patterns
from speclint.core.words import Word
from speclint.frontends.python.container_specs import (
    ECS_CONTAINERS,
    K8S_CONTAINERS,
    VERTEX_COMMAND,
    recognize_container_spec,
)
from speclint.frontends.python.environ import launch_env
from speclint.frontends.python.handed_names import HANDED_NAMES
from speclint.frontends.python.ipython_calls import METHODS as IPYTHON_METHODS
from speclint.frontends.python.ipython_calls import ipython_call, ipython_name
from speclint.frontends.python.launch_apis import API_NAMES, recognize_api
from speclint.frontends.python.nox_sessions import NOX_RUNS, recognize_nox
from speclint.frontends.python.split_text import read_split_call
from speclint.frontends.python.starred import starred_items
from speclint.frontends.python.wrapper_flags import MARK, say_command_text
from speclint.frontends.recognise import (
    CLASS_ENTRY,
    DIFFUSION_PACKAGE,
    ENGINE,
    ENTRY_WORDS,
    HTTP_ADAPTER,
    LAUNCH_SERVER_CMD,
    LAUNCH_TEXT,
    POPEN_LAUNCH_PD_SERVER,
    POPEN_LAUNCH_SERVER,
    PREPARE_SERVER_ARGS,
    RUNTIME,
    SERVER_ARGS,
    SHELL_HELPERS,
    is_engine,
    is_server_args,
    launch_class,
)
from speclint.frontends.shell.embedded import ArgvItem
from speclint.frontends.shell.pieces import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.python import syntax as py
    from speclint.frontends.python.values import Val
    from speclint.frontends.python.walking import Walking

_ARGV_CALLS = {f"subprocess.{n}" for n in ("Popen", "run", "call", "check_call", "check_output")}
_EXEC_V = {"os.execv", "os.execvp", "os.execve", "os.execvpe"}
_EXEC_L = {"os.execl", "os.execlp", "os.execle", "os.execlpe"}
_SHELL_CALLS = {
    "os.system",
    "os.popen",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "asyncio.create_subprocess_shell",
}
_SGLANG_SHELL = {LAUNCH_SERVER_CMD, "execute_shell_command"}
"""sglang.utils' helpers: `execute_shell_command` starts the command with `os.environ` (or a
copy of it) in every release, and `launch_server_cmd` calls it."""
FROM_CLI_ARGS = "from_cli_args"
"""`ServerArgs.from_cli_args(args)`: the settings come from the program's own command line."""
_GENERIC_HELPER = patterns.compile(
    r"cmd|command|run|shell|exec|launch|popen|system|start", patterns.IGNORECASE
)
LAUNCH_NAMES = frozenset(
    {name.rsplit(".", 1)[-1] for name in _ARGV_CALLS | _EXEC_V | _EXEC_L | _SHELL_CALLS}
    | SHELL_HELPERS
    | API_NAMES
    | K8S_CONTAINERS
    | ECS_CONTAINERS
    | {"upload"}  # Vertex AI's `Model.upload(serving_container_command=...)`
    | NOX_RUNS
    | set(IPYTHON_METHODS)  # `get_ipython().system(...)` (`ipython_calls`)
    | HANDED_NAMES  # `Thread(target=subprocess.run, args=(cmd,))` (`handed`)
    | {
        "create_subprocess_exec",
        ENGINE,
        RUNTIME,
        HTTP_ADAPTER,
        SERVER_ARGS,
        POPEN_LAUNCH_SERVER,
        POPEN_LAUNCH_PD_SERVER,
        PREPARE_SERVER_ARGS,
        FROM_CLI_ARGS,
    }
)
"""The last part of every name `recognize` acts on whatever its arguments, and
GENERIC_HELPER the names it acts on when an argument spells a launch: `select`
leaves out a statement that holds neither (nor an import alias of one)."""
GENERIC_HELPER = _GENERIC_HELPER


def recognize(walker: Walking, call: py.Call) -> None:
    ev = walker.evaluator()
    name = ev.dotted(call.func) or ""
    if not name and (ipython := ipython_name(call.func)) is not None:  # a notebook's `!cmd`, exported
        ipython_call(walker, call, ipython.rsplit(".", 1)[-1])
        return
    last = name.rsplit(".", 1)[-1]
    if name and _acts_on_none(name, last, call):  # `str(port)`, `os.environ.get(...)`: most calls
        return
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if name.startswith(DIFFUSION_PACKAGE) and last in (SERVER_ARGS, PREPARE_SERVER_ARGS, FROM_CLI_ARGS):
        _not_read(
            walker,
            call,
            "makes the settings of SGLang's diffusion runtime (`sglang.multimodal_gen`), which speclint does not model",
        )
        return
    if (
        recognize_api(walker, call, name)
        or recognize_nox(walker, call, name)
        or recognize_container_spec(walker, call, name)
    ):
        return
    if name in _ARGV_CALLS:
        target = positional[0].value if positional else keywords.get("args")
        shell = keywords.get("shell")
        as_shell = shell is not None and ev.eval(shell).python() == (True, True)
        if target is not None:
            _argv_or_shell(walker, call, target, launch_env(walker, keywords.get("env")), as_shell)
    elif name in _EXEC_V and len(positional) >= 2:
        env = positional[2].value if name.endswith("e") and len(positional) > 2 else None
        _argv_or_shell(walker, call, positional[1].value, launch_env(walker, env), False)
    elif name in _EXEC_L and len(positional) >= 2:
        items = [a for a in call.args if a.keyword is None][1:]
        env = None
        if name.endswith("e") and items:
            env, items = items[-1].value, items[:-1]
        walker.add_argv(call, starred_items(walker, items), launch_env(walker, env))
    elif name == "asyncio.create_subprocess_exec":
        items = [a for a in call.args if a.keyword is None]
        walker.add_argv(call, starred_items(walker, items), launch_env(walker, keywords.get("env")))
    elif name in _SHELL_CALLS or last in SHELL_HELPERS:
        target = positional[0].value if positional else keywords.get("command") or keywords.get("cmd")
        if target is not None:
            inherits = name in _SHELL_CALLS or last in _SGLANG_SHELL  # a helper of unknown body: `env=` only
            started_with = launch_env(walker, keywords.get("env"), inherits)
            sglang_helper = last in _SGLANG_SHELL and (
                name.startswith("sglang.") or name not in walker.functions
            )
            if not sglang_helper or not read_split_call(walker, call, last, name, started_with):
                walker.add_shell(ev.written(target), started_with)
    elif last == ENGINE and is_engine(name, walker.imports, walker.functions, _has_model_path(call)):
        if "server_args" not in keywords:
            walker.add_kwargs(call, "sglang.Engine", kwargs_pairs(walker, call, None))
        else:
            _engine_settings(walker, call, keywords["server_args"])
    elif last in (RUNTIME, HTTP_ADAPTER) and (
        cls := launch_class(name, walker.imports, _bound(walker), _has_model_path(call))
    ):
        entry = CLASS_ENTRY[cls]
        pairs = _class_positional(walker, call, cls, entry) + kwargs_pairs(walker, call, None)
        walker.add_kwargs(call, entry, pairs)
    elif last == SERVER_ARGS and is_server_args(name):
        walker.add_kwargs(call, SERVER_ARGS, kwargs_pairs(walker, call, "model_path"))
    elif last in (POPEN_LAUNCH_SERVER, POPEN_LAUNCH_PD_SERVER) or _forwards(name, last):
        from speclint.frontends.python.test_helpers import test_helper_call

        test_helper_call(walker, call, last, (positional, keywords), _not_read)
    elif name.startswith("sglang.test.") and _flags_given(walker, positional, keywords):
        _not_read(  # (a helper of SGLang's tests whose body speclint has not read)
            walker,
            call,
            f"passes server flags to `{last}` of `{name[: -len(last) - 1]}`, which is not one of the "
            "launch helpers speclint reads from SGLang's test_utils.py (what it runs with them is not known)",
        )
    elif last == PREPARE_SERVER_ARGS and positional:
        argv = ev.eval(positional[0].value)
        if argv.kind == "list":
            walker.add_argv(call, argv.elements, launch_env(walker, None), _entry_words(walker, call))
        else:
            _not_read(walker, call, f"parses an argv speclint cannot know ({argv.why_unknown()})")
    elif last == FROM_CLI_ARGS and name[: -len(last) - 1].rsplit(".", 1)[-1] == SERVER_ARGS:
        if is_server_args(name[: -len(last) - 1]):
            _not_read(walker, call, "builds the server's settings from the program's own command line")
    elif _GENERIC_HELPER.search(last):
        for arg in positional:
            value = ev.written(arg.value)
            if value.kind != "str":
                continue
            written = "".join(p.text or " " for p in value.pieces)
            if LAUNCH_TEXT.search(written):
                walker.add_shell(value, launch_env(walker, keywords.get("env"), inherits=False))
            elif MARK in written:  # (a command of a wrapper, handed to a helper not read)
                say_command_text(walker, value.pieces, written)


def _acts_on_none(name: str, last: str, call: py.Call) -> bool:
    """Whether `recognize` reads nothing of a call named `name` (`last`, its last part),
    whatever its arguments: none of the names it acts on (`LAUNCH_NAMES`, GENERIC_HELPER,
    SGLang's own), and no Vertex AI container command given."""
    return (
        last not in LAUNCH_NAMES
        and not name.startswith("sglang.")
        and _GENERIC_HELPER.search(last) is None
        and all(a.keyword is None or a.keyword.value != VERTEX_COMMAND for a in call.args)
    )


def _flags_given(walker: Walking, positional: list[py.Arg], keywords: dict[str, py.BaseExpression]) -> bool:
    from speclint.frontends.python.test_helpers import flags_given

    return flags_given(walker, positional, keywords)


def _forwards(name: str, last: str) -> bool:
    """Whether `name` is a helper of SGLang's tests that launches the server through one of
    its launch helpers (`run_bench_serving(..., other_server_args=[...])`), or that builds a
    command of its own from server flags (`run_bench_one_batch(model, [...])`)."""
    if not name.startswith("sglang.test."):
        return False
    from speclint.sglang.helpers import is_helper

    return is_helper(last)


def _engine_settings(walker: Walking, call: py.Call, settings: py.BaseExpression) -> None:
    """`Engine(server_args=X)`: X made in this file (`ServerArgs(...)`, `from_cli_args`) is
    read, or reported, where it is made; one that comes from outside (a parameter, an
    attribute of an unknown object) is reported here, never passed over."""
    from speclint.frontends.python.syntax import Call

    if isinstance(settings, Call):
        return
    value = walker.evaluator().eval(settings)
    if value.origin is None or value.identity is not None:  # not made here, or a parameter
        _not_read(
            walker, call, f"takes its settings from a value speclint cannot know ({value.why_unknown()})"
        )


def _class_positional(walker: Walking, call: py.Call, cls: str, entry: str) -> list[tuple[Word, Word]]:
    """(keyword, value) pairs for a launch class's positional arguments (`Runtime("error",
    ...)`): each under the parameter it sets in every release read (`positional_bindings`:
    Runtime's first is `log_level`), else (releases differ, none takes it, or `*args`) an
    unknown keyword whose reason says so."""
    from speclint.sglang.launch_classes import positional_bindings

    ev = walker.evaluator()
    pairs: list[tuple[Word, Word]] = []
    for index, arg in enumerate(a for a in call.args if a.keyword is None and a.star != "**"):
        where = walker.pos.span(arg)
        if arg.star == "*":  # one unknown word standing as keyword and value (`**mapping`'s way)
            why = ev.eval(arg.value).why_unknown()
            unknown = Word(None, where, dynamic_reason=f"positional arguments of {entry}: {why}")
            pairs.append((unknown, unknown))
            break
        bound = positional_bindings(cls, index)
        value = value_word(ev.eval(arg.value))
        if len(bound) == 1 and bound[0]:
            pairs.append((Word(bound[0], walker.pos.span(arg.value)), value))
        else:
            sets = " or ".join(f"`{name}`" if name else "no parameter (a TypeError)" for name in bound)
            why = f"positional argument {index + 1} of {entry} sets {sets}, by release"
            if not any(bound):
                why = f"{entry} takes no positional argument {index + 1} in any release read (a TypeError)"
            pairs.append((Word(None, where, dynamic_reason=why), value))
    return pairs


def _not_read(walker: Walking, call: py.Call, does: str) -> None:
    """A call that makes SGLang's server settings from what speclint cannot see: the reason a
    file without launches names (`launch-unread`) and, beside launches, its own no-launch-found
    finding (`launcher-not-read`), so a clean run never hides it."""
    from speclint.core.launches import Diagnostic

    span = walker.pos.span(call.func)
    begin, end = walker.pos.offsets(call.func)
    written = walker.text[begin:end]
    what = f"`{written}(...)` at line {span.line} {does}"
    for kind, message in (
        ("launch-unread", what),
        ("launcher-not-read", f"speclint did not read this launch: {what}, so nothing in it was checked"),
    ):
        found = Diagnostic(kind, message, span)
        if found not in walker.result.diagnostics:  # a call walked again (a branch, a call site)
            walker.result.diagnostics.append(found)


not_read = _not_read


def _bound(walker: Walking) -> set[str]:
    """The names the file's own functions and classes bind."""
    return {*walker.functions, *(info.name for info in walker.classes)}


def _has_model_path(call: py.Call) -> bool:
    return any(a.keyword is not None and a.keyword.value == "model_path" for a in call.args)


def _argv_or_shell(
    walker: Walking, call: py.Call, target: py.BaseExpression, env: dict[str, Word] | None, as_shell: bool
) -> None:
    ev = walker.evaluator()
    value = ev.written(target)
    if value.kind == "str" and as_shell:
        walker.add_shell(value, env)
    elif value.kind == "list":
        walker.add_argv(call, value.elements, env)
    elif value.kind == "unknown":  # `Popen(wrap(BASE + [...]))`: said not read when BASE spells one
        from speclint.frontends.python.unread_argv import unread_command

        unread_command(walker, call, target, value, _not_read)


def _entry_words(walker: Walking, call: py.Call) -> list[ArgvItem]:
    """`python -m sglang.launch_server` for helpers that build it themselves."""
    begin, end = walker.pos.offsets(call.func)
    return [ArgvItem([Piece(text, begin, end)]) for text in ENTRY_WORDS]


def value_word(value: Val) -> Word:
    python, known = value.python()
    if known and not value.splat:
        return Word(repr(python), value.span, value.origin)
    return Word(
        None, value.span, value.origin, dynamic_reason=value.why_unknown(), identity=value.word_identity
    )


def kwargs_pairs(walker: Walking, call: py.Call, positional_field: str | None) -> list[tuple[Word, Word]]:
    """(keyword, value) pairs of a keyword launch, `**mapping` merges expanded."""
    ev = walker.evaluator()
    pairs: list[tuple[Word, Word]] = []
    for index, arg in enumerate(call.args):
        if arg.keyword is not None:
            pairs.append(
                (Word(arg.keyword.value, walker.pos.span(arg.keyword)), value_word(ev.eval(arg.value)))
            )
        elif arg.star == "**":
            value = ev.eval(arg.value)
            where = walker.pos.span(arg)
            if value.kind != "dict":
                unknown = Word(None, where, dynamic_reason=value.why_unknown(), splat=True)
                pairs.append((unknown, unknown))
                continue
            for entry in value.entries:
                if entry.key is None:
                    unknown = Word(
                        None,
                        entry.key_span,
                        dynamic_reason=entry.value.why_unknown(),
                        splat=True,
                        expanded_at=where,
                    )
                    pairs.append((unknown, unknown))
                else:
                    word = value_word(entry.value)
                    pairs.append(
                        (
                            Word(entry.key, entry.key_span, expanded_at=where),
                            Word(
                                word.text,
                                word.span,
                                word.origin,
                                word.dynamic_reason,
                                expanded_at=where,
                                identity=word.identity,
                            ),
                        )
                    )
        elif not arg.star and index == 0 and positional_field:
            pairs.append((Word(positional_field, walker.pos.span(arg.value)), value_word(ev.eval(arg.value))))
    return pairs
